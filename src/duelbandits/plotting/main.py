"""Main-text figures (figScen1, figScen2): one per scenario, four panels.

(a) the latent utilities with the Condorcet and Borda winners marked,
(b) the preference matrix X as an annotated heat map,
(c) the mean cumulative paper-regret of every algorithm, std shaded above,
(d) the same with the theorem bounds dashed in the algorithm's colour, on
    log-log axes (style.BOUNDS_XSCALE): the bounds are 10-100x the regrets,
    so a linear y axis would flatten every regret curve onto the x axis, and
    on log-log axes each bound c t^rho is a straight line of slope rho, so
    the regret's growth rate can be read against it. Bounds that are NaN
    (no theorem, or T below its requirement) are left out, with a note.
"""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from ..algorithms import ALGORITHMS
from ..regret import PAPER_REGRET, REGRET_NAMES
from ..theorems import THEOREMS, theorem_for
from . import style

SUMMARY_COLUMNS = ("scenario", "algorithm", "regret", "t", "mean", "std", "runs", "bound")


def _paper_rows(name: str, summary):
    """The summary rows the paper plots for scenario ``name``, one curve per algorithm."""
    missing = [c for c in SUMMARY_COLUMNS if c not in summary.columns]
    if missing:
        raise ValueError(f"summary is missing column(s) {', '.join(missing)}")
    rows = summary[summary["scenario"] == name]
    if "paper" in rows.columns:
        rows = rows[rows["paper"].astype(bool)]
    else:
        kinds = PAPER_REGRET.get(name, {})
        rows = rows[[kinds.get(a) == r for a, r in zip(rows["algorithm"], rows["regret"])]]
    if rows.empty:
        raise ValueError(f"summary has no paper-regret rows for scenario {name!r}")
    curves = {}
    for slug in [a for a in ALGORITHMS if a in set(rows["algorithm"])] + sorted(
        set(rows["algorithm"]) - set(ALGORITHMS)
    ):
        part = rows[rows["algorithm"] == slug].sort_values("t")
        if part["regret"].nunique() != 1:
            raise ValueError(f"summary has several paper regrets for {name}/{slug}: {sorted(set(part['regret']))}")
        curves[slug] = part
    return curves


def _thin(part):
    """The curve's rows at <= style.MAX_POINTS steps, the last one included."""
    return part.iloc[style.display_index(len(part))]


def _log_left(curves) -> float:
    """Left end of a log step axis: the summary's second step (t = 1 excluded).

    A grid that is even in t has one point below its spacing, so drawing
    from t = 1 would show a straight chord as if it were data; starting at
    the second grid point shows only resolved steps (a geometric grid starts
    at t = 2).
    """
    steps = np.unique(np.concatenate([part["t"].to_numpy() for part in curves.values()]))
    return float(steps[1]) if steps.size > 1 else 1.0


def _regret_label(slug: str, kind: str, mixed: bool) -> str:
    label = style.algorithm_label(slug)
    return f"{label} ({REGRET_NAMES.get(kind, kind)} regret)" if mixed else label


def _utilities_panel(ax, scenario: dict):
    u = np.asarray(scenario["utilities"], dtype=float)
    actions = np.arange(u.size)
    ax.bar(actions, u, color="#bdbdbd", edgecolor=style.NEUTRAL, linewidth=0.6, width=0.7)
    winners = scenario.get("winners", {}) or {}
    condorcet = winners.get("condorcet")
    borda = list(winners.get("borda", []) or [])
    top = u.max() if u.size else 1.0
    pad = 0.06 * max(top, 1e-9)
    handles = []
    if condorcet is not None:
        marker, color = style.MARKERS["condorcet"]
        shift = -0.17 if condorcet in borda else 0.0
        ax.plot([condorcet + shift], [u[condorcet] + pad], marker=marker, color=color, ms=11, ls="none")
        handles.append(
            Line2D([], [], marker=marker, color=color, ms=9, ls="none", label=f"Condorcet winner (action {condorcet})")
        )
    else:
        handles.append(Line2D([], [], ls="none", label="no Condorcet winner"))
    marker, color = style.MARKERS["borda"]
    for b in borda:
        shift = 0.17 if b == condorcet else 0.0
        ax.plot([b + shift], [u[b] + pad], marker=marker, color=color, ms=8, ls="none")
    if borda:
        which = ", ".join(str(b) for b in borda)
        handles.append(
            Line2D([], [], marker=marker, color=color, ms=7, ls="none", label=f"Borda winner (action {which})")
        )
    ax.set_ylim(min(0.0, u.min()), top + 4 * pad)
    ax.set_xticks(actions)
    ax.set_xlabel("action i")
    ax.set_ylabel("utility u(i)")
    ax.set_title("(a) latent utilities")
    ax.grid(axis="x", visible=False)
    ax.legend(handles=handles, loc="upper left")


