"""Posterior of the Thompson-sampling algorithms (Algs. 1 and 2) and its pruned sampling.

Both algorithms keep ``A^2 - A`` independent ``Beta(1, 1)`` priors, one per
ordered off-diagonal pair (Section 5). ``W[i, j]`` counts the observed wins of
``i`` over ``j``, so the posterior of ``theta[i, j]`` is
``Beta(W[i, j] + 1, W[j, i] + 1)``; ``theta[i, j]`` and ``theta[j, i]`` are
separate parameters and are sampled independently. The diagonal is fixed at 1/2.

A Thompson draw needs only the argmax of a row statistic of ``theta`` (the row
minimum for Alg. 1, the row sum for Alg. 2), so :func:`sample_maximin` and
:func:`sample_borda` skip every Beta variate that provably cannot change that
argmax. The selected action keeps exactly the distribution of the full-matrix
argmax (see the comment above :func:`sample_maximin`). Two orderings make the
pruning bite early, and both are kept up to date incrementally because a duel
changes only two entries of ``W``:

- ``col_order[i]``: the columns ``j != i`` by increasing posterior mean of
  ``theta[i, j]``, so the entries most likely to sink row ``i`` come first;
- ``row_order``: the actions by decreasing posterior-mean score (row min or
  row sum of the means), so strong rows set a high bar early.
"""

from __future__ import annotations

import numba as nb
import numpy as np

HALF = 0.5
"""The fixed diagonal ``E[X(i, i) | theta] = 1/2``."""

BORDA_SLACK = 1e-9
"""Margin of the Borda pruning test: it absorbs float rounding of the sums,
so a row is dropped only when it is behind by far more than any rounding."""


@nb.njit(cache=True)
def posterior_mean(W, i, j):
    """``E[theta[i, j] | H_t] = (W[i, j] + 1) / (W[i, j] + W[j, i] + 2)``."""
    return (W[i, j] + 1.0) / (W[i, j] + W[j, i] + 2.0)


@nb.njit(cache=True)
def row_score(W, col_order, i, borda):
    """Posterior-mean score of row ``i``: the row sum (Borda) or the row min (Maximin)."""
    if borda:
        total = HALF
        for q in range(col_order.shape[1]):
            total += posterior_mean(W, i, col_order[i, q])
        return total
    # col_order[i, 0] is the column of smallest mean; the diagonal caps the min at 1/2.
    return min(HALF, posterior_mean(W, i, col_order[i, 0]))


@nb.njit(cache=True)
def _reposition_column(W, col_order, i, j):
    """Move column ``j`` within ``col_order[i]`` to its place by increasing mean (one insertion step)."""
    n = col_order.shape[1]
    p = 0
    while col_order[i, p] != j:
        p += 1
    m = posterior_mean(W, i, j)
    while p > 0 and posterior_mean(W, i, col_order[i, p - 1]) > m:
        col_order[i, p] = col_order[i, p - 1]
        p -= 1
    while p < n - 1 and posterior_mean(W, i, col_order[i, p + 1]) < m:
        col_order[i, p] = col_order[i, p + 1]
        p += 1
    col_order[i, p] = j


@nb.njit(cache=True)
def _sort_rows(score, row_order):
    """Insertion sort of ``row_order`` by decreasing score: linear when nearly sorted."""
    for p in range(1, row_order.shape[0]):
        r = row_order[p]
        s = score[r]
        q = p
        while q > 0 and score[row_order[q - 1]] < s:
            row_order[q] = row_order[q - 1]
            q -= 1
        row_order[q] = r


@nb.njit(cache=True)
def new_state(W, borda):
    """Orderings and scores for the counts ``W``: ``(col_order, row_order, score)``."""
    A = W.shape[0]
    col_order = np.empty((A, A - 1), dtype=np.int64)
    for i in range(A):
        q = 0  # insertion sort of the columns j != i by increasing mean
        for j in range(A):
            if j == i:
                continue
            m = posterior_mean(W, i, j)
            p = q
            while p > 0 and posterior_mean(W, i, col_order[i, p - 1]) > m:
                col_order[i, p] = col_order[i, p - 1]
                p -= 1
            col_order[i, p] = j
            q += 1
    score = np.empty(A)
    for i in range(A):
        score[i] = row_score(W, col_order, i, borda)
    row_order = np.arange(A)
    _sort_rows(score, row_order)
    return col_order, row_order, score


