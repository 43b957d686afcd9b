"""A manifest of a results tree, and its verification at two levels: bytes and content.

The manifest lists one line per result and figure, sorted by path, in the
format of ``sha256sum`` (``<sha256>  <path>``, so ``sha256sum -c`` reads it
too), then one ``# content: <digest>  <path>`` line per file, preceded by
``#`` lines that record the Python and dependency versions and the config,
and closed by ``# end: N entries`` (N files): :func:`read` refuses a manifest
without it or whose count disagrees, so a manifest cut short never verifies.
It holds no timestamps: the same inputs and environment give the same bytes.

:func:`verify` compares a file's bytes when the versions that made it are the
manifest's (the same versions give the same bytes), its content otherwise. It
takes those versions from what it can check: the manifest's own
``# environment:`` line, a Parquet file's own provenance (``versions``), and,
for a file that records none (a figure, JSON, Markdown), this interpreter's.
Nothing else in the verified tree (its own ``results/MANIFEST.sha256`` in
particular) has a say.

The **content digest** ignores what another library version changes without
changing a result: for Parquet and JSON files, :mod:`duelbandits.digests`
(values, floats at float32 precision; metadata, encodings and compression do
not count); for figures (PNG, PDF), the content digest of the data they were
drawn from, which the figure carries in its metadata, provided the file is
whole (a PNG whose chunks all pass their CRC and that ends with its IEND
chunk, a PDF that ends in ``%%EOF``); for anything else (Markdown, HTML), its
bytes.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from functools import cache
from pathlib import Path

from .digests import JSON, PARQUET, DigestError, json_digest, ledger_line, parquet_digest
from .errors import InputError, why_unreadable
from .integrity import provenance_contradiction
from .provenance import canonical_json, environment, file_sha256

FIGURE_DATA_KEY = "duelbandits-data-sha256"
"""PNG text key (and PDF ``Keywords`` prefix) under which a figure stores the digest of its data."""

IDENTICAL, SAME_CONTENT, SAME_DATA, DIFFERS, MISSING = "identical", "same content", "same data", "differs", "missing"
STATUSES = (IDENTICAL, SAME_CONTENT, SAME_DATA, DIFFERS, MISSING)
"""What verification says of one file, from best to worst. :data:`SAME_DATA` is a figure whose image
differs, checked under other versions than the manifest's: its data is the same, its image was not
compared (other matplotlib versions draw other bytes)."""

FIGURE_SUFFIXES = (".png", ".pdf")

END = "# end: "
"""How a manifest's closing line opens: ``# end: N entries``, N the number of files it lists."""

_END_LINE = re.compile(r"# end: (0|[1-9][0-9]*) entries")


class ManifestError(InputError):
    """A manifest is unreadable or names files that cannot be hashed."""


sha256 = file_sha256


# --- Content digests -------------------------------------------------------------------------


def _png_text(data: bytes) -> dict:
    """The text chunks of a complete PNG; ManifestError if it is truncated or damaged."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ManifestError("not a PNG file")
    pos, texts = 8, {}
    while pos + 12 <= len(data):
        # mutmut equivalent: a signed chunk length: one of 2 GiB or more reads negative, and a body can never be that
        # long either, so both stop as truncated
        (length,) = struct.unpack(">I", data[pos : pos + 4])  # pragma: no mutate
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            break
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ManifestError(f"PNG chunk {kind!r} fails its CRC")
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            # mutmut equivalent: 'LATIN-1': codec names ignore case
            texts[key.decode("latin-1")] = value.decode("latin-1")  # pragma: no mutate
        if kind == b"IEND":
            if pos + 12 + length != len(data):
                raise ManifestError("PNG has data after its IEND chunk")
            return texts
        pos += 12 + length
    raise ManifestError("PNG is truncated (no IEND chunk)")


def _check_pdf(data: bytes) -> None:
    """ManifestError unless ``data`` is a whole PDF as matplotlib writes it: it ends in ``%%EOF``,
    its ``startxref`` points at its cross-reference table, and every Flate stream inflates to its
    end (zlib's checksum there catches a damaged byte inside a stream)."""
    if not data.startswith(b"%PDF") or not data.rstrip().endswith(b"%%EOF"):
        raise ManifestError("PDF is truncated or not a PDF")
    start = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data)
    if start is None or not data[int(start.group(1)) :].startswith(b"xref"):
        raise ManifestError("PDF's startxref does not point at its cross-reference table")
    for match in re.finditer(rb"/Length (\d+)(?: 0 R)?[^>]*?/Filter /FlateDecode[^>]*>>\s*stream\r?\n", data):
        end = data.find(b"endstream", match.end())
        inflate = zlib.decompressobj()
        try:
            inflate.decompress(data[match.end() : end])
        except zlib.error as err:
            raise ManifestError(f"PDF stream at byte {match.end()} does not inflate ({err})") from None
        if not inflate.eof:  # no error, but no end either: its checksum, at the end, was never checked
            raise ManifestError(f"PDF stream at byte {match.end()} does not inflate (it stops before its end)")


