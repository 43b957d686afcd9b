"""The config door (duelbandits.configcheck): the committed schema file is the generator's output, and
each kind of refusal is one line naming the key, at its boundary, off the defaults."""

import copy
import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from duelbandits import configcheck, configschema
from duelbandits.configcheck import ConfigError

REPO = Path(__file__).resolve().parents[1]
SCHEMA_FILE = REPO / "workflow/schemas/config.schema.yaml"
BASE = yaml.safe_load((REPO / "config.yaml").read_text())


def validate(config):
    configcheck.validate(config, SCHEMA_FILE)


def with_value(path, value):
    """config.yaml with ``value`` at ``path`` (a key or a list index per step)."""
    config = copy.deepcopy(BASE)
    node = config
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return config


@pytest.fixture
def plug(monkeypatch):
    """``plug(copied, **fields)``: a copy of the built-in ``copied`` registered as the plugin algorithm ``plugged``
    (or the ``slug`` of ``fields``), its entry's ``fields`` replaced."""
    import dataclasses

    from duelbandits import algorithms

    def plug(copied="dts", **fields):
        entry = dataclasses.replace(algorithms.BUILTINS[copied], **{"slug": "plugged", **fields})
        monkeypatch.setitem(algorithms.ALGORITHMS, entry.slug, entry)

    return plug


def refused(config, message):
    """``config`` is refused in exactly one line, ``message`` from its start."""
    with pytest.raises(ConfigError) as raised:
        validate(config)
    assert str(raised.value).startswith(message) and "\n" not in str(raised.value), str(raised.value)


def test_the_committed_schema_file_is_the_generators_output(tmp_path):
    """After a change of a built-in's hyper-parameters, the priors or RANGES, or a hand edit of the file:
    python -m duelbandits.configschema workflow/schemas/config.schema.yaml. The generated parts come from
    the registries, not from the file: the file without them gives the same text."""
    from duelbandits.schemas import RANGES

    assert SCHEMA_FILE.read_text() == configschema.schema_text(SCHEMA_FILE)
    bare = yaml.safe_load(SCHEMA_FILE.read_text())
    del bare["$defs"]["prior"]["enum"], bare["properties"]["algorithm_params"]["properties"]
    stale = {"minimum": -9, "maximum": 9, "exclusiveMinimum": -9, "exclusiveMaximum": 9}  # RANGES' replace them all
    for name in RANGES:
        bare["$defs"][name] = {"description": bare["$defs"][name]["description"], "type": "number", **stale}
    (tmp_path / "bare.yaml").write_text(yaml.safe_dump(bare, sort_keys=False))
    assert configschema.schema_text(tmp_path / "bare.yaml") == SCHEMA_FILE.read_text()
    bare["$comment"] = "T ≥ 1"  # a description's text as written, not escaped
    (tmp_path / "bare.yaml").write_text(yaml.safe_dump(bare, sort_keys=False))
    assert "$comment: T ≥ 1\n" in configschema.schema_text(tmp_path / "bare.yaml")


def test_a_config_file_whose_name_is_not_utf8_is_refused_naming_it():
    """Snakemake reads such a file, but its log file cannot hold the name (a traceback at every run)."""
    with pytest.raises(ConfigError, match=r"^config: --configfile dir/\\udcffa\.yaml: its name is not valid UTF-8"):
        configcheck.validate(BASE, SCHEMA_FILE, ["config.yaml", "dir/\udcffa.yaml"])