@nb.njit(cache=True)
def observe(W, col_order, row_order, score, i, j, o, borda):
    """Append the outcome ``o`` of duel ``(i, j)`` to the history (Alg. 1 line 6, Alg. 2 line 11).

    ``W[i, j] += o`` and ``W[j, i] += 1 - o``; a self-duel updates nothing.
    The orderings and scores are then repaired for the two changed entries.
    """
    if i == j:
        return
    W[i, j] += o
    W[j, i] += 1 - o
    _reposition_column(W, col_order, i, j)
    _reposition_column(W, col_order, j, i)
    score[i] = row_score(W, col_order, i, borda)
    score[j] = row_score(W, col_order, j, borda)
    _sort_rows(score, row_order)


# Exactness of the pruning. Think of the full matrix theta as drawn up front,
# every entry independent with its posterior Beta law; the sampler reveals
# entries one at a time, and since the visiting order depends only on W (and
# on values already revealed) each revealed entry is still a fresh draw from
# its own law. A row is abandoned only when its statistic is provably strictly
# below `best`, the statistic of a row already completed, hence strictly below
# the maximum: it is not an argmax, whatever its unrevealed entries are. Every
# maximising row is therefore completed, and the tie-break is a reservoir over
# the completed rows equal to the running best (the k-th one replaces the
# choice with probability 1/k, and the reservoir restarts when a strictly
# larger row appears), which is uniform over the final set of maximisers. So
# the chosen action is distributed as the uniform-tie argmax of the full theta,
# and the unrevealed variates, independent of it, need never be drawn.
#   Maximin: the running min (starting at the diagonal 1/2) only decreases, so
#   the row is dropped once it is < best (exact comparison, no rounding).
#   Borda: each unrevealed entry is at most 1, so the row is dropped once
#   partial sum + (number unrevealed) < best - BORDA_SLACK.


@nb.njit(cache=True, inline="always")
def _visited_row(row_order, first, k):
    """The row visited at ``k = -1, 0, ..., A - 1``: ``first`` (the action chosen last time),
    then the rows of ``row_order`` but ``first``; -1 where ``row_order[k]`` is ``first``."""
    if k < 0:
        return first
    return -1 if row_order[k] == first else row_order[k]


@nb.njit(cache=True, inline="always")
def _keep_best(value, i, best, chosen, ties, rng):
    """Reservoir step over completed rows: ``(best, chosen, ties)`` after row ``i`` scored ``value``.

    A strictly larger value restarts the reservoir; the k-th equal value
    replaces the choice with probability 1/k (one uniform draw, only on ties).
    """
    if value > best:
        return value, i, 1
    if value == best:
        ties += 1
        if rng.random() * ties < 1.0:
            chosen = i
    return best, chosen, ties


@nb.njit(cache=True)
def _sample(W, col_order, row_order, first, rng, borda):
    """The pruned Thompson choice of both algorithms: rows visited from ``first`` (the action chosen
    last time), then in ``row_order``; each row's entries drawn best-first until the row is complete
    or provably behind (module comment above). Returns ``(action, number of Beta draws)``."""
    A = W.shape[0]
    best = -np.inf if borda else -1.0
    chosen = first
    ties = 0
    draws = 0
    for k in range(-1, A):
        i = _visited_row(row_order, first, k)
        if i < 0:
            continue
        value = HALF  # the diagonal: the row sum's first term, the row min's cap
        dropped = False
        for q in range(A - 1):
            j = col_order[i, q]
            theta = rng.beta(W[i, j] + 1.0, W[j, i] + 1.0)
            draws += 1
            if borda:
                value += theta
                dropped = value + (A - 2 - q) < best - BORDA_SLACK
            else:
                value = min(value, theta)
                dropped = value < best
            if dropped:
                break
        if not dropped:
            best, chosen, ties = _keep_best(value, i, best, chosen, ties, rng)
    return chosen, draws


@nb.njit(cache=True)
def sample_maximin(W, col_order, row_order, first, rng):
    """One Thompson choice of Alg. 1 lines 3-4: ``argmax_i min_j theta[i, j]``, ties uniform.

    Returns ``(action, number of Beta draws)``.
    """
    return _sample(W, col_order, row_order, first, rng, False)


@nb.njit(cache=True)
def sample_borda(W, col_order, row_order, first, rng):
    """One Thompson choice of Alg. 2 lines 7-8: ``argmax_i sum_j theta[i, j]``, ties uniform.

    Returns ``(action, number of Beta draws)``.
    """
    return _sample(W, col_order, row_order, first, rng, True)
