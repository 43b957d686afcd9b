"""Plain-Python DTS+ (Wu & Liu, NeurIPS 2016), written out literally: the bounds of
``dts_reference.bounds`` every step, the candidates' rows of ``theta`` drawn as needed to find the
ones of most sampled wins, every other pair only for a tie, and the tie-break by least
``R[i] = sum_j r[i, j] / d(theta[i, j], 1/2)``. It draws its random numbers by the same calls in the
same order as ``duelbandits.algorithms.dts_plus`` (the candidates in index order but the previous first
action first, each row in index order, abandoned once
it cannot reach the best count; the other pairs in lexicographic order; the first action's ties by
``rng.integers``; the second action's by DTS's running argmax, one ``rng.random()`` per tie met), so
the two give the same arrays.
"""

from __future__ import annotations

import numpy as np
from dts_reference import bounds
from literal import Trace, counters, pick
from rmed1_reference import kl_half


def select(B, t, rng, alpha, events, previous=0):
    """One DTS+ choice ``(a1, a2)`` at the 1-based step ``t``; ``previous``, the last first action, is
    evaluated first (it swaps places with the first candidate)."""
    A = B.shape[0]
    U, L = bounds(B, t, alpha)
    upper = (U > 0.5).sum(axis=1)
    cands = [i for i in range(A) if upper[i] == upper.max()]
    if previous in cands[1:]:
        k = cands.index(previous)
        cands[0], cands[k] = cands[k], cands[0]
    if len(cands) == 1:
        a1 = cands[0]
    else:
        theta, drawn = np.full((A, A), 0.5), set()

        def draw(i, j):
            lo, hi = min(i, j), max(i, j)
            theta[lo, hi] = rng.beta(B[lo, hi] + 1.0, B[hi, lo] + 1.0)
            theta[hi, lo] = 1.0 - theta[lo, hi]
            drawn.add((lo, hi))

        # each candidate's row, lazily: abandoned once it cannot reach the best count so far
        best, tied = -1, []
        for i in cands:
            others = [j for j in range(A) if j != i]
            for j in others:
                if (min(i, j), max(i, j)) not in drawn:
                    undrawn = [k for k in others if (min(i, k), max(i, k)) not in drawn]
                    if sum(theta[i, k] > 0.5 for k in others if k not in undrawn) + len(undrawn) < best:
                        break
                    draw(i, j)
            if all((min(i, k), max(i, k)) in drawn for k in others):
                count = sum(theta[i, k] > 0.5 for k in others)
                if count > best:
                    best, tied = count, []
                if count == best:
                    tied.append(i)
        if len(tied) == 1:
            a1 = tied[0]
        else:
            events["tie-break"] += 1
            for i in range(A):
                for j in range(i + 1, A):
                    if (i, j) not in drawn:
                        draw(i, j)
            z = (theta > 0.5).sum(axis=1) / (A - 1)
            R = {
                i: sum(
                    (z.max() - (z[i] + z[j]) / 2) / kl_half(min(theta[i, j], theta[j, i]))  # d(p) = d(1 - p)
                    for j in range(A)
                    if j != i and theta[i, j] != 0.5
                )
                for i in tied
            }
            a1 = pick([i for i in tied if R[i] == min(R.values())], rng)
    # second action, as DTS: argmax of fresh theta2[i, a1] over {i : L[i, a1] <= 1/2}, theta2[a1, a1] = 1/2
    best, count, a2 = 0.5, 1, a1
    for i in range(A):
        if i != a1 and L[i, a1] <= 0.5:
            x = rng.beta(B[i, a1] + 1.0, B[a1, i] + 1.0)
            if x > best:
                best, count, a2 = x, 1, i
            elif x == best:
                count += 1
                if rng.random() * count < 1.0:
                    a2 = i
    return a1, a2


def run(X, T, rng, events=None, alpha=0.51):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the tie-breaks and self-duels."""
    A = X.shape[0]
    events = counters(events, "tie-break", "self-duel")
    B = np.zeros((A, A))
    trace = Trace()
    a1 = 0
    for t in range(1, T + 1):
        a1, a2 = select(B, t, rng, alpha, events, a1)
        win = trace.duel(X, a1, a2, rng)
        if a1 != a2:
            B[(a1, a2) if win else (a2, a1)] += 1
        else:
            events["self-duel"] += 1
    return trace.arrays()