def figure_data_digest(path) -> str:
    """The data digest a figure carries; ManifestError if the file is damaged or carries none."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise ManifestError(f"{path}: cannot read ({err})") from None
    try:
        if path.suffix.lower() == ".png":
            value = _png_text(data).get(FIGURE_DATA_KEY)
        else:
            _check_pdf(data)
            match = re.search(rb"/Keywords \(" + FIGURE_DATA_KEY.encode() + rb"=([0-9a-f]{64})\)", data)
            value = match and match.group(1).decode()
    except ManifestError as err:
        raise ManifestError(f"{path}: {err}") from None
    if not value:
        raise ManifestError(f"{path}: carries no {FIGURE_DATA_KEY} (not drawn by duelbandits)")
    return value


def _content_digest(path) -> str:
    """The content digest of one file, by its suffix (module docstring); ManifestError if unreadable."""
    from .files import StorageError

    suffix = Path(path).suffix.lower()
    problem = why_unreadable(path)
    if problem:
        raise ManifestError(f"{path}: {problem}")
    try:
        if suffix == ".parquet":
            return PARQUET + parquet_digest(path)
        if suffix == ".json":
            return JSON + json_digest(path)
        if suffix in (".png", ".pdf"):
            return "figure:" + figure_data_digest(path)
    except (StorageError, DigestError) as err:
        raise ManifestError(str(err)) from None
    return "bytes:" + sha256(path)


def content_digest(path, ledger=None) -> str:
    """The content digest of one file, by its suffix (module docstring); ManifestError if unreadable.

    With ``ledger`` (the workflow's ledger folder), a Parquet or JSON file's digest is read from the
    ledger's record of the file, beside the sha256 its job recorded, as long as the file's bytes are
    still the recorded ones and the digest's code is the same (:func:`duelbandits.digests.ledger_line`).
    The job that wrote a Parquet file put it there (computed from the table in memory); any other is
    computed once, by the first job that needs it, and kept there for the next (a figure, the manifest).
    """
    if ledger is None or Path(path).suffix.lower() not in (".parquet", ".json"):
        return _content_digest(path)
    from .files import read_record, record_written

    record = read_record(ledger, path)
    if not record or record[0] != sha256(path):
        return _content_digest(path)
    key = ledger_line("")
    if len(record) > 1 and record[1].startswith(key):
        return record[1][len(key) :]
    content = _content_digest(path)
    # mutmut equivalent: sha256=None: record_written computes the file's sha256, equal to record[0] (checked just above)
    # / sha256 dropped: record_written computes the file's sha256, equal to record[0] (checked just above)
    record_written(ledger, path, sha256=record[0], content=ledger_line(content))  # pragma: no mutate
    return content


def data_digest(inputs: dict, ledger=None, **args) -> str:
    """Digest of a figure's data: the content digests of its input files and its arguments.

    ``inputs`` maps a role (``"summary"``) to a file; the role, not the
    path, enters the digest, so a figure drawn from the same data elsewhere
    has the same digest.
    """
    return figure_digest(input_contents(inputs, ledger), **args)


def input_contents(inputs: dict, ledger=None) -> dict:
    """``{role: content digest}`` of a figure's input files (:func:`data_digest`); a command that
    draws several figures from the same files computes it once."""
    return {role: content_digest(path, ledger) for role, path in inputs.items() if path is not None}


def figure_digest(contents: dict, **args) -> str:
    """:func:`data_digest` from the inputs' content digests (:func:`input_contents`)."""
    return hashlib.sha256(canonical_json({"inputs": contents, "args": args}).encode()).hexdigest()


# --- The manifest file ----------------------------------------------------------------------


def _ledger_problems(ledger, root, unrecorded: list, changed: list) -> str:
    """One message for every file the ledger does not vouch for, with the one command that rebuilds them."""
    from .files import ledger_record

    if len(unrecorded) + len(changed) == 1:
        rel = (unrecorded or changed)[0]
        record = ledger_record(ledger, root / rel)
        problem = (
            f"no job of the pipeline recorded writing it ({record} is missing)"
            if unrecorded
            else f"changed since the job that wrote it (its sha256 is not the one recorded in {record})"
        )
        return f"{rel}: {problem}; rebuild it with: snakemake --cores all --forcerun {rel}"
    parts = []
    if unrecorded:
        where = f"the ledger {ledger} is missing" if not Path(ledger).is_dir() else f"no record in {ledger}"
        parts.append(
            f"{len(unrecorded)} file(s) no job of the pipeline recorded writing ({where}): {' '.join(unrecorded)}"
        )
    if changed:
        parts.append(f"{len(changed)} file(s) changed since the job that wrote them: {' '.join(changed)}")
    return (
        "; ".join(parts) + f"; rebuild them all with: snakemake --cores all --forcerun {' '.join(unrecorded + changed)}"
    )


def build(root, files, config: dict, ledger=None, plugins: dict | None = None) -> str:
    """Manifest text for ``files`` (paths relative to ``root``); ``plugins``, the plugin entries the run
    used (``duelbandits.plan.plugins_used``), are recorded on a ``# plugins:`` line.

    With ``ledger`` (the folder where the pipeline's jobs recorded the sha256
    of what they wrote, ``duelbandits --ledger``), a file whose bytes are not
    the ones its job wrote is refused, with the command that rebuilds it: the
    manifest never blesses a file changed after the job that made it.
    """
    from .files import read_record

    root = Path(root)
    rels = sorted({Path(f).as_posix() for f in files})
    unrecorded, changed = [], []
    for rel in rels:
        problem = why_unreadable(root / rel)
        if problem:
            raise ManifestError(f"{root / rel}: {problem}, cannot be listed in the manifest")
        if ledger is not None:
            record = read_record(ledger, root / rel)  # as the jobs wrote it
            if record is None:
                unrecorded.append(rel)
            elif record[0] != sha256(root / rel):
                changed.append(rel)
    if unrecorded or changed:
        raise ManifestError(_ledger_problems(ledger, root, unrecorded, changed))
    lines = [
        "# duelbandits results manifest: sha256 of every result and figure, then its content digest",
        "# verify with: duelbandits manifest verify results/MANIFEST.sha256 (or sha256sum -c for the bytes)",
        f"# environment: {json.dumps(environment(), sort_keys=True)}",
        f"# config: {json.dumps(config, sort_keys=True)}",
    ]
    if plugins:
        lines.append(f"# plugins: {json.dumps(plugins, sort_keys=True)}")
    lines += [f"{sha256(root / rel)}  {rel}" for rel in rels]
    lines += [f"# content: {content_digest(root / rel, ledger)}  {rel}" for rel in rels]
    lines.append(f"{END}{len(rels)} entries")
    return "\n".join(lines) + "\n"


PLUGIN_FIELDS = ("distribution", "version", "digest")


def recorded_plugins(manifest) -> dict:
    """The manifest's ``# plugins:`` record: ``{slug: {distribution, version, digest}}`` (empty without one);
    ManifestError for a record of another shape (its reader prints each field)."""
    try:
        text = read(manifest)[0].get("plugins", "{}")
    except ManifestError:
        return {}
    try:
        record = json.loads(text)
    except ValueError:
        record = None
    fine = isinstance(record, dict) and all(
        isinstance(made, dict) and set(made) == set(PLUGIN_FIELDS) and all(isinstance(v, str) for v in made.values())
        for made in record.values()
    )
    if not fine:
        raise ManifestError(
            f"{manifest}: its '# plugins:' line is not a JSON object of {{slug: {{{', '.join(PLUGIN_FIELDS)}}}}}"
        )
    return record


def _entry_path(path, number: int, rel: str) -> str:
    """``rel``, a manifest entry's path, if it is a relative path inside the tree; ManifestError otherwise."""
    if rel.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", rel) or ".." in re.split(r"[\\/]", rel):
        raise ManifestError(f"{path}:{number}: {rel}: not a path inside the tree (absolute, or with '..')")
    return rel


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
            _entry_path(path, number, rel)
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
        # mutmut equivalent: '' for None on bad JSON: neither is a dict, the same error
        versions = None  # pragma: no mutate
    if not isinstance(versions, dict):
        raise ManifestError(f"{manifest}: its environment line is not a JSON object")
    return versions


PROVENANCE, INTERPRETER = "provenance", "interpreter"
"""Where :func:`made_with` found the versions that made a file."""


TREE = "the tree's Parquet provenance"
"""Where :func:`made_with` found the versions that made a file that records none: the versions every
Parquet file of the verified tree records, when they all agree (one run made them all)."""


def tree_versions(paths) -> dict | None:
    """The versions that every Parquet file of ``paths`` with readable provenance records, if they
    agree and there is at least one; else None."""
    from .files import StorageError
    from .storage import read_provenance

    found = set()
    for path in paths:
        # mutmut equivalent: `or` for `and`: a file that is not Parquet, or a Parquet path that is no file, fails
        # read_provenance with a StorageError, which is skipped too
        if Path(path).suffix.lower() == ".parquet" and Path(path).is_file():  # pragma: no mutate
            try:
                versions = read_provenance(path).get("versions")
            except StorageError:
                continue
            if isinstance(versions, dict):
                found.add(json.dumps(versions, sort_keys=True))
    return json.loads(found.pop()) if len(found) == 1 else None


def made_with(path, tree: dict | None = None) -> tuple[dict, str]:
    """``(versions, source)``: the versions that made the file at ``path``, from what can be checked.

    A Parquet file records them in its own provenance (``versions``, :func:`duelbandits.provenance.record`):
    source :data:`PROVENANCE`. Any other file (a figure, JSON, Markdown), and a Parquet file whose
    provenance cannot be read or records none, was made by the run that wrote the tree's Parquet
    files: ``tree``, the versions they all record (:func:`tree_versions`), source :data:`TREE`; or, when
    they do not agree or there are none, by this interpreter (source :data:`INTERPRETER`). The
    tree's own manifest is never consulted.
    """
    if Path(path).suffix.lower() == ".parquet":
        from .files import StorageError
        from .storage import read_provenance

        try:
            versions = read_provenance(path).get("versions")
        except StorageError:
            # mutmut equivalent: '' for None after a StorageError: neither is a dict
            versions = None  # pragma: no mutate
        if isinstance(versions, dict):
            return versions, PROVENANCE
    if tree is not None:  # a figure or JSON file: drawn by the run that wrote the tree's Parquet files
        return tree, TREE
    return environment(), INTERPRETER


BYTES, CONTENT = "bytes", "content"
"""How :func:`verify` compared a file whose bytes are not the manifest's."""


def verify(manifest, root, reasons: dict | None = None, compared: dict | None = None) -> dict[str, str]:
    """``{path: status}`` for every file of ``manifest`` checked under ``root``.

    The status is :data:`IDENTICAL` (same bytes), :data:`SAME_CONTENT` (other bytes, same content
    digest: only for a file made under other versions than the manifest's, since the same versions give
    the same bytes), :data:`SAME_DATA` (such a figure: other image bytes, the same data),
    :data:`DIFFERS` (other content, a damaged file, other bytes though made under the manifest's
    versions, or a Parquet file whose provenance contradicts its path or the manifest's config) or
    :data:`MISSING`. A manifest without content lines (an older one) can only say identical or
    differs; one without an ``# environment:`` line, only by bytes.

    The versions that made a file are :func:`made_with`'s (its own provenance, else this
    interpreter's), compared with the manifest's ``# environment:`` line: nothing else in the tree
    under ``root`` (its own ``results/MANIFEST.sha256`` in particular) decides how strict the check
    is. ``reasons``, if given, receives why each file differs; ``compared``, for every file whose
    bytes are not the manifest's, ``(BYTES or CONTENT, PROVENANCE or INTERPRETER)``: how it was
    compared and where the versions that decided it came from.
    """
    header, entries, contents = read(manifest)
    try:
        config = json.loads(header.get("config", "{}"))
    except json.JSONDecodeError:
        raise ManifestError(f"{manifest}: its config line is not JSON") from None
    if not isinstance(config, dict):  # the files' provenance would be compared with nothing
        raise ManifestError(f"{manifest}: its config line is not a JSON object")
    # mutmut equivalent: manifest_versions without the header: it reads the same manifest's header again / the header
    # argument dropped: it reads the same manifest's header again
    reference = manifest_versions(manifest, header)  # pragma: no mutate
    reasons = {} if reasons is None else reasons
    compared = {} if compared is None else compared
    root = Path(root)
    status = {}
    tree = cache(lambda: tree_versions(root / rel for rel in entries))  # read only if a file's bytes differ
    for rel, digest in entries.items():
        path = root / rel
        if not path.is_file():
            status[rel] = MISSING
            continue
        if path.suffix.lower() == ".parquet":
            contradiction = provenance_contradiction(path, rel, config if isinstance(config, dict) else {})
            if contradiction:
                status[rel], reasons[rel] = DIFFERS, contradiction
                continue
        if sha256(path) == digest:
            status[rel] = IDENTICAL
            continue
        versions, source = made_with(path, tree())
        if reference is None or versions == reference:
            compared[rel] = (BYTES, source)
            status[rel], reasons[rel] = DIFFERS, _bytes_reason(reference, source)
            continue
        compared[rel] = (CONTENT, source)
        try:
            same = rel in contents and content_digest(path) == contents[rel]
        except ManifestError as err:
            same, reasons[rel] = False, str(err)  # a damaged file differs
        figure = path.suffix.lower() in FIGURE_SUFFIXES
        if not same and rel not in reasons:
            reasons[rel] = (
                "other bytes, and the manifest has no content line to compare"
                if rel not in contents
                else "drawn from other data than the manifest's (its data digest differs)"
                if figure
                else "another content than the manifest's (its content digest differs)"
            )
        status[rel] = (SAME_DATA if figure else SAME_CONTENT) if same else DIFFERS
    return status


def _bytes_reason(reference, source: str) -> str:
    """Why a file whose bytes are not the manifest's differs, though its content was not compared."""
    if reference is None:
        return "other bytes (the manifest records no versions, so only bytes are compared)"
    if source == PROVENANCE:
        return "other bytes under the manifest's own versions (those its provenance records)"
    if source == TREE:
        return "other bytes under the manifest's own versions (those the tree's Parquet files record)"
    return (
        "other bytes under the manifest's own versions (this interpreter's: the file records none, so it is "
        "taken as made here; if it was made under other versions, verify with the interpreter that made it)"
    )


def environment_differences(manifest) -> list[str]:
    """``name: here (manifest ...)`` for every recorded version that differs from this interpreter's."""
    header, _, _ = read(manifest)
    try:
        recorded = json.loads(header.get("environment", "{}"))
    except json.JSONDecodeError:
        return ["the manifest's environment line is not JSON"]
    here = environment()
    return [
        # mutmut equivalent: here.get's default: only names installed here are listed, so it is never used / here.get's
        # default dropped: only names installed here are listed, so it is never used / here.get's default 'XX...XX':
        # only names installed here are listed, so it is never used / here.get's default upper-cased: only names
        # installed here are listed, so it is never used
        f"{name} {here.get(name, 'not installed')} (manifest {version})"  # pragma: no mutate
        for name, version in sorted(recorded.items())
        if name in here and here[name] != version
    ]
