"""Expected per-step regrets of docs/paper.md as pure functions of (X, I, J).

The theorems bound the expected regret, and given the selections the
expectation of ``X_t`` is ``X``; so each function takes the matrix and the
selected actions (scalars or arrays) and returns the expected regret of each
step, at most 1 (Section 4 normalises every regret). The Borda and Copeland
regrets are never negative; the Maximin and Exp3.P regrets are, where no
Condorcet winner exists (``cyclic``), when the Maximin winner loses a duel.

The Exp3.P regret of Theorem 4.3, with ``X(J, I)`` as in its proof, equals
the Maximin regret identically: ``X[I, J] + X[J, I] = 1`` turns
``(X[i*, J] - X[I, J] + X[i*, I] - X[J, I]) / 2`` into
``(X[i*, I] + X[i*, J] - 1) / 2``. The pipeline keeps both names, because
each is what its theorem bounds, and reports that they coincide.
"""

from __future__ import annotations

import numpy as np

from . import winners


def maximin(matrix, I, J):
    """Theorem 4.1: ``(X[i*, I] + X[i*, J] - 1) / 2``, ``i*`` the Maximin winner."""
    X = np.asarray(matrix)
    star = winners.maximin_winners(X)[0]
    return (X[star, I] + X[star, J] - 1.0) / 2.0


def borda(matrix, I, J):
    """Theorems 4.2 and 4.4: ``(2 s[i*] - s[I] - s[J]) / 2``, ``s`` the row means."""
    s = winners.borda_scores(matrix)
    return (2.0 * s.max() - s[I] - s[J]) / 2.0


def exp3p(matrix, I, J):
    """Theorem 4.3 (as in its proof): ``(X[i*, J] - X[I, J] + X[i*, I] - X[J, I]) / 2``."""
    X = np.asarray(matrix)
    star = winners.maximin_winners(X)[0]
    return (X[star, J] - X[I, J] + X[star, I] - X[J, I]) / 2.0


def copeland(matrix, I, J):
    """Extra: ``(2 c[i*] - c[I] - c[J]) / 2`` with ``c`` the Copeland score over ``A - 1``."""
    X = np.asarray(matrix)
    c = winners.copeland_scores(X) / (X.shape[0] - 1)
    return (2.0 * c.max() - c[I] - c[J]) / 2.0


REGRETS = {"maximin": maximin, "borda": borda, "exp3p": exp3p, "copeland": copeland}
"""Regret kinds by name."""

REGRET_NAMES = {"maximin": "Maximin", "borda": "Borda", "exp3p": "Exp3.P", "copeland": "Copeland"}
"""How tables and figures name each regret kind."""

PAPER_REGRET = {
    "condorcet": {
        "ts-maximin": "maximin",
        "iss": "maximin",
        "dts": "maximin",
        "ts-borda": "borda",
        "partial-monitoring": "borda",
        "sparring-exp3p": "exp3p",
    },
    "borda": dict.fromkeys(("ts-maximin", "ts-borda", "sparring-exp3p", "partial-monitoring", "iss", "dts"), "borda"),
}
"""The regret each figure of Section 5 shows, by scenario and algorithm."""

OWN_TARGET_REGRET = {
    "ts-maximin": "maximin",
    "ts-borda": "borda",
    "sparring-exp3p": "exp3p",
    "partial-monitoring": "borda",
    "iss": "copeland",
    "dts": "copeland",
    "rucb": "copeland",
    "rcs": "copeland",
    "rmed1": "copeland",
    "ccb": "copeland",
    "winner-stays": "copeland",
    "dexp3": "borda",
}
"""Beyond the paper: each algorithm against the winner it is built to find.

Used where no Condorcet winner need exist (``cyclic``, ``file``, the benchmark
matrices): the paper's four algorithms get the regret of their theorem; ISS,
DTS and the field's Condorcet and Copeland algorithms get the Copeland regret,
the usual extension of the Condorcet winner (Wu & Liu 2016 define DTS's regret
by it; CCB targets it); Dueling-EXP3 the Borda regret of its theorem.
"""

for _name in ("cyclic", "arithmetic", "mslr5", "file"):
    PAPER_REGRET[_name] = dict(OWN_TARGET_REGRET)
# The field's algorithms in the paper's two scenarios, as the paper would draw them: the Condorcet
# (= Maximin) regret in the condorcet figure, except for Dueling-EXP3 (Borda), and Borda in the borda one.
PAPER_REGRET["condorcet"].update({slug: "maximin" for slug in ("rucb", "rcs", "rmed1", "ccb", "winner-stays")})
PAPER_REGRET["condorcet"]["dexp3"] = "borda"
PAPER_REGRET["borda"].update(dict.fromkeys(("rucb", "rcs", "rmed1", "ccb", "winner-stays", "dexp3"), "borda"))


def paper_regret(scenario: str, algorithm: str) -> str:
    """Regret kind the paper plots for ``algorithm`` in ``scenario`` (Section 5)."""
    try:
        return PAPER_REGRET[scenario][algorithm]
    except KeyError:
        raise ValueError(f"no paper regret for scenario {scenario!r} and algorithm {algorithm!r}") from None


def per_step(kind: str, matrix, I, J) -> np.ndarray:
    """Per-step expected regret of the named kind."""
    if kind not in REGRETS:
        raise ValueError(f"unknown regret {kind!r}; valid regrets: {', '.join(REGRETS)}")
    return np.asarray(REGRETS[kind](matrix, I, J), dtype=float)


def cumulative(kind: str, matrix, I, J) -> np.ndarray:
    """Cumulative regret ``R_t = sum_{s <= t} r_s`` of the named kind."""
    return np.cumsum(per_step(kind, matrix, I, J))


def sample_std(values):
    """Sample standard deviation over runs (axis 0, ``ddof = 1``); 0 for a single run."""
    values = np.asarray(values, dtype=float)
    if values.shape[0] < 2:
        return np.zeros(values.shape[1:]) if values.ndim > 1 else 0.0
    return values.std(axis=0, ddof=1)
