"""What the literal references (``tests/<module>_reference.py``) share: the confidence bounds, a run's trace,
a uniform pick and the branch counters, drawing by the same calls as the kernels' ``_sampling.duel`` and
``_sampling.pick``."""

import math

import numpy as np


def bounds(W, t, alpha=0.51, unplayed=2.0):
    """``(U, L) = W/N +- sqrt(alpha log t / N)`` at the 1-based step ``t``, ``(unplayed, 0)`` where ``N = 0``
    (2 for ``x/0 := 1``), 1/2 on the diagonal; ``log`` is ``math.log``, the kernels' (numpy's differs from it
    in the last bit at some ``t``)."""
    N = W + W.T
    with np.errstate(divide="ignore", invalid="ignore"):
        mean = W / N
        radius = np.sqrt(alpha * math.log(t) / N)
        U = np.where(N > 0, mean + radius, unplayed)
        L = np.where(N > 0, mean - radius, 0.0)
    np.fill_diagonal(U, 0.5)
    np.fill_diagonal(L, 0.5)
    return U, L


def pick(items, rng):
    """One of ``items`` uniformly, ``items[rng.integers(len(items))]``; no draw for a single item."""
    return items[0] if len(items) == 1 else items[int(rng.integers(0, len(items)))]


def counters(events, *keys):
    """The caller's ``events`` dict (a new one for None) with each of ``keys`` counted from 0."""
    events = {} if events is None else events
    events.update(dict.fromkeys(keys, 0))
    return events


class Trace(list):
    """A run's steps ``(i, j, outcome)`` so far."""

    def duel(self, X, i, j, rng):
        """Play ``(i, j)`` with one uniform, ``rng.random() < X[i, j]``: the outcome, 1 when ``i`` wins."""
        win = int(rng.random() < X[i, j])
        self.append((i, j, win))
        return win

    def arrays(self):
        """``(I, J, outcomes)``, typed as the kernels return them."""
        I, J, o = zip(*self)
        return np.array(I, dtype=np.int64), np.array(J, dtype=np.int64), np.array(o, dtype=np.int8)
