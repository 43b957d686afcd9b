"""Winner notions (Condorcet, Copeland, Maximin, Borda) on hand-computed matrices."""

import numpy as np

from duelbandits import winners

# 0 beats 1 and 2, 1 beats 2. Row minima, the diagonal 1/2 included: 0.5, 0.4, 0.2;
# row means 1.9/3, 1.6/3, 1.0/3; Copeland scores 2, 1, 0.
CONDORCET = np.array([[0.5, 0.6, 0.8], [0.4, 0.5, 0.7], [0.2, 0.3, 0.5]])

# 0 > 1 > 2 > 0: no Condorcet winner. Row minima 0.4, 0.1, 0.3; row means
# 1.8/3, 1.3/3, 1.4/3; each action beats exactly one other.
CYCLIC = np.array([[0.5, 0.9, 0.4], [0.1, 0.5, 0.7], [0.6, 0.3, 0.5]])

# Rows 0 and 1 are equal and X[0, 1] = 1/2 exactly: Copeland scores 2, 2, 1, 0;
# row minima 0.5, 0.5, 0.3, 0.3; row sums 2.4, 2.4, 1.7, 1.5.
TIED = np.array([[0.5, 0.5, 0.7, 0.7], [0.5, 0.5, 0.7, 0.7], [0.3, 0.3, 0.5, 0.6], [0.3, 0.3, 0.4, 0.5]])


# Action 3, the last, beats every other: a Condorcet winner at the last index. Row minima 0.2, 0.3,
# 0.1, 0.5; row sums 2.0, 1.8, 1.3, 2.9; Copeland scores 2, 1, 0, 3.
LAST = np.array([[0.5, 0.6, 0.7, 0.2], [0.4, 0.5, 0.6, 0.3], [0.3, 0.4, 0.5, 0.1], [0.8, 0.7, 0.9, 0.5]])

# The notions differ. Copeland scores (entries > 1/2 per row): 2, 1, 2, 1 -> {0, 2}; row minima
# 0.35, 0.45, 0.1, 0.15 -> Maximin winner 1; row sums 2.3, 2.0, 2.0, 1.7 -> Borda winner 0; no
# action beats all three others.
DIFFER = np.array([[0.5, 0.55, 0.9, 0.35], [0.45, 0.5, 0.45, 0.6], [0.1, 0.55, 0.5, 0.85], [0.65, 0.4, 0.15, 0.5]])


BORDA_NOT_CONDORCET = np.array([[0.5, 0.51, 0.51], [0.49, 0.5, 1.0], [0.49, 0.0, 0.5]])
"""0 beats everyone narrowly (0.51); 1 crushes 2, so 1 has the best row mean: 1.99/3 > 1.52/3."""


def test_every_notion_on_hand_computed_matrices_ties_kept_and_an_even_pair_no_win():
    """TIED: X[0, 1] = 1/2 is no win, so neither 0 nor 1 is a Condorcet winner; nested lists are accepted."""
    for X, condorcet, copeland, maximin, borda in [
        (CONDORCET, 0, [0], [0], [0]),
        (CYCLIC, None, [0, 1, 2], [0], [0]),
        (TIED, None, [0, 1], [0, 1], [0, 1]),
        (BORDA_NOT_CONDORCET, 0, [0], [0], [1]),
        (LAST, 3, [3], [3], [3]),
        (DIFFER, None, [0, 2], [1], [0]),
        (CONDORCET.tolist(), 0, [0], [0], [0]),
        (TIED.tolist(), None, [0, 1], [0, 1], [0, 1]),
    ]:
        w = winners.condorcet_winner(X)
        assert w == condorcet and (w is None or isinstance(w, int)), w
        assert winners.copeland_winners(X).tolist() == copeland
        assert winners.maximin_winners(X).tolist() == maximin
        assert winners.borda_winners(X).tolist() == borda


def test_scores_match_the_hand_computation_with_the_diagonal_in_the_minimum():
    """The Condorcet winner's Maximin score is the diagonal 1/2, not its 0.6 against the others."""
    np.testing.assert_array_equal(winners.copeland_scores(CONDORCET), [2, 1, 0])
    np.testing.assert_allclose(winners.maximin_scores(CONDORCET), [0.5, 0.4, 0.2])
    np.testing.assert_allclose(winners.borda_scores(CONDORCET), [1.9 / 3, 1.6 / 3, 1.0 / 3])
    np.testing.assert_array_equal(winners.copeland_scores(TIED), [2, 2, 1, 0])
    np.testing.assert_array_equal(winners.copeland_scores(DIFFER), [2, 1, 2, 1])


def test_ties_for_the_maximum_after_a_lower_tie_are_the_winners():
    """Scores 1, 1 (a lower tie) before 2, 2: the winners are the later pair, and only it."""
    X = np.array([[0.5, 0.6, 0.4, 0.4], [0.4, 0.5, 0.4, 0.45], [0.6, 0.6, 0.5, 0.5], [0.6, 0.55, 0.5, 0.5]])
    np.testing.assert_array_equal(winners.copeland_scores(X), [1, 0, 2, 2])
    assert winners.copeland_winners(X).tolist() == [2, 3]
    np.testing.assert_allclose(winners.maximin_scores(X), [0.4, 0.4, 0.5, 0.5])
    assert winners.maximin_winners(X).tolist() == [2, 3]
    assert winners.condorcet_winner(X) is None  # 2 and 3 tie: neither beats the other


def test_the_trap_is_the_maximin_winner_the_other_borda_winner_and_their_gap():
    """DIFFER: Maximin winner 1, Borda winner 0, delta = X[1, 0] - 1/2 = -0.05. No trap where the Maximin
    and Borda winners agree (CONDORCET), tie (TIED), or the Borda winners alone tie: rows 0 and 1 of
    ONE_MAXIMIN_TWO_BORDA both sum to 1.7, its row minima are 0.4, 0.5, 0.2; or the Maximin winners alone (rows
    0 and 1's minima 1/2, sums 1.9 and 1.6)."""
    import pytest

    from duelbandits.errors import InputError

    trap = winners.trap(DIFFER.tolist())
    assert (trap.maximin_winner, trap.borda_winner) == (1, 0) and type(trap.maximin_winner) is int
    assert trap.delta == pytest.approx(-0.05, abs=1e-15) and type(trap.delta) is float
    needs = "maximin-tail needs a matrix with one Maximin winner and a different, unique Borda winner; got "
    one_maximin_two_borda = [[0.5, 0.4, 0.8], [0.6, 0.5, 0.6], [0.2, 0.4, 0.5]]
    for X, got in [
        (CONDORCET, "Maximin winners [0] and Borda winners [0]"),
        (TIED, "Maximin winners [0, 1] and Borda winners [0, 1]"),
        (one_maximin_two_borda, "Maximin winners [1] and Borda winners [0, 1]"),
        ([[0.5, 0.5, 0.9], [0.5, 0.5, 0.6], [0.1, 0.4, 0.5]], "Maximin winners [0, 1] and Borda winners [0]"),
    ]:
        with pytest.raises(InputError) as refused:
            winners.trap(X)
        assert str(refused.value) == needs + got
