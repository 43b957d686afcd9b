"""Posterior of the Thompson-sampling algorithms (Algs. 1 and 2) and its pruned, exact sampling.

Both algorithms keep ``A^2 - A`` independent ``Beta(1, 1)`` priors, one per
ordered off-diagonal pair (Section 5). ``W[i, j]`` counts the observed wins of
``i`` over ``j``, so the posterior of ``theta[i, j]`` is
``Beta(W[i, j] + 1, W[j, i] + 1)``; ``theta[i, j]`` and ``theta[j, i]`` are
separate parameters and are sampled independently. The diagonal is fixed at 1/2.

A Thompson draw needs only the argmax of a row statistic of ``theta`` (the row minimum for Alg. 1,
the row sum for Alg. 2), so :func:`sample_maximin` and :func:`sample_borda` draw only what can change
that argmax. The devices, and why the chosen action keeps exactly the law of the full-matrix argmax:
docs/paper.md, "Exact sampling shortcuts".

The state is two arrays, ``pair`` (floats) and ``order`` (ints), built by
:func:`new_state`; the field constants below name their slices. Two arrays
passed as plain arguments, and hot paths without calls that take arrays or the
generator, matter: numba counts references of every array argument with atomic
operations on each call, which otherwise dominates the cost of a step.
"""

from __future__ import annotations

from math import lgamma

import numba as nb
import numpy as np

from ._sampling import argmax_step

HALF = 0.5
"""The fixed diagonal ``E[X(i, i) | theta] = 1/2``."""

BORDA_SLACK = 1e-9
"""Margin of the Borda pruning test: it absorbs float rounding of the sums,
so a row is dropped only when it is behind by far more than any rounding."""

THRESHOLD_Z = 2.5
"""A placed threshold sits this many posterior standard deviations above the mean (tail mass about 0.6%)."""

TAIL_MIN = 1e-5
TAIL_MAX = 0.05
"""A threshold is placed afresh when its tail mass leaves ``[TAIL_MIN, TAIL_MAX]`` (loose, or often crossed)."""

AGE_MAX = 4096
"""A threshold is placed afresh after this many recurrence updates, which caps the rounding they accumulate."""

GRID = 2.0**40
"""Thresholds lie on multiples of ``1 / GRID``, so ``1 - u`` is exact in floating point."""

BELOW_HALF = 0.5 - 1.0 / GRID
"""Maximin's threshold for an entry of mean below 1/2 when it is tighter than the z one: in bin 0 such an
entry caps its row below 1/2, and its twin's lower bound ``1 - BELOW_HALF`` is above 1/2, so when a
Condorcet winner exists most rows are settled against 1/2 without a Beta variate."""

TINY = 1e-250
"""A boundary term below this is recomputed rather than carried (it would underflow)."""

SUM_TOLERANCE = 1e-17
"""A binomial tail sum stops when the geometric bound on its remainder is below this fraction of the sum."""

LN_SQRT_2PI = 0.9189385332046728

# Fields of ``pair[i, j, :]``, i != j: the posterior of theta[i, j] = Beta(a, b), a = W[i, j] + 1, b = W[j, i] + 1.
COUNT = 0  # W[i, j], the wins of i over j (0 on the diagonal)
UPPER = 1  # the threshold u (1: no tail)
TAIL = 2  # p = P(theta[i, j] > u)
EDGE = 3  # P(Bin(a + b - 1, u) = a - 1): the boundary term of the recurrences
SHAPE = 4  # a - 1/3, the Marsaglia-Tsang constant d of Gamma(a)
SCALE = 5  # 1 / sqrt(9 d)
AGE = 6  # updates since the threshold was placed
# Fields of row i, kept on the diagonal ``pair[i, i, :]`` where no pair lives:
MASS_UP = 7  # probability that no entry of the row is above its threshold
MASS_BOTH = 8  # probability that no entry is in either tail (the lower one: theta[i, j] < 1 - u[j, i])
CAP = 9  # bound on the row statistic when no entry is above its threshold (sum, or min with 1/2)
FLOOR = 10  # Borda: lower bound 1/2 + sum_j (1 - u[j, i]) on the row sum when no entry is in a tail
SCORE = 11  # posterior-mean score of the row (row sum, or row min capped at 1/2)
FIELDS = 12
# Rows of ``order`` (shape (A + 3, A)): order[i, :A - 1] lists the columns j != i of row i by increasing
# posterior mean; order[A + ROWS] the actions by decreasing SCORE; order[A + BINS] and order[A + FIRST_BINS]
# scratch rows of tail labels (+1 upper, -1 lower, 0 neither) for the row being visited and the first row.
ROWS = 0
BINS = 1
FIRST_BINS = 2


