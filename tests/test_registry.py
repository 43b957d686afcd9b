"""One entry per algorithm and per scenario: the other tables are derived from the registries, and no
file but an algorithm's own module and its entry names a field algorithm's slug."""

import re
import subprocess
from pathlib import Path

import pytest
import yaml

from duelbandits.algorithms import ALGORITHMS, BUILTINS
from duelbandits.plotting import style
from duelbandits.schemas import PRIORS

REPO = Path(__file__).resolve().parents[1]
SCHEMA_FILE = REPO / "workflow/schemas/config.schema.yaml"

PAPER_SLUGS_ALSO_IN = {
    "ts-maximin": {"src/duelbandits/plan.py", "src/duelbandits/studies/tail/analysis.py",  # Theorem 4.1's tail
                   "src/duelbandits/studies/tail/__init__.py", "workflow/rules/tail.smk", "bench/bench_algorithms.py",
                   "src/duelbandits/studies/bayes.py", "workflow/rules/bayes.smk"},  # and its Bayesian reading
    "ts-borda": {"src/duelbandits/plan.py", "src/duelbandits/configcheck.py", "src/duelbandits/points.py",
                 "src/duelbandits/data/claims.yaml", "src/duelbandits/theorems.py",
                 "bench/bench_algorithms.py"},  # c_alpha of Theorem 4.2; claims
    "sparring-exp3p": {"src/duelbandits/data/claims.yaml", "src/duelbandits/theorems.py"},
    "partial-monitoring": {"src/duelbandits/theorems.py"},
    "iss": {"src/duelbandits/data/claims.yaml"},
    "dts": {"src/duelbandits/data/claims.yaml", "src/duelbandits/provenance.py", "bench/bench_algorithms.py"},
}  # fmt: skip
"""The paper's six are named where the paper's claims and theorems are checked, and nowhere else."""


def files_naming(slug: str) -> set[str]:
    """Tracked files outside tests, docs, examples, the committed results (reference, archive), the
    experiment's configs and the peer comparison (which maps each slug to duelpy's class) naming ``slug``."""
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    skip = re.compile(  # the schema file's algorithm_params are generated from the entries
        r"^(tests|docs|examples|reference|archive|config)/"
        r"|^(CHANGELOG\.md|README\.md|config\.yaml|workflow/schemas/config\.schema\.yaml|bench/peer_duelpy\.py)$"
    )
    word = re.compile(rf"(^|[^a-z0-9-]){re.escape(slug)}([^a-z0-9-]|$)")
    out = set()
    for name in tracked:
        path = REPO / name
        if skip.search(name) or path.suffix in {".png", ".pdf", ".csv", ".lock"} or not path.is_file():
            continue
        if word.search(path.read_text(errors="replace")):
            out.add(name)
    return out


def test_a_field_algorithm_is_named_only_by_the_algorithm_modules():
    for slug, spec in BUILTINS.items():
        if spec.family != "field":
            continue
        named = files_naming(slug)
        assert "src/duelbandits/algorithms/__init__.py" in named  # its entry (the test's premise)
        outside = {name for name in named if not name.startswith("src/duelbandits/algorithms/")}
        assert not outside, (slug, sorted(outside))


def test_the_papers_algorithms_are_named_only_where_the_papers_claims_and_theorems_are():
    for slug, allowed in PAPER_SLUGS_ALSO_IN.items():
        outside = {name for name in files_naming(slug) if not name.startswith("src/duelbandits/algorithms/")}
        assert outside <= allowed, (slug, sorted(outside - allowed))


def test_the_schema_files_hyper_parameters_are_the_built_ins_entries_and_it_lists_no_slug():
    """The names the config may use are the installed registries' (plugins included), checked by
    duelbandits.configcheck, so no enum of the generated schema file lists one."""
    schema = yaml.safe_load(SCHEMA_FILE.read_text())
    enums = set(re.findall(r"'enum': \[([^\]]*)\]", str(schema)))
    assert enums == {str(list(PRIORS))[1:-1]}  # the priors' only
    params = schema["properties"]["algorithm_params"]["properties"]
    assert set(params) == {slug for slug, a in BUILTINS.items() if a.params}
    assert params["ts-borda"]["properties"]["c_alpha"] == {
        "description": ALGORITHMS["ts-borda"].params["c_alpha"].description,
        "type": "number",
        "exclusiveMinimum": 0.0,
    }


