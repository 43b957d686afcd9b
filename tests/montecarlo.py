"""Monte Carlo helpers of the sampler tests: count states, a total order, the full-theta reference, a
two-sample check, and the per-step law of a kernel's draws (pooled runs, a per-cell martingale check and its
power)."""

import numpy as np

from duelbandits import regret

N_MC = 20_000
"""Monte Carlo draws per sampler in the exactness tests."""


def random_counts(A, seed):
    """Win counts uniform on 0..24 off the diagonal, 0 on it."""
    W = np.random.default_rng(seed).integers(0, 25, size=(A, A)).astype(float)
    np.fill_diagonal(W, 0.0)
    return W


def near_half_matrix(A, seed, spread):
    """A preference matrix whose entries above the diagonal are uniform on ``1/2 +- spread`` (close to 1/2,
    so that confidence-bound algorithms stay unsure for long)."""
    rng = np.random.default_rng(seed)
    X = np.full((A, A), 0.5)
    iu = np.triu_indices(A, 1)
    v = rng.uniform(0.5 - spread, 0.5 + spread, len(iu[0]))
    X[iu] = v
    X[iu[1], iu[0]] = 1 - v
    return X


def total_order(A):
    """``X[i, j] = 1`` for ``i < j`` (0 beats everyone surely, 1 everyone but 0, ...): every duel of two
    different actions has a known outcome, and the gaps let confidence-bound algorithms decide quickly."""
    i, j = np.indices((A, A))
    return np.where(i < j, 1.0, np.where(i > j, 0.0, 0.5))


def full_theta_choices(W, n, rng, score):
    """Reference: sample the whole theta, take argmax_i score(theta[i, :]), ties uniform.

    theta[i, j] ~ Beta(W[i, j] + 1, W[j, i] + 1) with 1/2 on the diagonal;
    ``score`` reduces the rows (``np.min`` for Maximin, ``np.sum`` for Borda).
    """
    A = W.shape[0]
    theta = rng.beta(W + 1.0, W.T + 1.0, size=(n, A, A))
    theta[:, np.arange(A), np.arange(A)] = 0.5
    s = score(theta, axis=2)
    maximisers = s == s.max(axis=1, keepdims=True)
    return np.argmax(maximisers * (1.0 + rng.random((n, A))), axis=1)


def assert_same_frequencies(a, b, A, context=None):
    """Per-value frequencies of two independent samples of values 0..A-1 agree.

    Under equal laws f_a - f_b has standard error sqrt(p (1 - p) (1/n_a + 1/n_b))
    (p pooled; sqrt(2 p (1 - p) / n) at equal sizes); 5 standard errors give a
    false alarm < 6e-7 per value.
    """
    na, nb = len(a), len(b)
    fa = np.bincount(a, minlength=A) / na
    fb = np.bincount(b, minlength=A) / nb
    p = (fa * na + fb * nb) / (na + nb)
    tol = 5 * np.sqrt(p * (1 - p) * (1 / na + 1 / nb)) + 1e-12
    assert np.all(np.abs(fa - fb) <= tol), (context, fa, fb, tol)


def uniform_regret(kind, X, T):
    """Expected ``kind`` regret of T steps of uniform play: T times the mean over all A^2 pairs."""
    A = X.shape[0]
    pairs = np.indices((A, A)).reshape(2, -1)
    return T * regret.per_step(kind, X, pairs[0], pairs[1]).mean()


def assert_pairs_follow(I, J, P, Q, context=None, z=5.0):
    """Each step's ``(I_t, J_t)`` is drawn from ``P_t x Q_t`` (independent draws), checked per cell.

    ``P`` and ``Q`` hold one law per step (rows, the laws the kernel recorded
    before drawing). For a cell ``(a, b)`` the count ``N = sum_t 1(I_t = a, J_t = b)``
    minus ``E = sum_t P_t(a) Q_t(b)`` is a martingale whose increments have
    conditional variance ``pi_t (1 - pi_t)`` with ``pi_t = P_t(a) Q_t(b)``, so
    ``(N - E) / sqrt(sum_t pi_t (1 - pi_t))`` is about standard normal (martingale
    CLT); ``z = 5`` gives a false alarm < 6e-7 per cell. Returns the largest
    ``|z|`` over the cells.
    """
    A = P.shape[1]
    pi = P[:, :, None] * Q[:, None, :]  # (steps, A, A)
    counts = np.zeros((A, A))
    np.add.at(counts, (I, J), 1.0)
    sd = np.sqrt((pi * (1 - pi)).sum(axis=0))
    diff = counts - pi.sum(axis=0)
    # a cell of probability 0 (or 1) at every step has sd 0: its count must then be exact
    scores = np.divide(diff, sd, out=np.where(diff == 0, 0.0, np.inf), where=sd > 0)
    assert np.all(np.abs(scores) <= z), (context, scores)
    return np.abs(scores).max()


def separation(P, Q, P_alt, Q_alt):
    """Smallest number of standard deviations by which the cell counts :func:`assert_pairs_follow`
    expects under the laws ``P_t x Q_t`` differ, in the cell where they differ most, from those of
    ``P_alt x Q_alt``: the test's power against that alternative on this very trajectory."""
    pi = P[:, :, None] * Q[:, None, :]
    alt = P_alt[:, :, None] * Q_alt[:, None, :]
    sd = np.sqrt((pi * (1 - pi)).sum(axis=0))
    return (np.abs(pi.sum(axis=0) - alt.sum(axis=0)) / sd).max()


def pooled_runs(run, X, horizon, runs, seed, **hyper):
    """``runs`` runs of an algorithm module's ``run`` with every step's strategies recorded, pooled:
    ``(I, J, {player: laws})`` with one row of each player's law per pooled step."""
    rng = np.random.default_rng(seed)
    record = np.arange(1, horizon + 1)
    results = [run(X, horizon, rng, record, **hyper) for _ in range(runs)]
    I = np.concatenate([r[0] for r in results])
    J = np.concatenate([r[1] for r in results])
    laws = {player: np.concatenate([r[3][player] for r in results]) for player in results[0][3]}
    return I, J, laws


def close_to_law(frequencies, law, n):
    """Whether the frequencies of ``n`` independent draws are within 5 binomial standard errors
    ``sqrt(p (1 - p) / n)`` of the law ``p``, value by value (false alarm < 6e-7 each; a value of
    probability 0 or 1 must then be matched exactly, up to 1e-12)."""
    p = np.asarray(law, dtype=float)
    return bool(np.all(np.abs(np.asarray(frequencies) - p) <= 5 * np.sqrt(p * (1 - p) / n) + 1e-12))
