"""Main-text figures, one per scenario (docs/paper.md, "Figures"): (a) the utilities and winners, (b) X,
(c) the mean regrets, (d) with the theorem bounds, log-log (a bound left out with a note where it
does not hold); ``main_figure`` the composite, ``main_panel`` one panel alone.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ...plotting import style
from ...regret import REGRET_NAMES
from ...theorems import THEOREMS, theorem_for
from .table import paper_view


def _thin(part):
    """The curve's rows at <= style.MAX_POINTS steps, the last one included."""
    return part.iloc[style.display_index(len(part))]


def _log_left(curves) -> float:
    """Left end of a log step axis: the summary's second step, as from t = 1 an even grid would draw
    a straight chord as if it were data."""
    steps = np.unique(np.concatenate([part["t"].to_numpy() for part in curves.values()]))
    return float(steps[1]) if steps.size > 1 else 1.0


WINNER_MARKS = {"condorcet": (-0.17, 11, 9), "borda": (0.17, 8, 7)}
"""Per winner notion in panel (a): ``(shift, size, key)``, the marker's offset along x in actions when one
action is both winners (so the two sit side by side), its size above the bar and its size in the legend
(matplotlib ``markersize`` points, times ``Look.marker_scale``)."""


def _utilities_panel(ax, scenario: dict, look: style.Look):
    """(a): each action's latent utility as a bar, the Condorcet and Borda winners marked above."""
    u = np.asarray(scenario["utilities"], dtype=float)
    actions = np.arange(u.size)
    ax.bar(actions, u, color="#bdbdbd", edgecolor=style.NEUTRAL, linewidth=0.6, width=0.7)
    condorcet, borda = scenario["winners"]["condorcet"], list(scenario["winners"]["borda"])
    top = u.max() if u.size else 1.0
    pad = 0.06 * max(top, 1e-9)
    handles = [] if condorcet is not None else [Line2D([], [], ls="none", label="no Condorcet winner")]
    # each winner's marker above its bar (side by side where one action is both), and its legend entry
    chosen = {"condorcet": [] if condorcet is None else [condorcet], "borda": borda}
    for notion, (shift, size, key) in WINNER_MARKS.items():
        marker, color = style.MARKERS[notion]
        for a in chosen[notion]:
            x = a + (shift if a == condorcet and a in borda else 0.0)
            ax.plot([x], [u[a] + pad], marker=marker, color=color, ms=size * look.marker_scale, ls="none")
        if chosen[notion]:
            which = "" if look.short_labels else f" (action {', '.join(map(str, chosen[notion]))})"
            line = dict(marker=marker, color=color, ms=key * look.marker_scale, ls="none")
            handles.append(Line2D([], [], **line, label=f"{notion.capitalize()} winner{which}"))
    # the legend sits in the top left: keep `headroom` of the height free above the bars and markers
    ax.set_ylim(min(0.0, u.min()), max(top + 4 * pad, (top + 1.5 * pad) / (1 - look.headroom)))
    ax.set(xticks=actions, xlabel="action i", ylabel="utility u(i)")
    if look.titles:
        ax.set_title("(a) latent utilities")
    ax.grid(axis="x", visible=False)
    ax.legend(handles=handles, loc="upper left")