@pytest.mark.parametrize(
    "path, value, message",
    [
        # NaN passes every bound of the schema (every comparison with it is false), in a list item too
        *[(("maximin-tail", "family", "gaps", 1), x, f"maximin-tail/family/gaps/1: must be a finite number, got {x}")
          for x in (math.nan, math.inf, -math.inf)],
        # JSON Schema calls 4.0 an integer; the jobs' commands do not
        (("maximin-tail", "family", "actions", 0), 4.0, "maximin-tail/family/actions/0: must be an integer, got 4.0"),
        # beyond int32 where the key sets no maximum of its own; below the minimum of one that sets its own
        (("runs_per_job",), 2**31, "runs_per_job: 2147483648 is beyond a 32-bit integer"),
        (("asymptotics", "runs_at"), [{"horizon": 300_000, "runs": 2**31}],
         "asymptotics/runs_at/0/runs: 2147483648 is beyond a 32-bit integer"),
        (("runs",), -(2**31) - 1, "runs: -2147483649 is less than the minimum of 1"),
        # 2^33 GiB = 2^63 bytes; above it (1e308 GiB is infinite bytes) planning once ended in a traceback
        (("memory_limit_gb",), 2**33 + 1, "memory_limit_gb: 8589934593 is greater than the maximum"),
        (("memory_limit_gb",), 1e308, "memory_limit_gb: 1e+308 is greater than the maximum"),
        (("field", "horizon"), "many", "field/horizon: 'many' is not of type 'integer'"),
        (("scenarios",), {"a": 1}, "scenarios: {'a': 1} is not of type 'array'"),
        (("algorithm_params", "btm"), 5, "algorithm_params/btm: 5 is not of type 'object'"),  # one without params
        # a name no registry holds: a list item, a key, a key of algorithm_params, an item under a key
        (("field", "algorithms"), ["dts", "dst"], "field/algorithms/1: 'dst' is not one of "),
        (("asymptotics", "algorithms", "cyclik"), ["dts"],
         "asymptotics/algorithms/cyclik: 'cyclik' is not one of condorcet, borda, cyclic"),
        (("algorithm_params", "dst"), {}, "algorithm_params/dst: 'dst' is not one of "),
        (("asymptotics", "algorithms", "borda"), ["dst"], "asymptotics/algorithms/borda/0: 'dst' is"),
        # the file scenario is a registry name, but not one a generated sweep over A can take
        (("sweeps", "actions", "scenarios"), ["file"],
         "sweeps/actions/scenarios/0: 'file' is not one of condorcet, borda, cyclic"),
        # an unknown key, with the closest allowed one, or with every allowed key when nothing is close
        (("sweeps", "horizon", "scenaros"), ["borda"],
         "sweeps/horizon/scenaros: unknown key; did you mean 'scenarios'? the keys allowed"),
        (("sweeps", "horizon"), {"zzz": 1},
         "sweeps/horizon/zzz: unknown key; the keys allowed there are scenarios, horizons"),
    ],
)  # fmt: skip
def test_each_kind_of_bad_value_is_one_line_naming_its_key(path, value, message):
    refused(with_value(path, value), f"config: {message}")


@pytest.mark.parametrize(
    "path, value",
    [
        (("maximin-tail", "family", "actions", 0), 4),
        (("runs_per_job",), 2**31 - 1),
        (("asymptotics", "runs_at"), [{"horizon": 300_000, "runs": 2**31 - 1}]),
        (("seed",), 2**63 - 1),  # a key with its own maximum: the schema's
        (("memory_limit_gb",), 2**33),
    ],
)
def test_the_last_valid_value_of_each_bound_is_accepted(path, value):
    validate(with_value(path, value))


def test_one_line_names_the_top_level_and_an_object_that_allows_no_key():
    import jsonschema

    error = next(jsonschema.Draft202012Validator({"type": "object"}).iter_errors([]))  # Snakemake's validate skips it
    assert configcheck.one_line(error) == "config: (top level): [] is not of type 'object'"
    error = next(jsonschema.Draft202012Validator({"additionalProperties": False}).iter_errors({"a": 1}))
    assert configcheck.one_line(error) == "config: a: unknown key; the keys allowed there are none"


def test_a_missing_key_is_refused_by_its_own_name():
    config = copy.deepcopy(BASE)
    del config["maximin-tail"]["family"]["bootstrap"]
    refused(config, "config: maximin-tail/family/bootstrap: required")


def test_an_integer_below_int32_is_refused_where_the_key_sets_no_minimum_of_its_own(tmp_path):
    """Every integer key of the schema file has a minimum, so the walk is run on a schema of one key."""
    schema = tmp_path / "schema.yaml"
    schema.write_text(yaml.safe_dump({"$defs": {}, "properties": {"offset": {"type": "integer"}}}))
    configcheck.check_values({"offset": -(2**31)}, schema)  # the least valid value
    with pytest.raises(ConfigError) as raised:
        configcheck.check_values({"offset": -(2**31) - 1}, schema)
    assert str(raised.value) == (
        "config: offset: -2147483649 is beyond a 32-bit integer (at least -2147483648: the step and run columns "
        "are int32)"
    )


