"""Numba helpers shared by the algorithm kernels."""

from __future__ import annotations

import numba as nb
import numpy as np


@nb.njit(cache=True)
def duel(matrix, i, j, rng):
    """One Bernoulli outcome of ``X[i, j]`` (1 when ``i`` wins); a self-duel is a fair coin."""
    return np.int8(1) if rng.random() < matrix[i, j] else np.int8(0)


@nb.njit(cache=True)
def sample_discrete(p, rng):
    """One index drawn from the probability vector ``p`` (inverse CDF)."""
    u = rng.random()
    acc = 0.0
    last = p.shape[0] - 1
    for k in range(last):
        acc += p[k]
        if u < acc:
            return k
    return last


@nb.njit(cache=True)
def argmax_step(value, best, count, index, k, rng):
    """One step of a running argmax over ``k = 0, 1, ...`` with uniform tie-breaking (a reservoir of the
    ``count`` maximisers so far): the new ``(best, count, index)``; a draw only on a tie."""
    if value > best:
        return value, 1, k
    if value == best:
        count += 1
        if rng.random() * count < 1.0:
            index = k
    return best, count, index


@nb.njit(cache=True)
def argmax_random_ties(values, rng):
    """Index of the largest value, ties broken uniformly at random."""
    best, count, index = values[0], 1, 0
    for k in range(1, values.shape[0]):  # argmax_step written out: a call per value costs ISS a third of its speed
        v = values[k]
        if v > best:
            best, count, index = v, 1, k
        elif v == best:
            count += 1
            if rng.random() * count < 1.0:
                index = k
    return index


@nb.njit(cache=True)
def argmin_ties(values, member, rng, cands):
    """The index of the least ``values[k]`` with ``member[k]``, ties uniformly at random (:func:`pick` over the
    tied indices in increasing order, so no draw when the least is unique)."""
    m = 0
    low = 0.0
    for k in range(values.shape[0]):
        if not member[k]:
            continue
        if m == 0 or values[k] < low:
            low = values[k]
            m = 0
        if values[k] == low:
            cands[m] = k
            m += 1
    return pick(cands, m, rng)


@nb.njit(cache=True)
def tally(W, i, j, o):
    """Count the duel ``(i, j)`` in the win counts: ``W[i, j] += 1`` if ``i`` won (``o = 1``), else ``W[j, i] += 1``."""
    if o == 1:
        W[i, j] += 1.0
    else:
        W[j, i] += 1.0


@nb.njit(cache=True)
def largest(values):
    """The largest of a non-empty 1-d array without NaN, as ``values.max()`` gives it: a loop that
    numba compiles in 0.01 CPU-s against 0.5-0.7 for ``ndarray.max`` (docs/performance.md)."""
    top = values[0]
    for k in range(1, values.shape[0]):
        if values[k] > top:
            top = values[k]
    return top


@nb.njit(cache=True)
def record_row(rows, k, values):
    """``rows[k] = values``, element by element: numba compiles the row assignment with an error
    message that formats both shapes (string code, 1.8 CPU-s per process that compiles it: half of
    a kernel's compile; docs/performance.md)."""
    for a in range(values.shape[0]):
        rows[k, a] = values[a]


@nb.njit(cache=True)
def mixed_strategy(log_weights, gamma, out):
    """``out = (1 - gamma) softmax(log_weights) + gamma / A`` (eqs. 2 and 5), in place.

    Works in the log domain: the maximum is subtracted before exponentiating,
    so the weights never overflow however long the run.
    """
    A = log_weights.shape[0]
    top = largest(log_weights)
    total = 0.0
    for k in range(A):
        out[k] = np.exp(log_weights[k] - top)
        total += out[k]
    for k in range(A):
        out[k] = (1.0 - gamma) * out[k] / total + gamma / A


@nb.njit(cache=True)
def pick(cands, m, rng):
    """One of ``cands[:m]`` uniformly, ``cands[rng.integers(m)]``; no draw when ``m == 1``."""
    if m == 1:
        return cands[0]
    return cands[rng.integers(0, m)]


@nb.njit(cache=True)
def trace(horizon):
    """A run's empty trace: the actions ``I``, ``J`` (int64) and the outcomes (int8), each ``horizon`` long."""
    return np.empty(horizon, dtype=np.int64), np.empty(horizon, dtype=np.int64), np.empty(horizon, dtype=np.int8)


def plain_run(kernel, matrix, horizon, rng, *args):
    """The ``run`` of a kernel without mixed strategies: ``(I, J, outcomes, {})`` of
    ``kernel(matrix as contiguous floats, horizon, rng, *args)`` (outputs after the trace, for benchmarks, dropped)."""
    I, J, outcomes = kernel(np.ascontiguousarray(matrix, dtype=np.float64), int(horizon), rng, *args)[:3]
    return I, J, outcomes, {}


def record_steps(record):
    """The steps whose strategies a run records, as the kernels take them: contiguous int64, none for None."""
    return np.zeros(0, dtype=np.int64) if record is None else np.ascontiguousarray(record, dtype=np.int64)
