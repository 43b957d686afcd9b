"""The field's table: results/field/table.md."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..algorithms import ALGORITHMS
from ..field import FIELD_REGRET_NAMES
from . import markdown, mean_std

FIELD_HEADER = ["scenario", "A", "regret", "rank", "algorithm", "family", "R_T mean ± std"]
FIELD_ALIGN = "lrlrllr"
FIELD_NOTE = (
    "R_T: cumulative regret at the horizon T, mean ± std (ddof = 1) over runs, every algorithm with "
    "the same run seeds. Regret: Condorcet where a Condorcet winner exists, Copeland where none does, "
    "and Borda as well on the borda scenario. Rank 1: the lowest mean within a scenario and regret "
    "(equal means share a rank). Family: paper (the paper's four algorithms and its baselines ISS and "
    "DTS) or field (the field's algorithms beyond the paper)."
)


def field_markdown(table: pd.DataFrame) -> str:
    """results/field/table.md: ranks at a glance (algorithm x scenario/regret), then every final regret."""

    def label(slug):
        return ALGORITHMS[slug].label if slug in ALGORITHMS else slug

    columns = list(dict.fromkeys(zip(table["scenario"], table["regret"])))
    slugs = list(dict.fromkeys(table["algorithm"]))
    ranks = {(r.scenario, r.regret, r.algorithm): int(r.rank) for r in table.itertuples()}
    glance = []
    for slug in slugs:
        mine = [ranks.get((s, k, slug)) for s, k in columns]
        known = [x for x in mine if x is not None]
        mean = f"{np.mean(known):.1f}" if known else "-"
        glance.append([label(slug), *("-" if x is None else str(x) for x in mine), mean])
    glance_header = ["algorithm", *(f"{s} ({FIELD_REGRET_NAMES.get(k, k)})" for s, k in columns), "mean rank"]
    rows = [
        [
            r.scenario,
            str(int(r.actions)),
            FIELD_REGRET_NAMES.get(r.regret, r.regret),
            str(int(r.rank)),
            label(r.algorithm),
            r.family,
            mean_std(r.mean, r.std, runs=getattr(r, "runs", None)),
        ]
        for r in table.itertuples()
    ]
    horizons = ", ".join(f"{T:,}" for T in sorted(set(table["horizon"])))
    runs = ", ".join(map(str, sorted(set(table["runs"]))))
    return (
        f"# The field: final regret at T = {horizons} ({runs} runs)\n\n"
        "## Ranks\n\n"
        + markdown(glance_header, glance, "l" + "r" * (len(glance_header) - 1))
        + "\n## Final regret\n\n"
        + markdown(FIELD_HEADER, rows, FIELD_ALIGN)
        + "\n"
        + FIELD_NOTE
        + "\n"
    )
