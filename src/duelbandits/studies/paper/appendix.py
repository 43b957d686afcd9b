"""Appendix figures, one per (scenario, algorithm) (docs/paper.md, "Figures"): (a) the regret of every run,
(b) I_t and (c) J_t over windows (the std band the root mean square of the per-step std over the window,
so windowing does not shrink it), (d) p_t and (e) q_t; ``appendix_figure`` stacked, ``appendix_panel`` alone.
"""

from __future__ import annotations

import numpy as np
from matplotlib.collections import LineCollection
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ...algorithms import ALGORITHMS, PAPER_REGRET
from ...plotting import style
from ...regret import REGRET_NAMES

TRACE_COLUMNS = ("run", "t", "I", "J", "cumulative_regret")
PLAYER_NAMES = {"p": r"$p_t$ (strategy of $I_t$)", "q": r"$q_t$ (strategy of $J_t$)"}


def _run_lines(ax, x, Y, color):
    """All runs as one rasterised LineCollection (keeps the PDF small and fast to draw)."""
    segments = np.stack([np.broadcast_to(x, Y.shape), Y], axis=-1)
    look = dict(colors=color, linewidths=style.LINE_WIDTH["run"], alpha=style.ALPHA["run"], rasterized=True)
    ax.add_collection(LineCollection(segments, **look, gid="runs"))


def _regret_panel(ax, regret, color, kind, look: style.Look):
    """(a): the cumulative paper-regret of every run, the mean over runs thick, the std shaded above it."""
    horizon = regret.shape[1]
    idx = style.display_index(horizon)
    t = idx + 1.0
    mean = regret.mean(axis=0)[idx]
    std = regret.std(axis=0, ddof=1 if regret.shape[0] > 1 else 0)[idx]
    _run_lines(ax, t, regret[:, idx], color)
    ax.fill_between(t, mean, mean + std, color=color, alpha=style.ALPHA["std"] + 0.1, linewidth=0)
    ax.plot(t, mean, color=style.darker(color), lw=style.LINE_WIDTH["mean"], gid="mean")
    ax.set_ylim(0, max(float(regret[:, idx].max()), float((mean + std).max())) * 1.03 or 1.0)
    ax.set_ylabel("regret" if look.short_labels else "cumulative regret")
    if look.titles:
        ax.set_title(
            f"(a) cumulative {REGRET_NAMES.get(kind, kind)} regret: runs (light), mean (thick), std above the mean"
        )


