"""Plain-Python CCB (Zoghi et al., NeurIPS 2015, Algorithm 1), written out literally.

Every step forms ``U`` and ``L`` from their formulas, the Copeland bounds from
``U`` and ``L``, and runs the whole hypothesis update (line 9, A-C) and the
choice (lines 10-13) with Python sets; it draws its random numbers in the same
order and by the same calls as the numba kernel of
``duelbandits.algorithms.ccb`` (the module's docstring fixes them), so the two
give the same arrays from the same seed. It is the cross-check of
``tests/test_ccb.py`` for the kernel's threshold flags and skipped updates.
"""

from __future__ import annotations

import numpy as np
from literal import Trace, bounds, pick  # bounds: line 6, u = 1 + sqrt(1) and l = 0 for an unplayed pair

EVENTS = ("reset A", "reset B", "removed", "added", "truncated", "pair of line 10", "B^c of line 13", "self-duel")
"""What :attr:`State.events` counts, so tests can check that a run exercised every branch (the fallback when
``B^c`` has no eligible arm, never met in 300 random runs, is pinned by a hand-made test instead)."""


def copeland(U, L):
    """Line 7: ``#{k != i : u[i, k] >= 1/2}`` and ``#{k != i : l[i, k] >= 1/2}`` (the diagonal counts 1)."""
    return (U >= 0.5).sum(axis=1) - 1, (L >= 0.5).sum(axis=1) - 1


class State:
    """The hypotheses ``B_t``, ``B^i`` and ``L_C`` of lines 2-4."""

    def __init__(self, A):
        self.A = A
        self.events = dict.fromkeys(EVENTS, 0)
        self.reset()

    def reset(self):
        self.B = set(range(self.A))
        self.Bi = [set() for _ in range(self.A)]
        self.L_C = self.A


def update(state, U, L, rng):
    """Line 9, A-C, literally."""
    A = state.A
    up, lo = copeland(U, L)
    C = [i for i in range(A) if up[i] == up.max()]
    # A. reset disproven hypotheses
    if any(L[i, j] > 0.5 for i in range(A) for j in state.Bi[i]):
        state.reset()
        state.events["reset A"] += 1
    # B. remove non-Copeland winners
    for i in sorted(state.B):
        if up[i] < lo.max():
            state.B.discard(i)
            state.events["removed"] += 1
            if len(state.Bi[i]) != state.L_C + 1:
                state.Bi[i] = {k for k in range(A) if U[i, k] < 0.5}
    if not state.B:
        state.reset()
        state.events["reset B"] += 1
    # C. add Copeland winners
    for i in C:
        if up[i] == lo[i]:
            state.events["added"] += i not in state.B
            state.B.add(i)
            state.Bi[i] = set()
            state.L_C = A - 1 - up[i]
            keep = state.L_C + 1
            for j in range(A):
                if j == i:
                    continue
                if len(state.Bi[j]) < keep:
                    state.Bi[j] = set()
                elif len(state.Bi[j]) > keep:
                    state.events["truncated"] += 1
                    members = sorted(state.Bi[j])
                    for k in range(keep):  # partial Fisher-Yates
                        r = k + int(rng.integers(0, len(members) - k))
                        members[k], members[r] = members[r], members[k]
                    state.Bi[j] = set(members[:keep])
    return C


def select(state, U, L, C, rng):
    """Lines 10-13: the pair ``(c, d)``."""
    A = state.A
    pairs = [(i, j) for i in range(A) for j in sorted(state.Bi[i]) if L[i, j] <= 0.5 <= U[i, j]]
    if pairs and rng.random() < 0.25:
        state.events["pair of line 10"] += 1
        return pick(pairs, rng)
    BC = [i for i in C if i in state.B]
    if 0 < len(BC) < len(C) and rng.random() < 2.0 / 3.0:
        c = pick(BC, rng)
    else:
        c = pick(C, rng)
    d = None
    if state.Bi[c] and rng.random() < 0.5:
        d = _challenger(U, L, c, state.Bi[c], rng)
        state.events["B^c of line 13"] += d is not None
    if d is None:
        d = _challenger(U, L, c, range(A), rng)
    return c, d


def _challenger(U, L, c, among, rng):
    eligible = [j for j in among if L[j, c] <= 0.5]
    if not eligible:
        return None
    top = max(U[j, c] for j in eligible)
    ties = [j for j in eligible if U[j, c] == top]
    if len(ties) > 1:
        ties = [j for j in ties if j != c]
    return pick(sorted(ties), rng)


def run(X, T, rng, events=None, alpha=0.51):
    """One literal CCB run: ``(I, J, outcomes)``; a self-duel leaves ``W`` unchanged.

    ``events``, a dict, receives the counts of :data:`EVENTS`.
    """
    A = X.shape[0]
    W = np.zeros((A, A))
    state = State(A)
    trace = Trace()
    for t in range(1, T + 1):
        U, L = bounds(W, t, alpha)
        C = update(state, U, L, rng)
        c, d = select(state, U, L, C, rng)
        win = trace.duel(X, c, d, rng)
        if c != d:
            W[(c, d) if win else (d, c)] += 1
        else:
            state.events["self-duel"] += 1
    if events is not None:
        events.update(state.events)
    return trace.arrays()
