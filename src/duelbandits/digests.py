"""The content digest of a Parquet table or JSON file: what a result holds, not how its bytes lay it out.

- Parquet: the schema (column names and types) and the values, column by column. Integers,
  booleans and strings exactly, nulls by position; floats rounded to IEEE float32 (round to
  nearest even, 24 significant bits, a relative 6e-8), with -0.0 as 0.0 and one NaN. Key-value
  metadata (versions, provenance), row groups, encodings and compression do not count.
- JSON: the parsed values under the same float rule, keys sorted.

Rounding to float32 means two floats that differ only in their last digits have the same digest
unless they straddle a float32 rounding boundary; for values that differ by a relative 1e-15 that
happens about once in 10^8.

A table's digest is the same whether it is computed from the table a job holds in memory
(:class:`TableDigest`, fed as the job writes) or read back from its file (:func:`parquet_digest`):
the writers compute it once, at write time, for the ledger (:func:`ledger_line`,
:func:`duelbandits.files.note_content`), so that no later job reads a 24-million-row file again to
digest it.
:mod:`duelbandits.manifest` uses these digests, and adds those of figures.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np

from .errors import InputError
from .provenance import canonical_floats, canonical_json


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
    """A type name stable across pyarrow versions and writers: ``large_string`` reads as ``string``,
    and nested types name their children by type alone (a list's item field is ``item`` in Arrow and
    ``element`` read back from Parquet; a map's entries are named differently too), so a table digests
    the same in memory and written. A struct keeps its fields' names: they are the data's."""
    import pyarrow as pa

    if pa.types.is_large_string(type_) or pa.types.is_string(type_):
        return "string"
    if pa.types.is_large_binary(type_) or pa.types.is_binary(type_):
        return "binary"
    if pa.types.is_dictionary(type_):
        return _arrow_type_name(type_.value_type)
    if pa.types.is_list(type_) or pa.types.is_large_list(type_):
        return f"list<{_arrow_type_name(type_.value_type)}>"
    if pa.types.is_fixed_size_list(type_):
        return f"list<{_arrow_type_name(type_.value_type)}>[{type_.list_size}]"
    if pa.types.is_map(type_):
        return f"map<{_arrow_type_name(type_.key_type)}, {_arrow_type_name(type_.item_type)}>"
    if pa.types.is_struct(type_):
        fields = ", ".join(f"{field.name}: {_arrow_type_name(field.type)}" for field in type_)
        return f"struct<{fields}>"
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
            # mutmut equivalent: zero_copy_only=None on the lengths: None is false / zero_copy_only=True on the string
            # lengths: after fill_null they are int64 without nulls, so numpy views them without a copy either way
            lengths = pc.binary_length(values).to_numpy(zero_copy_only=False).astype("<i8")  # pragma: no mutate
            self.parts["lengths"].update(lengths)
            self.parts["data"].update(_joined(values))
        else:
            self.parts["values"].update(canonical_json(_canonical_json_value(array.to_pylist())).encode())

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

    def content(self) -> str:
        """The digest as :func:`duelbandits.manifest.content_digest` gives it for the written file."""
        return PARQUET + self.hexdigest()


PARQUET = "parquet:"
"""The prefix of a Parquet file's content digest (``JSON`` for a JSON file's)."""
JSON = "json:"


def ledger_line(content: str) -> str:
    """The ledger's line for a file's content digest, keyed by the version of this module's code
    (:func:`duelbandits.triggers.code_digest`), so that a digest an older version kept is not used."""
    from .triggers import code_digest

    return f"content {code_digest('digests')[:16]} {content}"


def table_content(table) -> str:
    """The content digest of an Arrow table: that of the Parquet file it is written to."""
    digest = TableDigest(table.schema)
    digest.update(table)
    return digest.content()


def parquet_digest(path) -> str:
    """Content digest of a Parquet file: schema and values (module docstring), read one column
    and one batch at a time (the traces have 24 million rows)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from .files import DamagedFile

    try:
        parquet = pq.ParquetFile(path)
        digest = TableDigest(parquet.schema_arrow)
        # mutmut equivalent: zip(strict=None) of the file's schema and the digest's columns: both come from the same
        # schema / zip without strict: both come from the same schema / zip(strict=False): both come from the same
        # schema
        for field, column in zip(parquet.schema_arrow, digest.columns, strict=True):  # pragma: no mutate
            # mutmut equivalent: pyarrow's default batch size for BATCH_ROWS: memory only, the digest does not depend on
            # the split (tested)
            for batch in parquet.iter_batches(batch_size=BATCH_ROWS, columns=[field.name]):  # pragma: no mutate
                column.update(batch.column(0))
    except (pa.ArrowException, OSError, ValueError) as err:
        raise DamagedFile(path, f"not a readable Parquet file ({err})") from None
    return digest.hexdigest()


def json_digest(path) -> str:
    """Content digest of a JSON file: its values, floats rounded to float32, keys sorted."""
    try:
        value = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DigestError(f"{path}: not a readable JSON file ({err})") from None
    return hashlib.sha256(b"json\0" + canonical_json(_canonical_json_value(value)).encode()).hexdigest()
