import numpy as np
import pytest

from duelbandits import ScenarioError, make_scenario, winners
from duelbandits.scenarios import logistic_matrix


def test_condorcet_scenario_is_logistic_with_a_top_utility_of_3():
    for seed in range(5):
        sc = make_scenario("condorcet", actions=10, seed=seed)
        u, X = sc.utilities, sc.matrix
        star = int(np.argmax(u))
        assert u[star] == 3.0  # the others' range: test_scenarios_edges; the winners: test_properties
        np.testing.assert_allclose(X, 1 / (1 + np.exp(u[None, :] - u[:, None])))


def test_winner_position_is_random_and_the_seed_sets_the_matrix():
    a, b, c = (make_scenario("condorcet", seed=s).matrix for s in (3, 3, 4))
    np.testing.assert_array_equal(a, b)
    assert not np.allclose(a, c)
    positions = {int(np.argmax(make_scenario("condorcet", seed=s).utilities)) for s in range(40)}
    # P(one position in 40 uniform draws over 10 actions) is negligible; demand >= 5 distinct.
    assert len(positions) >= 5


def test_borda_scenario_modifies_condorcet_matrix():
    for seed in range(5):
        base = make_scenario("condorcet", seed=seed)
        sc = make_scenario("borda", seed=seed)
        np.testing.assert_array_equal(sc.utilities, base.utilities)
        order = np.argsort(sc.utilities)
        star, i2 = order[-1], order[-2]
        changed = np.argwhere(~np.isclose(sc.matrix, base.matrix))
        for i, j in changed:
            assert i2 in (i, j) and star not in (i, j)
        rest = [j for j in range(10) if j not in (star, i2)]
        np.testing.assert_allclose(sc.matrix[i2, rest], 0.95)
        np.testing.assert_allclose(sc.matrix[rest, i2], 0.05)
        assert winners.maximin_winners(sc.matrix).tolist() == [star]  # its Borda and Condorcet winners: test_properties


# Beyond the paper: the cyclic and file scenarios.


def test_cyclic_scenario_keeps_the_utilities_and_the_logistic_entries_among_the_other_actions():
    """(Its three winners, for any valid arguments: tests/test_properties.py.)"""
    base, sc = make_scenario("condorcet", seed=3), make_scenario("cyclic", seed=3)
    np.testing.assert_array_equal(sc.utilities, base.utilities)
    others = np.argsort(sc.utilities, kind="stable")[::-1][3:]
    np.testing.assert_array_equal(sc.matrix[np.ix_(others, others)], base.matrix[np.ix_(others, others)])


def test_cyclic_scenario_needs_five_actions_and_a_strong_enough_borda_strength():
    with pytest.raises(ScenarioError, match="at least 5 actions"):
        make_scenario("cyclic", actions=4)
    assert make_scenario("cyclic", actions=5).matrix.shape == (5, 5)
    # c crushes the others with borda_strength; near 1/2 it no longer has the largest row mean
    with pytest.raises(ScenarioError, match="unique Borda winner"):
        make_scenario("cyclic", actions=10, seed=0, borda_strength=0.55)


def test_file_scenario_reads_a_csv_matrix(tmp_path):
    sc = make_scenario("condorcet", actions=5, seed=1)
    rows = "\n".join(",".join(repr(float(v)) for v in row) for row in sc.matrix)
    path = tmp_path / "m.csv"
    path.write_text(f"# a comment line\n\n{rows}\n")
    loaded = make_scenario("file", path=path)
    np.testing.assert_array_equal(loaded.matrix, sc.matrix)
    assert loaded.params == {"actions": 5}  # no path: the same matrix anywhere gives the same results
    assert make_scenario("file", actions=5, path=str(path)).matrix.shape == (5, 5)
    # a logistic matrix's fitted Bradley-Terry utilities are its utilities up to a shift
    np.testing.assert_allclose(loaded.utilities, sc.utilities - sc.utilities.min(), atol=1e-9)


def test_float32_utilities_give_a_float64_matrix():
    """Utilities of any float width give a float64 matrix (float32 arithmetic would stay float32): with
    u = (0, 1), X[1, 0] = 1 / (1 + e^-1) = 0.7310585786300049 to double precision."""
    X = logistic_matrix(np.array([0.0, 1.0], dtype=np.float32))
    assert X.dtype == np.float64
    assert X[1, 0] == pytest.approx(0.7310585786300049, rel=1e-15)


def test_an_unknown_module_attribute_is_an_attribute_error_naming_it():
    """The lazy registries answer only their own names; any other name is Python's usual error."""
    from duelbandits import scenarios

    with pytest.raises(AttributeError, match="module 'duelbandits.scenarios' has no attribute 'NO_SUCH_NAME'"):
        scenarios.NO_SUCH_NAME  # noqa: B018
    assert scenarios.__getattr__("SCENARIOS") == scenarios.SCENARIOS
