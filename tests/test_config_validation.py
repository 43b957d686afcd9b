"""One validation of every config value at planning (plan.validate_config): NaN and infinities
refused by key, integers bounded as the command line bounds them, the key's source named, and a
partial config explained in one paragraph."""

import copy
import math
from pathlib import Path

import pytest
import yaml

from duelbandits import plan
from duelbandits.schemas import MAX_STEP

REPO = Path(__file__).resolve().parents[1]
SCHEMA = plan.config_schema(REPO / "workflow/schemas/config.schema.yaml")
BASE = yaml.safe_load((REPO / "config.yaml").read_text())


def number_paths(value, path=()):
    """Every path of a float or int leaf of the config (bools excluded)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from number_paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from number_paths(item, (*path, index))
    elif isinstance(value, (int, float)) and not isinstance(value, bool):
        yield path


def set_at(config, path, value):
    node = config
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


NUMBER_PATHS = list(number_paths(BASE))


def test_the_paper_config_is_valid():
    plan.validate_config(BASE, SCHEMA)


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf])
@pytest.mark.parametrize("path", NUMBER_PATHS, ids=lambda p: "/".join(map(str, p)))
def test_a_non_finite_number_anywhere_is_refused_naming_its_key(path, bad):
    config = copy.deepcopy(BASE)
    set_at(config, path, bad)
    key = "/".join(map(str, path))
    with pytest.raises(plan.ConfigError, match=rf"^config: {key}: must be a finite number, got {bad!r}"):
        plan.validate_config(config, SCHEMA)


def test_nan_for_a_key_with_an_open_range_is_refused_too():
    """memory_limit_gb (exclusiveMinimum 0, null allowed) and an algorithm's hyper-parameter are the
    probes that passed the schema before: NaN compares false with every bound."""
    for path in (("memory_limit_gb",), ("algorithm_params", "dts", "alpha")):
        config = copy.deepcopy(BASE)
        set_at(config, path, math.nan)
        with pytest.raises(plan.ConfigError, match="must be a finite number, got nan"):
            plan.validate_config(config, SCHEMA)


@pytest.mark.parametrize(
    "path", [("stride",), ("summary_points",), ("runs_per_job",), ("sweeps", "bootstrap"), ("field", "points")]
)
def test_integers_unbounded_in_the_schema_file_stop_at_the_command_lines_int32_limit(path):
    config = copy.deepcopy(BASE)
    set_at(config, path, MAX_STEP)  # the last valid value
    plan.validate_config(config, SCHEMA)
    set_at(config, path, MAX_STEP + 1)  # the first invalid one
    key = "/".join(path)
    with pytest.raises(
        plan.ConfigError, match=rf"^config: {key}: {MAX_STEP + 1} is greater than the maximum of {MAX_STEP}"
    ):
        plan.validate_config(config, SCHEMA)
    assert MAX_STEP == 2**31 - 1  # the step and run columns are int32 (docs/outputs.md)


def test_a_bad_value_names_the_file_or_the_command_line_that_set_it(tmp_path):
    mine = tmp_path / "mine.yaml"
    mine.write_text("stride: 0\n")
    config = {**copy.deepcopy(BASE), "stride": 0}
    files = [str(REPO / "config.yaml"), str(mine)]
    argv = ["snakemake", "--configfile", *files]
    with pytest.raises(plan.ConfigError, match=rf"config: stride: 0 is less than the minimum of 1 \(from {mine}; "):
        plan.validate_config(config, SCHEMA, files, argv)
    argv = ["snakemake", "--configfile", str(REPO / "config.yaml"), "--config", "stride=0"]
    with pytest.raises(plan.ConfigError, match=r"config: stride: 0 is less than the minimum of 1 \(from --config; "):
        plan.validate_config(config, SCHEMA, [str(REPO / "config.yaml")], argv)


def test_a_partial_config_gets_one_paragraph_on_where_the_config_is_read_from():
    partial = {"horizon": 300, "runs": 3}
    with pytest.raises(plan.ConfigError) as err:
        plan.validate_config(partial, SCHEMA)
    message = str(err.value)
    assert message.startswith("config: seed, runs_per_job, actions,") and "\n" not in message
    assert "reads config.yaml from the folder Snakemake runs in" in message
    assert "--configfile /path/to/checkout/config.yaml your.yaml" in message


@pytest.mark.parametrize("kind", ["directory", "not-utf8", "missing"])
def test_a_matrix_file_that_cannot_be_read_stops_planning_naming_the_cause(tmp_path, kind):
    import os

    path = {"directory": tmp_path / "m.csv", "missing": tmp_path / "none.csv"}.get(kind)
    if kind == "directory":
        path.mkdir()
    if kind == "not-utf8":
        path = os.fsdecode(os.fsencode(str(tmp_path)) + b"/\xff.csv")
        with open(os.fsencode(path), "w") as handle:
            handle.write("0.5,0.5\n0.5,0.5\n")
    config = {**copy.deepcopy(BASE), "scenarios": ["file"], "matrix_file": str(path)}
    cause = {
        "directory": "is a directory, not a file",
        "not-utf8": "its name is not valid UTF-8",
        "missing": "file not found",
    }
    with pytest.raises(plan.ConfigError, match=rf"^config: matrix_file/actions: matrix file .*: {cause[kind]}"):
        plan.check_paper(config, SCHEMA)


RANGED_KEYS = [
    ("sweeps", "confidence"),
    ("asymptotics", "confidence"),
    ("maximin-tail", "confidence"),
    ("maximin-bayes", "confidence"),
    ("maximin-tail", "share"),
    ("asymptotics", "near"),
]
"""The config keys whose range the command line checks too (by the flag of the same name)."""


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
        config = copy.deepcopy(BASE)
        config[section][key] = value
        try:
            plan.validate_config(config, SCHEMA)
            schema_accepts = True
        except plan.ConfigError:
            schema_accepts = False
        try:
            check_range(key, value, f"--{key}")
            cli_accepts = True
        except UsageError:
            cli_accepts = False
        assert schema_accepts == cli_accepts == expected(value), (section, key, value)


def test_the_schema_file_writes_no_range_of_its_own_for_a_ranged_key():
    """One home: the YAML schema refers to the table's $defs; a bound written beside the $ref would be a
    second copy that could drift."""
    raw = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text())
    for section, key in RANGED_KEYS:
        node = raw["properties"][section]["properties"][key]
        assert node.get("$ref") == f"#/$defs/{key}", (section, key)
        assert not {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} & set(node), (section, key)


def test_memory_limit_gb_stops_where_a_byte_count_stops():
    """2^33 GiB = 2^63 bytes, the last valid value; above it (1e308 GiB is infinite bytes) planning once
    ended in 'cannot convert float infinity to integer'."""
    config = copy.deepcopy(BASE)
    config["memory_limit_gb"] = 2**33
    plan.validate_config(config, SCHEMA)
    for bad in (2**33 + 1, 1e308):
        config["memory_limit_gb"] = bad
        with pytest.raises(plan.ConfigError, match=r"^config: memory_limit_gb: .* is greater than the maximum"):
            plan.validate_config(config, SCHEMA)


@pytest.mark.parametrize("value, valid", [(1, True), (0, False), (1.5, False)])
def test_the_familys_bootstrap_resamples_take_a_positive_integer(value, valid):
    """maximin-tail/family/bootstrap: the last valid value (1) and the first invalid ones (0, a fraction)."""
    config = copy.deepcopy(BASE)
    config["maximin-tail"]["family"]["bootstrap"] = value
    if valid:
        plan.validate_config(config, SCHEMA)
    else:
        with pytest.raises(plan.ConfigError, match="bootstrap"):
            plan.validate_config(config, SCHEMA)


def test_the_familys_bootstrap_is_required():
    config = copy.deepcopy(BASE)
    del config["maximin-tail"]["family"]["bootstrap"]
    with pytest.raises(plan.ConfigError, match="bootstrap"):
        plan.validate_config(config, SCHEMA)


@pytest.mark.parametrize("overlay", sorted((REPO / "config").glob("*.yaml")), ids=lambda p: p.name)
def test_every_overlay_in_config_is_valid_on_top_of_the_paper_config(overlay):
    """config/ holds the documented non-default runs (docs/architecture.md): each, merged over config.yaml
    as `--configfile config.yaml config/NAME.yaml` merges it, validates and plans the target it names."""
    from snakemake.utils import update_config

    config = copy.deepcopy(BASE)
    extra = yaml.safe_load(overlay.read_text())
    update_config(config, extra)
    plan.validate_config(config, SCHEMA)
    for section in extra:
        plan.check_target(config, section)
    assert config["maximin-tail"]["family"] == BASE["maximin-tail"]["family"]  # merged, not replaced


def test_the_priors_the_config_accepts_are_the_bayes_modules():
    """One home: the schema's prior enum is filled from duelbandits.bayes.PRIORS, none written in the YAML."""
    from duelbandits.bayes import PRIORS

    assert SCHEMA["properties"]["maximin-bayes"]["properties"]["prior"]["enum"] == list(PRIORS)
    raw = yaml.safe_load((REPO / "workflow/schemas/config.schema.yaml").read_text())
    assert (
        "enum" not in raw["$defs"]["prior"] and "enum" not in raw["properties"]["maximin-bayes"]["properties"]["prior"]
    )
