"""The final-regret table of the paper run: results/table.md and its HTML."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...regret import REGRET_NAMES
from ...tables import fmt, html_page, markdown, markdown_page, mean_std


def final_regret_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (scenario, algorithm) of ``summary``: the figure's regret at T (mean, std), the bound at T,
    ``below`` it ("yes", "no"; "-" without a bound) and the Copeland regret at T."""
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
    rows = []
    for r in table.itertuples():
        final, copeland = mean_std(r.mean, r.std, runs=r.runs), mean_std(r.copeland_mean, r.copeland_std, runs=r.runs)
        rows.append(
            [r.scenario, r.algorithm, REGRET_NAMES.get(r.regret, r.regret), final, fmt(r.bound), r.below, copeland]
        )
    return rows


BEYOND_TITLE = "Scenarios of no paper view: one regret per column"
BEYOND_NOTE = (
    "Each algorithm's R_T (mean ± std) in the column of the regret it is measured by, that of the winner "
    "it is built to find, and every algorithm's Copeland R_T: one regret kind per column. Bound: the "
    "theorem bound at T of its own regret."
)


def paper_view(table: pd.DataFrame) -> pd.Series:
    """Whether each row's scenario takes one of the paper's views (condorcet, borda): the paper's layout,
    each algorithm's own regret side by side; the rows of any other scenario go to the second table."""
    from ...scenarios import registry

    views = {name: getattr(registry().get(name), "view", "target") for name in set(table["scenario"])}
    return table["scenario"].map(views).isin(["condorcet", "borda"])


def beyond_table(table: pd.DataFrame) -> tuple[list[str], list[list[str]], str]:
    """Header, rows and alignment of the second table: the rows of scenarios of no paper view, a column per
    regret kind (those the algorithms are measured by, and Copeland), '-' where it is not theirs."""
    kinds = sorted({*table["regret"], "copeland"}, key=list(REGRET_NAMES).index)
    header = ["scenario", "algorithm", *(f"{REGRET_NAMES[k]} R_T mean ± std" for k in kinds)]
    rows = []
    for r in table.itertuples():
        runs = getattr(r, "runs", None)
        cells = {r.regret: mean_std(r.mean, r.std, runs=runs)}
        cells.setdefault("copeland", mean_std(r.copeland_mean, r.copeland_std, runs=runs))
        rows.append([r.scenario, r.algorithm, *(cells.get(k, "-") for k in kinds), fmt(r.bound), r.below])
    return header + ["bound at T", "below bound"], rows, "ll" + "r" * len(kinds) + "rl"


def final_regret_markdown(table: pd.DataFrame) -> str:
    """results/table.md: a title line, the horizon and runs, the table of the paper's views and a note, then
    that of any other scenario (:func:`beyond_table`)."""
    horizons = sorted(set(table["horizon"]))
    runs = sorted(set(table["runs"]))
    title = f"Final regret at T = {', '.join(f'{T:,}' for T in horizons)} ({', '.join(map(str, runs))} runs)"
    paper = paper_view(table)
    page = markdown_page(title, FINAL_HEADER, final_regret_rows(table[paper]), FINAL_ALIGN, FINAL_NOTE)
    if paper.all():
        return page
    header, rows, align = beyond_table(table[~paper])
    return page + f"\n## {BEYOND_TITLE}\n\n" + markdown(header, rows, align) + "\n" + BEYOND_NOTE + "\n"


def final_regret_html(table: pd.DataFrame) -> str:
    paper = paper_view(table)
    more = [] if paper.all() else [(BEYOND_TITLE, *beyond_table(table[~paper]), BEYOND_NOTE)]
    rows = final_regret_rows(table[paper])
    return html_page("Final regret per scenario and algorithm", FINAL_HEADER, rows, FINAL_ALIGN, FINAL_NOTE, more)
