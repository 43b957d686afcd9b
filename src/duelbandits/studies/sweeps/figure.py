"""The sweeps' figures: over the horizons (mean R_T, the fit T^rho, R_t inside the largest T's runs; the
fitted exponents beside the theorems'), and over A (mean R_T; R_T over the theorem bound)."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import FuncFormatter, NullLocator

from ...plotting import style
from ...regret import REGRET_NAMES
from ...tables import fraction

SWEEP_SIZE = (11.0, 4.4)
"""Size in inches of each sweep figure (two panels side by side)."""


def _minor_label(y, _pos=None) -> str:
    """Label minor log ticks whose leading digit is 2, 3 or 5 (0.2, 0.3, 0.5, ...), as plain numbers."""
    if y <= 0:
        return ""
    lead = round(y / 10 ** np.floor(np.log10(y)), 6)
    return f"{y:.3g}" if lead in (2.0, 3.0, 5.0) else ""


def _regrets(table):
    """The algorithms in legend order, the figures' regret of each, their legend labels and panel (a)'s
    name of the regret."""
    slugs = style.ordered_slugs(table["algorithm"].unique())
    paper = table[table["paper"].astype(bool)]
    kinds = {slug: paper.loc[paper["algorithm"] == slug, "regret"].iloc[0] for slug in slugs}
    mixed = len(set(kinds.values())) > 1
    named = {slug: f" ({REGRET_NAMES.get(kind, kind)})" if mixed else "" for slug, kind in kinds.items()}
    title = "regret" if mixed else f"{REGRET_NAMES.get(next(iter(kinds.values())), 'paper')} regret"
    return slugs, kinds, {slug: style.algorithm_label(slug) + named[slug] for slug in slugs}, title


def _rho_bar(ax, x, row, color, gid, **marker) -> None:
    """The fitted rho of ``row`` at ``x`` with its bootstrap interval."""
    yerr = [[row["rho"] - row["ci_low"]], [row["ci_high"] - row["rho"]]]
    ax.errorbar([x], [row["rho"]], yerr=yerr, color=color, capsize=3, gid=gid, **marker)


def horizon_sweep_figure(scenario: str, table, exponents, outputs, *, data_digest=None) -> Figure:
    """Render the horizon-sweep figure of ``scenario`` (the rows of its tables) to every path of ``outputs``."""
    slugs, kinds, labels, regret_title = _regrets(table)
    horizons = np.sort(table["horizon"].unique())
    actions = sorted(table["actions"].unique())

    with style.figure(SWEEP_SIZE, outputs, data_digest) as fig:
        ax_r, ax_e = fig.subplots(1, 2, width_ratios=[1.15, 1])

        for slug in slugs:
            color = style.algorithm_color(slug)
            rows = table[(table["algorithm"] == slug) & (table["regret"] == kinds[slug])]
            final = rows[rows["t"] == rows["horizon"]].sort_values("horizon")
            T = final["horizon"].to_numpy(float)
            mean = final["mean"].to_numpy(float)
            sem = final["std"].to_numpy(float) / np.sqrt(final["runs"].to_numpy(float))
            point = dict(fmt="o", ms=4.5, color=color, capsize=2, lw=1)
            ax_r.errorbar(T, mean, yerr=sem, **point, label=labels[slug], gid=f"final:{slug}")
            fit = exponents[(exponents["algorithm"] == slug) & (exponents["regret"] == kinds[slug])]
            if len(fit) and np.isfinite(fit["rho"].iloc[0]):
                rho, log_c = float(fit["rho"].iloc[0]), float(fit["log_c"].iloc[0])
                ax_r.plot(T, np.exp(log_c) * T**rho, color=color, lw=style.LINE_WIDTH["mean"] * 0.7, gid=f"fit:{slug}")
            inside = rows[rows["horizon"] == horizons[-1]].sort_values("t")
            inside = inside[inside["t"] >= horizons[0] / 10]
            t, r = inside["t"].to_numpy(float), inside["mean"].to_numpy(float)
            ax_r.plot(t, r, color=color, ls=":", lw=style.LINE_WIDTH["bound"], gid=f"within:{slug}")
        ax_r.set(xscale="log", yscale="log", xlabel="horizon T (each T: its own runs, tuned to T)")
        ax_r.set_xticks(horizons, [f"{T:,}" for T in horizons])
        ax_r.xaxis.set_minor_locator(NullLocator())
        ax_r.set(ylabel="mean cumulative regret", title=f"(a) mean final {regret_title} R_T (± s.e.) and fit T^rho")
        handles, _ = ax_r.get_legend_handles_labels()
        handles += [
            Line2D([], [], color=style.NEUTRAL, lw=1.2, label="least-squares fit"),
            Line2D([], [], color=style.NEUTRAL, ls=":", lw=1.5, label=f"R_t inside the runs of T = {horizons[-1]:,}"),
        ]
        ax_r.legend(handles=handles, loc="upper left", fontsize=6.8)

        x = np.arange(len(slugs))
        for i, slug in enumerate(slugs):
            color = style.algorithm_color(slug)
            rows = exponents[exponents["algorithm"] == slug]
            paper = rows[rows["regret"] == kinds[slug]]
            if len(paper) and np.isfinite(paper["rho"].iloc[0]):
                _rho_bar(ax_e, i - 0.12, paper.iloc[0], color, f"rho:{slug}", fmt="o", ms=6, lw=1.4)
            theorem = rows[rows["theorem"].notna()]
            if len(theorem):
                r = theorem.iloc[0]
                ax_e.hlines(r["theorem_exponent"], i - 0.38, i + 0.38, color="black", lw=2.2, gid=f"theorem:{slug}")
                text = f"Thm {r['theorem']}: {fraction(r['theorem_exponent'], 2)}"
                at = dict(xytext=(0, -11), textcoords="offset points", ha="center", fontsize=6.5, color="black")
                ax_e.annotate(text, (i, r["theorem_exponent"]), **at)
                if r["regret"] != kinds[slug] and np.isfinite(r["rho"]):
                    _rho_bar(ax_e, i + 0.12, r, color, f"rho-theorem:{slug}", fmt="D", ms=5, mfc="white", lw=1.1)
        ax_e.axhline(1.0, color=style.NEUTRAL, ls="--", lw=1.0)
        at = dict(xytext=(0, 3), textcoords="offset points", ha="right", fontsize=7, color=style.NEUTRAL)
        ax_e.annotate("1: linear regret", (len(slugs) - 0.5, 1.0), **at)
        ax_e.set_xticks(x, [style.algorithm_label(s) for s in slugs], rotation=25, ha="right")
        low = np.nanmin(np.r_[exponents["ci_low"].to_numpy(float), 0.5])
        high = np.nanmax(np.r_[exponents["ci_high"].to_numpy(float), 1.0])
        ax_e.set(xlim=(-0.6, len(slugs) - 0.4), ylim=(min(0.3, low - 0.08), max(1.15, high + 0.08)))
        ax_e.set_ylabel("exponent rho in E[R_T] ~ T^rho")
        conf = float(exponents["confidence"].iloc[0])
        ax_e.set_title(f"(b) fitted rho with {conf:.0%} bootstrap CI; theorem exponent (black)")
        ax_e.grid(axis="x", visible=False)
        legend = [
            Line2D([], [], marker="o", color=style.NEUTRAL, ls="none", label=f"{regret_title} (panel a)"),
            Line2D(
                [], [], marker="D", mfc="white", color=style.NEUTRAL, ls="none", label="the regret the theorem bounds"
            ),
            Line2D([], [], color="black", lw=2.2, label="theorem exponent"),
        ]
        ax_e.legend(handles=legend, loc="lower left", fontsize=6.8)

        fig.suptitle(
            f"{style.scenario_label(scenario)} scenario, horizon sweep: A = {', '.join(map(str, actions))}, "
            f"T = {horizons[0]:,} to {horizons[-1]:,}, {style.runs_text(sorted(table['runs'].unique()))} per T"
        )
    return fig


def actions_sweep_figure(scenario: str, table, outputs, *, data_digest=None) -> Figure:
    """Render the scaling-in-A figure of ``scenario`` (the rows of its table) to every path of ``outputs``."""
    slugs, kinds, labels, regret_title = _regrets(table)
    horizons = sorted(table["horizon"].unique())
    A_all = np.sort(table["actions"].unique())

    with style.figure(SWEEP_SIZE, outputs, data_digest) as fig:
        ax_r, ax_b = fig.subplots(1, 2)
        no_theorem, hidden = [], []
        for slug in slugs:
            color = style.algorithm_color(slug)
            rows = table[(table["algorithm"] == slug) & (table["regret"] == kinds[slug])].sort_values("actions")
            A = rows["actions"].to_numpy(float)
            mean, std = rows["mean"].to_numpy(float), np.nan_to_num(rows["std"].to_numpy(float))
            ok = mean > 0  # log axis: a non-positive mean (possible for the Exp3.P regret) is left out, with a note
            if not ok.all():
                hidden.append(style.algorithm_label(slug))
            line = dict(marker="o", ms=4.5, color=color, lw=style.LINE_WIDTH["mean"])
            ax_r.plot(A[ok], mean[ok], **line, label=labels[slug], gid=f"final:{slug}")
            low, high = np.maximum(mean - std, mean / 10), mean + std
            ax_r.fill_between(A[ok], low[ok], high[ok], color=color, alpha=style.ALPHA["std"], linewidth=0)
            bounded = table[(table["algorithm"] == slug) & table["theorem"].notna()].sort_values("actions")
            ratio = bounded["ratio"].to_numpy(float)
            if len(bounded) and np.isfinite(ratio).any():
                ok = np.isfinite(ratio) & (ratio > 0)
                theorem = bounded["theorem"].iloc[0]
                kind = REGRET_NAMES.get(bounded["regret"].iloc[0], bounded["regret"].iloc[0])
                label = f"{style.algorithm_label(slug)} / Thm {theorem} ({kind})"
                ax_b.plot(bounded["actions"].to_numpy(float)[ok], ratio[ok], **line, label=label, gid=f"ratio:{slug}")
            else:
                no_theorem.append(style.algorithm_label(slug))
        for ax in (ax_r, ax_b):
            ax.set_xscale("log", base=2)
            ax.set_xticks(A_all, [str(a) for a in A_all])
            ax.minorticks_off()
            ax.set_xlabel("number of actions A")
        ax_r.set(yscale="log", ylabel="mean cumulative regret at T")
        ax_r.set_title(f"(a) mean final {regret_title} R_T (std shaded)")
        ax_r.legend(loc="best", fontsize=6.8)
        ax_b.set(yscale="log", ylabel="mean R_T / theorem bound at T")
        ax_b.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
        ax_b.yaxis.set_minor_formatter(FuncFormatter(_minor_label))
        ax_b.set_title("(b) mean final regret over the theorem bound")
        if ax_b.get_lines():
            ax_b.legend(loc="best", fontsize=6.8)
        for ax, note, names in (
            (ax_r, "non-positive mean left out: ", hidden),
            (ax_b, "no theorem bound: ", no_theorem),
        ):
            if names:
                corner = dict(transform=ax.transAxes, ha="right", va="bottom", fontsize=7, color=style.NEUTRAL)
                ax.text(0.99, 0.02, note + ", ".join(names), **corner)
        fig.suptitle(
            f"{style.scenario_label(scenario)} scenario, scaling in A: T = {', '.join(f'{T:,}' for T in horizons)}, "
            f"{style.runs_text(sorted(table['runs'].unique()))} per A"
        )
    return fig
