"""A manifest of a results tree, and ``manifest verify``: the one integrity check, at the end.

One ``<sha256>  <path>`` line per file (``sha256sum -c`` reads it), one ``# content:`` line per file
and ``# end: N entries`` last, so a manifest cut short never verifies; what :func:`verify` compares:
docs/reproducibility.md ("Verification").
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from . import digests
from .digests import FIGURE_SUFFIXES
from .errors import InputError, why_unreadable
from .provenance import environment, file_sha256

STATUSES = IDENTICAL, SAME_CONTENT, NOT_CONFIRMED, DIFFERS, MISSING = (
    "identical", "same content", "not confirmed", "differs", "missing"
)  # fmt: skip
"""What verification says of one file, from best to worst. :data:`NOT_CONFIRMED`: a figure with other
bytes under other versions than the manifest's (not a failure: it cannot be compared)."""

END = "# end: "
"""How a manifest's closing line opens: ``# end: N entries``, N the number of files it lists."""

_END_LINE = re.compile(r"# end: (0|[1-9][0-9]*) entries")


class ManifestError(InputError):
    """A manifest is unreadable or names files that cannot be hashed."""


# --- The manifest file ----------------------------------------------------------------------


def build(root, files, config: dict, plugins: dict | None = None) -> str:
    """Manifest text for ``files`` (paths relative to ``root``); ``plugins``, the plugin entries the run
    used (``duelbandits.plan.plugins_used``), are recorded on a ``# plugins:`` line."""
    root = Path(root)
    rels = sorted({Path(f).as_posix() for f in files})
    for rel in rels:
        problem = why_unreadable(root / rel)
        if problem:
            raise ManifestError(f"{root / rel}: {problem}, cannot be listed in the manifest")
    lines = [
        "# duelbandits results manifest: sha256 of every result and figure, then its content digest",
        "# verify with: duelbandits manifest verify results/MANIFEST.sha256 (or sha256sum -c for the bytes)",
        f"# environment: {json.dumps(environment(), sort_keys=True)}",
        f"# config: {json.dumps(config, sort_keys=True)}",
    ]
    if plugins:
        lines.append(f"# plugins: {json.dumps(plugins, sort_keys=True)}")
    lines += [f"{file_sha256(root / rel)}  {rel}" for rel in rels]
    lines += [f"# content: {digests.content_digest(root / rel)}  {rel}" for rel in rels]
    lines.append(f"{END}{len(rels)} entries")
    return "\n".join(lines) + "\n"


PLUGIN_FIELDS = ("distribution", "version", "digest")


def recorded_plugins(manifest) -> dict:
    """The manifest's ``# plugins:`` record: ``{slug: {distribution, version, digest}}`` (empty without one);
    ManifestError for a record of another shape (its reader prints each field)."""
    text = read(manifest)[0].get("plugins", "{}")
    try:
        record = json.loads(text)
    except ValueError:
        record = None  # pragma: no mutate -- '' for None: neither is a dict, the same error
    fine = isinstance(record, dict) and all(
        isinstance(made, dict) and set(made) == set(PLUGIN_FIELDS) and all(isinstance(v, str) for v in made.values())
        for made in record.values()
    )
    if not fine:
        raise ManifestError(
            f"{manifest}: its '# plugins:' line is not a JSON object of {{slug: {{{', '.join(PLUGIN_FIELDS)}}}}}"
        )
    return record


def _damaged(path, why: str) -> ManifestError:
    return ManifestError(f"{path}: truncated or damaged manifest: {why}")