@nb.njit(cache=True, inline="always")
def posterior_mean(pair, i, j):
    """``E[theta[i, j] | H_t] = (W[i, j] + 1) / (W[i, j] + W[j, i] + 2)``."""
    return (pair[i, j, COUNT] + 1.0) / (pair[i, j, COUNT] + pair[j, i, COUNT] + 2.0)


# ---------------------------------------------------------------- Beta variates


@nb.njit(cache=True, inline="always")
def _gamma(d, c, rng):
    """One ``Gamma(d + 1/3, 1)`` variate, ``d >= 2/3``, ``c = 1 / sqrt(9 d)``: Marsaglia and Tsang's exact
    rejection method (ACM TOMS 26, 2000), with its squeeze."""
    while True:
        x = rng.standard_normal()
        v = 1.0 + c * x
        if v <= 0.0:
            continue
        v = v * v * v
        u = rng.random()
        x2 = x * x
        if u < 1.0 - 0.0331 * x2 * x2:
            return d * v
        if np.log(u) < 0.5 * x2 + d * (1.0 - v + np.log(v)):
            return d * v


@nb.njit(cache=True)
def beta_variate(a, b, rng):
    """One ``Beta(a, b)`` variate, ``a, b >= 1``: ``G_a / (G_a + G_b)`` with independent gammas."""
    da = a - 1.0 / 3.0
    db = b - 1.0 / 3.0
    x = _gamma(da, 1.0 / np.sqrt(9.0 * da), rng)
    y = _gamma(db, 1.0 / np.sqrt(9.0 * db), rng)
    return x / (x + y)


@nb.njit(cache=True, inline="always")
def _beta_cached(pair, i, j, rng):
    """One variate of the posterior of ``theta[i, j]``, from the cached gamma constants."""
    x = _gamma(pair[i, j, SHAPE], pair[i, j, SCALE], rng)
    y = _gamma(pair[j, i, SHAPE], pair[j, i, SCALE], rng)
    return x / (x + y)


# ------------------------------------------------ binomial terms and Beta tails
# Beta tails as binomial sums (integer a, b): docs/paper.md, "Exact sampling shortcuts".


@nb.njit(cache=True)
def _stirlerr(n):
    """``log(n!) - log(sqrt(2 pi n) (n / e)^n)`` for an integer ``n >= 1`` (Loader 2000)."""
    if n <= 15.0:
        return lgamma(n + 1.0) - (n + 0.5) * np.log(n) + n - LN_SQRT_2PI
    nn = n * n
    return (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - (1.0 / 1680 - 1.0 / 1188 / nn) / nn) / nn) / nn) / n


@nb.njit(cache=True)
def _bd0(x, m):
    """``x log(x / m) + m - x`` without cancellation when ``x`` is near ``m`` (Loader 2000)."""
    if abs(x - m) < 0.1 * (x + m):
        v = (x - m) / (x + m)
        s = (x - m) * v
        ej = 2.0 * x * v
        v2 = v * v
        for k in range(1, 1000):
            ej *= v2
            s1 = s + ej / (2 * k + 1)
            if s1 == s:
                return s1
            s = s1
        return s
    return x * np.log(x / m) + m - x


