"""The long-horizon figure of a scenario: one panel per algorithm, the local exponents of ``E[R_T]`` against
``T`` (filled: the theorem's regret, hollow: the figures' where it differs), the theorem's exponent, the
lower-bound rate (:data:`.analysis.LOWER_BOUNDS`) and 1."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import NullLocator

from ...plotting import style
from ...regret import REGRET_NAMES
from ...tables import fraction
from .analysis import lower_bound, regrets_shown

PANEL_SIZE = (5.4, 3.1)
"""Width and height in inches of one algorithm's panel; two panels per row."""

LOWER_BOUND_COLOR = "#d55e00"
"""Colour of the lower-bound rate (vermillion: no algorithm's colour)."""

Y_RANGE = (-0.5, 1.5)
"""The y axis never extends beyond this: a very noisy interval (a regret near constant over T) is cut."""

AT_THE_EDGE = dict(xycoords=("axes fraction", "data"), textcoords="offset points")
"""A label at an edge of the panel (x in axes fraction), at the height of its line, offset in points."""


def _series(local, slug, kind):
    """Local slopes of (slug, kind): x (geometric mean of the two horizons), slope, low, high."""
    rows = local[(local["algorithm"] == slug) & (local["regret"] == kind) & local["from_horizon"].notna()]
    rows = rows.sort_values("horizon")
    x = np.sqrt(rows["from_horizon"].to_numpy(float) * rows["horizon"].to_numpy(float))
    return x, rows["slope"].to_numpy(float), rows["ci_low"].to_numpy(float), rows["ci_high"].to_numpy(float)


def _draw(ax, x, y, low, high, color, *, hollow: bool, gid: str) -> bool:
    """Error bars of the finite slopes (hollow: the figures' regret); False if none is finite."""
    ok = np.isfinite(y)
    if not ok.any():
        return False
    low = np.where(np.isfinite(low), low, y)
    high = np.where(np.isfinite(high), high, y)
    marker = dict(fmt="D--", ms=4.0, mfc="white", lw=0.9) if hollow else dict(fmt="o-", ms=4.5, mfc=color, lw=1.3)
    x = x * (1.06 if hollow else 1.0)
    ax.errorbar(x[ok], y[ok], yerr=[(y - low)[ok], (high - y)[ok]], color=color, capsize=2, gid=gid, **marker)
    return True


