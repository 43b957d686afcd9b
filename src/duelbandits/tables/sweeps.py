"""The sweeps' tables: regret exponents (results/sweeps/exponents.md) and the scaling in A."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..regret import REGRET_NAMES
from . import fmt, fraction, has, html_page, markdown_page, mean_std

EXPONENT_HEADER = [
    "scenario",
    "algorithm",
    "regret",
    "rho",
    "CI",
    "theorem exponent",
    "rho at or below it (CI)",
    "sublinear (CI below 1)",
]
EXPONENT_ALIGN = "lllrrrll"
EXPONENT_TITLE = "Regret exponents: E[R_T] ~ T^rho"


def exponent_rows(exponents: pd.DataFrame) -> list[list[str]]:
    """Rows of the figure's regret, plus the theorem's own regret where it differs."""
    shown = exponents[exponents["paper"].astype(bool) | exponents["theorem"].notna()]
    rows = []
    for r in shown.itertuples():
        fitted = np.isfinite(r.rho)
        if has(r.theorem):
            theorem = f"{fraction(r.theorem_exponent)} (Thm {r.theorem})"
            at_or_below = ("yes" if r.ci_low <= r.theorem_exponent else "no") if fitted else "-"
        else:
            theorem, at_or_below = "-", "-"
        sublinear = ("yes" if r.ci_high < 1 else "no") if fitted else "-"
        label = REGRET_NAMES.get(r.regret, r.regret) + ("" if r.paper else " (theorem's)")
        rows.append(
            [
                r.scenario,
                r.algorithm,
                label,
                fmt(r.rho, 3),
                f"[{fmt(r.ci_low, 3)}, {fmt(r.ci_high, 3)}]",
                theorem,
                at_or_below,
                sublinear,
            ]
        )
    return rows


def exponent_note(exponents: pd.DataFrame) -> str:
    conf = float(exponents["confidence"].iloc[0]) if len(exponents) else 0.95
    res = int(exponents["resamples"].iloc[0]) if len(exponents) else 0
    hs = int(exponents["horizons"].max()) if len(exponents) else 0
    runs = int(exponents["runs"].min()) if len(exponents) else 0
    return (
        f"rho: least-squares slope of log mean R_T on log T over {hs} horizons, {runs} runs each, every "
        f"run tuned to its own T. CI: {conf:.0%} percentile bootstrap ({res:,} resamples of the runs "
        "within each horizon). Rows: the regret the figures show, plus the regret the algorithm's theorem "
        "bounds where that differs."
    )


def exponent_markdown(exponents: pd.DataFrame) -> str:
    rows = exponent_rows(exponents)
    return markdown_page(EXPONENT_TITLE, EXPONENT_HEADER, rows, EXPONENT_ALIGN, exponent_note(exponents))


def exponent_html(exponents: pd.DataFrame) -> str:
    return html_page(
        EXPONENT_TITLE, EXPONENT_HEADER, exponent_rows(exponents), EXPONENT_ALIGN, exponent_note(exponents)
    )


ACTIONS_HEADER = ["scenario", "algorithm", "regret", "A", "T", "R_T mean ± std", "bound at T", "R_T / bound"]
ACTIONS_ALIGN = "lllrrrrr"
ACTIONS_TITLE = "Scaling in the number of actions A"


def actions_rows(table: pd.DataFrame) -> list[list[str]]:
    shown = table[table["paper"].astype(bool) | table["theorem"].notna()]
    return [
        [
            r.scenario,
            r.algorithm,
            REGRET_NAMES.get(r.regret, r.regret) + ("" if r.paper else " (theorem's)"),
            str(r.actions),
            f"{r.horizon:,}",
            mean_std(r.mean, r.std, runs=getattr(r, "runs", None)),
            fmt(r.bound),
            fmt(r.ratio, 4),
        ]
        for r in shown.itertuples()
    ]


ACTIONS_NOTE = (
    "R_T / bound: mean final regret over the theorem bound at (A, T), for the regret the "
    "theorem bounds; '-' where no theorem applies or T misses its requirement."
)


def actions_markdown(table: pd.DataFrame) -> str:
    return markdown_page(ACTIONS_TITLE, ACTIONS_HEADER, actions_rows(table), ACTIONS_ALIGN, ACTIONS_NOTE)


def actions_html(table: pd.DataFrame) -> str:
    return html_page(ACTIONS_TITLE, ACTIONS_HEADER, actions_rows(table), ACTIONS_ALIGN, ACTIONS_NOTE)