@nb.njit(cache=True)
def binomial_pmf(k, n, u):
    """``P(Bin(n, u) = k)`` to near machine precision for large ``n`` (saddle-point form, Loader 2000);
    ``0 < u < 1``, integers ``0 <= k < n`` (:func:`beta_tail` asks for ``k = a - 1 < a + b - 1``)."""
    if k == 0:
        return np.exp(n * np.log1p(-u))
    lc = _stirlerr(n) - _stirlerr(k) - _stirlerr(n - k) - _bd0(k, n * u) - _bd0(n - k, n * (1.0 - u))
    return np.exp(lc) * np.sqrt(n / (2.0 * np.pi * k * (n - k)))


@nb.njit(cache=True)
def beta_tail(a, b, u):
    """``(P(theta > u), P(Bin(a + b - 1, u) = a - 1))`` for ``theta ~ Beta(a, b)``, integers ``a, b >= 1``,
    ``u`` above the mean ``a / (a + b)``: the binomial sum downwards from ``a - 1``, whose term ratios
    decrease, stopped once the geometric bound on the remainder is negligible."""
    n = a + b - 1.0
    k = a - 1.0
    edge = binomial_pmf(k, n, u)
    odds = (1.0 - u) / u
    term = edge
    total = edge
    while k > 0.0:
        r = k * odds / (n - k + 1.0)  # P(K = k - 1) / P(K = k), < 1 below the mean n u
        term *= r
        total += term
        k -= 1.0
        if r < 1.0 and term * r <= SUM_TOLERANCE * total * (1.0 - r):
            break
    return total, edge


@nb.njit(cache=True)
def _threshold(a, b, z):
    """The threshold placed ``z`` posterior standard deviations above the mean, rounded up to the grid;
    1 (no tail) when that is not below 1."""
    s = a + b
    u = a / s + z * np.sqrt(a * b / (s * s * (s + 1.0)))
    u = np.ceil(u * GRID) / GRID
    return 1.0 if u >= 1.0 else u


@nb.njit(cache=True)
def upper_tail_variate(a, b, u, p, edge, rng):
    """One variate of ``Beta(a, b)`` given ``theta > u`` (``p``, ``edge`` as :func:`beta_tail` returns):
    ``K`` given ``K <= a - 1`` by inversion from ``a - 1`` downwards, then ``u + (1 - u) Beta(a - K, b)``."""
    n = a + b - 1.0
    k = a - 1.0
    target = rng.random() * p
    term = edge
    acc = edge
    odds = (1.0 - u) / u
    while acc <= target and k > 0.0:
        term *= k * odds / (n - k + 1.0)
        k -= 1.0
        acc += term
    return u + (1.0 - u) * beta_variate(a - k, b, rng)


# ------------------------------------------------------------ state upkeep


@nb.njit(cache=True)
def _place(pair, x, y, z, half):
    """Threshold, tail mass and boundary term of ``theta[x, y]`` from scratch: ``z`` posterior sd above
    the mean, or with ``half`` (Maximin) ``BELOW_HALF`` when the mean is below 1/2, the z threshold above
    ``BELOW_HALF`` and the tail mass there at most ``TAIL_MAX``."""
    a = pair[x, y, COUNT] + 1.0
    b = pair[y, x, COUNT] + 1.0
    u = _threshold(a, b, z)
    pair[x, y, AGE] = 0.0
    if half and a < b and u > BELOW_HALF:
        p, s = beta_tail(a, b, BELOW_HALF)
        if p <= TAIL_MAX:
            pair[x, y, UPPER], pair[x, y, TAIL], pair[x, y, EDGE] = BELOW_HALF, p, s
            return
    if u >= 1.0:
        pair[x, y, UPPER], pair[x, y, TAIL], pair[x, y, EDGE] = 1.0, 0.0, 0.0
    else:
        pair[x, y, UPPER] = u
        pair[x, y, TAIL], pair[x, y, EDGE] = beta_tail(a, b, u)