def test_a_snakemake_validation_error_without_a_schema_error_behind_it_is_one_line(monkeypatch):
    from snakemake import utils
    from snakemake.exceptions import WorkflowError

    def fail(*args, **kwargs):
        raise WorkflowError("Error validating config file.\nsecond line")

    monkeypatch.setattr(utils, "validate", fail)
    refused(BASE, "config: Error validating config file.")
    monkeypatch.setattr(utils, "validate", lambda *args, **kwargs: (_ for _ in ()).throw(WorkflowError("")))
    refused(BASE, "config: WorkflowError")


def test_the_hyper_parameters_of_an_algorithm_the_file_does_not_list_are_checked_by_its_entry(plug):
    """A plugin's algorithm (here a registered copy of DTS under another slug): its Param's range, at
    its boundary, and its names."""
    plug("dts")
    assert "plugged" not in yaml.safe_load(SCHEMA_FILE.read_text())["properties"]["algorithm_params"]["properties"]
    validate(with_value(("algorithm_params", "plugged"), {"alpha": 1e-300}))  # alpha > 0
    refused(
        with_value(("algorithm_params", "plugged"), {"alpha": 0.0}),
        "config: algorithm_params/plugged/alpha: must be a finite number > 0, got 0.0",
    )
    refused(
        with_value(("algorithm_params", "plugged"), {"alpah": 1.0}),
        "config: algorithm_params/plugged/alpah: unknown key: no parameter of plugged; its parameters are alpha",
    )
    for copied, allowed in (("rmed1", "its parameters are f_coefficient, f_exponent"), ("btm", "it has none")):
        plug(copied)
        refused(
            with_value(("algorithm_params", "plugged"), {"x": 1}),
            f"config: algorithm_params/plugged/x: unknown key: no parameter of plugged; {allowed}",
        )


@pytest.mark.parametrize("slug", ["dts", "plugged"])
def test_a_number_as_text_is_read_from_the_command_line_and_refused_from_a_config_file(plug, tmp_path, slug):
    """snakemake --config 'algorithm_params={dts: {alpha: 2}}' passes every nested value as text (YAML's
    base loader), Snakemake's ``workflow.config_settings.config``, in a list too; a config file's quoted
    "2" is text."""
    plug("dts")
    given = {"algorithm_params": {slug: {"alpha": "2"}}, "field": {**BASE["field"], "runs": "3"}}
    given["sweeps"] = {**BASE["sweeps"], "confidence": "0.9"}  # a number by the schema's $defs
    given["sweeps"]["horizon"] = {**BASE["sweeps"]["horizon"], "horizons": ["1000", "3000"]}
    config = BASE | copy.deepcopy(given)
    configcheck.validate(config, SCHEMA_FILE, command_line=given)
    assert config["algorithm_params"] == {slug: {"alpha": 2}} and config["field"]["runs"] == 3
    assert config["sweeps"]["confidence"] == 0.9 and config["sweeps"]["horizon"]["horizons"] == [1000, 3000]
    schema = tmp_path / "schema.yaml"  # a number under additionalProperties (the schema file has none)
    schema.write_text(yaml.safe_dump({"$defs": {}, "additionalProperties": {"type": "integer"}}))
    extra = {"k": "3"}
    configcheck.check_values(extra, schema, command_line={"k": "3"})
    assert extra == {"k": 3}
    assert type(config["field"]["runs"]) is int  # an integer key: 3, not 3.0 (refused as a float)
    message = "must be a finite number > 0, got '2'" if slug == "plugged" else "'2' is not of type 'number'"
    refused(BASE | copy.deepcopy(given), f"config: algorithm_params/{slug}/alpha: {message}")


def linear_gap(actions, rng, gap):
    """X[i, j] = 1/2 + gap (j - i) / (2 (A - 1)): its largest entry is 1/2 + gap / 2."""
    i, j = np.indices((actions, actions))
    return 0.5 + gap * (j - i) / (2 * (actions - 1))


