"""The read boundary: is a file the one the pipeline's job wrote?

Every job runs with ``--ledger DIR`` and records there the sha256 of each file it writes
(:mod:`duelbandits.files`). Two checks compare a file with its record before it is read:

- :func:`planned_input_problems`, before any job runs (the workflow's ``onstart``): every input of
  the planned jobs that no planned job rebuilds and that lies under the pipeline's folders must be
  recorded and unchanged; otherwise the run stops before Snakemake removes any output.
- :func:`check_inputs`, when a command runs with ``--ledger``: every file argument that the ledger
  records must still have the recorded sha256 (a file changed after planning, or by hand while
  the workflow is not looking).

Both cost one sha256 of each file read (about 1 GB/s).
"""

from __future__ import annotations

from pathlib import Path

from .files import DamagedFile, read_record
from .provenance import file_sha256

PIPELINE_FOLDERS = ("results", "figures", ".duelbandits/kernels")
"""The folders whose files the pipeline's jobs write: an input there must be in the ledger."""

CHANGED = "changed since the job that wrote it (its sha256 is not the one the job recorded)"
UNRECORDED = "no job of the pipeline recorded writing it"


def ledger_problem(path, ledger) -> str | None:
    """Why ``path`` is not the file its job wrote according to the ledger folder ``ledger``, or None."""
    record = read_record(ledger, path)
    if record is None:
        return UNRECORDED
    return CHANGED if file_sha256(path) != record[0] else None


def planned_input_problems(paths, ledger) -> list[str]:
    """``"PATH: problem"`` for each file of ``paths`` under :data:`PIPELINE_FOLDERS` that the ledger
    does not record as written by the pipeline, unchanged (files outside them, such as the LaTeX
    document of the ``paper`` target, are the repository's, not results)."""
    problems = []
    for path in paths:
        rel = Path(path)
        under = not rel.is_absolute() and any(rel.as_posix().startswith(f"{top}/") for top in PIPELINE_FOLDERS)
        if under and rel.is_file():
            problem = ledger_problem(rel, ledger)
            if problem:
                problems.append(f"{rel.as_posix()}: {problem}")
    return problems


def check_inputs(paths, ledger) -> None:
    """DamagedFile for the first of ``paths`` that the ledger records with another sha256 (a file it
    does not record is not the pipeline's, and is the command's own to check)."""
    for path in paths:
        try:
            recorded = Path(path).is_file() and read_record(ledger, path) is not None
        except (OSError, ValueError):  # not a path at all (a JSON argument, a name too long for one)
            continue
        if recorded and ledger_problem(path, ledger):
            raise DamagedFile(path, CHANGED)
