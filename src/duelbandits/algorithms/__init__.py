"""The dueling-bandit algorithms, by slug: the paper's six, the field's, and those of installed plugins.

Each algorithm is one entry (:mod:`.entry`), from which every other table is derived (colours, regret
maps, the schema, the docs); the built-ins' numba kernels are compiled once and cached on disk.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

from .. import plugins
from ..errors import AlgorithmError

# the entry types, re-exported: duelbandits.algorithms.Param etc.
from .entry import REGRET_KINDS, REGRET_VIEWS, Algorithm, DuelingAlgorithm, Param, python_run  # noqa: F401

for _type in (Algorithm, DuelingAlgorithm, Param):
    _type.__module__ = __name__  # the name plugins and messages use: duelbandits.algorithms.Algorithm


def _key_numba_cache_by_source() -> None:
    """Put numba's on-disk cache in a folder named by the hash of every kernel source: numba invalidates a
    kernel when its own file changes, not a helper's (``_sampling``, ``_posterior``), so a stale kernel
    could run old code after an edit. A user's own ``NUMBA_CACHE_DIR`` wins."""
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


def _positive(default: float, description: str) -> Param:
    """A hyper-parameter that may be any number > 0."""
    return Param(default, description, minimum=0.0, exclusive_minimum=True)


def _alpha(label: str, role: str = "") -> dict:
    """The confidence-bound parameter alpha of DTS, RUCB, RCS and CCB: 0.51 by default (their analyses
    need alpha > 1/2), any number > 0 allowed."""
    description = f"{label} confidence-bound parameter alpha{role} (> 0.5 in the algorithm's analysis)."
    return {"alpha": _positive(0.51, description)}


def _rmed(label: str, alpha_role: str = "") -> dict:
    """The RMED family's f(K) (and RMED2's exploration alpha, its role ``alpha_role``)."""
    out = {
        "f_coefficient": Param(
            0.3, f"{label}'s f(K) = f_coefficient * K^f_exponent (Komiyama et al. use 0.3).", minimum=0.0
        ),
        "f_exponent": Param(1.01, "The exponent of f(K) (Komiyama et al. use 1.01)."),
    }
    if alpha_role:
        out["alpha"] = _positive(3.0, f"{label}'s exploration: {alpha_role} (3 here).")
    return out


def _ucb(label: str) -> dict:
    """The exploration alpha of the UCB machines of MultiSBM and Doubler."""
    description = f"{label}'s UCB index mean + sqrt(alpha log n / pulls) (2.01 as in Komiyama et al.'s code)."
    return {"alpha": _positive(2.01, description)}


_CONDORCET = {"condorcet": "maximin", "borda": "borda", "target": "copeland"}
"""The regrets of an algorithm built for the Condorcet (or Copeland) winner: every built-in's but those below."""
_BORDA = {"condorcet": "borda", "borda": "borda", "target": "borda"}


def _builtin(family, slug, label, citation, color, regrets=_CONDORCET, **more) -> Algorithm:
    """A built-in's entry: its kernel is ``run`` of the module named by its slug (``ts-borda``: ``ts_borda``)."""
    return Algorithm(
        slug, label, citation, f"{__name__}.{slug.replace('-', '_')}:run", regrets, color, family=family, **more
    )


_paper, _field = partial(_builtin, "paper"), partial(_builtin, "field")
_KOMIYAMA = "Komiyama, Honda, Kashima & Nakagawa, COLT 2015"
_AILON = "Ailon, Karnin & Joachims, ICML 2014"


