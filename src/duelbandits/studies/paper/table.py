"""The final-regret table of the paper run: results/table.md and its HTML."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...regret import REGRET_NAMES
from ...tables import fmt, html_page, markdown_page, mean_std


def final_regret_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (scenario, algorithm): the figure's regret at T (mean, std), the bound at T, below it or not.

    ``summary`` is results/summary.parquet. The Copeland regret at T is added
    for every row (the extra regret reported beyond the paper). ``below`` is
    "yes"/"no" where a bound applies and "-" where none does.
    """
    last = summary[summary["t"] == summary.groupby("scenario")["t"].transform("max")]
    paper = last[last["paper"].astype(bool)].set_index(["scenario", "algorithm"])
    copeland = last[last["regret"] == "copeland"].set_index(["scenario", "algorithm"])
    scenarios = list(dict.fromkeys(summary["scenario"]))
    algorithms = list(dict.fromkeys(summary["algorithm"]))
    rows = []
    for scenario in scenarios:
        for algorithm in algorithms:
            if (scenario, algorithm) not in paper.index:
                continue
            row = paper.loc[(scenario, algorithm)]
            bound = float(row["bound"]) if pd.notna(row["bound"]) else np.nan
            below = "-" if not np.isfinite(bound) else ("yes" if row["mean"] < bound else "no")
            cop = copeland.loc[(scenario, algorithm)] if (scenario, algorithm) in copeland.index else None
            rows.append(
                {
                    "scenario": scenario,
                    "algorithm": algorithm,
                    "regret": row["regret"],
                    "horizon": int(row["t"]),
                    "runs": int(row["runs"]),
                    "mean": float(row["mean"]),
                    "std": float(row["std"]),
                    "bound": bound,
                    "below": below,
                    "copeland_mean": float(cop["mean"]) if cop is not None else np.nan,
                    "copeland_std": float(cop["std"]) if cop is not None else np.nan,
                }
            )
    return pd.DataFrame(rows)


FINAL_HEADER = [
    "scenario",
    "algorithm",
    "regret",
    "R_T mean ± std",
    "bound at T",
    "below bound",
    "Copeland R_T mean ± std",
]
FINAL_ALIGN = "lllrrlr"
FINAL_NOTE = (
    "R_T: cumulative regret at the horizon T, mean ± std (ddof = 1) over runs, of the regret "
    "the scenario's figures show. Bound: the algorithm's theorem bound at T, where the theorem "
    "bounds that regret and T meets its requirement; '-' elsewhere."
)


def final_regret_rows(table: pd.DataFrame) -> list[list[str]]:
    return [
        [
            r.scenario,
            r.algorithm,
            REGRET_NAMES.get(r.regret, r.regret),
            mean_std(r.mean, r.std, runs=getattr(r, "runs", None)),
            fmt(r.bound),
            r.below,
            mean_std(r.copeland_mean, r.copeland_std, runs=getattr(r, "runs", None)),
        ]
        for r in table.itertuples()
    ]


def final_regret_markdown(table: pd.DataFrame) -> str:
    """results/table.md: a title line, the horizon and runs, the table and a note."""
    horizons = sorted(set(table["horizon"]))
    runs = sorted(set(table["runs"]))
    title = f"Final regret at T = {', '.join(f'{T:,}' for T in horizons)} ({', '.join(map(str, runs))} runs)"
    return markdown_page(title, FINAL_HEADER, final_regret_rows(table), FINAL_ALIGN, FINAL_NOTE)


def final_regret_html(table: pd.DataFrame) -> str:
    return html_page(
        "Final regret per scenario and algorithm", FINAL_HEADER, final_regret_rows(table), FINAL_ALIGN, FINAL_NOTE
    )
