"""Plain-Python WS-S (Chen & Frazier, ICML 2017, Algorithm 2), written out literally: WS-W's choice
rule over its counters, rounds ended by a counter reaching ``r (A - 1)``, then ``floor(beta^r)``
self-duels of the round's winner. Its random numbers are the kernel's
(``duelbandits.algorithms.ws_s``): per WS-W choice one ``rng.integers(m)`` over the ``m >= 2``
maximisers (in index order) when no previous action is one, then one uniform per duel.
"""

from __future__ import annotations

import math

import numpy as np


def ws_w_pair(C, prev, rng):
    """WS-W's ``(I_t, J_t)``: each the largest counter, keeping ``I_{t-1}``, then ``J_{t-1}``, if a maximiser."""
    pair = []
    for _ in range(2):
        others = [k for k in range(len(C)) if k not in pair]
        cands = [k for k in others if C[k] == max(C[k] for k in others)]
        kept = [p for p in prev if p in cands]
        pair.append(kept[0] if kept else cands[0] if len(cands) == 1 else cands[int(rng.integers(len(cands)))])
    return tuple(pair)


def run(X, T, rng, events=None, beta=1.5):
    """One literal run: ``(I, J, outcomes)``; ``events`` (a dict) counts the rounds and exploitation steps."""
    A = X.shape[0]
    events = {} if events is None else events
    events.update(rounds=0, exploit=0)
    C = [0] * A
    prev = ()
    I, J, o = [], [], []
    r = 1
    while len(I) < T:
        i, j = prev = ws_w_pair(C, prev, rng)
        win = int(rng.random() < X[i, j])
        C[i if win else j] += 1
        C[j if win else i] -= 1
        I.append(i)
        J.append(j)
        o.append(win)
        if max(C) == r * (A - 1):
            events["rounds"] += 1
            w = C.index(max(C))
            for _ in range(math.floor(beta**r)):
                if len(I) < T:
                    events["exploit"] += 1
                    I.append(w)
                    J.append(w)
                    o.append(int(rng.random() < X[w, w]))
            r += 1
    return np.array(I, dtype=np.int64), np.array(J, dtype=np.int64), np.array(o, dtype=np.int8)
