"""Winner Stays, WS-W (Chen & Frazier 2017): counters, choice rule, runs, behaviour on ``condorcet``."""

import numpy as np
import pytest
import ws_s_reference

import duelbandits
from duelbandits import winners
from duelbandits.algorithms import winner_stays as ws


def _select(C, prev, rng):
    """The kernel's pair given the counters ``C`` and the previous pair (``-1``: none)."""
    C = np.asarray(C, dtype=np.int64)
    return tuple(int(a) for a in ws._select(C, *prev, rng, np.empty(len(C), dtype=np.int64)))


@pytest.mark.parametrize(
    ("C", "prev", "pair"),
    [
        # unique maximum first; the second is the unique maximum of the others
        ([1, 1, 0, -1], (0, 1), (0, 1)),
        # the previous second action took the lead: it goes first, the old first is the best other
        ([0, 1, -1], (2, 1), (1, 0)),
        # a tie for the first place: I_{t-1} is taken before J_{t-1}, even when I_{t-1} lost the last duel
        ([1, 1, -2, 0], (0, 1), (0, 1)),
        ([1, 1, -2, 0], (1, 0), (1, 0)),
        # a tie among the others: the previous action among them stays
        ([2, -1, -1, -1], (0, 3), (0, 3)),
        ([3, -2, -1, -1], (0, 3), (0, 3)),
    ],
)
def test_select_keeps_previous_actions_that_are_still_maximisers(C, prev, pair):
    assert _select(C, prev, np.random.default_rng(0)) == pair


@pytest.mark.parametrize("A", [2, 5, 10])
def test_a_run_is_the_literal_replay(A):
    """Same actions, outcomes and generator state afterwards as the literal rule, WS-S's reference without
    its exploitation (``beta = 0``: ``floor(0^r) = 0`` self-duels a round), which draws as the kernel does:
    per choice one ``integers(m)`` over the ``m >= 2`` maximisers when no previous action is one of them,
    then one uniform for the duel; it never duels an arm with itself."""
    X = duelbandits.make_scenario("condorcet", actions=A, seed=4).matrix
    rng, ref = np.random.default_rng(9), np.random.default_rng(9)
    I, J, o, _ = ws.run(X, 400, rng)
    rI, rJ, ro = ws_s_reference.run(X, 400, ref, beta=0.0)
    np.testing.assert_array_equal(I, rI)
    np.testing.assert_array_equal(J, rJ)
    np.testing.assert_array_equal(o, ro)
    assert rng.bit_generator.state == ref.bit_generator.state


def test_condorcet_winner_share_approaches_one_and_weak_regret_stops_growing(X):
    """Chen & Frazier (2017, abstract and main theorem): WS-W's expected cumulative weak regret
    (per step min(X[i*, I], X[i*, J]) - 1/2) is bounded by a constant O(A^2), independent of T, so the
    share of steps with i* in the duel tends to 1. By step 2000 i*'s counter leads by hundreds (it gains
    2 Delta_j >= 0.24 per duel on average), and losing the lead would take a random walk with that drift
    to fall back by as much: probability far below 1e-20. So from step 2001 to 20,000 every duel has i*,
    and the share of steps with i* grows from share(2000) to 1 - (1 - share(2000)) / 10."""
    star = winners.condorcet_winner(X)
    for k in range(8):
        I, J, _, _ = ws.run(X, 20_000, np.random.default_rng(100 + k))
        has_star = (I == star) | (J == star)
        weak = np.minimum(X[star, I], X[star, J]) - 0.5
        assert has_star[2000:].all() and weak[2000:].sum() == 0.0
        share_2000, share_20000 = has_star[:2000].mean(), has_star.mean()
        assert share_20000 == pytest.approx(1 - (1 - share_2000) / 10, abs=1e-12)
        assert share_2000 > 0.8  # steps without i* before 2000: mean 26, max 249 over 200 seeds
