"""Property-based tests: valid inputs (valid by construction) simulate and build, each invalid input
(invalid by construction, one argument at a time) raises the documented error.

Every strategy below builds the inputs its test needs, so each example reaches the branch under
test: no test passes by sending most of its examples down an early ``return``. Hypothesis runs
derandomized and without its example database, so CI and a laptop run the same examples.
"""

import math
import warnings

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
    winners,
)
from duelbandits.matrices import MATRIX_ATOL
from duelbandits.scenarios import SCENARIOS

SETTINGS = settings(
    max_examples=40, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
MANY = settings(SETTINGS, max_examples=200)
"""For the tests whose examples take about a millisecond."""
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # short horizons clip Exp3.P's and PM's gamma to 1, with a warning
        res = simulate(X, algorithm, horizon, seed, stride=7)
    A = X.shape[0]
    assert res.I.shape == (horizon,) and res.I.min() >= 0 and res.I.max() < A
    assert res.J.min() >= 0 and res.J.max() < A
    assert set(np.unique(res.outcomes)) <= {0, 1}
    for probs in res.strategies.values():
        np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-12)


GAP = 1e-6
"""Smallest violation a corruption makes: 10^6 times the tolerance MATRIX_ATOL, so no rounding
of the corrupted entries (at most 2.2e-16 each) can bring it back within the tolerance."""


def _corrupt(X, how, data):
    """A copy of the valid ``X`` that breaks exactly one rule of a preference matrix, by at least GAP."""
    A = X.shape[0]
    i = data.draw(st.integers(0, A - 1))
    j = (i + data.draw(st.integers(1, A - 1))) % A  # j != i
    Y = X.copy()
    if how == "range":
        Y[i, j] = data.draw(st.one_of(st.floats(1 + GAP, 1e6), st.floats(-1e6, -GAP)))
    elif how == "antisymmetry":
        # X[i, j] + X[j, i] = 1 + gap or 1 - gap, both entries in [0, 1]
        v, gap = data.draw(probabilities), data.draw(st.floats(GAP, 0.5))
        Y[i, j], Y[j, i] = v, (1.0 - v + gap if v >= gap else 1.0 - v - gap)
    elif how == "diagonal":
        Y[i, i] = 0.5 + data.draw(st.sampled_from([-1, 1])) * data.draw(st.floats(GAP, 0.5))
    elif how == "nan":
        Y[i, j] = data.draw(st.sampled_from([np.nan, np.inf, -np.inf]))
    elif how == "shape":
        Y = Y[:, : A - 1] if A > 2 else Y[:1]
    return Y


@MANY
@given(
    X=preference_matrices(), how=st.sampled_from(["range", "antisymmetry", "diagonal", "nan", "shape"]), data=st.data()
)
def test_every_corrupted_matrix_raises_matrix_error(X, how, data):
    Y = _corrupt(X, how, data)
    if how == "antisymmetry":  # the construction's promise, checked on the rounded floats
        gaps = np.abs(Y + Y.T - 1.0)
        np.fill_diagonal(gaps, 0.0)
        assert gaps.max() >= GAP * (1 - 1e-9) > MATRIX_ATOL
    with pytest.raises(MatrixError):
        validate_matrix(Y)
    with pytest.raises(MatrixError):
        simulate(Y, "dts", 10, 0)


def _logit(p):
    return math.log(p / (1.0 - p))


