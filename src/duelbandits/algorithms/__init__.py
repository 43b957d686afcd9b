"""The dueling-bandit algorithms, by slug: the paper's six and the field's baselines.

Every algorithm module exposes one function with the same contract::

    run(matrix, horizon, rng, record, **hyper) -> (I, J, outcomes, strategies)

``matrix`` is a validated float64 preference matrix, ``rng`` a
``numpy.random.Generator`` (every random draw of the run comes from it),
``record`` the sorted 1-based steps at which to record the strategies.
It returns 0-based actions ``I`` and ``J`` (int64, length ``horizon``), the
outcomes (int8, 1 when ``I`` won) and a dict of strategy arrays, each of
shape ``(len(record), A)``: the distribution the step's actions were drawn
from. The hot loops are numba kernels compiled once and cached on disk.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..errors import AlgorithmError


def _key_numba_cache_by_source() -> None:
    """Put numba's on-disk cache in a folder named by the hash of every kernel source.

    numba invalidates a cached kernel only when its own file changes, not when
    a helper it calls from another module (``_sampling``, ``_posterior``) does,
    so after an edit or a ``git pull`` a stale kernel could run old code
    silently. Keying the folder by all sources makes any edit compile afresh.
    A user's own ``NUMBA_CACHE_DIR`` wins.
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    here = Path(__file__).parent
    digest = hashlib.sha256()
    for path in sorted(here.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    cache_dir = str(here / "__pycache__" / f"numba-{digest.hexdigest()[:16]}")
    if "numba" in sys.modules:
        sys.modules["numba"].config.CACHE_DIR = cache_dir
    else:
        os.environ["NUMBA_CACHE_DIR"] = cache_dir


_key_numba_cache_by_source()


def check_alpha(slug: str, alpha) -> float:
    """A confidence parameter ``alpha`` (DTS, RUCB, RCS, CCB) as a float; anything but a finite number
    > 0 raises AlgorithmError naming ``slug`` (the analyses need alpha > 1/2; smaller is allowed)."""
    if (
        isinstance(alpha, bool)
        or not isinstance(alpha, (int, float, np.number))
        or not np.isfinite(alpha)
        or alpha <= 0
    ):
        raise AlgorithmError(f"{slug}: alpha must be a finite number > 0, got {alpha!r}")
    return float(alpha)


@dataclass(frozen=True)
class Algorithm:
    slug: str
    label: str
    module: str
    defaults: dict = field(default_factory=dict)
    strategies: tuple[str, ...] = ()
    family: str = "paper"
    """``paper``: the paper's four algorithms and its two baselines; ``field``: the field's
    algorithms beyond the paper (target ``field``)."""

    @property
    def run(self):
        return importlib.import_module(f"{__name__}.{self.module}").run

    def hyperparameters(self, **params) -> dict:
        """Defaults overridden by ``params``; unknown names raise AlgorithmError."""
        unknown = sorted(set(params) - set(self.defaults))
        if unknown:
            allowed = ", ".join(self.defaults) or "none"
            raise AlgorithmError(f"algorithm {self.slug} has no parameter(s) {', '.join(unknown)}; allowed: {allowed}")
        return {**self.defaults, **params}


ALGORITHMS = {
    a.slug: a
    for a in (
        Algorithm("ts-maximin", "TS-Maximin", "ts_maximin"),
        Algorithm("ts-borda", "TS-Borda", "ts_borda", {"c_alpha": 1.0}),
        Algorithm("sparring-exp3p", "SparringExp3.P", "sparring_exp3p", strategies=("p", "q")),
        Algorithm("partial-monitoring", "Partial Monitoring", "partial_monitoring", strategies=("p",)),
        Algorithm("iss", "ISS", "iss"),
        Algorithm("dts", "DTS", "dts", {"alpha": 0.51}),
        Algorithm("rucb", "RUCB", "rucb", {"alpha": 0.51}, family="field"),
        Algorithm("rcs", "RCS", "rcs", {"alpha": 0.51}, family="field"),
        Algorithm("rmed1", "RMED1", "rmed1", {"f_coefficient": 0.3, "f_exponent": 1.01}, family="field"),
        Algorithm("ccb", "CCB", "ccb", {"alpha": 0.51}, family="field"),
        Algorithm("winner-stays", "Winner Stays", "winner_stays", family="field"),
        Algorithm("dexp3", "Dueling-EXP3", "dexp3", strategies=("p",), family="field"),
    )
}
"""Algorithms by slug: the paper's six in its order, then the field's."""

PAPER_ALGORITHMS = tuple(slug for slug, a in ALGORITHMS.items() if a.family == "paper")
FIELD_ALGORITHMS = tuple(slug for slug, a in ALGORITHMS.items() if a.family == "field")


def get(slug: str) -> Algorithm:
    """The algorithm named ``slug``; an unknown name raises AlgorithmError listing the valid ones."""
    try:
        return ALGORITHMS[slug]
    except (KeyError, TypeError):
        raise AlgorithmError(f"unknown algorithm {slug!r}; valid algorithms: {', '.join(ALGORITHMS)}") from None
