"""Content digests at the edges of the float rule: -0.0 and 0.0, and every NaN (sign, payload,
signalling; built from bit patterns, each test first checking the inputs' bytes differ), digest the
same; null and NaN, +inf and -inf, a float32 step and the shape do not."""

import hashlib
import re
import struct
import warnings

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from duelbandits import digests, provenance, storage

# numpy warns when it casts a signalling NaN to float32; the cast is the point of these tests
pytestmark = pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning")

NAN64_BITS = [
    0x7FF8000000000000,  # the usual quiet NaN
    0xFFF8000000000000,  # negative
    0x7FF8000000000001,  # a payload
    0x7FF0000000000001,  # signalling
    0xFFFFFFFFFFFFFFFF,  # every bit
]
NAN32_BITS = [0x7FC00000, 0xFFC00000, 0x7FC00001, 0x7F800001, 0xFFFFFFFF]


def nan64(bits):
    return np.array([bits], dtype=np.uint64).view(np.float64)[0]


def nan32(bits):
    return np.array([bits], dtype=np.uint32).view(np.float32)[0]


def bits(array):
    return np.ascontiguousarray(array).tobytes()


# --- canonical_floats ---------------------------------------------------------------------------


def test_canonical_floats_has_one_zero():
    out = provenance.canonical_floats([-0.0, 0.0, -1e-50, 1e-50])  # the last two round to (-)0 in float32
    assert bits(out) == bits(np.zeros(4, dtype="<f4"))
    assert not np.signbit(out).any()


def test_canonical_floats_has_one_nan_for_every_float64_and_float32_nan():
    quiet = bits(np.array([0x7FC00000], dtype="<u4"))  # the quiet NaN, positive, no payload
    nans = [nan64(p) for p in NAN64_BITS] + [np.float32(nan32(p)) for p in NAN32_BITS]
    for value in nans:
        assert np.isnan(value)
        out = provenance.canonical_floats(np.array([value, 1.0], dtype=value.dtype))
        assert out.dtype == np.dtype("<f4") and bits(out[:1]) == quiet, hex(value.view(f"u{value.itemsize}"))


def test_canonical_floats_keeps_infinities_signs_and_float32_steps_apart():
    out = provenance.canonical_floats([np.inf, -np.inf, np.nan, -1.0, 1.0, 1.0 + 2**-23, 1.0 + 2**-25])
    assert out[0] == np.inf and out[1] == -np.inf and np.isnan(out[2])
    assert out[3] == -1.0 and np.signbit(out[3])
    assert out[5] == np.float32(1.0 + 2**-23) != out[4]  # one float32 step apart: different
    assert out[6] == out[4]  # a quarter step rounds back to 1.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # beyond float32 (3.4e38): an infinity of its sign, without a warning
        assert list(provenance.canonical_floats([1e56, -1e39, 3e38])) == [np.inf, -np.inf, np.float32(3e38)]


# --- matrix_sha256 ------------------------------------------------------------------------------


def test_matrix_digest_differs_with_the_shape():
    """The values' rule is :func:`canonical_floats`' (above); the digest adds the shape."""
    X = np.array([[0.5, 0.25, 0.125], [1.0, 0.5, 0.75]])
    assert provenance.matrix_sha256(X) != provenance.matrix_sha256(X.reshape(3, 2))


# --- Parquet content digests --------------------------------------------------------------------


def write(path, **columns):
    pq.write_table(pa.table(columns), path)
    return path


def test_parquet_digest_is_the_same_for_signed_zeros_and_every_nan_in_float32_and_nested_columns(tmp_path):
    """(A float64 column's -0.0 and NaN: the layout computed by hand, below.)"""
    plain = write(tmp_path / "a.parquet", x=np.array([1.0, 0.0, np.nan], np.float32))
    other = write(tmp_path / "b.parquet", x=np.array([1.0, -0.0, nan32(0xFFC00000)], np.float32))
    assert bits(pq.read_table(plain)["x"].to_numpy()) != bits(pq.read_table(other)["x"].to_numpy())
    assert digests.content_digest(plain) == digests.content_digest(other)
    kind = pa.list_(pa.float64())  # nested values
    a = write(tmp_path / "a.parquet", x=pa.array([[0.0, 1.0], [float("nan")]], kind))
    b = write(tmp_path / "b.parquet", x=pa.array([[-0.0, 1.0], [nan64(0xFFF8000000000001)]], kind))
    assert digests.content_digest(a) == digests.content_digest(b)