@st.composite
def scenario_arguments(draw, name):
    """Arguments under which ``name`` builds, by construction.

    Every utility gap is at most c = utility_max, so every entry of the logistic matrix is at most
    sigma(c) = 1 / (1 + e^-c). condorcet: the winner is ahead by >= margin > 0, so it beats every
    other action. borda (s = borda_strength): i2's row sum is >= 1/2 + (A - 2) s + 1 - sigma(c),
    that of i* <= 1/2 + (A - 1) sigma(c) and that of any other o <= 1/2 + 1 - s + (A - 2) sigma(c),
    so i2 is the unique Borda winner once sigma(c) < ((A - 2) s + 1) / A (<= s); i* keeps its
    entries against all but i2, whom it beats, so it stays the Condorcet and Maximin winner.
    cyclic: with the fixed entries of scenarios.CYCLIC, a wins A - 2 duels and every other action
    at most A - 3 (Copeland); b's worst entry 0.4 beats every other row minimum (Maximin); c's row
    sum 2.05 + (A - 4) s beats a's 0.65 (A - 1), b's 0.45 A + 0.25 for s >= 0.7, A >= 5, and every
    o's <= 1.95 + (A - 4) sigma(c) once sigma(c) <= s (Borda).
    """
    A = draw(st.integers({"condorcet": 2, "borda": 3, "cyclic": 5}[name], 12))
    s = draw(st.floats(0.7 if name == "cyclic" else 0.6, 1.0))
    if name == "condorcet":
        cap = 20.0
    elif name == "borda":
        cap = _logit(((A - 2) * s + 1) / A)
    else:
        cap = _logit(s) if s < 1 else 20.0
    utility_max = min(cap, 20.0) * draw(st.floats(0.01, 0.999))
    margin = utility_max * draw(st.floats(0.01, 0.99))
    seed = draw(st.integers(0, 2**32))
    return {"actions": A, "seed": seed, "utility_max": utility_max, "margin": margin, "borda_strength": s}


@MANY
@given(data=st.data(), name=st.sampled_from(["condorcet", "borda", "cyclic"]))
def test_valid_scenario_arguments_build_a_matrix_with_the_promised_winners(data, name):
    args = data.draw(scenario_arguments(name))
    sc = make_scenario(name, **args)
    X = validate_matrix(sc.matrix)
    assert X.shape == (args["actions"], args["actions"])
    by_utility = np.argsort(sc.utilities)[::-1]
    if name == "cyclic":
        a, b, c = by_utility[:3]
        assert winners.condorcet_winner(X) is None
        assert winners.copeland_winners(X).tolist() == [a] and winners.maximin_winners(X).tolist() == [b]
        assert winners.borda_winners(X).tolist() == [c]
    else:
        assert winners.condorcet_winner(X) == by_utility[0]
        if name == "borda" and args["actions"] > 2:
            assert winners.borda_winners(X).tolist() == [by_utility[1]]


not_a_number = st.one_of(st.text(max_size=3), st.none(), st.booleans(), st.just([1.0]))


@st.composite
def invalid_scenario_arguments(draw):
    """``(name, kwargs)`` with exactly one invalid argument."""
    name = draw(st.sampled_from(["condorcet", "borda", "cyclic"]))
    kwargs = {"actions": 10, "seed": 1}
    broken = draw(st.sampled_from(["name", "actions", "parameter", "range", "unknown", "cyclic-actions"]))
    if broken == "name":
        name = draw(st.text(max_size=8).filter(lambda s: s not in SCENARIOS))
    elif broken == "actions":
        # not None, which means the default, 10
        not_a_count = st.one_of(st.text(max_size=3), st.booleans(), st.just([1.0]))
        kwargs["actions"] = draw(st.one_of(st.integers(-5, 1), st.floats(2.0, 9.0), not_a_count))
    elif broken == "parameter":  # not a finite number
        key = draw(st.sampled_from(["utility_max", "margin", "borda_strength"]))
        kwargs[key] = draw(st.one_of(not_a_number, st.sampled_from([math.nan, math.inf, -math.inf])))
    elif broken == "range":
        kwargs.update(
            draw(
                st.one_of(
                    st.fixed_dictionaries({"utility_max": st.floats(-10.0, 0.0)}),
                    st.fixed_dictionaries({"margin": st.floats(-10.0, -1e-9)}),
                    st.fixed_dictionaries({"margin": st.floats(3.0, 10.0)}),  # >= utility_max = 3
                    st.fixed_dictionaries({"borda_strength": st.floats(-1.0, 0.5)}),
                    st.fixed_dictionaries({"borda_strength": st.floats(1.0, 5.0, exclude_min=True)}),
                )
            )
        )
    elif broken == "unknown":
        kwargs[draw(st.sampled_from(["strength", "utilty_max", "c"]))] = 1.0
    else:
        name, kwargs["actions"] = "cyclic", draw(st.integers(2, 4))
    return name, kwargs


