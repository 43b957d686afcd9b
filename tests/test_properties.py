"""Property-based tests: valid inputs simulate, invalid ones raise the documented error."""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duelbandits import (
    ALGORITHMS,
    AlgorithmError,
    MatrixError,
    ScenarioError,
    SimulationError,
    make_scenario,
    simulate,
    validate_matrix,
)

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
probabilities = st.floats(0.0, 1.0, allow_nan=False)


@st.composite
def preference_matrices(draw, max_actions=6):
    A = draw(st.integers(2, max_actions))
    upper = draw(st.lists(probabilities, min_size=A * (A - 1) // 2, max_size=A * (A - 1) // 2))
    X = np.full((A, A), 0.5)
    X[np.triu_indices(A, 1)] = upper
    X[np.tril_indices(A, -1)] = 1.0 - X.T[np.tril_indices(A, -1)]
    return X


@SETTINGS
@given(
    X=preference_matrices(),
    algorithm=st.sampled_from(list(ALGORITHMS)),
    horizon=st.integers(9, 150),
    seed=st.integers(0, 2**32),
)
def test_every_valid_matrix_simulates(X, algorithm, horizon, seed):
    res = simulate(X, algorithm, horizon, seed, stride=7)
    A = X.shape[0]
    assert res.I.shape == (horizon,) and res.I.min() >= 0 and res.I.max() < A
    assert res.J.min() >= 0 and res.J.max() < A
    assert set(np.unique(res.outcomes)) <= {0, 1}
    for probs in res.strategies.values():
        np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)


def _corrupt(X, how, data):
    A = X.shape[0]
    i, j = data.draw(st.integers(0, A - 1)), data.draw(st.integers(0, A - 1))
    Y = X.copy()
    if how == "range":
        Y[i, j] = data.draw(st.one_of(st.floats(1.0001, 1e6), st.floats(-1e6, -0.0001)))
    elif how == "antisymmetry":
        j = (i + 1) % A
        Y[i, j] = min(1.0, Y[i, j] + data.draw(st.floats(1e-6, 1.0))) if Y[i, j] < 1 else 0.3
        if Y[i, j] + Y[j, i] == 1:
            Y[i, j] = Y[i, j] / 2 + 0.01
    elif how == "diagonal":
        Y[i, i] = data.draw(st.floats(0.0, 1.0).filter(lambda v: abs(v - 0.5) > 1e-9))
    elif how == "nan":
        Y[i, j] = data.draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    elif how == "shape":
        Y = Y[:, : A - 1] if A > 2 else Y[:1]
    return Y


@SETTINGS
@given(
    X=preference_matrices(), how=st.sampled_from(["range", "antisymmetry", "diagonal", "nan", "shape"]), data=st.data()
)
def test_every_corrupted_matrix_raises_matrix_error(X, how, data):
    Y = _corrupt(X, how, data)
    with pytest.raises(MatrixError):
        validate_matrix(Y)
    with pytest.raises(MatrixError):
        simulate(Y, "dts", 10, 0)


anything = st.one_of(
    st.integers(-5, 40), st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=3), st.none(), st.booleans()
)


@SETTINGS
@given(
    name=st.one_of(st.sampled_from(["condorcet", "borda"]), st.text(max_size=8)),
    actions=anything,
    utility_max=anything,
    margin=anything,
    borda_strength=anything,
)
def test_scenario_arguments_either_build_or_raise_scenario_error(name, actions, utility_max, margin, borda_strength):
    try:
        sc = make_scenario(
            name, actions=actions, seed=1, utility_max=utility_max, margin=margin, borda_strength=borda_strength
        )
    except ScenarioError:
        return
    validate_matrix(sc.matrix)
    assert sc.matrix.shape == (actions, actions)


@SETTINGS
@given(
    algorithm=st.one_of(st.sampled_from(list(ALGORITHMS)), st.text(max_size=6)),
    horizon=anything,
    seed=anything,
    params=st.dictionaries(st.sampled_from(["c_alpha", "alpha", "eta", "foo"]), anything, max_size=2),
)
def test_simulate_arguments_either_run_or_raise_documented_errors(algorithm, horizon, seed, params):
    X = make_scenario("condorcet", actions=4, seed=0).matrix
    try:
        res = simulate(X, algorithm, horizon, seed, **params)
    except (AlgorithmError, SimulationError):
        return
    assert res.I.shape == (horizon,)
