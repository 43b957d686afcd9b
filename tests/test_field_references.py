"""The field's later built-ins against their literal references (tests/<module>_reference.py, plain
Python written from each paper's pseudo-code): the same seed gives the same arrays, on runs chosen so
that every branch the reference counts is taken. RMED2 and RMED2FH are in tests/test_rmed1.py."""

import importlib

import btm_reference
import dts_plus_reference
import if2_reference
import numpy as np
import pytest
import sbm_reference
import versatile_db_reference
import ws_s_reference
from montecarlo import total_order

import duelbandits
from duelbandits import algorithms

CASES = {
    # Beat the Mean removes actions only on total orders this short (its radius 3 sqrt(log(2TA) / n));
    # the condorcet run checks the phase before any removal
    "btm": (
        btm_reference.run,
        [(total_order(3), 6000, 0), (total_order(4), 8000, 1), ("condorcet", 3000, 2)],
    ),
    # Interleaved Filter 2: removals, switches, pruning and the exploitation after it
    "if2": (if2_reference.run, [("condorcet", 3000, 0), ("cyclic", 4000, 1), ("borda", 6000, 4)]),
    # DTS+: its tie-breaks, on matrices with and without a Condorcet winner
    "dts-plus": (dts_plus_reference.run, [("condorcet", 600, 0), ("cyclic", 600, 1)]),
    # WS-S: rounds of WS-W, each followed by its winner's exploitation
    "ws-s": (ws_s_reference.run, [("condorcet", 3000, 0), ("cyclic", 3000, 1)]),
    # MultiSBM and Doubler: runs long enough to settle on the winner's self-duels
    "multisbm": (sbm_reference.multisbm, [("condorcet", 3000, 0), ("cyclic", 1000, 1)]),
    "doubler": (sbm_reference.doubler, [("condorcet", 3000, 0), ("cyclic", 1000, 1)]),
    # Versatile-DB: Tsallis-INF's law, Newton's normaliser and the draws
    "versatile-db": (versatile_db_reference.run, [("condorcet", 1500, 0), ("cyclic", 1500, 1)]),
}


@pytest.mark.parametrize("slug", sorted(CASES))
def test_kernel_reproduces_the_literal_reference_exactly(slug):
    literal, runs = CASES[slug]
    run = importlib.import_module(algorithms.get(slug).module).run
    total = {}
    for matrix, T, seed in runs:
        X = duelbandits.make_scenario(matrix, actions=6, seed=seed).matrix if isinstance(matrix, str) else matrix
        events = {}
        ref = literal(X, T, np.random.default_rng(seed), events)
        kernel = run(X, T, np.random.default_rng(seed))[:3]
        for a, b in zip(kernel, ref):
            np.testing.assert_array_equal(a, b)
        for key, count in events.items():
            total[key] = total.get(key, 0) + count
    assert total and all(count > 0 for count in total.values()), total