def asymptotics_figure(scenario: str, local, exponents, outputs, *, data_digest=None) -> Figure:
    """Render the long-horizon figure of ``scenario`` (the rows of its tables) to every path of ``outputs``."""
    slugs = style.ordered_slugs(local["algorithm"].unique())
    horizons = np.sort(local["horizon"].unique())
    runs = sorted(local["runs"].unique())
    actions = sorted(local["actions"].unique())
    columns = 1 if len(slugs) == 1 else 2
    rows_n = -(-len(slugs) // columns)

    with style.figure((PANEL_SIZE[0] * columns, PANEL_SIZE[1] * rows_n + 0.9), outputs, data_digest) as fig:
        axes = np.atleast_1d(fig.subplots(rows_n, columns, sharex=True, sharey=True, squeeze=False)).ravel()
        for ax in axes[len(slugs) :]:
            ax.set_visible(False)
        extent = [0.3, 1.1]  # the y range: at least this, and every drawn interval within Y_RANGE
        hollow = False
        for ax, slug in zip(axes, slugs):
            color = style.algorithm_color(slug)
            kinds = [k for k in regrets_shown(scenario, slug) if (local["regret"] == k).any()]
            kinds = kinds or sorted(local.loc[local["algorithm"] == slug, "regret"].unique())[:1]
            drawn = []
            for i, kind in enumerate(kinds):
                series = _series(local, slug, kind)
                drawn.append(_draw(ax, *series, color, hollow=i > 0, gid=f"local:{slug}:{kind}"))
                hollow |= i > 0 and drawn[-1]
                values = np.concatenate(series[1:])
                values = values[np.isfinite(values)]
                if values.size:
                    extent = [min(extent[0], values.min() - 0.05), max(extent[1], values.max() + 0.05)]
            primary = exponents[(exponents["algorithm"] == slug) & (exponents["regret"] == kinds[0])]
            row = primary.iloc[0] if len(primary) else None
            has_theorem = row is not None and isinstance(row["theorem"], str)
            if has_theorem:
                e = float(row["theorem_exponent"])
                ax.axhline(e, color="black", lw=1.6, gid=f"theorem:{slug}")
                text = f"Thm {row['theorem']}: {fraction(e, 2)}"
                ax.annotate(text, (1.0, e), xytext=(-3, 3), ha="right", fontsize=7, **AT_THE_EDGE)
            bound = lower_bound(scenario, kinds[0])
            if bound is not None:
                ax.axhline(bound.exponent, color=LOWER_BOUND_COLOR, ls=(0, (1, 1.5)), lw=1.4, gid=f"lower:{slug}")
                text = f"lower-bound rate {fraction(bound.exponent, 2)}"
                at = dict(xytext=(3, -9), ha="left", fontsize=6.5, color=LOWER_BOUND_COLOR)
                ax.annotate(text, (0.0, bound.exponent), **at, **AT_THE_EDGE)
            ax.axhline(1.0, color=style.NEUTRAL, ls="--", lw=1.0)
            names = [REGRET_NAMES.get(k, k) for k in kinds]
            title = f"{style.algorithm_label(slug)}: {names[0]} regret"
            title += f" (Thm {row['theorem']})" if has_theorem else ""
            title += f"; hollow: {names[1]}" if len(names) > 1 else ""
            ax.set_title(title, fontsize=8.5)
            if row is not None:
                text = f"global fit rho = {row['rho']:.2f} [{row['rho_low']:.2f}, {row['rho_high']:.2f}]"
                if isinstance(row["verdict"], str):
                    text += f"\nverdict: {row['verdict']}"
                ax.text(0.98, 0.04, text, transform=ax.transAxes, ha="right", va="bottom", fontsize=6.8)
            if not drawn[0]:
                ax.text(0.5, 0.5, "no positive mean regret", transform=ax.transAxes, ha="center", color=style.NEUTRAL)
        for ax in axes[: len(slugs)]:
            ax.set(xscale="log", xlim=(horizons[0] / 1.3, horizons[-1] * 1.3))
            ax.set_xticks(horizons, [f"{T:,}" for T in horizons], rotation=40, ha="right", fontsize=7)
            ax.xaxis.set_minor_locator(NullLocator())
            ax.set_ylim(max(Y_RANGE[0], extent[0]), min(Y_RANGE[1], extent[1]))
        for ax in axes[max(0, len(slugs) - columns) : len(slugs)]:  # the lowest panel of each column
            ax.tick_params(labelbottom=True)
            ax.set_xlabel("horizon T (each slope between consecutive horizons)")
        for ax in axes[: len(slugs) : columns]:
            ax.set_ylabel("local exponent of E[R_T]")

        conf = float(local["confidence"].iloc[0])
        legend = [Line2D([], [], marker="o", color=style.NEUTRAL, label=f"local exponent, {conf:.0%} bootstrap CI")]
        figures = Line2D([], [], marker="D", mfc="white", ls="--", color=style.NEUTRAL, label="the figures' regret")
        legend += [figures] if hollow else []
        legend += [
            Line2D([], [], color="black", lw=1.6, label="theorem exponent"),
            Line2D([], [], color=LOWER_BOUND_COLOR, ls=(0, (1, 1.5)), lw=1.4, label="worst-case lower-bound rate"),
            Line2D([], [], color=style.NEUTRAL, ls="--", lw=1.0, label="1: linear regret"),
        ]
        fig.legend(handles=legend, loc="outside lower center", ncols=len(legend), fontsize=7)
        fig.suptitle(
            f"{style.scenario_label(scenario)} scenario, long horizons: A = {', '.join(map(str, actions))}, "
            f"T = {horizons[0]:,} to {horizons[-1]:,}, {style.runs_text(runs)} per T, each run tuned to its T"
        )
    return fig
