"""bench/peer_duelpy.py without duelpy: which built-ins it compares, and its table from made-up regrets."""

from types import SimpleNamespace

import peer_duelpy as PEER


def test_every_builtin_with_a_duelpy_peer_is_compared_in_registry_order_and_plugins_are_not():
    families = {"iss": "paper", "rucb": "field", "dts": "paper", "scb": "plugin"}
    registry = {slug: SimpleNamespace(family=family) for slug, family in families.items()}
    assert list(PEER.peers(registry)) == ["rucb", "dts"]


def test_the_table_gives_mean_sd_and_flags_a_gap_of_more_than_three_standard_errors():
    # the sd of (1, 3) is sqrt 2; the gap's standard error sqrt(2/2 + 2/2) = 1.41, three of them 4.24
    rows = [
        {"label": "DTS", "scenario": "borda", "regret": "Borda", "duelpy": [10, 12], "exploit": (0.5, 0.0)},
        {"label": "RUCB", "scenario": "cyclic", "regret": "Copeland", "duelpy": [2, 4], "exploit": None},
    ]
    rows = [{**row, "ours": [1, 3], "horizon": 2000} for row in rows]
    assert PEER.table(rows).splitlines()[2:] == [
        "| DTS | borda | Borda | 2.0 ± 1.4 | 11.0 ± 1.4 | **yes** | 0.50 / 0.00 | 2 | 2,000 |",
        "| RUCB | cyclic | Copeland | 2.0 ± 1.4 | 3.0 ± 1.4 | no | - | 2 | 2,000 |",
    ]
