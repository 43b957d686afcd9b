"""Plain-Python WS-S (Chen & Frazier, ICML 2017, Algorithm 2), written out literally: WS-W's choice
rule over its counters, rounds ended by a counter reaching ``r (A - 1)``, then ``floor(beta^r)``
self-duels of the round's winner. Its random numbers are the kernel's
(``duelbandits.algorithms.ws_s``): per WS-W choice one ``rng.integers(m)`` over the ``m >= 2``
maximisers (in index order) when no previous action is one, then one uniform per duel.
"""

from __future__ import annotations

import math

from literal import Trace, counters, pick


def ws_w_pair(C, prev, rng):
    """WS-W's ``(I_t, J_t)``: each the largest counter, keeping ``I_{t-1}``, then ``J_{t-1}``, if a maximiser."""
    pair = []
    for _ in range(2):
        others = [k for k in range(len(C)) if k not in pair]
        cands = [k for k in others if C[k] == max(C[k] for k in others)]
        kept = [p for p in prev if p in cands]
        pair.append(kept[0] if kept else pick(cands, rng))
    return tuple(pair)


def run(X, T, rng, events=None, beta=1.5):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the rounds and exploitation steps."""
    A = X.shape[0]
    events = counters(events, "rounds", "exploit")
    C = [0] * A
    prev = ()
    trace = Trace()
    r = 1
    while len(trace) < T:
        i, j = prev = ws_w_pair(C, prev, rng)
        win = trace.duel(X, i, j, rng)
        C[i if win else j] += 1
        C[j if win else i] -= 1
        if max(C) == r * (A - 1):
            events["rounds"] += 1
            w = C.index(max(C))
            for _ in range(math.floor(beta**r)):
                if len(trace) < T:
                    events["exploit"] += 1
                    trace.duel(X, w, w, rng)
            r += 1
    return trace.arrays()