def _matrix_panel(fig, ax, scenario: dict):
    X = np.asarray(scenario["matrix"], dtype=float)
    A = X.shape[0]
    image = ax.imshow(X, cmap=style.MATRIX_CMAP, vmin=0.0, vmax=1.0, aspect="equal")
    if A <= 12:
        size = 7 if A <= 8 else 5.5
        for i in range(A):
            for j in range(A):
                ax.text(
                    j,
                    i,
                    f"{X[i, j]:.2f}".lstrip("0") if X[i, j] < 1 else "1",
                    ha="center",
                    va="center",
                    fontsize=size,
                    color="white" if abs(X[i, j] - 0.5) > 0.3 else "black",
                )
    ticks = np.arange(A) if A <= 20 else np.arange(0, A, max(1, A // 10))
    ax.set_xticks(ticks)
    ax.set_yticks(ticks)
    ax.set_xlabel("action j")
    ax.set_ylabel("action i")
    ax.grid(False)
    ax.set_title("(b) preference matrix X(i, j) = P(i beats j)")
    fig.colorbar(image, ax=ax, shrink=0.85, label="X(i, j)")


def _regret_curves(ax, curves: dict, mixed: bool):
    for slug, part in curves.items():
        part = _thin(part)
        t = part["t"].to_numpy(float)
        mean = part["mean"].to_numpy(float)
        std = np.nan_to_num(part["std"].to_numpy(float))
        color = style.algorithm_color(slug)
        kind = part["regret"].iloc[0]
        ax.fill_between(t, mean, mean + std, color=color, alpha=style.ALPHA["std"], linewidth=0)
        ax.plot(
            t,
            mean,
            color=color,
            lw=style.LINE_WIDTH["mean"],
            label=_regret_label(slug, kind, mixed),
            gid=f"mean:{slug}",
        )


def _bound_curves(ax, curves: dict, horizon: int, actions: int, c_alpha: float):
    """Draw every finite bound; return notes for theorems whose bound is absent."""
    notes = []
    for slug, part in curves.items():
        part = _thin(part)
        bound = part["bound"].to_numpy(float)
        ok = np.isfinite(bound)
        theorem = THEOREMS.get(slug)
        if ok.any():
            ax.plot(
                part["t"].to_numpy(float)[ok],
                bound[ok],
                color=style.algorithm_color(slug),
                lw=style.LINE_WIDTH["bound"],
                ls="--",
                gid=f"bound:{slug}",
                label=f"Thm {theorem.name if theorem else '?'} bound, {style.algorithm_label(slug)}",
            )
        elif theorem is not None and theorem_for(slug, part["regret"].iloc[0]) is not None:
            t_min, strict = theorem.requirement(actions, c_alpha)
            notes.append(
                f"Thm {theorem.name} ({style.algorithm_label(slug)}) not shown: "
                f"needs T {'>' if strict else '>='} {t_min:,.0f}, T = {horizon:,}"
            )
    return notes


def main_figure(scenario: dict, summary, outputs, *, c_alpha: float = 1.0, data_digest=None) -> Figure:
    """Render the four-panel figure of one scenario to each path of ``outputs``.

    ``scenario`` holds name, utilities, matrix, winners and params; ``summary``
    the per-step mean/std/bound table (only this scenario's ``paper`` rows are
    used). Returns the saved Figure so callers and tests can inspect it.
    """
    name = scenario["name"]
    curves = _paper_rows(name, summary)
    kinds = {part["regret"].iloc[0] for part in curves.values()}
    mixed = len(kinds) > 1
    horizon = int(max(part["t"].max() for part in curves.values()))
    runs = sorted({int(r) for part in curves.values() for r in part["runs"].unique()})
    actions = len(scenario["utilities"])
    regret_title = "regret" if mixed else f"{REGRET_NAMES.get(next(iter(kinds)), next(iter(kinds)))} regret"

    with style.style():
        fig = Figure(figsize=style.MAIN_SIZE, layout="constrained")
        (ax_u, ax_x), (ax_c, ax_d) = fig.subplots(2, 2)
        _utilities_panel(ax_u, scenario)
        _matrix_panel(fig, ax_x, scenario)

        _regret_curves(ax_c, curves, mixed)
        ax_c.set_ylim(bottom=0)
        ax_c.set_title(f"(c) mean cumulative {regret_title} (std shaded above)")
        ax_c.legend(loc="upper left")

        _regret_curves(ax_d, curves, mixed)
        notes = _bound_curves(ax_d, curves, horizon, actions, c_alpha)
        ax_d.set_yscale("log")
        ax_d.set_xscale(style.BOUNDS_XSCALE)
        left = _log_left(curves) if style.BOUNDS_XSCALE == "log" else 0
        shown = [part.loc[part["t"] >= max(left, 1), "mean"].to_numpy(float) for part in curves.values()]
        lowest = min((m[m > 0].min() for m in shown if (m > 0).any()), default=np.nan)
        if np.isfinite(lowest):
            ax_d.set_ylim(bottom=lowest * 0.5)
        ax_d.set_title(f"(d) mean cumulative {regret_title} and theorem bounds (dashed)")
        bound_handles = [h for h in ax_d.get_lines() if (h.get_gid() or "").startswith("bound:")]
        if bound_handles:
            # the theorems bound E[R_T] for parameters tuned to T; the curve is that bound at each t
            ax_d.legend(
                handles=bound_handles, loc="lower right", title="bound for T, drawn at each t", title_fontsize=7
            )
        if notes:
            ax_d.text(
                0.99,
                0.99 if not bound_handles else 0.3,
                "\n".join(notes),
                transform=ax_d.transAxes,
                ha="right",
                va="top",
                fontsize=7,
                color=style.NEUTRAL,
            )

        ax_c.set_xlim(0, horizon)
        ax_d.set_xlim(left, horizon)
        for ax in (ax_c, ax_d):
            ax.set_xlabel("step t")
            ax.set_ylabel("cumulative regret")
            ax.xaxis.set_major_formatter(style.step_formatter())

        run_text = f"{runs[0]} runs" if len(runs) == 1 else f"{runs[0]}-{runs[-1]} runs"
        fig.suptitle(f"{name.capitalize()} scenario: A = {actions}, T = {horizon:,}, {run_text}")
        style.save(fig, outputs, data_digest)
    return fig
