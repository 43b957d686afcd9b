"""Several figures in one call of ``figure main`` or ``figure appendix`` (one process for all): their
``--out`` path templates (:func:`figure_outputs`), none left behind by a failed call.
"""

from __future__ import annotations

import argparse
import itertools
import string
from contextlib import contextmanager
from pathlib import Path

from ...cli.args import UsageError

PLACEHOLDERS = {"algorithm": "--algorithm", "panel": "--panel"}
"""The placeholders of an ``--out`` template, and the option whose values replace each."""


def _placeholders(template: str, allowed) -> set[str]:
    """The placeholders of the ``--out`` template ``template``; UsageError for one not in ``allowed``."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError as err:
        raise UsageError(f"--out {template}: not a path template ({err}; a literal brace is {{{{ or }}}})") from None
    names = set()
    for _, name, spec, conversion in parts:
        if name is None:
            continue
        if name not in allowed or spec or conversion:
            shown = "{" + name + (f"!{conversion}" if conversion else "") + (f":{spec}" if spec else "") + "}"
            known = ", ".join("{" + key + "}" for key in allowed) or "none"
            raise UsageError(f"--out {template}: unknown placeholder {shown} (allowed: {known})")
        names.add(name)
    return names


def figure_outputs(templates, **choices) -> dict[tuple, list[str]]:
    """``{(value, ...): [path, ...]}``: the files of each figure a call draws (one per combination of the
    ``choices`` of each placeholder; None: its option not given), in drawing order. UsageError, before
    anything is drawn, for two figures writing one path or a placeholder unfilled."""
    for key, values in choices.items():
        for value in values or ():
            if values.count(value) > 1:
                raise UsageError(f"{PLACEHOLDERS[key]} {value} is given twice")
    for template in templates:
        names = _placeholders(template, list(choices))
        for key, values in choices.items():
            if values is None and key in names:
                raise UsageError(f"--out {template}: {{{key}}} needs {PLACEHOLDERS[key]}")
            if values is not None and len(values) > 1 and key not in names:
                raise UsageError(
                    f"--out {template}: {len(values)} values of {PLACEHOLDERS[key]} ({', '.join(values)}) "
                    f"need {{{key}}} in every --out template"
                )
    figures, owner = {}, {}
    for combo in itertools.product(*(values or [None] for values in choices.values())):
        values = {key: value for key, value in zip(choices, combo) if value is not None}
        figures[combo] = [template.format(**values) for template in templates]
        for path in figures[combo]:
            if owner.setdefault(path, combo) != combo:
                raise UsageError(f"--out: {path} would be written by two figures")
    return figures


class FigureParser(argparse.ArgumentParser):
    """The parser of ``figure main`` and ``figure appendix``: sets ``out_files``, the files the ``--out``
    templates name (the outputs the command line checks; a bad template stays as given, for the command
    to name)."""

    def parse_known_args(self, args=None, namespace=None):
        namespace, extras = super().parse_known_args(args, namespace)
        if getattr(namespace, "out", None) is not None:
            try:
                choices = {key: getattr(namespace, key) for key in PLACEHOLDERS if hasattr(namespace, key)}
                figures = figure_outputs(namespace.out, **choices)
                namespace.out_files = [path for paths in figures.values() for path in paths]
            except UsageError:
                namespace.out_files = list(namespace.out)
        return namespace, extras


@contextmanager
def removed_on_failure(figures: dict):
    """Run the ``with`` block, which draws ``figures`` (:func:`figure_outputs`); if it fails, remove the
    files of ``figures`` that it wrote, so that a failed call leaves none of its figures behind."""
    paths = [path for paths in figures.values() for path in paths]
    before = {path: _stamp(path) for path in paths}
    try:
        yield
    except BaseException:
        for path in paths:
            if _stamp(path) != before[path]:
                Path(path).unlink(missing_ok=True)
        raise


def _stamp(path):
    """What tells whether ``path`` was written since: its inode, mtime and size (None if absent)."""
    try:
        stat = Path(path).stat()
    except OSError:
        return None
    return (stat.st_ino, stat.st_mtime_ns, stat.st_size)
