"""The CLI's argument types (cli/args.py) at their boundaries: the last valid and the first invalid
value of each, the non-numbers (nan, inf, text), and one option of each type through its command's parser.

The limits are the largest values the Parquet columns hold: ``t`` and ``run`` are int32, ``I`` and
``J`` int16 (numpy's own ``iinfo``, not the package's constants)."""

import sys

import numpy as np
import pytest

from duelbandits import cli, schemas
from duelbandits.cli import args
from duelbandits.errors import InputError

INT32_MAX = int(np.iinfo(np.int32).max)  # 2147483647
INT16_MAX = int(np.iinfo(np.int16).max)  # 32767
INT64_MAX = int(np.iinfo(np.int64).max)
FLOAT_MAX = sys.float_info.max
I32, I32_PAST = str(INT32_MAX), str(INT32_MAX + 1)


def test_the_limits_are_the_largest_values_of_the_int32_and_int16_columns():
    assert (schemas.MAX_STEP, schemas.MAX_ACTIONS) == (INT32_MAX, INT16_MAX)
    assert [schemas.RUN_COLUMNS[name].bit_width for name in ("run", "t", "I", "J")] == [32, 32, 16, 16]


# --- run_range -------------------------------------------------------


def test_run_range_is_first_to_last_inclusive_up_to_the_largest_run_index():
    for text, expected in [
        ("0", range(0, 1)),
        ("0-0", range(0, 1)),
        ("7-9", range(7, 10)),
        (I32, range(INT32_MAX, INT32_MAX + 1)),
        (f"0-{I32}", range(0, INT32_MAX + 1)),
    ]:
        assert args.run_range(text) == expected, text
    for text in [I32_PAST, f"0-{I32_PAST}", "-1", "-1-3", "5-4", "1.5", "0-inf", "a-b", "", "1-2-3"]:
        with pytest.raises(args.UsageError, match="--runs"):
            args.run_range(text)
    assert issubclass(args.UsageError, InputError)  # a user's error: one line, exit 2


# --- The options of the commands: each has the type of its range -------------------------------


def parse(argv):
    return cli.build_parser().parse_args(argv)


SIM = ["simulate", "--scenario", "borda", "--algorithm", "dts", "--runs", "0", "--out", "x.parquet"]
POINT = ["sweep-point", "--scenario", "borda", "--algorithm", "dts", "--runs", "0", "--out", "x.parquet"]
AGG = ["aggregate", "--scenario-file", "s.json", "--chunk", "dts=c.parquet", "--traces", "t", "--strategies", "s"]
AGG += ["--summary", "u"]
BOUNDS = ["bounds", "--algorithms", "dts", "--out", "b.parquet"]
ASYM = ["asymptotics-table", "p.parquet", "--exponents", "e", "--local", "l", "--markdown", "m"]
HORIZON = ["sweep-horizon", "p.parquet", "--table", "t", "--exponents", "e", "--markdown", "m", "--html", "h"]
ACTIONS = ["sweep-actions", "p.parquet", "--table", "t", "--markdown", "m", "--html", "h"]
FIGURE = ["figure", "main", "--scenario-file", "s.json", "--summary", "u", "--out", "f.png"]
LATEX = ["latex", "figures", "--scenario-file", "s.json", "--summary", "u", "--out", "f.tex"]
TAIL = ["p.parquet", "--scenario-file", "s.json", "--seed", "0", "--share", "0.5"]
CONTINUE = ["tail-continue", *TAIL, "--horizon", "9", "--others", "1", "--jobs", "1", "--job", "0"]
CONTINUE += ["--grid-points", "41", "--escape-samples", "2000", "--curves", "c", "--states", "s"]
TAIL_TABLE = ["tail-table", *TAIL, "--curves", "c", "--states", "s", "--confidence", "0.95"]
TAIL_TABLE += ["--estimates", "e", "--markdown", "m"]
FAMILY = ["tail-family", "--actions", "3", "--gaps", "0.1", "--others-gap", "0.1", "--strength", "0.9"]
FAMILY += ["--runs", "2", "--horizon", "9", "--seed", "0", "--grid-points", "25", "--confidence", "0.95"]
FAMILY += ["--bootstrap", "1000", "--table", "t", "--markdown", "m"]
CLAIMS = ["claims", "--summary", "u", "--level", "0.95", "--table", "t", "--markdown", "m"]