@nb.njit(cache=True)
def _stale(u, p, edge, age, a, b, z, half):
    """Whether a threshold ``u`` with tail mass ``p`` should be placed afresh for ``Beta(a, b)``: ``p`` is
    above ``TAIL_MAX``, or below ``TAIL_MIN`` for a z threshold, the boundary term nears underflow, it is
    ``AGE_MAX`` updates old, or it is 1 and a threshold below 1 is now available."""
    if u >= 1.0:
        if _threshold(a, b, z) < 1.0:
            return True
        return half and a < b and beta_tail(a, b, BELOW_HALF)[0] <= TAIL_MAX
    if p > TAIL_MAX or age >= AGE_MAX or edge < TINY:
        return True
    return p < TAIL_MIN and u != BELOW_HALF


@nb.njit(cache=True)
def _refresh(pair, i, j, z, half):
    """:func:`_place` for ``theta[i, j]`` and ``theta[j, i]``, which share their counts."""
    _place(pair, i, j, z, half)
    _place(pair, j, i, z, half)


@nb.njit(cache=True)
def _row_caches(pair, i, borda):
    """The fields ``MASS_UP``, ``MASS_BOTH``, ``CAP`` and ``FLOOR`` of row ``i``. The masses are products in
    column order, as :func:`_bins` forms them, so both agree to the last bit."""
    up = 1.0
    both = 1.0
    cap = HALF
    floor = HALF
    for j in range(pair.shape[0]):
        if j == i:
            continue
        p = pair[i, j, TAIL]
        q = pair[j, i, TAIL]
        up *= 1.0 - p
        both *= 1.0 - (p + q)
        if borda:
            cap += pair[i, j, UPPER]
            floor += 1.0 - pair[j, i, UPPER]
        else:
            cap = min(cap, pair[i, j, UPPER])
    pair[i, i, MASS_UP] = up
    pair[i, i, MASS_BOTH] = both
    pair[i, i, CAP] = cap
    pair[i, i, FLOOR] = floor


@nb.njit(cache=True)
def new_state(W, borda, z=THRESHOLD_Z):
    """The state ``(pair, order)`` of the counts ``W`` (copied; the diagonal is ignored), thresholds ``z``
    posterior sd above the means. ``borda`` selects the row statistic (sum, else min)."""
    A = W.shape[0]
    pair = np.zeros((A, A, FIELDS))
    order = np.zeros((A + 3, A), dtype=np.int64)
    for i in range(A):
        for j in range(A):
            if j != i:
                pair[i, j, COUNT] = W[i, j]
            d = pair[i, j, COUNT] + 2.0 / 3.0
            pair[i, j, SHAPE] = d
            pair[i, j, SCALE] = 1.0 / np.sqrt(9.0 * d)
    for i in range(A):
        q = 0  # insertion sort of the columns j != i by increasing mean
        for j in range(A):
            if j == i:
                continue
            m = posterior_mean(pair, i, j)
            p = q
            while p > 0 and posterior_mean(pair, i, order[i, p - 1]) > m:
                order[i, p] = order[i, p - 1]
                p -= 1
            order[i, p] = j
            q += 1
        score = HALF
        if borda:
            for q in range(A - 1):
                score += posterior_mean(pair, i, order[i, q])
        elif A > 1:
            score = min(HALF, posterior_mean(pair, i, order[i, 0]))
        pair[i, i, SCORE] = score
    for i in range(A):  # insertion sort of the rows by decreasing score
        p = i
        while p > 0 and pair[order[A + ROWS, p - 1], order[A + ROWS, p - 1], SCORE] < pair[i, i, SCORE]:
            order[A + ROWS, p] = order[A + ROWS, p - 1]
            p -= 1
        order[A + ROWS, p] = i
    for i in range(A):
        for j in range(i + 1, A):
            _refresh(pair, i, j, z, not borda)
    for i in range(A):
        _row_caches(pair, i, borda)
    return pair, order


