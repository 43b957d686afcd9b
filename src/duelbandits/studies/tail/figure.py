"""The maximin-tail figure: (a) the fraction of TS-Maximin's runs trapped at each step; (b) ``E[R_t]`` over
Theorem 4.1's bound on the borda matrix (phase 1 solid, phase 2 dashed) and on each family member whose
mean exceeded it (thin); each with its interval."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ...plotting import style

COLOR = "#0072b2"
"""The paper's borda matrix (blue)."""

FAMILY_COLORS = ("#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000")
"""Family members, in order of their first step exceeded."""


def tail_figure(estimates, family, outputs, *, data_digest=None) -> Figure:
    """Render the tail figure from results/maximin-tail/estimates.parquet (and family.parquet, or None)."""
    est = estimates.sort_values("t")
    with style.figure((10.8, 3.6), outputs, data_digest) as fig:
        ax_a, ax_b = fig.subplots(1, 2)
        for source, ls in (("phase 1", "-"), ("phase 2", "--")):
            part = est[est["source"].str.startswith(source)]
            if part.empty:
                continue
            t = part["t"].to_numpy(float)
            keep = part["trapped"].to_numpy() > 0
            ax_a.plot(t[keep], part["trapped"].to_numpy()[keep], ls=ls, color=COLOR, lw=1.6, label=source)
            low = np.maximum(part["trapped_low"].to_numpy()[keep], 1e-4)
            ax_a.fill_between(t[keep], low, part["trapped_high"].to_numpy()[keep], color=COLOR, alpha=0.2, lw=0)
            ax_b.plot(t, part["ratio"], ls=ls, color=COLOR, lw=1.8, label=f"borda matrix, {source}")
            ax_b.fill_between(t, part["ratio_low"], part["ratio_high"], color=COLOR, alpha=0.2, lw=0)
        if family is not None and not family.empty:
            members = family[family["verdict"] != "no trap"]
            over = members[members["verdict"] == "exceeded"].groupby(["actions", "gap"])["t"].min().sort_values()
            for color, ((A, gap), _) in zip(FAMILY_COLORS, over.items()):
                part = members[(members["actions"] == A) & (members["gap"] == gap)].sort_values("t")
                ax_b.plot(part["t"], part["ratio"], color=color, lw=1.0, label=f"family A = {A}, gap {gap:g}")
                low, high = part["low"] / part["bound"], part["high"] / part["bound"]
                ax_b.fill_between(part["t"], low, high, color=color, alpha=0.12, lw=0)
        ax_a.set(xscale="log", yscale="log", xlabel="step t", ylabel="fraction of runs trapped")
        ax_a.set_title("(a) runs trapped on the Borda winner", fontsize=9)
        ax_a.legend(fontsize=7, loc="lower left")
        ax_b.axhline(1.0, color="black", lw=1.2)
        ax_b.set(xscale="log", xlabel="step t", ylabel="E[R_t] / Theorem 4.1's bound")
        ax_b.set_title("(b) mean Maximin regret over the bound", fontsize=9)
        ax_b.legend(fontsize=6.5, loc="upper left")
    return fig