BUILTINS = {
    a.slug: a
    for a in (
        _paper(
            "ts-maximin",
            "TS-Maximin",
            "Lekang & Lamperski 2019, Algorithm 1",
            "#0173b2",
            {"condorcet": "maximin", "borda": "borda", "target": "maximin"},
            theorem="4.1",
        ),
        _paper(
            "ts-borda",
            "TS-Borda",
            "Lekang & Lamperski 2019, Algorithm 2",
            "#de8f05",
            _BORDA,
            params={"c_alpha": _positive(1.0, "alpha = c_alpha * T^(-1/3) (Theorem 4.2); alpha must be < 1/2.")},
            theorem="4.2",
            horizon_tuned=True,
        ),
        _paper(
            "sparring-exp3p",
            "SparringExp3.P",
            "Lekang & Lamperski 2019, Algorithm 3",
            "#029e73",
            {"condorcet": "exp3p", "borda": "borda", "target": "exp3p"},
            strategies=("p", "q"),
            theorem="4.3",
            horizon_tuned=True,
        ),
        _paper(
            "partial-monitoring",
            "Partial Monitoring",
            "Lekang & Lamperski 2019, Algorithm 4",
            "#cc78bc",
            _BORDA,
            strategies=("p",),
            theorem="4.4",
            horizon_tuned=True,
        ),
        _paper("iss", "ISS", "Sui, Zhuang, Burdick & Yue, UAI 2017 (Independent Self-Sparring)", "#ca9161"),
        _paper("dts", "DTS", "Wu & Liu, NeurIPS 2016 (Double Thompson Sampling)", "#333333", params=_alpha("DTS")),
        _field(
            "rucb",
            "RUCB",
            "Zoghi, Whiteson, Munos & de Rijke, ICML 2014, Algorithm 1",
            "#56b4e9",
            params=_alpha("RUCB"),
        ),
        _field(
            "rcs",
            "RCS",
            "Zoghi, Whiteson, de Rijke & Munos, WSDM 2014, Algorithm 1",
            "#d55e00",
            params=_alpha("RCS", " of the challenger"),
        ),
        _field("rmed1", "RMED1", _KOMIYAMA, "#7b3294", params=_rmed("RMED1")),
        _field(
            "rmed2",
            "RMED2",
            f"{_KOMIYAMA}, Algorithms 1 and 3",
            "#4d9221",
            params=_rmed("RMED2", "every pair of the first arm is played at least alpha log log t times"),
        ),
        _field(
            "rmed2fh",
            "RMED2FH",
            f"{_KOMIYAMA} (RMED2, fixed horizon)",
            "#b8e186",
            params=_rmed("RMED2FH", "the initial phase plays every pair ceil(alpha log log T) times"),
            horizon_tuned=True,
        ),
        _field(
            "btm",
            "Beat the Mean",
            "Yue & Joachims, ICML 2011, Algorithm 1 (online, gamma = 1)",
            "#35978f",
            horizon_tuned=True,
        ),
        _field(
            "if2",
            "Interleaved Filter 2",
            "Yue, Broder, Kleinberg & Joachims, JCSS 2012, Algorithm 2",
            "#8c510a",
            horizon_tuned=True,
        ),
        _field(
            "dts-plus",
            "DTS+",
            "Wu & Liu, NeurIPS 2016 (D-TS+, DTS with regret-aware tie-breaking)",
            "#c51b7d",
            params=_alpha("DTS+"),
        ),
        _field(
            "ccb",
            "CCB",
            "Zoghi, Karnin, Whiteson & de Rijke, NeurIPS 2015, Algorithm 1",
            "#949494",
            params=_alpha("CCB"),
        ),
        _field("winner-stays", "Winner Stays", "Chen & Frazier, ICML 2017, Algorithm 1 (WS-W)", "#a6761d"),
        _field(
            "ws-s",
            "WS-S",
            "Chen & Frazier, ICML 2017, Algorithm 2 (Winner Stays for strong regret)",
            "#66a61e",
            params={
                "beta": Param(
                    1.5,
                    "Round r's exploitation lasts floor(beta^r) steps (Chen & Frazier require beta > 1).",
                    minimum=1.0,
                    exclusive_minimum=True,
                )
            },
        ),
        _field("multisbm", "MultiSBM", f"{_AILON} (MultiSBM, UCB machines)", "#e6ab02", params=_ucb("MultiSBM")),
        _field("doubler", "Doubler", f"{_AILON} (Doubler, a UCB machine)", "#1b9e77", params=_ucb("Doubler")),
        _field("versatile-db", "Versatile-DB", "Saha & Gaillard, ICML 2022 (Versatile-DB with Tsallis-INF)", "#7570b3"),
        _field(
            "dexp3",
            "Dueling-EXP3",
            "Saha, Koren & Mansour, ICML 2021, Algorithm 1",
            "#e7298a",
            _BORDA,
            strategies=("p",),
            horizon_tuned=True,
        ),
    )
}
"""The package's own algorithms: the paper's six in its order, then the field's."""