@nb.njit(cache=True)
def observe(pair, order, i, j, o, borda, z=THRESHOLD_Z):
    """Append the outcome ``o`` of duel ``(i, j)`` to the history (Alg. 1 line 6, Alg. 2 line 11).

    ``W[i, j] += o`` and ``W[j, i] += 1 - o``; a self-duel updates nothing. The tails (carried by the
    recurrences of :func:`beta_tail`'s sum, with ``K_n ~ Bin(n, u)``:
    ``P(K_{n+1} <= k) = P(K_n <= k) - u P(K_n = k)``), row caches, scores and orderings of the two changed
    entries are then repaired. Written out flat: see the module docstring on calls.
    """
    if i == j:
        return
    A = pair.shape[0]
    half = not borda
    old_i = posterior_mean(pair, i, j)
    old_j = posterior_mean(pair, j, i)
    for x, y, won in ((i, j, o == 1), (j, i, o == 0)):  # counts not yet updated
        pair[x, y, AGE] += 1.0
        u = pair[x, y, UPPER]
        if u < 1.0:
            a = pair[x, y, COUNT] + 1.0
            b = pair[y, x, COUNT] + 1.0
            n = a + b - 1.0
            s = pair[x, y, EDGE]
            if won:  # a -> a + 1: p gains (1 - u) P(K_n = a)
                pair[x, y, TAIL] += s * b * u / a
                pair[x, y, EDGE] = s * u * (n + 1.0) / a
            else:  # b -> b + 1
                pair[x, y, TAIL] -= u * s
                pair[x, y, EDGE] = s * (n + 1.0) * (1.0 - u) / (b + 1.0)
    w, l = (i, j) if o == 1 else (j, i)
    pair[w, l, COUNT] += 1.0
    d = pair[w, l, COUNT] + 2.0 / 3.0
    pair[w, l, SHAPE] = d
    pair[w, l, SCALE] = 1.0 / np.sqrt(9.0 * d)
    a = pair[i, j, COUNT] + 1.0
    b = pair[j, i, COUNT] + 1.0
    if _stale(pair[i, j, UPPER], pair[i, j, TAIL], pair[i, j, EDGE], pair[i, j, AGE], a, b, z, half) or _stale(
        pair[j, i, UPPER], pair[j, i, TAIL], pair[j, i, EDGE], pair[j, i, AGE], b, a, z, half
    ):
        _refresh(pair, i, j, z, half)
    for r, c, old in ((i, j, old_i), (j, i, old_j)):
        _row_caches(pair, r, borda)
        p = 0  # column c to its place in row r by increasing mean (one insertion step)
        while order[r, p] != c:
            p += 1
        m = posterior_mean(pair, r, c)
        while p > 0 and posterior_mean(pair, r, order[r, p - 1]) > m:
            order[r, p] = order[r, p - 1]
            p -= 1
        while p < A - 2 and posterior_mean(pair, r, order[r, p + 1]) < m:
            order[r, p] = order[r, p + 1]
            p += 1
        order[r, p] = c
        if borda:  # the row sum of the means moves by the changed mean (rounding only affects the order)
            pair[r, r, SCORE] += m - old
        else:
            pair[r, r, SCORE] = min(HALF, posterior_mean(pair, r, order[r, 0]))
    for p in range(1, A):  # insertion sort of the rows by decreasing score: linear when nearly sorted
        r = order[A + ROWS, p]
        s = pair[r, r, SCORE]
        q = p
        while q > 0 and pair[order[A + ROWS, q - 1], order[A + ROWS, q - 1], SCORE] < s:
            order[A + ROWS, q] = order[A + ROWS, q - 1]
            q -= 1
        order[A + ROWS, q] = r


# ------------------------------------------------------------------ sampling
# Why the chosen action has the law of the full-matrix argmax, and the bounds and value laws of the
# tail labels: docs/paper.md, "Exact sampling shortcuts".