def test_parquet_digest_tells_apart_null_nan_and_zero_the_rows_order_and_integers_and_strings_exactly(tmp_path):
    """(What the float rule keeps apart, signs and infinities: :func:`canonical_floats`, above.)"""
    for left, right in [
        ([1.0, None], [1.0, np.nan]),  # a null is not a NaN
        ([1.0, None], [1.0, 0.0]),  # nor a zero
        ([0.0, 1.0], [1.0, 0.0]),  # the order of the rows
    ]:
        for dtype in [pa.float64(), pa.float32()]:
            a = write(tmp_path / "a.parquet", x=pa.array(left, dtype, from_pandas=False))
            b = write(tmp_path / "b.parquet", x=pa.array(right, dtype, from_pandas=False))
            assert digests.content_digest(a) != digests.content_digest(b)
    a = write(tmp_path / "a.parquet", n=np.array([0, -1], np.int32), s=pa.array(["0.0", "x"]))
    b = write(tmp_path / "b.parquet", n=np.array([0, -1], np.int32), s=pa.array(["-0.0", "x"]))
    c = write(tmp_path / "c.parquet", n=np.array([0, 1], np.int32), s=pa.array(["0.0", "x"]))
    assert len({digests.content_digest(p) for p in (a, b, c)}) == 3


def write_json(path, text):
    path.write_text(text)
    return path


# --- A figure's data digest: its files' bytes, keyed by role, not by path ---------------------------


def test_a_figures_data_digest_follows_the_bytes_and_role_not_the_path(tmp_path):
    (tmp_path / "x").mkdir()
    a = write(tmp_path / "summary.parquet", mean=np.array([0.0, 1.5]))
    b = tmp_path / "x" / "elsewhere.parquet"
    b.write_bytes(a.read_bytes())  # the same bytes elsewhere
    c = write(tmp_path / "other.parquet", mean=np.array([0.0, 2.5]))
    digest = digests.data_digest({"summary": a}, figure="main")
    assert digest == digests.figure_digest({"summary": hashlib.sha256(a.read_bytes()).hexdigest()}, figure="main")
    assert digests.data_digest({"summary": b}, figure="main") == digest
    assert digests.data_digest({"summary": c}, figure="main") != digest
    assert digests.data_digest({"traces": a}, figure="main") != digest  # another role
    assert digests.data_digest({"summary": a}, figure="main", panel="a") != digest  # other arguments
    assert digests.data_digest({"summary": a, "scenario": None}, figure="main") == digest  # no file: no role
    two = digests.data_digest({"local": a, "exponents": c}, figure="asymptotics")
    assert digests.data_digest({"exponents": c, "local": a}, figure="asymptotics") == two  # roles, not order
    assert digests.data_digest({"local": c, "exponents": a}, figure="asymptotics") != two  # swapped roles


# --- The digest's layout, pinned: a change of it changes every recorded digest ------------------------


def sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def column_digest(head: str, valid: bytes, values=b"", lengths=b"", data=b"") -> bytes:
    """The documented layout of one column: sha256 of ``name:type:rows\\0`` and the sha256 of each part
    (validity bytes, values, string lengths, string bytes; an unused part is the sha256 of nothing)."""
    return sha(head.encode() + b"\0" + sha(valid) + sha(values) + sha(lengths) + sha(data))


def in_memory(table) -> str:
    """The digest of an Arrow table in memory (:class:`duelbandits.digests.TableDigest`)."""
    digest = digests.TableDigest(table.schema)
    digest.update(table)
    return digest.hexdigest()


def test_a_small_tables_digest_is_the_documented_layout_computed_by_hand(tmp_path):
    """Each column kind with a null, derived by hand from the layout: integers as little-endian int64
    and floats as little-endian float32 (0 in a null's slot, -0.0 as 0.0, NaN as 0x7FC00000), booleans
    as int64 with a null as 0, strings as their UTF-8 lengths (int64) and joined bytes, a dictionary as
    its strings; the table's digest is the sha256 of ``parquet\\0`` and the
    column digests in order."""
    table = pa.table(
        {
            "n": pa.array([3, -1, None, 7], pa.int32()),
            "x": pa.array([0.5, -0.0, float("nan"), None], pa.float64(), from_pandas=False),
            "flag": pa.array([True, None, False, True], pa.bool_()),
            "s": pa.array(["ab", None, "é", ""], pa.string()),
            "cat": pa.array(["b", "a", "b", None], pa.string()).dictionary_encode(),
        }
    )
    columns = [
        column_digest("n:int32:4", b"\1\1\0\1", struct.pack("<4q", 3, -1, 0, 7)),
        column_digest("x:double:4", b"\1\1\1\0", bytes.fromhex("0000003f000000000000c07f00000000")),
        column_digest("flag:bool:4", b"\1\0\1\1", struct.pack("<4q", 1, 0, 0, 1)),
        column_digest("s:string:4", b"\1\0\1\1", lengths=struct.pack("<4q", 2, 0, 2, 0), data=b"ab\xc3\xa9"),
        column_digest("cat:string:4", b"\1\1\1\0", lengths=struct.pack("<4q", 1, 1, 1, 0), data=b"bab"),
    ]
    expected = hashlib.sha256(b"parquet\0" + b"".join(columns)).hexdigest()
    assert in_memory(table) == expected
    pq.write_table(table, tmp_path / "t.parquet")
    assert digests.parquet_digest(tmp_path / "t.parquet") == expected


