"""The content digest of a Parquet table or JSON file: what a result holds, not how its bytes lay it out.

What counts (docs/reproducibility.md, "Verification") is the same in memory (:class:`TableDigest`) and
from a file (:func:`parquet_digest`); a figure carries the digest of its data (:func:`data_digest`).
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zlib
from pathlib import Path

import numpy as np

from .errors import InputError, why_unreadable
from .provenance import canonical_floats, canonical_json, file_sha256

FIGURE_DATA_KEY = "duelbandits-data-sha256"
"""PNG text key (and PDF ``Keywords`` prefix) under which a figure stores the digest of its data."""

FIGURE_SUFFIXES = (".png", ".pdf")


class DigestError(InputError):
    """A file whose content cannot be digested (unreadable, not what its suffix says)."""


def _canonical_json_value(value):
    if isinstance(value, float):
        return float(canonical_floats(np.array([value]))[0]) if np.isfinite(value) else repr(value)
    if isinstance(value, list):
        return [_canonical_json_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _canonical_json_value(v) for k, v in value.items()}
    return value


def _arrow_type_name(type_) -> str:
    """A type name stable across pyarrow versions and writers: ``large_string`` reads as ``string``, a
    dictionary as its values' type. The pipeline's tables are flat; a nested type is named as pyarrow
    names it (a list's item field differs in memory and read back: digest such a table from its file)."""
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
            if self._update_runs(array):
                return
            array = array.dictionary_decode()
        self.rows += len(array)
        valid = _validity(array)
        self.parts["valid"].update(valid)  # numpy arrays hash as their buffers: no copy to bytes
        type_ = array.type
        if pa.types.is_floating(type_) or pa.types.is_integer(type_):
            values = _values(array, valid)
            self.parts["values"].update(canonical_floats(values) if values.dtype.kind == "f" else values.astype("<i8"))
        elif pa.types.is_boolean(type_):
            values = pc.fill_null(array, False)
            # mutmut equivalent: zero_copy_only=None for False: None is false
            self.parts["values"].update(np.asarray(values.to_numpy(zero_copy_only=False)).astype("<i8"))  # noqa: E501  # pragma: no mutate
        elif _arrow_type_name(type_) in ("string", "binary"):  # any width: one layout
            values = pc.fill_null(array.cast(pa.large_binary()), b"")
            # mutmut equivalent: zero_copy_only=None on the lengths: None is false; zero_copy_only=True on the string
            # lengths: after fill_null they are int64 without nulls, so numpy views them without a copy either way
            lengths = pc.binary_length(values).to_numpy(zero_copy_only=False).astype("<i8")  # pragma: no mutate
            self.parts["lengths"].update(lengths)
            self.parts["data"].update(_joined(values))
        else:
            self.parts["values"].update(canonical_json(_canonical_json_value(array.to_pylist())).encode())

    def _update_runs(self, array) -> bool:
        """Feed a dictionary-encoded string column without nulls run by run, the same bytes as
        decoded; False (nothing fed) if it has nulls or its runs are short. The traces' string
        columns hold one value over millions of rows: decoding them was most of their digest's cost."""
        import pyarrow as pa

        if array.null_count or _arrow_type_name(array.type.value_type) not in ("string", "binary"):
            return False
        # mutmut equivalent: zero_copy_only None or True: the indices of an array without nulls are viewed either way
        indices = array.indices.to_numpy(zero_copy_only=False)  # pragma: no mutate
        starts = np.flatnonzero(np.diff(indices)) + 1
        # mutmut equivalent: another threshold: it picks the cheaper path, both give the same digest (tested)
        if len(starts) > len(indices) // 64:  # pragma: no mutate -- short runs: the decoded array is cheaper
            return False
        # mutmut equivalent: the None case: a dictionary's values hold no null; the sizes' dtype dropped: Python ints
        # are int64 here, little-endian
        words = [b"" if v is None else v for v in array.dictionary.cast(pa.large_binary()).to_pylist()]  # noqa: E501  # pragma: no mutate
        sizes = np.array([len(word) for word in words], dtype="<i8")  # pragma: no mutate
        self.rows += len(indices)
        self.parts["valid"].update(np.ones(len(indices), dtype=np.uint8))
        self.parts["lengths"].update(sizes[indices])
        # mutmut equivalent: zip's strict dropped: the two bounds have one entry per run by construction
        for start, end in zip(np.r_[0, starts], np.r_[starts, len(indices)], strict=True):  # pragma: no mutate
            self.parts["data"].update(words[indices[start]] * int(end - start))
        return True

    def digest(self) -> bytes:
        head = f"{self.field.name}:{_arrow_type_name(self.field.type)}:{self.rows}\0".encode()
        return hashlib.sha256(head + b"".join(part.digest() for part in self.parts.values())).digest()


def _validity(array) -> np.ndarray:
    """1 for each non-null entry of a primitive or string array, 0 for each null (uint8), read
    from its validity bitmap."""
    bitmap = array.buffers()[0]
    # mutmut equivalent: `and` for `or`: with no nulls a bitmap, when pyarrow keeps one, is all ones, and reading it
    # gives the same ones
    if array.null_count == 0 or bitmap is None:  # pragma: no mutate
        return np.ones(len(array), dtype=np.uint8)
    bits = np.unpackbits(np.frombuffer(bitmap, dtype=np.uint8), count=array.offset + len(array), bitorder="little")
    return bits[array.offset :]


def _values(array, valid: np.ndarray) -> np.ndarray:
    """The values of a fixed-width numeric array as numpy, 0 in its null slots (a view of its
    buffer when it has no nulls)."""
    dtype = np.dtype(array.type.to_pandas_dtype())
    values = np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array), offset=array.offset * dtype.itemsize)
    # mutmut equivalent: np.where with no nulls too: the same values
    return values if array.null_count == 0 else np.where(valid.view(bool), values, dtype.type(0))  # pragma: no mutate


