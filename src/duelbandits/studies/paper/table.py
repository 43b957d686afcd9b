"""The final-regret table of the paper run: results/table.md and its HTML."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ...regret import REGRET_NAMES
from ...tables import Page, Table, fmt, mean_std


def final_regret_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (scenario, algorithm) of ``summary``, in its order: the figure's regret at T (mean, std), the
    bound at T, ``below`` it ("yes", "no"; "-" without a bound) and the Copeland regret at T."""
    last = summary[summary["t"] == summary.groupby("scenario")["t"].transform("max")]
    keys = ["scenario", "algorithm"]
    copeland = last.loc[last["regret"] == "copeland", [*keys, "mean", "std"]]
    table = last[last["paper"].astype(bool)].merge(copeland, on=keys, how="left", suffixes=("", "_copeland"))
    table = table.sort_values(keys, key=lambda c: c.map(pd.Index(summary[c.name].unique()).get_loc), ignore_index=True)
    table["below"] = np.where(np.isfinite(table["bound"]), np.where(table["mean"] < table["bound"], "yes", "no"), "-")
    names = {"t": "horizon", "mean_copeland": "copeland_mean", "std_copeland": "copeland_std"}
    columns = ["scenario", "algorithm", "regret", "horizon", "runs", "mean", "std", "bound", "below"]
    return table.rename(columns=names)[[*columns, "copeland_mean", "copeland_std"]]


FINAL_HEADER = ["scenario", "algorithm", "regret", "R_T mean ± std", "bound at T", "below bound"]
FINAL_HEADER += ["Copeland R_T mean ± std"]
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


def paper_view(scenario: str) -> bool:
    """Whether ``scenario`` takes one of the paper's views (condorcet, borda): the paper's layout, each
    algorithm's own regret side by side in one table and one pair of panels; any other scenario (or one the
    registry does not know) shows one regret kind per column and per panel."""
    from ...scenarios import registry

    return getattr(registry().get(scenario), "view", "target") != "target"


def beyond_table(table: pd.DataFrame) -> Table:
    """The second table: the rows of scenarios of no paper view, a column per
    regret kind (those the algorithms are measured by, and Copeland), '-' where it is not theirs."""
    kinds = sorted({*table["regret"], "copeland"}, key=list(REGRET_NAMES).index)
    header = ["scenario", "algorithm", *(f"{REGRET_NAMES[k]} R_T mean ± std" for k in kinds)]
    rows = []
    for r in table.itertuples():
        runs = getattr(r, "runs", None)
        cells = {r.regret: mean_std(r.mean, r.std, runs=runs)}
        cells.setdefault("copeland", mean_std(r.copeland_mean, r.copeland_std, runs=runs))
        rows.append([r.scenario, r.algorithm, *(cells.get(k, "-") for k in kinds), fmt(r.bound), r.below])
    header += ["bound at T", "below bound"]
    return Table(header, rows, "ll" + "r" * len(kinds) + "rl", heading=BEYOND_TITLE, note=BEYOND_NOTE)


def final_regret_page(table: pd.DataFrame) -> Page:
    """results/table.md and its HTML: a title line with the horizon and runs, the table of the paper's
    views and a note, then that of any other scenario (:func:`beyond_table`)."""
    horizons = sorted(set(table["horizon"]))
    runs = sorted(set(table["runs"]))
    title = f"Final regret at T = {', '.join(f'{T:,}' for T in horizons)} ({', '.join(map(str, runs))} runs)"
    paper = table["scenario"].map(paper_view).astype(bool)
    tables = [Table(FINAL_HEADER, final_regret_rows(table[paper]), FINAL_ALIGN, note=FINAL_NOTE)]
    if not paper.all():
        tables.append(beyond_table(table[~paper]))
    return Page(title, tables)
