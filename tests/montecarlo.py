"""Monte Carlo helpers of the sampler tests: count states, the full-theta reference, a two-sample check."""

import numpy as np

from duelbandits import regret

N_MC = 20_000
"""Monte Carlo draws per sampler in the exactness tests."""


def random_counts(A, seed):
    """Win counts uniform on 0..24 off the diagonal, 0 on it."""
    W = np.random.default_rng(seed).integers(0, 25, size=(A, A)).astype(float)
    np.fill_diagonal(W, 0.0)
    return W


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