def _joined(values) -> memoryview | bytes:
    """The data bytes of a large_binary array without nulls, in order (a view: not copied)."""
    _, offsets, data = values.buffers()
    # mutmut equivalent: `and` for `or`: pyarrow gives an array with rows a data buffer (empty, not None, when every
    # string is empty), and with no rows both return no bytes
    if data is None or len(values) == 0:  # pragma: no mutate
        return b""
    offs = np.frombuffer(offsets, dtype="<i8")[values.offset : values.offset + len(values) + 1]
    return memoryview(data)[offs[0] : offs[-1]]


BATCH_ROWS = 1 << 20
"""Rows per batch when digesting a Parquet file: memory is one batch of one column."""


class TableDigest:
    """The content digest of a table fed in parts: :meth:`update` with each part (an Arrow table or
    record batch of the schema), as a job writes them; any split into parts gives the same digest."""

    def __init__(self, schema):
        self.columns = [_ColumnDigest(field) for field in schema]

    def update(self, part) -> None:
        for column, values in zip(self.columns, part.columns, strict=True):
            for chunk in getattr(values, "chunks", [values]):
                column.update(chunk)

    def hexdigest(self) -> str:
        sha = hashlib.sha256(b"parquet\0")
        for column in self.columns:
            sha.update(column.digest())
        return sha.hexdigest()


def parquet_digest(path) -> str:
    """Content digest of a Parquet file: schema and values (docs/reproducibility.md), read one column
    and one batch at a time (the traces have 24 million rows)."""
    import pyarrow.parquet as pq

    from .storage import parquet_errors

    with parquet_errors(path):
        # mutmut equivalent: fewer or no columns read dictionary-encoded: they are fed decoded, the same digest
        strings = [f.name for f in pq.read_schema(path) if _arrow_type_name(f.type) in ("string", "binary")]  # noqa: E501  # pragma: no mutate
        parquet = pq.ParquetFile(path, read_dictionary=strings)  # pragma: no mutate -- read as runs: _update_runs
        digest = TableDigest(parquet.schema_arrow)
        # mutmut equivalent: zip(strict=None) of the file's schema and the digest's columns or zip without strict or
        # zip(strict=False): both come from the same schema
        for field, column in zip(parquet.schema_arrow, digest.columns, strict=True):  # pragma: no mutate
            # mutmut equivalent: pyarrow's default batch size for BATCH_ROWS: memory only, the digest does not depend on
            # the split (tested)
            for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=[field.name]):  # pragma: no mutate
                column.update(batch.column(0))
    return digest.hexdigest()