def test_a_json_files_digest_is_the_documented_layout_computed_by_hand(tmp_path):
    # float32(0.1) = 13421773 * 2^-27 = 0.100000001490116119384765625, which Python prints as 0.10000000149011612;
    # -0.0 is 0.0; NaN and infinities are kept as their names; keys sorted, no spaces
    path = write_json(tmp_path / "a.json", '{"b": [1, -0.0, {"z": NaN, "y": -Infinity}], "a": 0.1, "c": "t"}')
    text = '{"a":0.10000000149011612,"b":[1,0.0,{"y":"-inf","z":"nan"}],"c":"t"}'
    assert digests.json_digest(path) == hashlib.sha256(b"json\0" + text.encode()).hexdigest()


def test_the_manifests_content_digests_are_their_documented_layouts_by_hand(tmp_path):
    """``table:`` the sha256 of ``table\\0``, the data digest, ``\\0`` and the provenance without its versions
    (null without one; its bytes as Latin-1 text if not JSON); ``json:``, ``bytes:``; a figure's data digest the
    sha256 of its inputs and arguments."""
    table = pa.table({"n": pa.array([1], pa.int32())})
    for prov, made in [
        ({"alpha": 0.5, "versions": {"numpy": "0"}}, '{"alpha":0.5}'),
        (None, "null"),
        (b"\xff", '"\\u00ff"'),
    ]:
        path = tmp_path / "t.parquet"
        metadata = {b"duelbandits": prov} if isinstance(prov, bytes) else None
        if metadata:
            pq.write_table(table.replace_schema_metadata(metadata), path)
        else:
            storage.write_table(table, path, prov)
        data = f"table\0{digests.parquet_digest(path)}\0{made}"
        assert digests.content_digest(path) == "table:" + hashlib.sha256(data.encode()).hexdigest(), made
    json_file, text = write_json(tmp_path / "a.json", "[1]"), write_json(tmp_path / "a.md", "x")
    assert digests.content_digest(json_file) == "json:" + digests.json_digest(json_file)
    assert digests.content_digest(text) == "bytes:" + hashlib.sha256(b"x").hexdigest()
    expected = hashlib.sha256(b'{"args":{"x":1},"inputs":{"a":"h"}}').hexdigest()
    assert digests.figure_digest({"a": "h"}, x=1) == expected


def test_a_file_that_cannot_be_digested_is_refused_naming_it(tmp_path):
    broken = write_json(tmp_path / "a.json", '{"a": ')
    with pytest.raises(digests.DigestError, match=rf"^{re.escape(str(broken))}: not a readable JSON file \("):
        digests.json_digest(broken)
    (tmp_path / "b.parquet").write_bytes(b"PAR1 not really")
    damaged = re.escape(str(tmp_path / "b.parquet"))
    with pytest.raises(storage.StorageError, match=rf"^{damaged}: not a readable Parquet file \("):
        digests.parquet_digest(tmp_path / "b.parquet")


@pytest.mark.parametrize(
    "kind, large, values",
    [
        (pa.string(), pa.large_string(), ["ab", "", "é", "xyz", None]),
        (pa.binary(), pa.large_binary(), [b"ab", b"", b"\xff\x00", b"x", None]),
    ],
)
def test_a_large_column_digests_as_its_narrow_kind_whole_in_parts_and_written(tmp_path, kind, large, values):
    """Both widths take the string layout (lengths, then bytes); large_binary once fell to the JSON branch."""
    plain = pa.table({"s": pa.array(values, kind)})
    wide = pa.table({"s": pa.array(values, large)})
    assert in_memory(wide) == in_memory(plain)
    parts = digests.TableDigest(wide.schema)
    for start, stop in [(0, 1), (1, 3), (3, 5)]:  # slices of one buffer: offsets that do not start at 0
        parts.update(wide.slice(start, stop - start))
    assert parts.hexdigest() == in_memory(plain)
    pq.write_table(wide, tmp_path / "b.parquet")
    assert digests.parquet_digest(tmp_path / "b.parquet") == in_memory(plain)


def test_a_string_column_in_long_runs_digests_as_its_decoded_values(tmp_path):
    """A file's string columns are read dictionary-encoded and fed run by run (the traces' layout):
    the same digest as the decoded strings, and one changed row in a run changes it."""
    words = ["sparring"] * 150 + [""] * 50 + ["é"] * 100
    plain = pa.table({"s": pa.array(words, pa.string())})
    pq.write_table(plain, tmp_path / "a.parquet", row_group_size=120)  # runs that cross row groups
    assert digests.parquet_digest(tmp_path / "a.parquet") == in_memory(plain)
    runs = digests.TableDigest(plain.schema)
    runs.update(pa.table({"s": pa.array(words, pa.string()).dictionary_encode().slice(7, 280)}))  # an offset
    assert runs.hexdigest() == in_memory(plain.slice(7, 280))
    words[170] = "x"
    pq.write_table(pa.table({"s": pa.array(words, pa.string())}), tmp_path / "b.parquet")
    assert digests.parquet_digest(tmp_path / "b.parquet") != in_memory(plain)


def test_a_part_with_other_columns_than_the_schema_is_refused():
    digest = digests.TableDigest(pa.schema([("a", pa.int64())]))
    with pytest.raises(ValueError):
        digest.update(pa.table({"a": [1], "b": [2]}))
