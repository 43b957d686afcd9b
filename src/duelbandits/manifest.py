"""A manifest of a results tree, and its verification at two levels: bytes and content.

The manifest lists one line per result and figure, sorted by path, in the
format of ``sha256sum`` (``<sha256>  <path>``, so ``sha256sum -c`` reads it
too), then one ``# content: <digest>  <path>`` line per file, preceded by
``#`` lines that record the Python and dependency versions and the config.
It holds no timestamps: the same inputs and environment give the same bytes.

The **content digest** ignores what another library version changes without
changing a result:

- Parquet: the schema (column names and types) and the values, column by
  column. Integers, booleans and strings exactly, nulls by position; floats
  rounded to IEEE float32 (round to nearest even, 24 significant bits, a
  relative 6e-8), with -0.0 as 0.0 and one NaN. Key-value metadata (versions,
  provenance), row groups, encodings and compression do not count.
- JSON: the parsed values under the same float rule, keys sorted.
- Figures (PNG, PDF): the content digest of the data they were drawn from,
  which the figure carries in its metadata; the file must be whole (a PNG
  whose chunks all pass their CRC and that ends with its IEND chunk, a PDF
  that ends in ``%%EOF``).
- Anything else (Markdown, HTML): its bytes.

Rounding to float32 means two floats that differ only in their last digits
have the same digest unless they straddle a float32 rounding boundary; for
values that differ by a relative 1e-15 that happens about once in 10^8.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import struct
import zlib
from pathlib import Path

import numpy as np

from .errors import InputError
from .provenance import canonical_floats, canonical_json, environment, file_sha256

FIGURE_DATA_KEY = "duelbandits-data-sha256"
"""PNG text key (and PDF ``Keywords`` prefix) under which a figure stores the digest of its data."""

IDENTICAL, SAME_CONTENT, DIFFERS, MISSING = "identical", "same content", "differs", "missing"
STATUSES = (IDENTICAL, SAME_CONTENT, DIFFERS, MISSING)
"""What verification says of one file, from best to worst."""


class ManifestError(InputError):
    """A manifest is unreadable or names files that cannot be hashed."""


sha256 = file_sha256


# --- Content digests -------------------------------------------------------------------------


def _canonical_json_value(value):
    if isinstance(value, float):
        return float(canonical_floats(np.array([value]))[0]) if np.isfinite(value) else repr(value)
    if isinstance(value, list):
        return [_canonical_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _canonical_json_value(v) for k, v in value.items()}
    return value


def _arrow_type_name(type_) -> str:
    """A type name stable across pyarrow versions (``large_string`` reads as ``string``)."""
    import pyarrow as pa

    if pa.types.is_large_string(type_) or pa.types.is_string(type_):
        return "string"
    if pa.types.is_large_binary(type_) or pa.types.is_binary(type_):
        return "binary"
    if pa.types.is_dictionary(type_):
        return _arrow_type_name(type_.value_type)
    return str(type_)


class _ColumnDigest:
    """Canonical values of one column, fed batch by batch: each part (nulls, values, string
    lengths, string bytes) has its own running sha256, so batch boundaries do not count and
    memory holds one batch."""

    def __init__(self, field):
        self.field, self.rows = field, 0
        self.parts = {name: hashlib.sha256() for name in ("valid", "values", "lengths", "data")}

    def update(self, array) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        if pa.types.is_dictionary(array.type):
            array = array.dictionary_decode()
        self.rows += len(array)
        valid = np.asarray(array.is_valid().to_numpy(zero_copy_only=False), dtype=np.uint8)
        self.parts["valid"].update(valid.tobytes())
        type_ = array.type
        if pa.types.is_floating(type_):
            values = pc.fill_null(array, 0.0).to_numpy(zero_copy_only=False)
            self.parts["values"].update(canonical_floats(values).tobytes())
        elif pa.types.is_integer(type_) or pa.types.is_boolean(type_):
            values = pc.fill_null(array, False if pa.types.is_boolean(type_) else 0)
            self.parts["values"].update(np.asarray(values.to_numpy(zero_copy_only=False)).astype("<i8").tobytes())
        elif pa.types.is_string(type_) or pa.types.is_large_string(type_) or pa.types.is_binary(type_):
            values = pc.fill_null(array.cast(pa.large_binary()), b"")
            lengths = pc.binary_length(values).to_numpy(zero_copy_only=False).astype("<i8")
            self.parts["lengths"].update(lengths.tobytes())
            self.parts["data"].update(_joined(values))
        else:
            self.parts["values"].update(canonical_json(_canonical_json_value(array.to_pylist())).encode())

    def digest(self) -> bytes:
        head = f"{self.field.name}:{_arrow_type_name(self.field.type)}:{self.rows}\0".encode()
        return hashlib.sha256(head + b"".join(part.digest() for part in self.parts.values())).digest()


def _joined(values) -> bytes:
    """The data bytes of a large_binary array without nulls, in order."""
    _, offsets, data = values.buffers()
    if data is None or len(values) == 0:
        return b""
    offs = np.frombuffer(offsets, dtype="<i8")[values.offset : values.offset + len(values) + 1]
    return memoryview(data)[offs[0] : offs[-1]].tobytes()


BATCH_ROWS = 1 << 20
"""Rows per batch when digesting a Parquet file: memory is one batch of one column."""


def parquet_digest(path) -> str:
    """Content digest of a Parquet file: schema and values (module docstring), read one column
    and one batch at a time (the traces have 24 million rows)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .files import DamagedFile

    try:
        parquet = pq.ParquetFile(path)
        sha = hashlib.sha256(b"parquet\0")
        for field in parquet.schema_arrow:
            column = _ColumnDigest(field)
            for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=[field.name]):
                column.update(batch.column(0))
            sha.update(column.digest())
    except (pa.ArrowException, OSError, ValueError) as err:
        raise DamagedFile(path, f"not a readable Parquet file ({err})") from None
    return sha.hexdigest()