def read(path) -> tuple[dict, dict, dict]:
    """``(header, {path: sha256}, {path: content digest})`` of a manifest file.

    ManifestError, naming the line, for a malformed line, a path outside the tree (absolute or with a
    ``..`` component) and a path listed twice; ``PATH: truncated or damaged manifest: ...`` for a
    manifest without its closing ``# end: N entries`` line (cut short), with lines after it, or whose
    count is not the number of files it lists.
    """
    path = Path(path)
    problem = why_unreadable(path)  # a FIFO would block the read, a directory name the wrong cause
    if problem:
        raise ManifestError(f"{path}: {problem}")
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise ManifestError(f"{path}: cannot read manifest ({err})") from None
    numbered = list(enumerate(text.splitlines(), 1))
    cut = bool(text) and not text.endswith("\n")  # ends inside a line
    header, entries, contents, lines = {}, {}, {}, {}
    closing = None  # (line number, count)
    for number, line in numbered:
        if closing is not None:
            if line.strip():
                raise _damaged(path, f"line {number} follows the closing line (line {closing[0]})")
            continue
        try:
            if line.startswith(END.rstrip()):
                match = _END_LINE.fullmatch(line)
                if match is None:
                    raise _damaged(path, f"line {number} is not a closing '# end: N entries' line")
                closing = (number, int(match.group(1)))
                continue
            if line.startswith("# content: "):
                digest, sep, rel = line[len("# content: ") :].partition("  ")
                if not sep or not rel:
                    raise ManifestError(f"{path}:{number}: not a '# content: <digest>  <path>' line")
                target = contents
            elif line.startswith("# ") and ": " in line:
                key, _, value = line[2:].partition(": ")
                header[key] = value
                continue
            elif line and not line.startswith("#"):
                digest, sep, rel = line.partition("  ")
                if not sep or not re.fullmatch(r"[0-9a-f]{64}", digest) or not rel:
                    raise ManifestError(f"{path}:{number}: not a '<sha256>  <path>' line")
                target = entries
            else:
                continue
            if rel.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", rel) or ".." in re.split(r"[\\/]", rel):
                raise ManifestError(f"{path}:{number}: {rel}: not a path inside the tree (absolute, or with '..')")
            seen = lines.setdefault(id(target), {})
            if rel in seen:
                raise ManifestError(f"{path}:{number}: {rel} is listed twice (also on line {seen[rel]})")
        except ManifestError:
            if cut and number == len(numbered):  # the last line, cut inside: the file was cut short
                raise _damaged(path, f"its last line (line {number}) is cut short") from None
            raise
        seen[rel] = number
        target[rel] = digest
    if closing is None:
        where = "it is empty" if not numbered else f"it ends at line {len(numbered)}"
        raise _damaged(
            path,
            f"no closing '# end: N entries' line ({where}): cut short, or not written by duelbandits manifest write",
        )
    if closing[1] != len(entries):
        raise _damaged(path, f"its closing line (line {closing[0]}) says {closing[1]} entries, it lists {len(entries)}")
    if contents and set(contents) != set(entries):
        lacking = sorted(set(entries) - set(contents)) or sorted(set(contents) - set(entries))
        raise _damaged(path, f"its content lines and its sha256 lines list other files ({lacking[0]})")
    if not entries:
        raise ManifestError(f"{path}: lists no files")
    return header, entries, contents


def manifest_versions(manifest, header: dict | None = None) -> dict | None:
    """The versions the manifest's ``# environment:`` line records (those that made the files it
    lists), or None if it has none; ManifestError if the line is not a JSON object."""
    # mutmut equivalent: the manifest read again though its header is given: verify passes the header of the same file
    header = read(manifest)[0] if header is None else header  # pragma: no mutate
    if "environment" not in header:
        return None
    try:
        versions = json.loads(header["environment"])
    except json.JSONDecodeError:
        versions = None  # pragma: no mutate -- '' for None on bad JSON: neither is a dict, the same error
    if not isinstance(versions, dict):
        raise ManifestError(f"{manifest}: its environment line is not a JSON object")
    return versions


def verify(manifest, root, reasons: dict | None = None) -> dict[str, str]:
    """``{path: status}`` (:data:`STATUSES`) for every file of ``manifest`` checked under ``root``
    (docs/reproducibility.md, "Verification"); ``reasons``, if given, receives why each file differs."""
    header, entries, contents = read(manifest)
    # mutmut equivalent: manifest_versions without the header or the header argument dropped: it reads the same
    # manifest's header again
    recorded = manifest_versions(manifest, header)  # pragma: no mutate
    same_versions = recorded is None or recorded == environment()
    reasons = {} if reasons is None else reasons
    status = {}
    for rel, digest in entries.items():
        path = Path(root) / rel
        problem = why_unreadable(path)
        if problem is not None and problem.startswith("file not found"):
            status[rel] = MISSING
        elif problem is not None:  # a directory, a FIFO, a loop, unreadable in its place: named, not hashed
            status[rel], reasons[rel] = DIFFERS, problem
        elif file_sha256(path) == digest:
            status[rel] = IDENTICAL
        elif recorded is None:
            status[rel] = DIFFERS
            reasons[rel] = "other bytes (the manifest records no versions, so only bytes are compared)"
        elif same_versions:
            status[rel] = DIFFERS
            reasons[rel] = "other bytes under the manifest's own versions: changed after the pipeline wrote it"
        elif path.suffix.lower() in FIGURE_SUFFIXES:
            status[rel] = NOT_CONFIRMED
        elif rel not in contents:
            status[rel], reasons[rel] = DIFFERS, "other bytes, and the manifest has no content line to compare"
        else:
            why = "another content than the manifest's (its data or its provenance differs)"
            try:
                same = digests.content_digest(path) == contents[rel]
            except digests.DigestError as err:  # a damaged file differs
                same, why = False, str(err)
            status[rel] = SAME_CONTENT if same else DIFFERS
            if not same:
                reasons[rel] = why
    return status


def environment_differences(manifest) -> list[str]:
    """``name: here (manifest ...)`` for every recorded version that differs from this interpreter's."""
    here = environment()
    recorded = manifest_versions(manifest) or {}
    return [
        f"{name} {here[name]} (manifest {version})"
        for name, version in sorted(recorded.items())
        if name in here and here[name] != version
    ]
