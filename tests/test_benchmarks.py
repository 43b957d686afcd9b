"""The published benchmark matrices shipped as package data (matrices.BENCHMARKS)."""

import re
import tomllib
from importlib import resources
from pathlib import Path

import numpy as np
import pytest

from duelbandits import cli, make_scenario, winners
from duelbandits.errors import ScenarioError
from duelbandits.matrices import BENCHMARKS, MATRIX_ATOL, fitted_utilities, validate_matrix

SIZES = {"arithmetic": 8, "mslr5": 5}
"""A of each benchmark as its publication states it."""

MSLR5_FIRST_ROW = [0.5, 0.53519466, 0.6125935, 0.75696008, 0.76547422]
"""Row 1 of HuasenWu/DuelingBandits DuelingBandit/data/MSLR_Informational_5_Condorcet.txt (8 decimals)."""

MSLR5_FIRST_ROW_3DP = [0.500, 0.535, 0.613, 0.757, 0.765]
"""The same row at the 3 decimals of Wu & Liu (2016), Appendix D.1.3."""

MSLR5_FIRST_COLUMN_3DP = [0.500, 0.465, 0.387, 0.243, 0.235]
"""Column 1 at 3 decimals, as transcribed from Appendix D.1.3 (nightingal3/duelling-bandits)."""


def data_file(name: str) -> str:
    return resources.files("duelbandits").joinpath("data", BENCHMARKS[name][0]).read_text(encoding="utf-8")


def test_each_benchmark_is_an_exact_preference_matrix_of_its_published_size():
    assert set(BENCHMARKS) == set(SIZES)  # (their place among the scenarios: tests/test_scenarios_edges.py)
    for name in sorted(SIZES):
        sc = make_scenario(name)
        assert sc.name == name and sc.matrix.shape == (SIZES[name], SIZES[name])
        validate_matrix(sc.matrix, atol=MATRIX_ATOL)  # X + X^T = 1 and diagonal 1/2 up to 1e-12
        assert sc.params == {"actions": SIZES[name], "source": BENCHMARKS[name][1]}
        np.testing.assert_array_equal(sc.utilities, fitted_utilities(sc.matrix))


def test_each_data_file_cites_a_publication_repository_path_and_commit():
    for name in sorted(SIZES):
        header = [line for line in data_file(name).splitlines() if line.startswith("#")]
        text = "\n".join(header)
        assert re.search(r"\b(19|20)\d\d\b", text)  # the publication's year
        assert "github.com/" in text and "path " in text
        assert re.search(r"commit [0-9a-f]{40}\b", text)
        assert "Transformation:" in text


def test_arithmetic_equals_the_rmed_formula_a_total_order_with_arm_1_the_winner_of_every_notion():
    """Komiyama et al. (2015): mu_ij = 0.5 + 0.05 (j - i); the 2-decimal file entries parse to within 1e-15."""
    X = make_scenario("arithmetic").matrix
    i, j = np.indices((8, 8))
    np.testing.assert_allclose(X, 0.5 + 0.05 * (j - i), rtol=0, atol=1e-12)
    upper = np.triu_indices(8, k=1)
    assert (X[upper] > 0.5).all()  # arm i beats arm j whenever i < j
    assert winners.condorcet_winner(X) == 0
    np.testing.assert_array_equal(winners.copeland_scores(X), np.arange(7, -1, -1))
    for notion in (winners.copeland_winners, winners.maximin_winners, winners.borda_winners):
        assert notion(X).tolist() == [0]
    np.testing.assert_allclose(winners.borda_scores(X)[0], 0.675, atol=1e-12)  # (0.5 + ... + 0.85) / 8


def test_mslr5_first_row_equals_the_published_numbers_and_ranker_1_wins():
    X = make_scenario("mslr5").matrix
    np.testing.assert_array_equal(X[0], MSLR5_FIRST_ROW)  # read exactly, no symmetrisation needed
    np.testing.assert_array_equal(np.round(X[0], 3), MSLR5_FIRST_ROW_3DP)
    np.testing.assert_array_equal(np.round(X[:, 0], 3), MSLR5_FIRST_COLUMN_3DP)
    # a Condorcet winner, ranker 1, as the DTS paper states
    assert winners.condorcet_winner(X) == 0
    assert (X[np.triu_indices(5, k=1)] > 0.5).all()  # the 5 rankers are totally ordered
    for notion in (winners.copeland_winners, winners.maximin_winners, winners.borda_winners):
        assert notion(X).tolist() == [0]
    # the closest duel, ranker 4 against ranker 5, still has a gap of 0.01
    np.testing.assert_allclose(X[3, 4], 0.50999465, atol=0)


def test_a_benchmark_checks_its_actions_and_its_parameters_names_ignores_their_values_and_is_a_fresh_copy():
    for name, asked in [("arithmetic", 10), ("arithmetic", 5), ("mslr5", 8)]:
        message = f"scenario {name} has {SIZES[name]} actions, but actions = {asked} was asked for"
        with pytest.raises(ScenarioError, match=re.escape(message)):
            make_scenario(name, actions=asked)
        assert make_scenario(name, actions=SIZES[name]).matrix.shape == (SIZES[name],) * 2
    base = make_scenario("arithmetic", seed=0).matrix
    np.testing.assert_array_equal(make_scenario("arithmetic", seed=123, margin=0.2).matrix, base)
    with pytest.raises(ScenarioError, match="^unknown scenario parameter.s. bogus; valid: "):  # names, not values
        make_scenario("mslr5", bogus=1.0)
    a = make_scenario("mslr5")
    a.matrix[0, 1] = 0.0
    assert make_scenario("mslr5").matrix[0, 1] == MSLR5_FIRST_ROW[1]


def test_cli_list_shows_each_benchmark_with_its_size_and_source(capsys):
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for name, (_, source) in BENCHMARKS.items():
        (line,) = [line for line in lines if line.split() and line.split()[0] == name]
        assert f"A = {SIZES[name]}" in line and source in line


def test_pyproject_ships_the_data_files_in_a_non_editable_install():
    pyproject = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())
    patterns = pyproject["tool"]["setuptools"]["package-data"]["duelbandits"]
    assert "data/*.csv" in patterns
    for file_name, _ in BENCHMARKS.values():
        assert resources.files("duelbandits").joinpath("data", file_name).is_file()