def json_digest(path) -> str:
    """Content digest of a JSON file: its values, floats rounded to float32, keys sorted."""
    try:
        value = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ManifestError(f"{path}: not a readable JSON file ({err})") from None
    return hashlib.sha256(b"json\0" + canonical_json(_canonical_json_value(value)).encode()).hexdigest()


def _png_text(data: bytes) -> dict:
    """The text chunks of a complete PNG; ManifestError if it is truncated or damaged."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ManifestError("not a PNG file")
    pos, texts = 8, {}
    while pos + 12 <= len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if len(body) != length or pos + 12 + length > len(data):
            break
        (crc,) = struct.unpack(">I", data[pos + 8 + length : pos + 12 + length])
        if zlib.crc32(kind + body) != crc:
            raise ManifestError(f"PNG chunk {kind!r} fails its CRC")
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            texts[key.decode("latin-1")] = value.decode("latin-1")
        if kind == b"IEND":
            if pos + 12 + length != len(data):
                raise ManifestError("PNG has data after its IEND chunk")
            return texts
        pos += 12 + length
    raise ManifestError("PNG is truncated (no IEND chunk)")


def _check_pdf(data: bytes) -> None:
    """ManifestError unless ``data`` is a whole PDF as matplotlib writes it: it ends in ``%%EOF``,
    its ``startxref`` points at its cross-reference table, and every Flate stream inflates
    (zlib's checksum catches a damaged byte inside a stream)."""
    if not data.startswith(b"%PDF") or not data.rstrip().endswith(b"%%EOF"):
        raise ManifestError("PDF is truncated or not a PDF")
    start = re.search(rb"startxref\s+(\d+)\s+%%EOF\s*$", data)
    if start is None or not data[int(start.group(1)) :].startswith(b"xref"):
        raise ManifestError("PDF's startxref does not point at its cross-reference table")
    for match in re.finditer(rb"/Length (\d+)(?: 0 R)?[^>]*?/Filter /FlateDecode[^>]*>>\s*stream\r?\n", data):
        end = data.find(b"endstream", match.end())
        try:
            zlib.decompressobj().decompress(data[match.end() : end])
        except zlib.error as err:
            raise ManifestError(f"PDF stream at byte {match.end()} does not inflate ({err})") from None


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


def content_digest(path) -> str:
    """The content digest of one file, by its suffix (module docstring); ManifestError if unreadable."""
    from .files import StorageError

    suffix = Path(path).suffix.lower()
    if not Path(path).is_file():
        raise ManifestError(f"{path}: file not found")
    try:
        if suffix == ".parquet":
            return "parquet:" + parquet_digest(path)
        if suffix == ".json":
            return "json:" + json_digest(path)
        if suffix in (".png", ".pdf"):
            return "figure:" + figure_data_digest(path)
    except StorageError as err:
        raise ManifestError(str(err)) from None
    return "bytes:" + sha256(path)


def data_digest(inputs: dict, **args) -> str:
    """Digest of a figure's data: the content digests of its input files and its arguments.

    ``inputs`` maps a role (``"summary"``) to a file; the role, not the
    path, enters the digest, so a figure drawn from the same data elsewhere
    has the same digest.
    """
    contents = {role: content_digest(path) for role, path in inputs.items() if path is not None}
    return hashlib.sha256(canonical_json({"inputs": contents, "args": args}).encode()).hexdigest()


# --- The manifest file ----------------------------------------------------------------------


def build(root, files, config: dict, ledger=None) -> str:
    """Manifest text for ``files`` (paths relative to ``root``).

    With ``ledger`` (the folder where the pipeline's jobs recorded the sha256
    of what they wrote, ``duelbandits --ledger``), a file whose bytes are not
    the ones its job wrote is refused, with the command that rebuilds it: the
    manifest never blesses a file changed after the job that made it.
    """
    root = Path(root)
    rels = sorted({Path(f).as_posix() for f in files})
    for rel in rels:
        if not (root / rel).is_file():
            raise ManifestError(f"{root / rel}: not a file, cannot be listed in the manifest")
        if ledger is not None:
            record = Path(ledger) / f"{os.path.normpath(root / rel)}.sha256"  # as the jobs wrote it
            repair = f"; rebuild it with: snakemake --cores all --forcerun {rel}"
            if not record.is_file():
                raise ManifestError(f"{rel}: no job of the pipeline recorded writing it ({record} is missing){repair}")
            if record.read_text().strip() != sha256(root / rel):
                raise ManifestError(
                    f"{rel}: changed since the job that wrote it (its sha256 is not the one "
                    f"recorded in {record}){repair}"
                )
    lines = [
        "# duelbandits results manifest: sha256 of every result and figure, then its content digest",
        "# verify with: duelbandits manifest verify results/MANIFEST.sha256 (or sha256sum -c for the bytes)",
        f"# environment: {json.dumps(environment(), sort_keys=True)}",
        f"# config: {json.dumps(config, sort_keys=True)}",
    ]
    lines += [f"{sha256(root / rel)}  {rel}" for rel in rels]
    lines += [f"# content: {content_digest(root / rel)}  {rel}" for rel in rels]
    return "\n".join(lines) + "\n"


def read(path) -> tuple[dict, dict, dict]:
    """``(header, {path: sha256}, {path: content digest})`` of a manifest file."""
    path = Path(path)
    try:
        text = path.read_text()
    except (OSError, UnicodeDecodeError) as err:
        raise ManifestError(f"{path}: cannot read manifest ({err})") from None
    header, entries, contents = {}, {}, {}
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("# content: "):
            digest, sep, rel = line[len("# content: ") :].partition("  ")
            if not sep or not rel:
                raise ManifestError(f"{path}:{number}: not a '# content: <digest>  <path>' line")
            contents[rel] = digest
        elif line.startswith("# ") and ": " in line:
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif line and not line.startswith("#"):
            digest, sep, rel = line.partition("  ")
            if not sep or not re.fullmatch(r"[0-9a-f]{64}", digest) or not rel:
                raise ManifestError(f"{path}:{number}: not a '<sha256>  <path>' line")
            entries[rel] = digest
    if not entries:
        raise ManifestError(f"{path}: lists no files")
    return header, entries, contents


def verify(manifest, root) -> dict[str, str]:
    """``{path: status}`` for every file of ``manifest`` checked under ``root``.

    The status is :data:`IDENTICAL` (same bytes), :data:`SAME_CONTENT`
    (other bytes, same content digest), :data:`DIFFERS` (other content, or a
    damaged file) or :data:`MISSING`. A manifest without content lines (an
    older one) can only say identical or differs.
    """
    _, entries, contents = read(manifest)
    root = Path(root)
    status = {}
    for rel, digest in entries.items():
        path = root / rel
        if not path.is_file():
            status[rel] = MISSING
        elif sha256(path) == digest:
            status[rel] = IDENTICAL
        else:
            try:
                same = rel in contents and content_digest(path) == contents[rel]
            except ManifestError:
                same = False  # a damaged file differs
            status[rel] = SAME_CONTENT if same else DIFFERS
    return status


def environment_differences(manifest) -> list[str]:
    """``name: here (manifest ...)`` for every recorded version that differs from this interpreter's."""
    header, _, _ = read(manifest)
    try:
        recorded = json.loads(header.get("environment", "{}"))
    except json.JSONDecodeError:
        return ["the manifest's environment line is not JSON"]
    here = environment()
    return [
        f"{name} {here.get(name, 'not installed')} (manifest {version})"
        for name, version in sorted(recorded.items())
        if name in here and here[name] != version
    ]