@nb.njit(cache=True)
def _bins(pair, order, dest, i, u0, lower, borda, rng):
    """Tail labels of row ``i`` into ``order[dest]``, given ``u0 >= MASS_BOTH`` (``lower``: both tails) or
    ``u0 >= MASS_UP`` (upper tails only), i.e. some entry is in a tail; returns the ``(lower, upper)`` bounds
    on the row statistic (the sum for ``borda``, else the min with 1/2) that the labels give."""
    A = pair.shape[0]
    prod = 1.0
    found = False
    lo = HALF
    hi = HALF
    for j in range(A):
        order[dest, j] = 0
        if j == i:
            continue
        p = pair[i, j, TAIL]
        q = pair[j, i, TAIL] if lower else 0.0
        if found:
            v = rng.random()
            if v < p:
                order[dest, j] = 1
            elif v < p + q:
                order[dest, j] = -1
        else:
            prod *= 1.0 - (p + q) if lower else 1.0 - p
            if u0 >= prod:  # the first tail of the row, by inversion of the product behind the mass
                found = True
                order[dest, j] = 1 if rng.random() * (p + q) < p else -1
        label = order[dest, j]
        if label == 1:
            up, down = 1.0, pair[i, j, UPPER]
        elif label == -1:
            up, down = 1.0 - pair[j, i, UPPER], 0.0
        else:
            up, down = pair[i, j, UPPER], (1.0 - pair[j, i, UPPER] if lower else 0.0)
        if borda:
            hi += up
            lo += down
        else:
            hi = min(hi, up)
            lo = min(lo, down)
    return lo, hi


@nb.njit(cache=True)
def _tail_value(pair, i, j, label, rng):
    """``theta[i, j]`` given that it is in the upper (``label`` 1) or lower (-1) tail; the lower tail is
    1 minus the upper tail of the twin law ``Beta(W[j, i] + 1, W[i, j] + 1)``."""
    x, y = (i, j) if label == 1 else (j, i)
    a = pair[x, y, COUNT] + 1.0
    b = pair[y, x, COUNT] + 1.0
    theta = upper_tail_variate(a, b, pair[x, y, UPPER], pair[x, y, TAIL], pair[x, y, EDGE], rng)
    return theta if label == 1 else 1.0 - theta


@nb.njit(cache=True)
def sample_borda(pair, order, first, rng):
    """One Thompson choice of Alg. 2 lines 7-8: ``argmax_i sum_j theta[i, j]``, ties uniform.

    Returns ``(action, number of Beta variates)``. ``first`` (the action chosen last time) draws the labels
    of both its tails, which bound its sum from below by ``FLOOR``; then the other rows, by decreasing score,
    draw their upper labels until one may reach that floor. If none may, ``first`` is the argmax and no Beta
    variate is drawn (the usual case once the posterior is concentrated). Otherwise ``first`` is completed,
    and the rows from that one on are visited as usual: dropped once their revealed values plus upper
    bounds of the rest fall below the best completed sum (less ``BORDA_SLACK``); the rows before it are
    below the floor, hence below that sum. The label-0 case is written out here: see the module docstring.
    """
    A = pair.shape[0]
    rows, bins, first_bins = A + ROWS, A + BINS, A + FIRST_BINS
    u0 = rng.random()
    plain_first = u0 < pair[first, first, MASS_BOTH]
    if plain_first:
        floor = pair[first, first, FLOOR]
    else:
        floor = _bins(pair, order, first_bins, first, u0, True, True, rng)[0]
    stop = A
    plain_stop = True
    cap_stop = 0.0
    for k in range(A):
        r = order[rows, k]
        if r == first:
            continue
        u0 = rng.random()
        plain = u0 < pair[r, r, MASS_UP]
        cap = pair[r, r, CAP] if plain else _bins(pair, order, bins, r, u0, False, True, rng)[1]
        if cap >= floor - BORDA_SLACK:
            stop, plain_stop, cap_stop = k, plain, cap
            break
    if stop == A:
        return first, 0
    draws = 0
    value = HALF
    for q in range(A - 1):
        j = order[first, q]
        label = 0 if plain_first else order[first_bins, j]
        if label == 0:  # 1 - u[j, first] <= theta <= u[first, j]: rejection from the posterior
            u = pair[first, j, UPPER]
            floor_j = 1.0 - pair[j, first, UPPER]
            while True:
                theta = _beta_cached(pair, first, j, rng)
                draws += 1
                if (theta <= u) & (theta >= floor_j):
                    break
        else:
            theta = _tail_value(pair, first, j, label, rng)
            draws += 1
        value += theta
    best = value
    chosen = first
    ties = 1
    for k in range(stop, A):
        i = order[rows, k]
        if i == first:
            continue
        if k == stop:  # its labels are already drawn
            plain, cap = plain_stop, cap_stop
        else:
            u0 = rng.random()
            plain = u0 < pair[i, i, MASS_UP]
            cap = pair[i, i, CAP] if plain else _bins(pair, order, bins, i, u0, False, True, rng)[1]
        if cap < best - BORDA_SLACK:
            continue
        value = HALF
        dropped = False
        for q in range(A - 1):
            j = order[i, q]
            label = 0 if plain else order[bins, j]
            if label == 0:  # theta <= u: rejection from the posterior
                u = pair[i, j, UPPER]
                while True:
                    theta = _beta_cached(pair, i, j, rng)
                    draws += 1
                    if theta <= u:
                        break
                cap += theta - u
            else:
                theta = _tail_value(pair, i, j, 1, rng)
                draws += 1
                cap += theta - 1.0
            value += theta
            if cap < best - BORDA_SLACK:
                dropped = True
                break
        if dropped:
            continue
        # a reservoir over the completed rows: uniform among the final maximisers
        best, ties, chosen = argmax_step(value, best, ties, chosen, i, rng)
    return chosen, draws


