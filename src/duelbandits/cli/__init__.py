"""Command line: ``duelbandits COMMAND``, one command per pipeline step (``duelbandits --help`` lists them).

One module per family of commands (:data:`FAMILIES`), each importing inside the command what it runs,
so that a job loads, and its rerun trigger covers, only that code.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
from pathlib import Path

from ..errors import InputError
from .args import UsageError

FAMILIES = (
    "cli.simulation",
    "studies.paper",
    "cli.reproducibility",
    "studies.tail",
    "studies.claims",
    "studies.bayes",
    "studies.sweeps",
    "studies.field",
    "studies.asymptotics",
)
"""The command modules, by dotted name in the package, in the order ``duelbandits --help`` lists their commands."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="duelbandits", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for family in FAMILIES:
        importlib.import_module(f"duelbandits.{family}").add_commands(sub)
    return parser


def _outputs(args) -> list[str]:
    """The output paths the command was given (its ``outputs`` arguments that are set)."""
    paths = []
    for name in getattr(args, "outputs", ()):
        value = getattr(args, name, None)
        paths += [p for p in (value if isinstance(value, list) else [value]) if p is not None]
    return paths


def file_arguments(args) -> list[tuple[str, str]]:
    """``(flag, path)`` of every argument of the command but its outputs that could name a file: each
    string value, and the path of a ``NAME=PATH`` value (``--chunk``). The arguments a command names
    in its ``rooted`` default are paths relative to its ``--root`` (``manifest write``): given joined."""
    skip = {"func", "outputs", "rooted", "command", "out", *getattr(args, "outputs", ())}  # out: templates
    rooted = getattr(args, "rooted", ())
    found = []
    for name, value in vars(args).items():
        if name in skip:
            continue
        flag = "the file arguments" if name in ("files", "inputs") else f"--{name.replace('_', '-')}"
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item:
                paths = [path for path in dict.fromkeys((item, item.partition("=")[2])) if path]
                found += [(flag, os.path.join(args.root, path) if name in rooted else path) for path in paths]
    return found


def _resolved(path) -> Path | None:
    """``path`` with its symbolic links and ``..`` resolved, or None if it cannot be (a symbolic link
    loop, a name the system refuses): such a path is not a file any other argument names."""
    try:
        return Path(path).resolve()
    except (OSError, ValueError, RuntimeError):  # RuntimeError: a symbolic link loop (Python < 3.13)
        return None


def check_outputs_are_not_inputs(inputs, outputs) -> None:
    """Refuse an output that is also one of the command's other file arguments, or another of its
    outputs (after resolving paths: ``./x``, ``x`` and a symbolic link to ``x`` are one file), so that
    no command overwrites what it reads or writes one file twice."""
    targets = {}
    for path in outputs:
        resolved = _resolved(path)
        if resolved in targets:
            raise UsageError(f"{path}: the same file as the output {targets[resolved]}; give each output its own file")
        if resolved is not None:
            targets[resolved] = path
    for flag, path in inputs:
        resolved = _resolved(path)
        if resolved in targets:
            raise UsageError(f"{targets[resolved]}: the output is also an input ({flag} {path}); write it elsewhere")


def main(argv=None) -> int:
    try:
        parser = build_parser()  # loads the registries: an unusable plugin is named here, in one line
    except InputError as err:
        print(f"duelbandits: error: {err}", file=sys.stderr)
        return 2
    args = parser.parse_args(argv)
    outputs = _outputs(args)
    try:
        check_outputs_are_not_inputs(file_arguments(args), outputs)
        if outputs:
            from ..storage import check_output

            for path in outputs:
                check_output(path)
        status = args.func(args) or 0
        sys.stdout.flush()  # a closed pipe (`| head`) shows here, not at exit
        return status
    except BrokenPipeError:  # the reader went away (`duelbandits provenance FILE | head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        return 128 + signal.SIGPIPE  # 141, as a command killed by SIGPIPE
    except InputError as err:
        problem = str(err)
    except MemoryError:  # the machine, not the code: more than `ulimit -v` or the free memory allows
        problem = (
            "out of memory: the command needs more than this process may allocate (ulimit -v, or the free memory); "
            "ask for less"
        )
    except OSError as err:  # the machine, not the code: a full disk, a file vanished mid-read
        where = err.filename or ", ".join(outputs) or "(no file named)"  # a write's own error names no file
        problem = f"{where}: {err.strerror or err}"
    print(f"duelbandits {args.command}: error: {problem}", file=sys.stderr)
    return 2