def test_the_documented_hyper_parameter_defaults_are_the_entries():
    """The defaults every run of these algorithms uses, from the papers (docs/paper.md): a change of an
    entry's default changes every run, so it is pinned here by value, not recomputed."""
    assert {slug: a.defaults for slug, a in BUILTINS.items() if a.params} == {
        "ts-borda": {"c_alpha": 1.0},
        "dts": {"alpha": 0.51},
        "rucb": {"alpha": 0.51},
        "rcs": {"alpha": 0.51},
        "rmed1": {"f_coefficient": 0.3, "f_exponent": 1.01},
        "rmed2": {"f_coefficient": 0.3, "f_exponent": 1.01, "alpha": 3.0},
        "rmed2fh": {"f_coefficient": 0.3, "f_exponent": 1.01, "alpha": 3.0},
        "dts-plus": {"alpha": 0.51},
        "ws-s": {"beta": 1.5},
        "multisbm": {"alpha": 2.01},
        "doubler": {"alpha": 2.01},
        "ccb": {"alpha": 0.51},
    }
    config = yaml.safe_load((REPO / "config.yaml").read_text())
    for slug, values in config["algorithm_params"].items():
        assert values == ALGORITHMS[slug].defaults, slug  # the paper run's config repeats the defaults


def test_every_kernel_default_of_a_hyper_parameter_is_the_entrys():
    """The registry is the home of each default (runs pass it explicitly); a kernel module's keyword
    defaults, which direct calls such as ``dts.run(X, T, rng)`` use, are copies and must agree with it."""
    import importlib
    import inspect

    checked = 0
    for entry in BUILTINS.values():
        module = importlib.import_module(entry.module)
        for name, obj in vars(module).items():
            function = getattr(obj, "py_func", obj)  # a numba dispatcher keeps the Python function
            if not inspect.isfunction(function) or function.__module__ != module.__name__:
                continue
            for param in inspect.signature(function).parameters.values():
                if param.name in entry.defaults and param.default is not inspect.Parameter.empty:
                    assert param.default == entry.defaults[param.name], f"{entry.module}.{name}({param.name})"
                    checked += 1
    # alpha: DTS 2 functions, CCB 1, RCS 2, RUCB 1; c_alpha: TS-Borda 2; RMED1's two f(K) parameters in 2;
    # RMED2's and RMED2FH's three in their run; DTS+'s, WS-S's, MultiSBM's and Doubler's one in their run
    assert checked == 22


def test_colours_come_from_the_entries():
    assert style.ALGORITHM_COLORS == {slug: a.color for slug, a in ALGORITHMS.items()}
    assert len(set(style.ALGORITHM_COLORS.values())) == len(ALGORITHMS)  # every algorithm its own colour


def test_param_ranges_refuse_nan_and_the_first_value_past_each_bound():
    from duelbandits.algorithms import AlgorithmError, Param

    positive = Param(1.0, "x", minimum=0.0, exclusive_minimum=True)
    unit = Param(0.5, "x", minimum=0.0, maximum=1.0)
    count = Param(4, "x", minimum=2, integer=True)
    assert positive.check("w", 5e-324) == 5e-324 and unit.check("w", 0.0) == 0.0 and unit.check("w", 1.0) == 1.0
    assert count.check("w", 2.0) == 2 and isinstance(count.check("w", 2.0), int)
    for param, bad in ((positive, 0.0), (positive, float("nan")), (unit, -5e-324), (unit, 1.0000000000000002),
                       (unit, float("inf")), (count, 1), (count, 2.5), (positive, True), (positive, "1")):  # fmt: skip
        with pytest.raises(AlgorithmError, match="^algo: name must be a finite"):
            param.check("algo: name", bad)


def test_the_regret_kinds_an_entry_may_name_are_the_regrets_and_every_theorem_name_resolves():
    from duelbandits import algorithms, regret, theorems

    assert algorithms.REGRET_KINDS == tuple(regret.REGRETS)
    named = {slug: a.theorem for slug, a in BUILTINS.items() if a.theorem is not None}
    assert named == {"ts-maximin": "4.1", "ts-borda": "4.2", "sparring-exp3p": "4.3", "partial-monitoring": "4.4"}
    for slug, name in named.items():
        theorem = theorems.THEOREMS[slug]
        assert theorem is theorems.PAPER_THEOREMS[name] and theorem.regret in BUILTINS[slug].regrets.values()