@nb.njit(cache=True)
def sample_maximin(pair, order, first, rng):
    """One Thompson choice of Alg. 1 lines 3-4: ``argmax_i min_j theta[i, j]``, ties uniform.

    Returns ``(action, number of Beta variates)``. Rows are visited from ``first`` (the action chosen last
    time), then by decreasing score; each draws the labels of both tails of its entries, is dropped if
    ``min(1/2, upper bounds)`` is below the best completed min, and otherwise reveals values by increasing
    posterior mean, skipping every entry whose lower bound is at least the running min (it cannot lower it;
    so a row whose entries all lie surely above 1/2 scores exactly 1/2 with no variate), until it is
    complete or its min falls below the best (exact comparisons: ties at 1/2 are real). The label-0 case is
    written out here: see the module docstring.
    """
    A = pair.shape[0]
    rows, bins = A + ROWS, A + BINS
    best = -1.0
    chosen = first
    ties = 0
    draws = 0
    for k in range(-1, A):
        if k < 0:
            i = first
        else:
            i = order[rows, k]
            if i == first:
                continue
        u0 = rng.random()
        plain = u0 < pair[i, i, MASS_BOTH]  # no entry of the row in a tail
        cap = pair[i, i, CAP] if plain else _bins(pair, order, bins, i, u0, True, False, rng)[1]
        if cap < best:
            continue
        value = HALF  # the diagonal caps the min
        dropped = False
        for q in range(A - 1):
            j = order[i, q]
            label = 0 if plain else order[bins, j]
            if label == 0:
                floor = 1.0 - pair[j, i, UPPER]
                if floor >= value:
                    continue  # theta[i, j] >= floor >= the running min: it cannot lower it
                u = pair[i, j, UPPER]
                while True:  # 1 - u[j, i] <= theta <= u[i, j]: rejection from the posterior
                    theta = _beta_cached(pair, i, j, rng)
                    draws += 1
                    if (theta <= u) & (theta >= floor):
                        break
            else:
                if label == 1 and pair[i, j, UPPER] >= value:
                    continue  # theta[i, j] > u[i, j] >= the running min
                theta = _tail_value(pair, i, j, label, rng)
                draws += 1
            if theta < value:
                value = theta
                if value < best:
                    dropped = True
                    break
        if dropped:
            continue
        # a reservoir over the completed rows: uniform among the final maximisers
        best, ties, chosen = argmax_step(value, best, ties, chosen, i, rng)
    return chosen, draws
