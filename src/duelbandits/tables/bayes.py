"""The maximin-bayes table: results/maximin-bayes/bayes.md."""

from __future__ import annotations

from . import fmt, markdown


def bayes_markdown(table, verdict: str, prior: str) -> str:
    """Per A: E[R_T] / bound over the prior (``prior``, a key of duelbandits.bayes.PRIORS), the share of drawn
    matrices above the bound, the verdict."""
    from ..bayes import DRAWS, PRIORS

    level = f"{100 * float(table['confidence'].iloc[0]):g}%" if len(table) else "-"
    rows = [
        [
            str(int(row.actions)),
            f"{int(row.horizon):,}",
            f"{int(row.matrices)} x {int(row.runs_per_matrix)}",
            f"{fmt(row.ratio, 3)} [{fmt(row.low, 3)}, {fmt(row.high, 3)}]",
            f"{fmt(100 * row.share_above, 1)}% [{fmt(100 * row.share_low, 1)}, {fmt(100 * row.share_high, 1)}]",
            row.verdict,
        ]
        for row in table.sort_values("actions").itertuples()
    ]
    return "\n".join(
        [
            "# Theorem 4.1 as a Bayesian bound\n",
            f"TS-Maximin on matrices drawn from the prior `{PRIORS[prior]}` (duelbandits.bayes: {DRAWS[prior]}). "
            "E[R_T] / bound is the mean over matrices of each matrix's mean "
            f"Maximin R_T / bound, with the two-sided {level} normal interval from the spread of the matrix "
            "means; 'matrices above' is the share of matrices whose mean R_T exceeds the bound.\n",
            f"**{verdict}.**\n",
            markdown(
                ["A", "T", "matrices x runs", "E[R_T] / bound", "matrices above the bound", "verdict"],
                rows,
                "rrrrrl",
            ),
        ]
    )
