"""Beyond the paper: the paper's algorithms and the field's on the same scenarios (target ``field``).

Turns the point files (:func:`duelbandits.points.simulate_point`) into the mean regret curves of the
figures and the final-regret table with ranks; which regret each scenario is measured by is
docs/beyond-the-paper.md, "The field".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from . import algorithms, schemas
from .points import PointError, check_points
from .regret import sample_std

if TYPE_CHECKING:
    import pandas as pd

REGRET_COLUMN = {"condorcet": "maximin", "copeland": "copeland", "borda": "borda"}
"""The point files' regret column each field regret reads (Condorcet regret = maximin where a CW exists)."""

FIELD_REGRET_NAMES = {"condorcet": "Condorcet", "copeland": "Copeland", "borda": "Borda"}
"""How the field's tables and figures name each regret."""


class FieldError(PointError):
    """The field's point or scenario files are inconsistent."""


def field_regrets(scenario: str, condorcet_winner) -> list[str]:
    """The regrets reported on ``scenario``: Condorcet or Copeland, plus Borda on ``borda``."""
    kinds = ["condorcet" if condorcet_winner is not None else "copeland"]
    if scenario == "borda":
        kinds.append("borda")
    return kinds


def family(slug: str) -> str:
    """``paper`` or ``field`` for a registered slug; ``other`` for an unknown one."""
    spec = algorithms.ALGORITHMS.get(slug)
    return spec.family if spec is not None else "other"


def scenario_regrets(records, simulated) -> dict:
    """Scenario -> the regrets the field reports on it (:func:`field_regrets`), in the order of
    ``records`` (``[(path, scenario record), ...]``), after checking that the point files'
    provenance ``simulated`` shares one base seed and each scenario's matrix."""
    seeds = sorted({prov["seed"] for prov in simulated})
    if len(seeds) > 1:
        raise FieldError(f"the point files were simulated with different base seeds {seeds}; the field compares "
                         "algorithms on the same run seeds")  # fmt: skip
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
    """Mean and std over runs of each field regret at every grid step.

    ``points``: the rows of the point files; ``regrets``: scenario -> the
    field regrets of that scenario (:func:`field_regrets`). Every scenario of
    the points must have an entry, and every (scenario, algorithm) the same
    horizon.
    """
    import pandas as pd

    points = check_points(points)
    missing = sorted(set(points["scenario"]) - set(regrets))
    if missing:
        raise FieldError(f"no scenario file for scenario(s) {', '.join(missing)} of the point files")
    horizons = points.groupby("scenario")["horizon"].unique()
    for scenario, values in horizons.items():
        if len(values) != 1:
            raise FieldError(f"scenario {scenario}: the point files hold several horizons {sorted(values.tolist())}")
    for scenario, part in points.groupby("scenario"):
        runs = part.groupby("algorithm")["run"].nunique()
        if runs.nunique() > 1:
            counts = ", ".join(f"{a} {n}" for a, n in runs.items())
            raise FieldError(f"scenario {scenario}: the algorithms have different numbers of runs ({counts})")
    frames = []
    for scenario, kinds in regrets.items():
        part = points[points["scenario"] == scenario]
        for kind in kinds:
            rows = part[part["regret"] == REGRET_COLUMN[kind]]
            if rows.empty:
                continue
            grouped = (
                # mutmut equivalent: groupby's sort=True dropped: True is its default
                rows.groupby(["algorithm", "actions", "horizon", "t"], sort=True)["cumulative_regret"]  # noqa: E501  # pragma: no mutate
                .agg(mean="mean", std=sample_std, runs="size")
                .reset_index()
            )
            # mutmut equivalent: the column inserted at 1, not 0: the schema orders the columns
            grouped.insert(0, "scenario", scenario)  # pragma: no mutate
            # mutmut equivalent: the column inserted at 3, not 2: the schema orders the columns
            grouped.insert(2, "regret", kind)  # pragma: no mutate
            frames.append(grouped)
    if not frames:
        raise FieldError("the point files hold none of the field's scenarios")
    table = pd.concat(frames, ignore_index=True)
    table["family"] = [family(a) for a in table["algorithm"]]
    return table[schemas.FIELD_CURVES_SCHEMA.names]


def final_table(curves: pd.DataFrame, order=None) -> pd.DataFrame:
    """Final regret R_T (mean, std over runs) per (scenario, regret, algorithm) and its rank.

    Rank 1 is the smallest mean regret within a (scenario, regret); equal
    means share the smaller rank. Rows follow ``order`` (scenario names) and
    then the registry's algorithm order.
    """
    last = curves[curves["t"] == curves["horizon"]].copy()
    last["rank"] = last.groupby(["scenario", "regret"])["mean"].rank(method="min").astype(np.int16)
    scenarios = list(order) if order is not None else list(dict.fromkeys(curves["scenario"]))
    scenarios += [s for s in dict.fromkeys(last["scenario"]) if s not in scenarios]
    slugs = list(algorithms.ALGORITHMS)
    last["_s"] = [scenarios.index(s) for s in last["scenario"]]
    last["_r"] = [list(REGRET_COLUMN).index(r) for r in last["regret"]]
    last["_a"] = [slugs.index(a) if a in slugs else len(slugs) for a in last["algorithm"]]
    # mutmut equivalent: sort kind: pandas applies kind only when sorting by one column
    last = last.sort_values(["_s", "_r", "_a", "algorithm"], kind="stable", ignore_index=True)  # pragma: no mutate
    return last[schemas.FIELD_TABLE_SCHEMA.names]
