"""The field's figure: one per scenario, a panel per regret."""

from .analysis import FIELD_REGRET_NAMES

FIELD_PANEL_SIZE = (6.2, 4.6)
"""Size in inches of one panel (the figure is one panel wide per regret)."""

FAMILY_LINES = {"paper": ("-", "solid"), "field": ("--", "dashed"), "plugin": (":", "dotted"), "other": (":", "dotted")}
"""Line style by algorithm family, and its name in the legend's title."""


def field_figure(scenario: str, curves, outputs, *, data_digest=None):
    """Render ``scenario``'s field figure from its curves to every path of ``outputs``: mean R_t of every
    algorithm, log-log, one panel per regret, the line style by family, R_T in the legend."""
    import numpy as np

    from ...plotting import style

    kinds = list(dict.fromkeys(curves["regret"]))
    horizon = int(curves["horizon"].max())
    actions = int(curves["actions"].iloc[0])
    runs = sorted(set(curves["runs"]))
    with style.figure((FIELD_PANEL_SIZE[0] * len(kinds), FIELD_PANEL_SIZE[1]), outputs, data_digest) as fig:
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
                width = style.LINE_WIDTH["mean"] * (1.0 if family == "paper" else 0.9)
                line = dict(color=style.algorithm_color(slug), ls=FAMILY_LINES[family][0], lw=width)
                label = f"{style.algorithm_label(slug)}: {final[slug]:,.0f}"
                ax.plot(t[shown], mean[shown], **line, label=label, gid=f"field:{kind}:{slug}")
            name = FIELD_REGRET_NAMES.get(kind, kind)
            ax.set(xscale="log", yscale="log", xlim=(1, horizon), xlabel="step t")
            ax.set(ylabel=f"mean cumulative {name} regret", title=f"({letter}) {name} regret; legend: R_T")
            styles = ", ".join(f"{name}: {f}" for f, (_, name) in FAMILY_LINES.items() if f in set(rows["family"]))
            ax.legend(loc="upper left", fontsize=6.8, ncols=2, title=styles, title_fontsize=6.8)
        what = f"the field: A = {actions}, T = {horizon:,}, {style.runs_text(runs)}"
        fig.suptitle(f"{style.scenario_label(scenario)} scenario, {what}")
    return fig