def test_a_plugin_scenarios_parameters_are_set_under_its_slug_and_checked_by_its_entry(monkeypatch):
    """A scenario that declares a Param: its value reaches make and the job's arguments; out of its
    range, under an unknown name, not in a mapping, or given without the slug, it is one line naming the key."""
    import dataclasses

    from duelbandits import plan, scenarios
    from duelbandits.algorithms import Param

    gap = Param(0.5, "the largest margin", minimum=0.0, maximum=1.0)
    entry = scenarios.ScenarioEntry("gapped", "Gapped", "a test's", make=f"{__name__}:linear_gap", params={"gap": gap})
    none = (
        "margin, borda_strength, and the slug of a scenario with parameters of its own (none is installed) holding them"
    )
    refused(
        with_value(("scenario_params", "zzz"), 1),
        f"config: scenario_params/zzz: unknown key; the keys allowed there are utility_max, {none}",
    )
    monkeypatch.setitem(scenarios.REGISTRY, "gapped", entry)
    monkeypatch.setattr(scenarios, "GENERATED", (*scenarios.GENERATED, "gapped"))
    config = with_value(("scenario_params", "gapped"), {"gap": "1.0"})  # its maximum, from the command line
    configcheck.validate(config, SCHEMA_FILE, command_line={"scenario_params": {"gapped": {"gap": "1.0"}}})
    assert plan.scenario(config, "gapped", 5).matrix.max() == 1.0
    assert plan.scenario(BASE, "gapped", 5).matrix[0, 4] == 0.75  # the default, 0.5
    assert plan.scenario_args(config, "gapped", 5) == "--actions 5 --seed 20191114 --scenario-param gap=1.0"
    refused(
        with_value(("scenario_params", "gapped"), {"gap": 1.5}),
        "config: scenario_params/gapped/gap: must be a finite number >= 0 and <= 1, got 1.5",
    )
    refused(
        with_value(("scenario_params", "gapped"), 0.1),
        "config: scenario_params/gapped: must be a mapping of its parameters (gap), got 0.1",
    )
    tilted = dataclasses.replace(entry, slug="tilted", params={"gap": gap, "tilt": gap})
    monkeypatch.setitem(scenarios.REGISTRY, "tilted", tilted)
    refused(
        with_value(("scenario_params", "tilted"), 0.1),
        "config: scenario_params/tilted: must be a mapping of its parameters (gap, tilt), got 0.1",
    )
    refused(
        with_value(("scenario_params", "gap"), 0.1),
        "config: scenario_params/gap: unknown key; did you mean 'gapped'? the keys allowed there are utility_max, "
        "margin, borda_strength, and the slug of a scenario with parameters of its own (gapped (gap), tilted (gap, "
        "tilt)) holding them",
    )


@pytest.mark.parametrize("kind", ["directory", "not-utf8"])  # a missing file: tests/test_scenarios_edges.py
def test_a_matrix_file_that_cannot_be_read_stops_planning_naming_the_cause(tmp_path, kind):
    import os

    path = tmp_path / "m.csv"
    if kind == "directory":
        path.mkdir()
    if kind == "not-utf8":
        path = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff.csv")
        with open(os.fsencode(path), "w") as handle:
            handle.write("0.5,0.5\n0.5,0.5\n")
    config = {**copy.deepcopy(BASE), "scenarios": ["file"], "matrix_file": str(path)}
    cause = {"directory": "is a directory, not a file", "not-utf8": "its name is not valid UTF-8"}
    with pytest.raises(ConfigError, match=rf"^config: matrix_file/actions: matrix file .*: {cause[kind]}"):
        configcheck.check_paper(config)


RANGED_KEYS = [("sweeps", "confidence"), ("maximin-tail", "share"), ("asymptotics", "near")]
"""One config key of each range the command line checks too (by the flag of the same name): every key of
a range refers to its one ``$defs`` node (the generated schema: the first test)."""


def edge_values(name):
    """The last valid and the first invalid value at each finite end of RANGES[name] (hand-derived from
    its bounds: the bound itself and the next double towards the inside), and a value inside."""
    from duelbandits.schemas import RANGES

    values = [0.5]
    for key, bound in RANGES[name].items():
        inside = math.inf if "Minimum" in key else -math.inf
        values += [bound, math.nextafter(bound, inside), math.nextafter(bound, -inside)]
    return values


