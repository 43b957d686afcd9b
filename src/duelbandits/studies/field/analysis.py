"""The field's tables: the regrets reported per scenario, checked against the point files, the mean regret
curves, the final-regret table with ranks, and its page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...errors import InputError

if TYPE_CHECKING:
    import pandas as pd

    from ...tables import Page

REGRET_COLUMN = {"condorcet": "maximin", "copeland": "copeland", "borda": "borda"}
"""The point files' regret column each field regret reads (Condorcet regret = maximin where a CW exists)."""

FIELD_REGRET_NAMES = {"condorcet": "Condorcet", "copeland": "Copeland", "borda": "Borda"}
"""How the field's tables and figures name each regret."""


class FieldError(InputError):
    """The field's point or scenario files are inconsistent."""


def field_regrets(scenario: str, condorcet_winner) -> list[str]:
    """The regrets reported on ``scenario``, each a panel and a column of ranks in which every algorithm is
    measured by it: Condorcet where a Condorcet winner exists, Copeland on every scenario (the Copeland
    algorithms' regret; the only one where no Condorcet winner exists), Borda as well on ``borda``."""
    kinds = ["condorcet", "copeland"] if condorcet_winner is not None else ["copeland"]
    if scenario == "borda":
        kinds.append("borda")
    return kinds


def scenario_regrets(records, simulated) -> dict:
    """Scenario -> the regrets the field reports on it (:func:`field_regrets`), in the order of
    ``records`` (``[(path, scenario record), ...]``), each checked against the point files' provenance, and
    every scenario of the point files given its file."""
    missing = sorted({prov["scenario"] for prov in simulated} - {record["name"] for _, record in records})
    if missing:
        raise FieldError(f"no scenario file for scenario(s) {', '.join(missing)} of the point files")
    regrets = {}
    for path, record in records:
        name = record["name"]
        digests = {prov["matrix_sha256"] for prov in simulated if prov["scenario"] == name}
        if not digests:
            raise FieldError(f"{path}: no point file of scenario {name} was given")
        if digests - {record["matrix_sha256"]}:
            raise FieldError(f"{path}: its matrix is not the one the point files of scenario {name} were simulated on")
        regrets[name] = field_regrets(name, record["winners"]["condorcet"])
    return regrets


def curves_table(points: pd.DataFrame, regrets: dict) -> pd.DataFrame:
    """Mean and std over runs of each field regret (``regrets``: scenario -> its :func:`field_regrets`)
    at every grid step of the point files' rows ``points``."""
    import pandas as pd

    from ...algorithms import ALGORITHMS
    from ...regret import sample_std
    from ...schemas import FIELD_CURVES_SCHEMA

    frames = []
    for scenario, kinds in regrets.items():
        part = points[points["scenario"] == scenario]
        for kind in kinds:
            rows = part[part["regret"] == REGRET_COLUMN[kind]]
            grouped = (
                rows.groupby(["algorithm", "actions", "horizon", "t"])["cumulative_regret"]
                .agg(mean="mean", std=sample_std, runs="size")
                .reset_index()
            )
            frames.append(grouped.assign(scenario=scenario, regret=kind))  # the schema orders the columns
    table = pd.concat(frames, ignore_index=True)
    table["family"] = [ALGORITHMS[a].family if a in ALGORITHMS else "other" for a in table["algorithm"]]
    return table[FIELD_CURVES_SCHEMA.names]


def final_table(curves: pd.DataFrame, order=None) -> pd.DataFrame:
    """Final regret R_T (mean, std over runs) per (scenario, regret, algorithm) and its rank (1: the
    smallest mean; equal means share the smaller rank), in ``order`` then the registry's order."""
    import numpy as np

    from ...algorithms import ALGORITHMS
    from ...schemas import FIELD_TABLE_SCHEMA

    last = curves[curves["t"] == curves["horizon"]].copy()
    last["rank"] = last.groupby(["scenario", "regret"])["mean"].rank(method="min").astype(np.int16)
    scenarios = list(order) if order is not None else list(dict.fromkeys(curves["scenario"]))
    scenarios += [s for s in dict.fromkeys(last["scenario"]) if s not in scenarios]
    slugs = list(ALGORITHMS)
    last["_s"] = [scenarios.index(s) for s in last["scenario"]]
    last["_r"] = [list(REGRET_COLUMN).index(r) for r in last["regret"]]
    last["_a"] = [slugs.index(a) if a in slugs else len(slugs) for a in last["algorithm"]]
    last = last.sort_values(["_s", "_r", "_a", "algorithm"], ignore_index=True)
    return last[FIELD_TABLE_SCHEMA.names]


FIELD_HEADER = ["scenario", "A", "regret", "rank", "algorithm", "family", "R_T mean ± std"]
FIELD_ALIGN = "lrlrllr"
FIELD_NOTE = (
    "R_T: cumulative regret at the horizon T, mean ± std (ddof = 1) over runs, every algorithm with "
    "the same run seeds. Regret: Condorcet where a Condorcet winner exists, Copeland on every scenario, "
    "and Borda as well on the borda scenario; every algorithm is measured by each. Rank 1: the lowest "
    "mean within a scenario and regret (equal means share a rank). Family: paper (the paper's four "
    "algorithms and its baselines ISS and DTS), field (the field's algorithms beyond the paper), plugin "
    "(an installed plugin's) or other (a slug no installed package registers)."
)


def field_page(table: pd.DataFrame) -> Page:
    """results/field/table.md: ranks at a glance (algorithm x scenario/regret), then every final regret."""
    import numpy as np

    from ...algorithms import ALGORITHMS
    from ...tables import Page, Table, mean_std

    def label(slug):
        return ALGORITHMS[slug].label if slug in ALGORITHMS else slug

    columns = list(dict.fromkeys(zip(table["scenario"], table["regret"])))
    ranks = {(r.scenario, r.regret, r.algorithm): int(r.rank) for r in table.itertuples()}
    glance = []
    for slug in dict.fromkeys(table["algorithm"]):
        mine = [ranks.get((s, k, slug)) for s, k in columns]
        mean = np.mean([x for x in mine if x is not None])  # each algorithm of the table has a rank somewhere
        glance.append([label(slug), *("-" if x is None else str(x) for x in mine), f"{mean:.1f}"])
    glance_header = ["algorithm", *(f"{s} ({FIELD_REGRET_NAMES[k]})" for s, k in columns), "mean rank"]
    rows = []
    for r in table.itertuples():
        final = mean_std(r.mean, r.std, runs=r.runs)
        kind = FIELD_REGRET_NAMES[r.regret]
        cells = [r.scenario, str(int(r.actions)), kind, str(int(r.rank)), label(r.algorithm), r.family]
        rows.append([*cells, final])
    horizons = ", ".join(f"{T:,}" for T in sorted(set(table["horizon"])))
    runs = ", ".join(map(str, sorted(set(table["runs"]))))
    tables = [
        Table(glance_header, glance, "l" + "r" * (len(glance_header) - 1), heading="Ranks"),
        Table(FIELD_HEADER, rows, FIELD_ALIGN, heading="Final regret", note=FIELD_NOTE),
    ]
    return Page(f"The field: final regret at T = {horizons} ({runs} runs)", tables)
