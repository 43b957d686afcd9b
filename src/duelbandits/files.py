"""Writing files safely: every output goes through :func:`atomic_write`, so an interrupted job
never leaves a partial file that a rerun would take as done; and the ledger, in which the
workflow's jobs record what they wrote, so that the manifest never blesses a file changed
after the job that made it.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

from .errors import InputError
from .provenance import file_sha256


class StorageError(InputError):
    """A results file is missing, unreadable or not what the pipeline wrote, or cannot be written."""


class DamagedFile(StorageError):
    """An input file that is not what the pipeline wrote (the workflow's repair: rebuild it)."""

    def __init__(self, path, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path = str(path)


def ledger_record(ledger, path) -> Path:
    """Where the ledger folder ``ledger`` keeps the record of ``path`` (a path as the jobs write it)."""
    rel = Path(os.path.normpath(path))
    return Path(ledger) / f"{rel.relative_to(rel.anchor) if rel.is_absolute() else rel}.sha256"


def record_written(ledger, path, sha256: str | None = None, content: str | None = None) -> None:
    """Record in the ledger folder ``ledger`` the sha256 of the file ``path`` (computed unless given)
    and, optionally, a line about its content (the manifest's cached content digest)."""
    record = ledger_record(ledger, path)
    lines = [sha256 or file_sha256(path), *([content] if content else [])]
    try:
        record.parent.mkdir(parents=True, exist_ok=True)
        with atomic_write(record) as tmp:
            tmp.write_text("\n".join(lines) + "\n")
    except OSError as err:
        raise StorageError(f"{record}: cannot write ({err.strerror or err})") from None


def read_record(ledger, path) -> list[str] | None:
    """The lines of the ledger's record of ``path`` (its sha256 first), or None if there is none."""
    record = ledger_record(ledger, path)
    try:
        return record.read_text().splitlines()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as err:
        raise StorageError(f"{record}: cannot read the ledger's record ({err})") from None


CHANGED = "changed since the job that wrote it (its sha256 is not the one the job recorded)"
UNRECORDED = "no job of the pipeline recorded writing it"


def ledger_problem(path, ledger) -> str | None:
    """Why ``path`` is not the file its job wrote according to the ledger folder ``ledger``, or None."""
    record = read_record(ledger, path)
    if record is None:
        return UNRECORDED
    return CHANGED if file_sha256(path) != record[0] else None


def check_recorded_inputs(paths, ledger) -> None:
    """DamagedFile for the first of ``paths`` that the ledger records with another sha256: a job's
    input changed since the job that wrote it (a file it does not record is the command's own to
    check). Run by every command that the workflow starts (``--ledger``)."""
    for path in paths:
        try:
            recorded = Path(path).is_file() and read_record(ledger, path) is not None
        except (OSError, ValueError):  # not a path at all (a JSON argument, a name too long for one)
            continue
        if recorded and ledger_problem(path, ledger):
            raise DamagedFile(path, CHANGED)


_NOTED: ContextVar[dict | None] = ContextVar("noted_contents", default=None)


@contextmanager
def noting_contents():
    """Collect, while the block runs, the content digests the writers note (:func:`note_content`):
    a dict from each written path to its ledger line, which the command line records in the ledger."""
    token = _NOTED.set({})
    try:
        yield _NOTED.get()
    finally:
        _NOTED.reset(token)


def noting() -> bool:
    """Whether a caller collects content digests: a writer computes one only then."""
    return _NOTED.get() is not None


def note_content(path, content: str) -> None:
    """Note the ledger's content line of the file just written at ``path``
    (:func:`duelbandits.digests.ledger_line` of its content digest)."""
    noted = _NOTED.get()
    if noted is not None:
        noted[os.path.normpath(path)] = content


def noted_content(noted: dict, path) -> str | None:
    """The content line noted for ``path`` in what :func:`noting_contents` collected, or None."""
    return noted.get(os.path.normpath(path))


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def check_output(path) -> None:
    """Raise StorageError unless ``path`` can be written: not a directory, in a folder that
    exists or can be made, and that this user may write in."""
    path = Path(path)
    if path.is_dir():
        raise StorageError(f"{path}: is a directory, not a file to write")
    folder = path.parent
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        raise StorageError(f"{path}: cannot write there, {folder} is not a directory")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StorageError(f"{path}: cannot write there, no permission to write in {folder}")


@contextmanager
def atomic_write(path):
    """Yield a temporary path beside ``path``; rename it onto ``path`` only on success.

    A crash or an exception never leaves a partial file at ``path``, and the
    temporary file is removed either way (one left by a killed process is
    removed by the next write of the same path).
    """
    final = Path(path)
    try:
        final.parent.mkdir(parents=True, exist_ok=True)
        for stale in final.parent.glob(f".{final.name}.*.tmp"):
            stale.unlink(missing_ok=True)  # left by a writer killed with SIGKILL
        fd, name = tempfile.mkstemp(prefix=f".{final.name}.", suffix=".tmp", dir=final.parent)
        os.close(fd)
    except OSError as err:
        raise StorageError(f"{final}: cannot write ({err.strerror or err})") from None
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, final)
    except OSError as err:  # a full disk, a quota: name the file (the error of a write names none)
        raise StorageError(f"{final}: cannot write ({err.strerror or err})") from None
    finally:
        tmp.unlink(missing_ok=True)


def write_text(path, text: str) -> None:
    """Write a text file atomically (Markdown, HTML, JSON, the manifest)."""
    with atomic_write(path) as tmp:
        tmp.write_text(text)