def table_digest(path) -> str:
    """The manifest's content digest of a Parquet file: its data (:func:`parquet_digest`) and its
    provenance but for the ``versions`` that made it, so that a table whose provenance was edited (a
    hyper-parameter) differs, while one written again under other versions does not."""
    from .provenance import METADATA_KEY, experiment
    from .storage import StorageError, read_schema

    try:
        raw = (read_schema(path).metadata or {}).get(METADATA_KEY, b"")
        data = parquet_digest(path)
    except StorageError as err:
        raise DigestError(str(err)) from None
    try:
        made = json.loads(raw) if raw else None
    except (UnicodeDecodeError, json.JSONDecodeError):
        made = raw.decode("latin-1")
    made = experiment(made) if isinstance(made, dict) else made
    return "table:" + hashlib.sha256(f"table\0{data}\0{canonical_json(made)}".encode()).hexdigest()


def json_digest(path) -> str:
    """Content digest of a JSON file: its values, floats rounded to float32, keys sorted."""
    try:
        value = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DigestError(f"{path}: not a readable JSON file ({err})") from None
    return hashlib.sha256(b"json\0" + canonical_json(_canonical_json_value(value)).encode()).hexdigest()


# --- Figures: the digest of the data drawn, which a figure carries ---------------------------------


def _png_text(data: bytes) -> dict:
    """The text chunks of a complete PNG; DigestError if it is truncated or damaged."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise DigestError("not a PNG file")
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
            raise DigestError(f"PNG chunk {kind!r} fails its CRC")
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            # mutmut equivalent: 'LATIN-1': codec names ignore case
            texts[key.decode("latin-1")] = value.decode("latin-1")  # pragma: no mutate
        if kind == b"IEND":
            if pos + 12 + length != len(data):
                raise DigestError("PNG has data after its IEND chunk")
            return texts
        pos += 12 + length
    raise DigestError("PNG is truncated (no IEND chunk)")


def figure_data_digest(path) -> str:
    """The data digest a figure carries; DigestError if the file is damaged or carries none."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise DigestError(f"{path}: cannot read ({err})") from None
    try:
        if path.suffix.lower() == ".png":
            value = _png_text(data).get(FIGURE_DATA_KEY)
        else:
            if not data.startswith(b"%PDF") or not data.rstrip().endswith(b"%%EOF"):
                raise DigestError("PDF is truncated or not a PDF")
            match = re.search(rb"/Keywords \(" + FIGURE_DATA_KEY.encode() + rb"=([0-9a-f]{64})\)", data)
            value = match and match.group(1).decode()
    except DigestError as err:
        raise DigestError(f"{path}: {err}") from None
    if not value:
        raise DigestError(f"{path}: carries no {FIGURE_DATA_KEY} (not drawn by duelbandits)")
    return value


def content_digest(path) -> str:
    """The manifest's content digest of one file, by its suffix (docs/reproducibility.md): ``table:`` a
    Parquet table's (:func:`table_digest`), ``json:`` a JSON file's values, ``figure:`` the data digest a
    figure carries (:func:`figure_data_digest`), ``bytes:`` the sha256 of anything else (Markdown, HTML);
    DigestError if it cannot be read."""
    suffix = Path(path).suffix.lower()
    problem = why_unreadable(path)
    if problem:
        raise DigestError(f"{path}: {problem}")
    if suffix == ".parquet":
        return table_digest(path)
    if suffix == ".json":
        return "json:" + json_digest(path)
    if suffix in FIGURE_SUFFIXES:
        return "figure:" + figure_data_digest(path)
    return "bytes:" + file_sha256(path)


def data_digest(inputs: dict, **args) -> str:
    """Digest of a figure's data: the sha256 of its input files by role (``{"summary": path}``: not the path,
    so a figure drawn from the same files elsewhere has the same digest) and its arguments. The files'
    bytes, not their content digests, which cost the traces seconds per figure job."""
    return figure_digest(input_contents(inputs), **args)


def input_contents(inputs: dict) -> dict:
    """``{role: sha256 of the file}`` of a figure's input files (:func:`data_digest`), an optional one not
    given (None: tail-figure's ``--family``) left out; a command that draws several figures from the
    same files computes it once."""
    return {role: file_sha256(path) for role, path in inputs.items() if path is not None}


def figure_digest(contents: dict, **args) -> str:
    """:func:`data_digest` from the inputs' sha256 (:func:`input_contents`)."""
    return hashlib.sha256(canonical_json({"inputs": contents, "args": args}).encode()).hexdigest()
