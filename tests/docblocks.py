"""Every fenced code block of README.md and docs/*.md, and how tests/test_docs.py runs it.

The rule a block follows is read from its language and from an HTML comment on the line just
before its fence:

- ``python``: run as a script in an empty folder (quick tier).
- ``bash``/``sh``/``shell``: each command (logical lines, ``&&`` chains) must be a ``snakemake``
  command, dry-run (``-n``) from a folder laid out as the repository (its Snakefile, workflow/ and
  config.yaml linked in, the files of :data:`FIXTURES`), or a ``duelbandits`` command, run for real
  in that folder. ``--cores`` is dropped; ``--report FILE`` reports on jobs already run, so its
  command plans the targets it names.
- ``yaml``: a config overlay; its comment lines that are snakemake commands are dry-run with the
  block saved as ``this.yaml``.
- ``text``: printed output (an error message, a log line), not a command.
- ``<!-- run by: PATH -->`` before the fence: the test or script at PATH runs the block (and
  names the page).
- ``<!-- not run: REASON -->`` before the fence: not run, for the reason given.

Any other block fails tests/test_docs.py, so a new example is run or says why not.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]

FENCE = re.compile(r"^(```|~~~)")
MARKER = re.compile(r"^<!--\s*(run by|not run):\s*(.*?)\s*-->$")
SHELL = {"bash", "sh", "shell"}
OUTPUT = "text"
CHAIN = {"&&", ";"}
CORES = {"--cores", "-c", "--jobs", "-j"}

FIXTURES = {"my.yaml": "horizon: 2000\nruns: 5\n"}
"""Files a shown command names as the user's own (README: `--configfile my.yaml`), made in the folder."""


@dataclass(frozen=True)
class Block:
    page: Path
    line: int  # of the opening fence, 1-based
    language: str
    text: str
    marker: tuple[str, str] | None  # ("run by" | "not run", path or reason)

    @property
    def where(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def split(text: str) -> tuple[list[str], list[tuple[int, str, str]]]:
    """``(prose lines, fenced blocks as (index of the opening fence's line, language, body))`` of Markdown."""
    prose, found, lines, start = [], [], text.splitlines(), None
    for number, line in enumerate(lines):
        if not FENCE.match(line.strip()):
            prose += [line] if start is None else []
        elif start is None:
            start = number
        else:
            found.append((start, lines[start].strip().lstrip("`~").strip(), "\n".join(lines[start + 1 : number])))
            start = None
    return prose, found


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of ``page`` with their language and marker."""
    lines = page.read_text().splitlines()
    found = []
    for start, language, body in split("\n".join(lines))[1]:
        match = MARKER.match(lines[start - 1].strip()) if start else None
        found.append(Block(page, start + 1, language, body, match.groups() if match else None))
    return found


def shell_commands(text: str, comments_only: bool = False) -> list[list[str]]:
    """The commands of a shell block as word lists: logical lines split at ``&&`` and ``;``, comments
    dropped. With ``comments_only``, the commands written in ``#`` comment lines instead (a YAML block's
    usage line)."""
    found = []
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if comments_only:
            if not line.startswith("#"):
                continue
            line = line.lstrip("#").strip()
            if not line.startswith(("snakemake", "python", "duelbandits")):  # prose, maybe with an apostrophe
                continue
        words, command = shlex.split(line, comments=True), []
        for word in [*words, "&&"]:
            if word in CHAIN:
                if command:
                    found.append(command)
                command = []
            else:
                command.append(word)
    return found


def program(words: list[str]) -> str:
    """The program a command runs: the name of its first word, or the module after ``python -m``."""
    if len(words) > 2 and Path(words[0]).name.startswith("python") and words[1] == "-m":
        return words[2]
    return Path(words[0]).name


def dry_run_arguments(words: list[str]) -> list[str]:
    """A snakemake command's arguments for a dry run: ``--cores N`` dropped, ``--report FILE`` dropped
    (the report needs jobs already run; its targets are still planned)."""
    start = 3 if Path(words[0]).name.startswith("python") else 1
    out, skip = [], False
    for word in words[start:]:
        if skip:
            skip = False
        elif word in CORES or word == "--report":
            skip = True
        elif "=" in word and word.split("=", 1)[0] in CORES | {"--report"}:
            continue
        else:
            out.append(word)
    return out
