"""The maximin-bayes target's page (results/maximin-bayes/bayes.md) and figure (figures/maximin-bayes/ratios.*),
from its estimates and runs (duelbandits.studies.bayes)."""

from __future__ import annotations

import math
from functools import partial

import numpy as np

from ..schemas import PRIORS

DRAWS = {
    "uniform": "X[i, j] ~ U(0, 1) for i < j, X[j, i] = 1 - X[i, j]",
    "projected": "X[i, j] = (a + 1 - b) / 2 with a, b ~ U(0, 1) independent for i < j, X[j, i] = 1 - X[i, j]",
}
"""How each prior draws a matrix, in the tables."""


def overall_verdict(frame) -> str:
    """The headline verdict, one sentence over every A at the longest horizon only (the config's ``T``, the
    ledger's; each grid horizon's own verdict is in the table): ``fails`` if any A fails there, ``holds``
    if every A holds, else inconclusive."""
    if frame.empty:
        return "inconclusive: no estimates"
    frame = frame[frame["horizon"] == frame["horizon"].max()]
    prior, T = frame["prior"].iloc[0], f"{int(frame['horizon'].iloc[0]):,}"

    def at(rows) -> str:  # the A's of ``rows``
        return ", ".join(map(str, sorted(set(frame.loc[rows, "actions"]))))

    if (frame["verdict"] == "fails").any():
        return f"fails as a Bayesian bound (prior: {prior}) at A = {at(frame['verdict'] == 'fails')}, T = {T}"
    if (frame["verdict"] == "holds").all():
        return f"holds as a Bayesian bound (prior: {prior}) at A = {at(frame.index)}, T = {T}"
    return f"inconclusive at A = {at(frame['verdict'] != 'holds')}, T = {T} (prior: {prior})"


def crossing_text(c: float, t: int) -> str:
    """A crossing as seen from horizon ``t`` in bayes.md: reached by ``t``, never, ``-`` (undefined), or the
    horizon."""
    if not math.isfinite(c):
        return "never" if c == math.inf else "-"
    return "reached" if c <= t else f"{c:,.0f}" if c < 1e7 else f"{c:.2e}"


def decide_text(row) -> str:
    """An inconclusive row's matrices to decide in bayes.md (:func:`.bayes_growth.matrices_to_decide`)."""
    from .bayes_growth import matrices_to_decide

    n = matrices_to_decide(int(row.matrices), row.high - row.ratio, row.ratio)
    return "none" if n == math.inf else f"{n:,.0f}"


HEADER = ["A", "t", "matrices x runs", "E[R_t] / bound", "matrices above the bound", "verdict"]
HEADER += ["matrices to decide", "exponent", "crossing"]