@MANY
@given(arguments=invalid_scenario_arguments())
def test_each_invalid_scenario_argument_raises_scenario_error(arguments):
    name, kwargs = arguments
    with pytest.raises(ScenarioError):
        make_scenario(name, **kwargs)


@st.composite
def valid_simulations(draw):
    """``(algorithm, horizon, seed, stride, params)`` that simulate, by construction."""
    algorithm = draw(st.sampled_from(list(ALGORITHMS)))
    horizon = draw(st.integers(9, 120))
    seed = draw(st.one_of(st.integers(0, 2**64), st.builds(np.random.SeedSequence, st.integers(0, 2**32))))
    params = {}
    if algorithm == "ts-borda" and draw(st.booleans()):
        # alpha = c_alpha T^(-1/3) < 1/2: c_alpha below 0.5 T^(1/3), by a safe factor
        params["c_alpha"] = 0.5 * horizon ** (1 / 3) * draw(st.floats(0.01, 0.99))
    if algorithm == "dts" and draw(st.booleans()):
        params["alpha"] = draw(st.floats(1e-3, 10.0))
    return algorithm, horizon, seed, draw(st.integers(1, 200)), params


@MANY
@given(case=valid_simulations())
def test_valid_simulate_arguments_run_and_return_their_shapes(case):
    algorithm, horizon, seed, stride, params = case
    X = make_scenario("condorcet", actions=4, seed=0).matrix
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # gamma clipping at short horizons
        res = simulate(X, algorithm, horizon, seed, stride=stride, **params)
    assert res.I.shape == res.J.shape == res.outcomes.shape == (horizon,)
    assert res.params == ALGORITHMS[algorithm].hyperparameters(**params)
    for probs in res.strategies.values():
        assert probs.shape == (len(res.strategy_steps), 4)


@st.composite
def invalid_simulations(draw):
    """``(error, algorithm, horizon, seed, stride, params)`` with exactly one invalid argument."""
    args = {"algorithm": "ts-borda", "horizon": 50, "seed": 0, "stride": 10, "params": {}}
    broken = draw(st.sampled_from(["algorithm", "parameter", "c_alpha", "alpha", "horizon", "stride", "seed"]))
    error = AlgorithmError
    if broken == "algorithm":
        args["algorithm"] = draw(st.text(max_size=6).filter(lambda s: s not in ALGORITHMS))
    elif broken == "parameter":  # a name the algorithm does not have
        args["algorithm"] = draw(st.sampled_from(list(ALGORITHMS)))
        args["params"] = {draw(st.sampled_from(["eta", "foo", "gamma"])): 1.0}
    elif broken == "c_alpha":  # not > 0, not finite, not a number, or alpha = c_alpha 50^(-1/3) >= 1/2
        too_large = st.floats(0.5 * 50 ** (1 / 3) * (1 + 1e-9), 1e6)
        args["params"] = {
            "c_alpha": draw(st.one_of(st.floats(-10, 0), st.just(math.nan), st.just(math.inf), too_large, not_a_number))
        }
    elif broken == "alpha":
        args["algorithm"] = "dts"
        args["params"] = {"alpha": draw(st.one_of(st.floats(-10, 0), st.just(math.nan), not_a_number))}
    else:
        error = SimulationError
        bad_int = st.one_of(st.integers(-10, 0), st.floats(1.0, 9.0), st.text(max_size=3), st.none(), st.booleans())
        args[broken] = draw(
            st.one_of(st.integers(-10, -1), st.floats(0.0, 9.0), not_a_number) if broken == "seed" else bad_int
        )
    return error, args


@MANY
@given(case=invalid_simulations())
def test_each_invalid_simulate_argument_raises_its_documented_error(case):
    error, args = case
    X = make_scenario("condorcet", actions=4, seed=0).matrix
    with pytest.raises(error):
        simulate(X, args["algorithm"], args["horizon"], args["seed"], stride=args["stride"], **args["params"])