def _selection_panel(ax, letter, name, selections, color, actions, winner, look: style.Look):
    """(b), (c): the actions I_t or J_t selected, averaged over windows, runs light, mean thick, ± std."""
    runs, horizon = selections.shape
    width = selection_window(horizon)
    starts = np.arange(0, horizon, width)
    counts = np.diff(np.r_[starts, horizon])
    x = starts + (counts + 1) / 2.0
    values = selections.astype(np.float64)
    per_run = np.add.reduceat(values, starts, axis=1) / counts
    mean = per_run.mean(axis=0)
    var = values.var(axis=0, ddof=1 if runs > 1 else 0)
    std = np.sqrt(np.add.reduceat(var, starts) / counts)
    _run_lines(ax, x, per_run, color)
    ax.fill_between(x, mean - std, mean + std, color=color, alpha=style.ALPHA["std"], linewidth=0)
    ax.plot(x, mean, color=style.darker(color), lw=style.LINE_WIDTH["mean"], gid="mean")
    if winner is not None:
        label = winner[1] if look.short_labels else f"{winner[1]} (action {winner[0]})"
        ax.axhline(winner[0], color=style.NEUTRAL, lw=0.9, ls=":", label=label)
        ax.legend(loc="upper right")
    ax.set(ylim=(-0.5, actions - 0.5), ylabel=f"action ${name}$")
    if look.action_ticks is None:
        ax.set_yticks(np.arange(actions) if actions <= 12 else np.arange(0, actions, max(1, actions // 10)))
    else:
        ax.set_yticks(np.arange(0, actions, -(-actions // look.action_ticks)))
    ax.grid(axis="y", visible=False)
    if look.titles:
        ax.set_title(
            f"({letter}) ${name}$ selections: each run's mean over {width}-step windows (light), "
            "mean over runs (thick) ± std"
        )


def _strategy_panel(ax, letter, player, strategies, actions, winner, look: style.Look):
    """(d), (e): each action's mean probability in the strategy p_t or q_t over runs, ± std."""
    part = strategies[strategies["player"] == player]
    mean = part.pivot(index="t", columns="action", values="mean").sort_index()
    std = part.pivot(index="t", columns="action", values="std").sort_index().reindex_like(mean)
    idx = style.display_index(len(mean))
    t = mean.index.to_numpy(float)[idx]
    colors = style.action_colors(max(actions, int(mean.columns.max()) + 1))
    for action in mean.columns:
        m = mean[action].to_numpy(float)[idx]
        s = np.nan_to_num(std[action].to_numpy(float)[idx])
        color = colors[int(action)]
        ax.fill_between(t, np.clip(m - s, 0, 1), np.clip(m + s, 0, 1), color=color, alpha=0.15, linewidth=0)
        is_winner = winner is not None and int(action) == winner[0]
        label = f"{int(action)} ({winner[1]})" if is_winner and not look.short_labels else f"{int(action)}"
        width = style.LINE_WIDTH["mean"] + (0.6 if is_winner else -0.4)
        ax.plot(t, m, color=color, lw=width, label=label, gid=f"{player}:{int(action)}")
    ax.set(ylim=(0, 1), ylabel=f"${player}_t(i)$")
    if look.titles:
        ax.set_title(f"({letter}) {PLAYER_NAMES[player]}: mean probability of each action i over runs, ± std")
    if look.legends_above:  # a panel alone: the actions in rows above the axes, which keep the stack's width
        handles, labels = ax.get_legend_handles_labels()
        columns = min(len(handles), look.strategy_legend_columns)
        order = _row_major(len(handles), columns)
        above = dict(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=columns, frameon=False)
        ax.legend([handles[k] for k in order], [labels[k] for k in order], **above, fontsize=look.strategy_legend_size)
        return
    ncol = 1 if len(mean.columns) <= 12 else 2
    beside = dict(title="action i", loc="center left", bbox_to_anchor=(1.005, 0.5), ncol=ncol)
    ax.legend(**beside, fontsize=look.strategy_legend_size, title_fontsize=look.note_size)


def _row_major(n: int, columns: int) -> list[int]:
    """The order in which to give ``n`` legend entries to a legend of ``columns`` columns, which fills
    column by column, so that they read row by row: 0 1 2 3 4 / 5 6 7 8 9."""
    rows = -(-n // columns)
    return [row * columns + col for col in range(columns) for row in range(rows) if row * columns + col < n]


def selection_window(horizon: int) -> int:
    """Steps per window over which panels (b) and (c) average each run's I_t and J_t."""
    return max(1, -(-horizon // style.SELECTION_WINDOWS))


def _appendix_data(scenario: dict, algorithm: str, traces):
    """The (runs, T) grids of the traces' columns (in (run, t) order, as aggregate writes them), T, the
    paper regret's kind, A and the winner marked."""
    runs, horizon = traces["run"].nunique(), int(traces["t"].max())
    grid = {c: traces[c].to_numpy().reshape(runs, horizon) for c in ("cumulative_regret", "I", "J")}
    kind = PAPER_REGRET.get(scenario["name"], {}).get(algorithm, "paper")
    notion, chosen = regret_winner(scenario, kind)
    winner = (int(chosen[0]), f"{notion.capitalize()} winner") if len(chosen) == 1 else None
    return grid, horizon, kind, len(scenario["utilities"]), winner


def regret_winner(scenario: dict, kind: str) -> tuple[str, list[int]]:
    """The winner notion that regret ``kind`` measures against (the Exp3.P regret: the Maximin
    winner) and its winners in ``scenario`` (a scenario record lists them all, each notion's never empty)."""
    notion = kind if kind in ("borda", "copeland") else "maximin"
    return notion, list(scenario["winners"][notion])


def _draw_appendix_panel(ax, panel: str, algorithm: str, grid, horizon, kind, actions, winner, strategies, look):
    """Draw panel ``panel`` (a-e) of an appendix figure on ``ax``: the one drawing of each panel, used by
    the composite figure and by the panel alone. The step axis is the caller's (shared in the composite)."""
    color = style.algorithm_color(algorithm)
    if panel == "a":
        _regret_panel(ax, grid["cumulative_regret"], color, kind, look)
    elif panel in "bc":
        name = {"b": "I_t", "c": "J_t"}[panel]
        _selection_panel(ax, panel, name, grid[name[0]], color, actions, winner, look)
    else:
        player = ALGORITHMS[algorithm].strategies["de".index(panel)]
        _strategy_panel(ax, panel, player, strategies, actions, winner, look)
    ax.set_xlim(0, horizon)
    ax.xaxis.set_major_formatter(style.step_formatter())
    if look.step_bins is not None:
        ax.xaxis.set_major_locator(MaxNLocator(nbins=look.step_bins, steps=[1, 2, 2.5, 5, 10]))


def appendix_figure(scenario: dict, algorithm: str, traces, strategies, outputs, *, data_digest=None) -> Figure:
    """Render the stacked appendix figure of one (scenario record, algorithm) from its ``traces`` and
    ``strategies`` (None for an algorithm without) to each path of ``outputs``, the winner of the
    algorithm's paper regret marked. Returns the saved Figure."""
    grid, horizon, kind, actions, winner = _appendix_data(scenario, algorithm, traces)
    panels = style.appendix_panel_letters(ALGORITHMS[algorithm].strategies)
    size = (style.APPENDIX_WIDTH, style.APPENDIX_PANEL_HEIGHT * len(panels) + 0.5)
    with style.figure(size, outputs, data_digest) as fig:
        axes = fig.subplots(len(panels), 1, sharex=True)
        for panel, ax in zip(panels, axes):
            _draw_appendix_panel(
                ax, panel, algorithm, grid, horizon, kind, actions, winner, strategies, style.COMPOSITE
            )
        axes[-1].set_xlabel("step t")
        fig.suptitle(
            f"{style.scenario_label(scenario['name'])} scenario - {ALGORITHMS[algorithm].label}: "
            f"{grid['I'].shape[0]} runs, T = {horizon:,}"
        )
    return fig


def appendix_panel(
    scenario: dict, algorithm: str, traces, strategies, panel: str, outputs, *, data_digest=None
) -> Figure:
    """Render panel ``panel`` of :func:`appendix_figure` alone, at its subfigure's width in the paper and
    text at the caption sizes, without the '(x) ...' title; returns the saved Figure."""
    panels = style.appendix_panel_letters(ALGORITHMS[algorithm].strategies)
    grid, horizon, kind, actions, winner = _appendix_data(scenario, algorithm, traces)
    with style.figure(style.panel_size(*style.APPENDIX_PANELS[len(panels)]), outputs, data_digest, style.PANEL) as fig:
        ax = fig.subplots()
        _draw_appendix_panel(ax, panel, algorithm, grid, horizon, kind, actions, winner, strategies, style.PANEL)
        ax.set_xlabel("step t")
        style.align_left(fig, ax)  # the panels stacked in the figure line up
    return fig