def bayes_markdown(table, verdict: str, prior: str, bootstrap: int) -> str:
    """results/maximin-bayes/bayes.md: per A, E[R_T] / bound over the prior (a key of :data:`PRIORS`), the
    share of drawn matrices above the bound, the verdict, the exponent and the crossing with their intervals
    over ``bootstrap`` resamplings (and how many left each undefined)."""
    from ..tables import fmt, interval, markdown

    level = f"{100 * float(table['confidence'].iloc[0]):g}%" if len(table) else "-"
    table = table.sort_values(["actions", "horizon"], ignore_index=True)
    firsts = table["horizon"] == table.groupby("actions")["horizon"].transform("min")
    share_text = partial(interval, digits=1, percent=True)  # a share of matrices and its interval

    def cell(row, name, show):  # an interval and its undefined resamplings in words, never a NaN
        point, low, high, undefined = (getattr(row, name + end) for end in ("", "_low", "_high", "_undefined"))
        ends = f"[{show(low)}, {show(high)}]" + (f" ({undefined:,} of {bootstrap:,} undefined)" if undefined else "")
        if bootstrap and undefined == bootstrap:
            ends = f"[undefined in all {bootstrap:,} resamplings]"
        return f"{'undefined' if math.isnan(point) else show(point)} {ends}"

    rows = []
    for row, first in zip(table.itertuples(), firsts):
        # an A's first horizon has no previous one: no exponent, and a crossing only if reached
        exponent = "-" if first else cell(row, "exponent", lambda x: fmt(x, 2))
        shown = partial(crossing_text, t=row.horizon)
        crossing = "-" if first and math.isnan(row.crossing) else cell(row, "crossing", shown)
        ratio = interval(row.ratio, row.low, row.high)
        head = [str(int(row.actions)), f"{int(row.horizon):,}", f"{int(row.matrices)} x {int(row.runs_per_matrix)}"]
        decide = "-" if row.verdict != "inconclusive" else decide_text(row)
        share = share_text(row.share_above, row.share_low, row.share_high)
        rows.append([*head, ratio, share, row.verdict, decide, exponent, crossing])
    strata = table.drop_duplicates("actions").sort_values("actions")
    shares = "; ".join(
        f"A = {int(r.actions)}: {share_text(r.condorcet_share, r.condorcet_low, r.condorcet_high)} "
        f"of {r.strata_draws:,}"
        for r in strata.itertuples()
    )
    return "\n".join(
        [
            "# Theorem 4.1 as a Bayesian bound\n",
            f"TS-Maximin on matrices drawn from the prior `{PRIORS[prior]}` "
            f"(duelbandits.studies.bayes: {DRAWS[prior]}). "
            f"E[R_t] / bound over the prior, stratified by a Condorcet winner, with the two-sided {level} normal "
            f"interval; the exponent and the crossing with the bootstrap percentile {level} interval from "
            f"{bootstrap:,} resamplings of the matrices. What each column means and how it is computed: "
            'docs/claims.md, "Theorem 4.1 as a Bayesian bound".\n',
            f"Matrices with a Condorcet winner (share of the drawn): {shares}.\n",
            f"Headline verdict, at the longest horizon (each horizon's own verdict is in the table): **{verdict}.**\n",
            markdown(HEADER, rows, "rrrrrlrrr"),
        ]
    )


def ratios_figure(runs_frame, estimates_frame, bins: int, outputs, *, data_digest=None):
    """figures/maximin-bayes/ratios.{pdf,png}: per A at the longest horizon, the histogram of the drawn
    matrices' mean ``R_T / bound`` (``bins`` bins over the range of every A, so the rows compare), the bound
    at 1, and the share of matrices above it with its interval (the estimates table's)."""
    from ..plotting import style
    from ..tables import interval

    runs_frame = runs_frame[runs_frame["horizon"] == runs_frame["horizon"].max()]
    estimates_frame = estimates_frame[estimates_frame["horizon"] == estimates_frame["horizon"].max()]
    means = runs_frame.groupby(["actions", "matrix"], sort=True)["ratio"].mean()
    shares = estimates_frame.set_index("actions")
    low, high = min(float(means.min()), 1.0), max(float(means.max()), 1.0)
    edges = np.linspace(low, high, bins + 1)
    actions = sorted(means.index.unique("actions"))
    with style.figure((6.4, 0.9 + 0.75 * len(actions)), outputs, data_digest) as fig:
        axes = np.atleast_1d(fig.subplots(len(actions), 1, sharex=True))
        for ax, A in zip(axes, actions):
            values = means.loc[A].to_numpy()
            ax.hist(values, bins=edges, color="#0072b2", alpha=0.8)
            ax.axvline(1.0, color="black", lw=1.2)
            row = shares.loc[A]
            share = interval(row.share_above, row.share_low, row.share_high, 1, percent=True)
            text = f"A = {A}: {len(values)} matrices, {share} above"
            ax.text(0.99, 0.9, text, transform=ax.transAxes, ha="right", va="top", fontsize=7)
            ax.set_yticks([])
        axes[-1].set_xlabel("a matrix's mean Maximin R_T / Theorem 4.1's bound (line: the bound)")
        T = int(shares["horizon"].iloc[0])
        fig.suptitle(f"TS-Maximin over the prior {shares['prior'].iloc[0]}, T = {T:,}", fontsize=9)
    return fig