SEED, STRIDE, POINTS = ["--seed", "0"], ["--stride", "40"], ["--points", "20"]  # the required ones, old defaults
C_ALPHA = ["--c-alpha", "1.0"]  # required where the workflow passes it: its old default
BOOTSTRAP = ["--resamples", "1000", "--confidence", "0.95", "--seed", "0"]  # likewise, the old defaults
AGG += ["--points", "1000"]
BOUNDS += ["--points", "1000"]
ASYM += [*BOOTSTRAP, *C_ALPHA, "--near", "0.1"]
HORIZON += BOOTSTRAP
ACTIONS += C_ALPHA
FIGURE += C_ALPHA
LATEX += C_ALPHA

# One option of each argument type (cli/args.py), through its command's parser: (command line without the
# option, option, its values: the last valid ones, then the first invalid ones)
OPTIONS = [
    (SIM + SEED + STRIDE + ["--horizon", "5"], "--actions", ["2", str(INT16_MAX)], ["1", str(INT16_MAX + 1)]),
    (SIM + STRIDE + ["--horizon", "5"], "--seed", ["0", str(INT64_MAX)], ["-1", str(INT64_MAX + 1)]),
    (SIM + SEED + STRIDE, "--horizon", ["1", I32], ["0", I32_PAST, "1.5", "1e3", "nan", "inf", ""]),
    (SIM[:-4] + SEED + STRIDE + ["--horizon", "5", "--out", "x.parquet"], "--run", ["0", I32], ["-1", I32_PAST]),
    (ASYM, "--c-alpha", ["5e-324", "0.7", repr(FLOAT_MAX)], ["0", "-0.0", "-0.7", "nan", "inf", "1.8e308", "x"]),
    (ASYM, "--near", ["0", "0.2", repr(FLOAT_MAX)], ["-5e-324", "nan", "-nan", "-inf", "1.8e308", ""]),
    (ASYM, "--resamples", ["1"], ["0"]),  # a bootstrap of no resampling would give NaN intervals
]


def test_an_option_of_each_type_accepts_its_last_valid_value_and_refuses_the_first_invalid(capsys):
    for argv, option, valid, invalid in OPTIONS:
        dest = option.lstrip("-").replace("-", "_")
        for text in valid:
            value = getattr(parse([*argv, option, text]), dest)
            assert value == (int(text) if isinstance(value, int) else float(text)), (argv[0], option, text)
        for text in invalid:
            with pytest.raises(SystemExit) as exit_:
                parse([*argv, option, text])
            assert exit_.value.code == 2, (argv[0], option, text)
            assert f"argument {option}" in capsys.readouterr().err


# (a complete command line of each command the workflow runs, the options every rule that runs it passes)
WORKFLOW_PASSES = [
    (SIM + SEED + STRIDE + ["--horizon", "5"], ["--seed", "--stride"]),
    (POINT + SEED + POINTS + ["--horizon", "5"], ["--points"]),
    (AGG + ["--horizon", "5", "--runs", "2"], ["--points"]),
    (BOUNDS + C_ALPHA + ["--horizon", "9", "--actions", "3"], ["--points", "--c-alpha"]),
    (HORIZON, ["--resamples", "--confidence", "--seed"]),
    (ASYM, ["--resamples", "--confidence", "--seed", "--c-alpha", "--near"]),
    (ACTIONS, ["--c-alpha"]),
    (FIGURE, ["--c-alpha"]),
    (LATEX, ["--c-alpha"]),
    (CONTINUE, ["--share", "--grid-points", "--escape-samples"]),
    (TAIL_TABLE, ["--share", "--curves", "--states", "--confidence"]),
    (FAMILY, ["--grid-points", "--confidence", "--bootstrap"]),
    (CLAIMS, ["--level"]),
]


def test_what_the_workflow_always_passes_is_required(capsys):
    """One home for each default: an option that every rule running the command passes (from config.yaml,
    or claims.smk's --level) has none of its own (no default that could disagree with config.yaml), so a
    command line without it is refused."""
    for argv, options in WORKFLOW_PASSES:
        assert parse(argv).command == argv[0]  # the whole command line is valid
        for option in options:
            i = argv.index(option)  # and its values, up to the next option (several for --curves)
            end = next((k for k in range(i + 1, len(argv)) if argv[k].startswith("--")), len(argv))
            with pytest.raises(SystemExit, match="^2$"):
                parse(argv[:i] + argv[end:])
            err = capsys.readouterr().err
            assert err.splitlines()[-1].endswith(f"error: the following arguments are required: {option}"), err
