"""Every algorithm at T = 10^6: no overflow or NaN, distributions stay distributions, storage stays O(T)."""

import warnings

import numpy as np
import pytest

from duelbandits import ALGORITHMS, make_scenario, simulate

T = 1_000_000


@pytest.mark.parametrize("algorithm", list(ALGORITHMS))
def test_million_step_run_is_finite_and_bounded(algorithm):
    X = make_scenario("borda", seed=3).matrix
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow or invalid-value warnings either
        res = simulate(X, algorithm, T, seed=11, stride=10_000)
    assert res.I.shape == res.J.shape == res.outcomes.shape == (T,)
    assert 0 <= res.I.min() and res.I.max() < 10 and 0 <= res.J.min() and res.J.max() < 10
    for probs in res.strategies.values():
        assert probs.shape == (101, 10)  # steps 1, 10001, ..., 990001 and T
        assert np.all(np.isfinite(probs))
        np.testing.assert_allclose(probs.sum(axis=1), 1.0, rtol=0, atol=1e-12)
        assert probs.min() > 0
    # What a run keeps grows as O(T + T/stride * A): at most I, J (8 bytes each),
    # the outcome and the strided strategies - about 17 bytes a step.
    stored = res.I.nbytes + res.J.nbytes + res.outcomes.nbytes + sum(p.nbytes for p in res.strategies.values())
    assert stored <= 17 * T + 2 * 101 * 10 * 8