@pytest.mark.parametrize("section, key", RANGED_KEYS, ids=lambda v: str(v))
def test_the_schema_and_the_command_line_agree_on_every_ranged_value(section, key):
    """A value the config accepts is one the commands accept and the other way round, at both ends of
    each range: both read the one table, duelbandits.schemas.RANGES."""
    from duelbandits.cli.args import UsageError, check_range

    expected = {"confidence": lambda v: 0 < v < 1, "share": lambda v: 0 < v <= 1, "near": lambda v: v >= 0}[key]
    for value in edge_values(key):
        try:
            validate(with_value((section, key), value))
            schema_accepts = True
        except ConfigError:
            schema_accepts = False
        try:
            check_range(key, value, f"--{key}")
            cli_accepts = True
        except UsageError:
            cli_accepts = False
        assert schema_accepts == cli_accepts == expected(value), (section, key, value)


def test_a_job_beyond_memory_names_its_keys_and_the_limit_it_passes(monkeypatch):
    from duelbandits import resources

    monkeypatch.setattr(resources, "physical_memory", lambda: 2**30)
    configcheck.check_memory({}, "a job", 2**30, "horizon/runs")  # at the limit
    for config, needed, source in (({}, 2**30 + 1, "this machine's memory; set memory_limit_gb"),
                                   ({"memory_limit_gb": 0.5}, 2**29 + 1, "memory_limit_gb")):  # fmt: skip
        with pytest.raises(ConfigError) as raised:
            configcheck.check_memory(config, "a job", needed, "horizon/runs")
        line = str(raised.value)
        assert line.startswith("config: horizon/runs: a job needs about ") and line.endswith(f"({source})"), line


@pytest.mark.parametrize("overlay", sorted((REPO / "config").glob("*.yaml")), ids=lambda p: p.name)
def test_every_overlay_in_config_is_valid_on_top_of_the_paper_config(overlay):
    """config/ holds the documented non-default runs (docs/architecture.md): each, merged over config.yaml
    as `--configfile config.yaml config/NAME.yaml` merges it, validates and plans the target it names."""
    from snakemake.utils import update_config

    config = copy.deepcopy(BASE)
    extra = yaml.safe_load(overlay.read_text())
    update_config(config, extra)
    validate(config)
    for section in extra:
        configcheck.check_target(config, section)
    assert config["maximin-tail"]["family"] == BASE["maximin-tail"]["family"]  # merged, not replaced


def test_the_paper_config_and_the_test_configs_over_it_are_valid():
    from snakemake.utils import update_config

    validate(BASE)
    for path in sorted((REPO / "tests/workflow").glob("*.yaml")):
        config = copy.deepcopy(BASE)
        update_config(config, yaml.safe_load(path.read_text()))
        validate(config)


def test_a_selected_plugin_algorithm_that_breaks_the_contract_is_named_by_its_first_problem(monkeypatch, plug):
    """Only a plugin's algorithm is checked (the built-ins are tests/test_contract.py's); the planning test of
    it is tests/test_plugins.py's (slow)."""
    from duelbandits import contract, plugins

    source, checked = plugins.Source("toyplugin", "0.1", "0123456789abcdef"), []
    plug("dts", slug="toy", source=source)
    monkeypatch.setattr(contract, "check_plugin", lambda slug: checked.append(slug) or ["its first", "its second"])
    with pytest.raises(ConfigError) as raised:
        configcheck.check_plugins(["dts", "toy"], "field/algorithms")
    assert checked == ["toy"] and str(raised.value) == (
        "config: field/algorithms: toy (plugin toyplugin 0.1) breaks the algorithm contract: its first "
        "(duelbandits check-algorithm toy lists every problem)"
    )
    config = with_value(("algorithms",), ["dts", "toy"])
    config["field"].update(scenarios=["borda"], algorithms=["toy"])
    planned = {
        "algorithms": configcheck.check_paper,
        "field/algorithms": lambda c: configcheck.check_target(c, "field"),
    }
    for key, check in planned.items():  # planning checks a selected plugin, naming the key that selects it
        with pytest.raises(ConfigError, match=f"^config: {key}: toy \\(plugin toyplugin 0.1\\) breaks"):
            check(config)
