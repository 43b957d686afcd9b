"""What every command shares: the usage error and the argument types. Kept light (no numpy,
pandas or plotting) because every command imports it."""

from __future__ import annotations

import argparse
import json

from ..errors import InputError
from ..schemas import MAX_ACTIONS, MAX_STEP, out_of_range


class UsageError(InputError):
    """A command-line value is malformed."""


def int_in(low: int, high: int):
    """An argparse type: an integer in ``[low, high]``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in [{low}, {high}], got {value}")
        return value

    return parse


def _float_type(low_open: bool):
    """An argparse type: a finite number > 0 (``low_open``) or >= 0."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
        if not (0 < value if low_open else 0 <= value) or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a finite number {'>' if low_open else '>='} 0, got {text!r}")
        return value

    return parse


positive_int = int_in(1, MAX_STEP)
non_negative_int = int_in(0, MAX_STEP)
actions = int_in(2, MAX_ACTIONS)
seed = int_in(0, 2**63 - 1)
positive_float = _float_type(low_open=True)
non_negative_float = _float_type(low_open=False)


def add_c_alpha(parser, use: str) -> None:
    """The ``--c-alpha`` option: TS-Borda's c, which the command needs for ``use``."""
    help_ = f"TS-Borda's c ({use}; TS-Borda's c_alpha in config `algorithm_params`, else its default)"
    parser.add_argument("--c-alpha", type=positive_float, required=True, help=help_)


def add_bootstrap_args(p, section: str) -> None:
    """The point files and the bootstrap's options; ``section`` is the config section the workflow takes
    them from (``sweeps``, ``asymptotics``)."""
    p.add_argument("points", nargs="+", help="point files (duelbandits sweep-point)")
    p.add_argument(
        "--resamples", type=positive_int, required=True, help=f"bootstrap resamples (config `{section}/bootstrap`)"
    )
    p.add_argument("--confidence", type=float, required=True, help=f"CI level (config `{section}/confidence`)")
    p.add_argument("--seed", type=seed, required=True, help="base seed of the bootstrap (config `seed`)")


def scenario_rows(path, scenario: str, table: str | None = None):
    """The rows of ``scenario`` in the Parquet file ``path`` (the table ``table``); UsageError if there are none."""
    from .. import storage

    frame = storage.read_frame(path, table, filters=[("scenario", "=", scenario)])
    if frame.empty:
        raise UsageError(f"{path} has no rows for scenario {scenario!r}")
    return frame


def key_values(pairs, what: str) -> dict:
    """``["a=1", "b=2.5"]`` -> ``{"a": 1.0, "b": 2.5}``."""
    out = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"{what} must look like NAME=VALUE, got {pair!r}")
        try:
            out[name] = float(value)
        except ValueError:
            raise UsageError(f"{what} {name} must be a number, got {value!r}") from None
    return out


def run_range(text: str) -> range:
    """``"5"`` -> range(5, 6); ``"0-24"`` -> range(0, 25) (a range: its size is checked before any list)."""
    first, _, last = text.partition("-")
    try:
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise UsageError(f"--runs must be R or FIRST-LAST with integers, got {text!r}") from None
    if lo < 0 or hi < lo or hi > MAX_STEP:
        raise UsageError(f"--runs must satisfy 0 <= FIRST <= LAST <= {MAX_STEP}, got {text!r}")
    return range(lo, hi + 1)


def json_arg(text: str, flag: str):
    """The JSON value of ``flag``'s ``text``; Python's NaN and Infinity, which JSON has not, are refused."""

    def refuse(constant):
        raise UsageError(f"{flag} is not JSON: {constant} is not a JSON number")

    try:
        return json.loads(text, parse_constant=refuse)
    except json.JSONDecodeError as err:
        raise UsageError(f"{flag} is not JSON: {err}") from None


def check_range(name: str, value: float, flag: str) -> None:
    """UsageError naming ``flag`` unless ``value`` lies in the range :data:`duelbandits.schemas.RANGES`
    gives ``name`` (the config schema's range of the same value)."""
    problem = out_of_range(name, value)
    if problem:
        raise UsageError(f"{flag} {problem}, got {value}")


def check_confidence(confidence: float, flag: str = "--confidence") -> None:
    check_range("confidence", confidence, flag)


def parquet_out(path) -> None:
    if not str(path).endswith(".parquet"):
        raise UsageError(f"--out must name a .parquet file, got {path!r}")
