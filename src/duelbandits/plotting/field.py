"""The field figure: mean cumulative regret of every algorithm on one scenario, log-log.

One panel per regret the field reports on the scenario (Condorcet or
Copeland, and Borda on ``borda``). The paper's algorithms are drawn solid,
the field's dashed, each in its fixed colour, with the regret at T in the
legend so the ranking reads without the table.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure

from ..field import FIELD_REGRET_NAMES
from . import style

FIELD_PANEL_SIZE = (6.2, 4.6)
"""Size in inches of one panel (the figure is one panel wide per regret)."""

DASHES = {"paper": "-", "field": "--"}
"""Line style by algorithm family."""


def field_figure(scenario: str, curves, outputs, *, data_digest=None) -> Figure:
    """Render ``scenario``'s field figure from results/field/curves.parquet rows to every path of ``outputs``."""
    curves = curves[curves["scenario"] == scenario]
    kinds = list(dict.fromkeys(curves["regret"]))
    horizon = int(curves["horizon"].max())
    actions = int(curves["actions"].iloc[0])
    runs = sorted(set(curves["runs"]))
    with style.style():
        fig = Figure(figsize=(FIELD_PANEL_SIZE[0] * len(kinds), FIELD_PANEL_SIZE[1]), layout="constrained")
        axes = np.atleast_1d(fig.subplots(1, len(kinds)))
        for letter, ax, kind in zip("abc", axes, kinds):
            rows = curves[curves["regret"] == kind]
            final = rows[rows["t"] == rows["horizon"]].set_index("algorithm")["mean"]
            for slug in sorted(final.index, key=lambda s: final[s], reverse=True):  # legend: worst first
                curve = rows[rows["algorithm"] == slug].sort_values("t")
                t = curve["t"].to_numpy(float)
                mean = curve["mean"].to_numpy(float)
                shown = mean > 0  # log axis: R_t = 0 before the first regretful step
                family = curve["family"].iloc[0]
                ax.plot(
                    t[shown],
                    mean[shown],
                    color=style.algorithm_color(slug),
                    ls=DASHES.get(family, ":"),
                    lw=style.LINE_WIDTH["mean"] * (1.0 if family == "paper" else 0.9),
                    label=f"{style.algorithm_label(slug)}: {final[slug]:,.0f}",
                    gid=f"field:{kind}:{slug}",
                )
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlim(1, horizon)
            ax.set_xlabel("step t")
            ax.set_ylabel(f"mean cumulative {FIELD_REGRET_NAMES.get(kind, kind)} regret")
            ax.set_title(f"({letter}) {FIELD_REGRET_NAMES.get(kind, kind)} regret; legend: R_T")
            ax.legend(loc="upper left", fontsize=6.8, ncols=2, title="solid: paper, dashed: field", title_fontsize=6.8)
        run_text = f"{runs[0]} runs" if len(runs) == 1 else f"{runs[0]}-{runs[-1]} runs"
        fig.suptitle(f"{scenario.capitalize()} scenario, the field: A = {actions}, T = {horizon:,}, {run_text}")
        style.save(fig, outputs, data_digest)
    return fig