def _matrix_panel(fig, ax, scenario: dict, look: style.Look):
    """(b): the preference matrix X as a heat map with its colour bar, values in the cells when they fit."""
    X = np.asarray(scenario["matrix"], dtype=float)
    A = X.shape[0]
    image = ax.imshow(X, cmap=style.MATRIX_CMAP, vmin=0.0, vmax=1.0, aspect="equal")
    size = next((size for largest, size in sorted(look.cell_text.items()) if A <= largest), None)
    if size is not None:
        for (i, j), x in np.ndenumerate(X):
            text = f"{x:.2f}".lstrip("0") if x < 1 else "1"
            color = "white" if abs(x - 0.5) > 0.3 else "black"
            ax.text(j, i, text, ha="center", va="center", fontsize=size, color=color)
    ticks = np.arange(A) if A <= 20 else np.arange(0, A, max(1, A // 10))
    ax.set(xticks=ticks, yticks=ticks, xlabel="action j", ylabel="action i")
    ax.grid(False)
    if look.titles:
        ax.set_title("(b) preference matrix X(i, j) = P(i beats j)")
    fig.colorbar(image, ax=ax, shrink=0.85, label="X(i, j)")


def _kinds(curves: dict) -> set:
    """The regret kinds of the curves (one per curve)."""
    return {part["regret"].iloc[0] for part in curves.values()}


def _regret_curves(ax, curves: dict, look: style.Look):
    """The mean curves, std shaded above; each labelled with its regret where they mix regrets."""
    mixed = len(_kinds(curves)) > 1 and not look.short_labels
    for slug, part in curves.items():
        part = _thin(part)
        t = part["t"].to_numpy(float)
        mean = part["mean"].to_numpy(float)
        std = np.nan_to_num(part["std"].to_numpy(float))
        color = style.algorithm_color(slug)
        kind = part["regret"].iloc[0]
        ax.fill_between(t, mean, mean + std, color=color, alpha=style.ALPHA["std"], linewidth=0)
        label = style.algorithm_label(slug) + (f" ({REGRET_NAMES.get(kind, kind)} regret)" if mixed else "")
        ax.plot(t, mean, color=color, lw=style.LINE_WIDTH["mean"], label=label, gid=f"mean:{slug}")


def _bound_curves(ax, curves: dict, horizon: int, actions: int, c_alpha: float, look: style.Look):
    """Draw every finite bound; return notes for theorems whose bound is absent."""
    notes = []
    for slug, part in curves.items():
        part = _thin(part)
        bound = part["bound"].to_numpy(float)
        ok = np.isfinite(bound)
        theorem = THEOREMS.get(slug)  # a finite bound is a theorem's (the bounds table)
        if ok.any():
            label = f"Thm {theorem.name}" + ("" if look.short_labels else f" bound, {style.algorithm_label(slug)}")
            line = dict(color=style.algorithm_color(slug), lw=style.LINE_WIDTH["bound"], ls="--", gid=f"bound:{slug}")
            ax.plot(part["t"].to_numpy(float)[ok], bound[ok], **line, label=label)
        elif theorem is not None and theorem_for(slug, part["regret"].iloc[0]) is not None:
            t_min, strict = theorem.requirement(actions, c_alpha)
            which = "" if look.short_labels else f" ({style.algorithm_label(slug)})"
            notes.append(
                f"Thm {theorem.name}{which} not shown: needs T {'>' if strict else '>='} {t_min:,.0f}, T = {horizon:,}"
            )
    return notes


def _step_axis(ax, left, horizon: int):
    """The step axis (from ``left`` to T) and the regret axis of panels (c) and (d)."""
    ax.set(xlim=(left, horizon), xlabel="step t", ylabel="cumulative regret")
    ax.xaxis.set_major_formatter(style.step_formatter())


def _legend_place(look: style.Look, inside: str, columns: int = 2) -> dict:
    """Where the legend of panel (c) or (d) goes: ``inside`` the axes in the composite; above the
    axes, frameless, in ``columns`` columns in a panel alone (a panel is too small to hold it)."""
    if not look.legends_above:
        return {"loc": inside}
    return {"loc": "lower center", "bbox_to_anchor": (0.5, 1.0), "ncol": columns, "frameon": False}


def _mean_regret_panel(ax, curves: dict, horizon: int, look: style.Look, letter="c"):
    """(c): the mean cumulative paper-regret of every algorithm, std shaded above the mean."""
    _regret_curves(ax, curves, look)
    ax.set_ylim(bottom=0)
    if look.titles:
        ax.set_title(f"({letter}) mean cumulative {_regret_title(curves)} (std shaded above)")
    ax.legend(**_legend_place(look, "upper left"))
    _step_axis(ax, 0, horizon)


def _bounds_panel(ax, curves: dict, horizon: int, actions: int, c_alpha: float, look, letter="d"):
    """(d): the mean regrets of (c) with the theorem bounds dashed, on log-log axes."""
    _regret_curves(ax, curves, look)
    notes = _bound_curves(ax, curves, horizon, actions, c_alpha, look)
    ax.set(yscale="log", xscale="log")  # each bound c t^rho a straight line
    left = _log_left(curves)
    shown = [part.loc[part["t"] >= max(left, 1), "mean"].to_numpy(float) for part in curves.values()]
    lowest = min((m[m > 0].min() for m in shown if (m > 0).any()), default=np.nan)
    if np.isfinite(lowest):
        ax.set_ylim(bottom=lowest * 0.5)
    if look.titles:
        ax.set_title(f"({letter}) mean cumulative {_regret_title(curves)} and theorem bounds (dashed)")
    bound_handles = [h for h in ax.get_lines() if (h.get_gid() or "").startswith("bound:")]
    if bound_handles:
        # the theorems bound E[R_T] for parameters tuned to T; the curve is that bound at each t
        ax.legend(
            handles=bound_handles,
            title="bound for T, drawn at each t",
            title_fontsize=look.note_size,
            **_legend_place(look, "lower right", columns=2 if len(bound_handles) > 2 else 1),
        )
    if notes:
        y = 0.99 if not bound_handles else 0.02 if look.legends_above else 0.3
        va = "top" if not bound_handles or not look.legends_above else "bottom"
        corner = dict(transform=ax.transAxes, ha="right", va=va, fontsize=look.note_size, color=style.NEUTRAL)
        ax.text(0.99, y, "\n".join(notes), **corner)
    _step_axis(ax, left, horizon)


def _regret_title(curves: dict) -> str:
    """'Maximin regret' when every curve shows one kind of regret, else 'regret'."""
    kinds = _kinds(curves)
    kind = next(iter(kinds))
    return "regret" if len(kinds) > 1 else f"{REGRET_NAMES.get(kind, kind)} regret"


def regret_groups(name: str, curves: dict) -> list[dict]:
    """The curves of scenario ``name`` as panels (c) and (d) draw them: all together on a scenario of a
    paper view (the paper's Figures 1 and 2 put each algorithm's own regret side by side), one pair of
    panels per regret kind on any other (one kind per panel; docs/beyond-the-paper.md, "Which regret
    the figures show")."""
    if paper_view(name):
        return [curves]
    kinds = sorted(_kinds(curves), key=list(REGRET_NAMES).index)
    return [{slug: part for slug, part in curves.items() if part["regret"].iloc[0] == kind} for kind in kinds]


def paper_curves(scenario: dict, summary):
    """The summary rows the paper plots for the scenario record ``scenario``, one curve per algorithm
    (``{slug: rows by t}``, in legend order), T, the sorted run counts and A."""
    rows = summary[(summary["scenario"] == scenario["name"]) & summary["paper"].astype(bool)]
    curves = {slug: rows[rows["algorithm"] == slug].sort_values("t") for slug in style.ordered_slugs(rows["algorithm"])}
    horizon = int(max(part["t"].max() for part in curves.values()))
    runs = sorted({int(r) for part in curves.values() for r in part["runs"].unique()})
    return curves, horizon, runs, len(scenario["utilities"])


def _draw_main_panel(fig, ax, panel: str, scenario: dict, summary, c_alpha: float, look: style.Look):
    """Draw panel ``panel`` (a-d) of the scenario's main figure on ``ax``: the one drawing of each panel,
    used by the composite figure and by the panel alone."""
    curves, horizon, _, actions = paper_curves(scenario, summary)
    if panel == "a":
        _utilities_panel(ax, scenario, look)
    elif panel == "b":
        _matrix_panel(fig, ax, scenario, look)
    elif panel == "c":
        _mean_regret_panel(ax, curves, horizon, look)
    else:
        _bounds_panel(ax, curves, horizon, actions, c_alpha, look)


def main_figure(scenario: dict, summary, outputs, *, c_alpha: float = 1.0, data_digest=None) -> Figure:
    """Render the four-panel figure of the scenario record ``scenario`` from its ``paper`` rows of
    ``summary`` to each path of ``outputs``; returns the saved Figure."""
    curves, horizon, runs, actions = paper_curves(scenario, summary)
    groups = regret_groups(scenario["name"], curves)
    width, height = style.MAIN_SIZE
    with style.figure((width, height * (1 + len(groups)) / 2), outputs, data_digest) as fig:
        axes = fig.subplots(1 + len(groups), 2)
        for panel, ax in zip("ab", axes[0]):
            _draw_main_panel(fig, ax, panel, scenario, summary, c_alpha, style.COMPOSITE)
        for k, (group, row) in enumerate(zip(groups, axes[1:])):
            letters = "cdefghij"[2 * k : 2 * k + 2]
            _mean_regret_panel(row[0], group, horizon, style.COMPOSITE, letters[0])
            _bounds_panel(row[1], group, horizon, actions, c_alpha, style.COMPOSITE, letters[1])
        what = f"A = {actions}, T = {horizon:,}, {style.runs_text(runs)}"
        fig.suptitle(f"{style.scenario_label(scenario['name'])} scenario: {what}")
    return fig


def main_panel(scenario: dict, summary, panel: str, outputs, *, c_alpha: float = 1.0, data_digest=None) -> Figure:
    """Render panel ``panel`` (a-d) of the scenario's main figure alone, at its subfigure's width in the
    paper and text at the caption sizes, without the '(x) ...' title; returns the saved Figure."""
    with style.figure(style.panel_size(*style.MAIN_PANELS[panel]), outputs, data_digest, style.PANEL) as fig:
        ax = fig.subplots()
        _draw_main_panel(fig, ax, panel, scenario, summary, c_alpha, style.PANEL)
    return fig
