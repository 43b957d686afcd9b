"""Property-based tests: random valid matrices simulate under every algorithm, and random valid scenario
arguments build their promised winners (valid by construction). The simulation's own arguments (seeds,
strides, horizons, hyper-parameters) are tests/test_algorithm_contract.py's; the invalid inputs are refused
one per kind, with their messages: tests/test_scenarios.py, test_scenarios_edges.py, test_simulation.py.

Every strategy below builds the inputs its test needs, so each example reaches the branch under
test: no test passes by sending most of its examples down an early ``return``. Hypothesis runs
derandomized and without its example database, so CI and a laptop run the same examples.
"""

import math
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duelbandits import ALGORITHMS, make_scenario, simulate, validate_matrix, winners

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