KERNEL_GROUPS = {
    "paper-1": ("ts-maximin", "ts-borda"),
    "paper-2": ("sparring-exp3p", "partial-monitoring", "iss", "dts"),
    "field-1": ("rucb", "rcs", "rmed1", "rmed2", "rmed2fh", "btm", "if2", "dts-plus"),
    "field-2": ("ccb", "winner-stays", "ws-s", "multisbm", "doubler", "versatile-db", "dexp3"),
}
"""The built-ins whose kernels one compile job compiles (in one process they share numba's helpers; two
a family keep both cores of a laptop busy): each family in registry order, cut where the measured
compile seconds balance. Frozen, not cut from the costs file: a group's file is an input of its
simulations, which a re-measure must not rerun (``bench/bench_algorithms.py --compile`` prints the
balanced cut; moving an algorithm here reruns its simulations). A plugin's algorithm has none."""

for _entry in BUILTINS.values():
    _entry.check()


def _registries() -> dict:
    from .. import scenarios

    algorithms = {**BUILTINS, **plugins.load(plugins.ALGORITHM_GROUP, Algorithm, BUILTINS)}
    return {
        "ALGORITHMS": algorithms,
        "PAPER_ALGORITHMS": tuple(slug for slug, a in algorithms.items() if a.family == "paper"),
        "PAPER_REGRET": {
            name: {slug: spec.regrets[entry.view] for slug, spec in algorithms.items()}
            for name, entry in scenarios.registry().items()
        },
        "OWN_TARGET_REGRET": {slug: spec.regrets["target"] for slug, spec in algorithms.items()},
    }


_LAZY = plugins.LazyRegistry(
    __name__, ("ALGORITHMS", "PAPER_ALGORITHMS", "PAPER_REGRET", "OWN_TARGET_REGRET"), _registries
)


def __getattr__(name):
    """The registries, built on first use (:class:`duelbandits.plugins.LazyRegistry`): ``ALGORITHMS`` by
    slug (the built-ins, then the plugins'); the slugs of the paper's; ``PAPER_REGRET``,
    ``{scenario: {algorithm: regret kind}}`` by the view each scenario takes (Section 5); and
    ``OWN_TARGET_REGRET``, each algorithm against the winner it is built for (docs/beyond-the-paper.md,
    "Which regret the figures show")."""
    return _LAZY.get(name)


def registry() -> dict:
    """``ALGORITHMS`` (for this module's own functions, whose global names skip ``__getattr__``)."""
    return _LAZY.get("ALGORITHMS")


def register(entry: Algorithm) -> Algorithm:
    """Add ``entry`` to this process's registry, for a prototype in a notebook or a script: ``simulate``
    and the contract check then run it by its slug. The workflow's jobs are other processes: they see
    the built-ins and the installed plugins only (docs/extending.md)."""
    if not isinstance(entry, Algorithm):
        raise AlgorithmError(f"register takes a duelbandits.algorithms.Algorithm, not a {type(entry).__name__}")
    entry.check()
    algorithms = registry()
    if entry.slug in algorithms:
        raise AlgorithmError(f"algorithm {entry.slug!r} is already registered; choose another slug")
    entry = replace(entry, family="plugin")
    algorithms[entry.slug] = entry
    from .. import scenarios

    for name, view in _LAZY.get("PAPER_REGRET").items():
        view[entry.slug] = entry.regrets[scenarios.registry()[name].view]
    _LAZY.get("OWN_TARGET_REGRET")[entry.slug] = entry.regrets["target"]
    return entry


def get(slug: str) -> Algorithm:
    """The algorithm named ``slug``; an unknown name raises AlgorithmError listing the valid ones."""
    algorithms = registry()
    try:
        return algorithms[slug]
    except (KeyError, TypeError):
        raise AlgorithmError(f"unknown algorithm {slug!r}; valid algorithms: {', '.join(algorithms)}") from None


def paper_regret(scenario: str, algorithm: str) -> str:
    """Regret kind the paper plots for ``algorithm`` in ``scenario`` (Section 5)."""
    try:
        return _LAZY.get("PAPER_REGRET")[scenario][algorithm]
    except KeyError:
        raise ValueError(f"no paper regret for scenario {scenario!r} and algorithm {algorithm!r}") from None
