"""The manifest: byte and content digests, and the three-way verification."""

import hashlib
import json
import re
import struct
import zlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

from duelbandits import cli, manifest, provenance, storage  # noqa: E402
from duelbandits.plotting import style  # noqa: E402

VALUES = np.array([0.1, 1 / 3, 2.5e-7, 1234.5678, 0.0])


def refusal(function, *args) -> str:
    """The message of the ManifestError that ``function(*args)`` raises (the test fails if it raises none)."""
    with pytest.raises(manifest.ManifestError) as err:
        function(*args)
    return str(err.value)


def write_parquet(path, values=VALUES, compression="zstd", prov=None):
    table = pa.table(
        {
            "t": np.arange(1, len(values) + 1, dtype=np.int32),
            "x": values,
            "name": ["a", "bb", None, "", "é"][: len(values)],
        }
    )
    if prov is not None:
        table = storage.with_provenance(table, prov)
    pq.write_table(table, path, compression=compression)


def draw(path, digest):
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [0, 1])
    style.save(fig, path, data_digest=digest)
    plt.close(fig)


def make_tree(root):
    (root / "results").mkdir()
    (root / "figures").mkdir()
    write_parquet(root / "results/a.parquet")
    (root / "results/s.json").write_text(json.dumps({"b": [0.1, 2], "a": "x"}))
    (root / "results/table.md").write_text("| a |\n")
    draw(root / "figures/f.png", "ab" * 32)
    draw(root / "figures/f.pdf", "ab" * 32)
    return ["results/a.parquet", "results/s.json", "results/table.md", "figures/f.png", "figures/f.pdf"]


def test_parquet_content_ignores_metadata_codec_and_last_bits_but_not_values(tmp_path):
    write_parquet(tmp_path / "a.parquet")
    base = manifest.content_digest(tmp_path / "a.parquet")
    # other codec and other key-value metadata (a provenance with other versions): other bytes, same content
    write_parquet(tmp_path / "b.parquet", compression="snappy", prov={"versions": {"numpy": "0"}})
    assert manifest.sha256(tmp_path / "a.parquet") != manifest.sha256(tmp_path / "b.parquet")
    assert manifest.content_digest(tmp_path / "b.parquet") == base
    # one ulp on every value (the size of the cross-version differences seen, 7e-16 relative)
    write_parquet(tmp_path / "c.parquet", values=np.nextafter(VALUES, np.inf))
    assert manifest.content_digest(tmp_path / "c.parquet") == base
    # a relative 1e-5 (one duel more in a cumulative regret of ~2,000) is a change of content
    write_parquet(tmp_path / "d.parquet", values=VALUES * (1 + 1e-5))
    assert manifest.content_digest(tmp_path / "d.parquet") != base
    # so are a renamed column, another type and a null moved
    table = pq.read_table(tmp_path / "a.parquet")
    pq.write_table(table.rename_columns(["t", "y", "name"]), tmp_path / "e.parquet")
    pq.write_table(table.set_column(0, "t", table.column("t").cast(pa.int64())), tmp_path / "f.parquet")
    names = pa.array(["a", "bb", "", None, "é"])
    pq.write_table(table.set_column(2, "name", names), tmp_path / "g.parquet")
    digests = {manifest.content_digest(tmp_path / f"{n}.parquet") for n in "efg"}
    assert base not in digests and len(digests) == 3


def test_json_content_ignores_key_order_and_last_digits(tmp_path):
    (tmp_path / "a.json").write_text('{"m": [[0.5, 0.8856176608159012]], "n": 3}')
    (tmp_path / "b.json").write_text('{"n": 3, "m": [[0.5, 0.8856176608159011]]}')  # numpy 1.26 vs 2.4
    (tmp_path / "c.json").write_text('{"n": 3, "m": [[0.5, 0.8856]]}')
    a, b, c = (manifest.content_digest(tmp_path / f"{n}.json") for n in "abc")
    assert a == b != c


def test_figures_carry_their_data_digest_and_damage_is_caught(tmp_path):
    digest = "0123456789abcdef" * 4
    for suffix in ("png", "pdf"):
        path = tmp_path / f"f.{suffix}"
        draw(path, digest)
        assert manifest.figure_data_digest(path) == digest
        assert manifest.content_digest(path) == f"figure:{digest}"
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 2])
        with pytest.raises(manifest.ManifestError, match="truncated"):
            manifest.content_digest(path)
    png = tmp_path / "f.png"
    draw(png, digest)
    data = bytearray(png.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte inside the image data
    png.write_bytes(bytes(data))
    with pytest.raises(manifest.ManifestError, match="CRC"):
        manifest.content_digest(png)
    draw(png, digest)
    png.write_bytes(png.read_bytes() + b"\0")
    with pytest.raises(manifest.ManifestError, match="after its IEND"):
        manifest.content_digest(png)
    pdf = tmp_path / "f.pdf"
    draw(pdf, digest)
    data = bytearray(pdf.read_bytes())
    for k in range(len(data) // 2, len(data) // 2 + 200):  # damage inside the drawing's compressed stream
        data[k] ^= 0x55
    pdf.write_bytes(bytes(data))
    with pytest.raises(manifest.ManifestError, match="does not inflate|startxref"):
        manifest.content_digest(pdf)
    draw(tmp_path / "plain.png", None)
    with pytest.raises(manifest.ManifestError, match="carries no"):
        manifest.content_digest(tmp_path / "plain.png")


def test_manifest_lines_are_sha256sum_lines_then_content_lines(tmp_path):
    files = make_tree(tmp_path)
    text = manifest.build(tmp_path, files, {"horizon": 300})
    assert text == manifest.build(tmp_path, list(reversed(files)), {"horizon": 300})  # deterministic
    out = tmp_path / "results/MANIFEST.sha256"
    out.write_text(text)
    header, entries, contents = manifest.read(out)
    assert json.loads(header["environment"])["numpy"] == np.__version__
    assert header["config"] == '{"horizon": 300}'
    assert entries["results/table.md"] == hashlib.sha256(b"| a |\n").hexdigest()
    assert contents["figures/f.png"] == contents["figures/f.pdf"] == "figure:" + "ab" * 32
    assert contents["results/table.md"] == "bytes:" + entries["results/table.md"]
    assert sorted(entries) == sorted(contents) == sorted(files)


def elsewhere(text: str) -> str:
    """A manifest's text as if written under other versions (content is compared only then)."""
    return text.replace(f'"numpy": "{np.__version__}"', '"numpy": "1.0"')


def test_verify_says_identical_same_content_differs_or_missing(tmp_path):
    files = make_tree(tmp_path)
    out = tmp_path / "M.sha256"
    out.write_text(elsewhere(manifest.build(tmp_path, files, {})))
    assert set(manifest.verify(out, tmp_path).values()) == {manifest.IDENTICAL}
    write_parquet(tmp_path / "results/a.parquet", compression="snappy")  # same values, other bytes
    draw(tmp_path / "figures/f.png", "ab" * 32)  # unchanged figure
    (tmp_path / "figures/f.pdf").write_bytes((tmp_path / "figures/f.pdf").read_bytes()[:500])  # damaged
    (tmp_path / "results/s.json").write_text(json.dumps({"b": [0.2, 2], "a": "x"}))  # another value
    (tmp_path / "results/table.md").unlink()
    assert manifest.verify(out, tmp_path) == {
        "figures/f.pdf": manifest.DIFFERS,
        "figures/f.png": manifest.IDENTICAL,
        "results/a.parquet": manifest.SAME_CONTENT,
        "results/s.json": manifest.DIFFERS,
        "results/table.md": manifest.MISSING,
    }


def paint(path):
    """Redraw a figure with another image but the data digest it carries (a figure painted over)."""
    digest = manifest.figure_data_digest(path)
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [1, 0], color="red")
    style.save(fig, path, data_digest=digest)
    plt.close(fig)
    assert manifest.figure_data_digest(path) == digest


def test_an_edited_tree_manifest_does_not_loosen_the_check(tmp_path, capsys):
    """The tree's own results/MANIFEST.sha256, its environment line edited to other versions, does not turn
    a painted figure into `same data` nor a rewritten Parquet file into `same content`: under the
    reference's versions they differ (exit 1). The same tree against a reference made elsewhere: content."""
    files = make_tree(tmp_path)
    write_parquet(tmp_path / "results/a.parquet", prov=provenance.record(table="t"))  # made here, says so
    reference = tmp_path / "reference.sha256"
    reference.write_text(manifest.build(tmp_path, files, {}))  # this interpreter's versions
    tree = tmp_path / "results/MANIFEST.sha256"
    edited = manifest.build(tmp_path, files, {})
    for name, version in provenance.environment().items():  # every version edited
        edited = edited.replace(f'"{name}": "{version}"', f'"{name}": "0+{version}"')
    assert edited != manifest.build(tmp_path, files, {})
    tree.write_text(edited)
    paint(tmp_path / "figures/f.png")
    paint(tmp_path / "figures/f.pdf")
    write_parquet(tmp_path / "results/a.parquet", compression="snappy", prov=provenance.record(table="t"))
    reasons = {}
    status = manifest.verify(reference, tmp_path, reasons)
    assert status == {
        "figures/f.pdf": manifest.DIFFERS,
        "figures/f.png": manifest.DIFFERS,
        "results/a.parquet": manifest.DIFFERS,
        "results/s.json": manifest.IDENTICAL,
        "results/table.md": manifest.IDENTICAL,
    }
    assert "those its provenance records" in reasons["results/a.parquet"]
    assert "those the tree's Parquet files record" in reasons["figures/f.png"]  # the run that made it: here
    assert cli.main(["manifest", "verify", str(reference), "--root", str(tmp_path)]) == 1
    assert (
        capsys.readouterr().out.splitlines()[-1].startswith("FAILED: 5 files: 2 identical, 0 same content, 3 differs")
    )
    # the control: a reference made under other versions compares content (and a figure's data)
    reference.write_text(elsewhere(reference.read_text()))
    assert manifest.verify(reference, tmp_path) == {
        **status,
        "figures/f.pdf": manifest.SAME_DATA,
        "figures/f.png": manifest.SAME_DATA,
        "results/a.parquet": manifest.SAME_CONTENT,
    }
    assert cli.main(["manifest", "verify", str(reference), "--root", str(tmp_path)]) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[-1].startswith("same content: 5 files: 2 identical, 1 same content, 2 same data")
    assert "compared by content, not bytes: 3 file(s)" in captured.err


def test_a_parquet_file_made_under_other_versions_says_so_in_its_own_provenance(tmp_path, capsys):
    """The verifier has the reference's versions; a Parquet file whose provenance records other versions
    was made elsewhere: its content is compared. A figure records none: it was drawn by the run that
    wrote the tree's Parquet files (the versions they all record), so its data is compared; with no such
    agreement, it is taken as made by this interpreter, and its bytes are compared."""
    files = make_tree(tmp_path)
    here = provenance.record(table="t")
    write_parquet(tmp_path / "results/a.parquet", prov=here)
    reference = tmp_path / "reference.sha256"
    reference.write_text(manifest.build(tmp_path, files, {}))
    there = {**here, "versions": {**here["versions"], "numpy": "1.0"}}
    write_parquet(tmp_path / "results/a.parquet", prov=there)  # other versions: other bytes, same values
    paint(tmp_path / "figures/f.png")
    reasons, compared = {}, {}
    status = manifest.verify(reference, tmp_path, reasons, compared)
    assert status["results/a.parquet"] == manifest.SAME_CONTENT
    assert compared["results/a.parquet"] == (manifest.CONTENT, manifest.PROVENANCE)
    assert status["figures/f.png"] == manifest.SAME_DATA  # painted, the same data: the tree was made elsewhere
    assert compared["figures/f.png"] == (manifest.CONTENT, manifest.TREE)
    write_parquet(tmp_path / "results/b.parquet", prov=here)  # the tree's Parquet files disagree: no tree versions
    assert manifest.tree_versions([tmp_path / "results/a.parquet", tmp_path / "results/b.parquet"]) is None
    assert manifest.made_with(tmp_path / "figures/f.png") == (provenance.environment(), manifest.INTERPRETER)
    (tmp_path / "results/b.parquet").unlink()
    write_parquet(tmp_path / "results/a.parquet", values=VALUES + 1, prov=there)  # ... and other values
    status = manifest.verify(reference, tmp_path, reasons)
    assert status["results/a.parquet"] == manifest.DIFFERS
    assert reasons["results/a.parquet"] == "another content than the manifest's (its content digest differs)"
    # a provenance that says the reference's versions: bytes, whatever the verifying interpreter
    write_parquet(tmp_path / "results/a.parquet", compression="snappy", prov=here)
    assert manifest.made_with(tmp_path / "results/a.parquet") == (here["versions"], manifest.PROVENANCE)
    assert manifest.verify(reference, tmp_path)["results/a.parquet"] == manifest.DIFFERS


@pytest.mark.parametrize(
    "damage",
    ["", "not a manifest\n", "# environment: {not json\n", "CUT", "\xff\xfe binary"],
    ids=["missing", "not-a-manifest", "environment-not-json", "cut", "binary"],
)
def test_a_damaged_or_missing_tree_manifest_does_not_block_verifying_another_manifest(tmp_path, capsys, damage):
    files = make_tree(tmp_path)
    reference = tmp_path / "reference.sha256"
    reference.write_text(manifest.build(tmp_path, files, {}))
    tree = tmp_path / "results/MANIFEST.sha256"
    if damage == "CUT":
        tree.write_text(reference.read_text()[:300])
    elif damage:
        tree.write_bytes(damage.encode("latin-1"))
    if damage:
        with pytest.raises(manifest.ManifestError):
            manifest.read(tree)
    else:
        assert not tree.exists()
    assert set(manifest.verify(reference, tmp_path).values()) == {manifest.IDENTICAL}
    assert cli.main(["manifest", "verify", str(reference), "--root", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("identical: 5 files: 5 identical")
    # a file with other bytes, against a manifest made under other versions: its content is compared
    reference.write_text(elsewhere(reference.read_text()))
    write_parquet(tmp_path / "results/a.parquet", compression="snappy")
    assert manifest.verify(reference, tmp_path)["results/a.parquet"] == manifest.SAME_CONTENT
    assert cli.main(["manifest", "verify", str(reference), "--root", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("same content: 5 files: 4 identical, 1 same content")


def test_build_closes_the_manifest_with_its_number_of_entries(tmp_path):
    files = make_tree(tmp_path)
    lines = manifest.build(tmp_path, files, {}).splitlines()
    assert lines[-1] == "# end: 5 entries"
    assert sum(not line.startswith("#") for line in lines) == 5


def test_a_manifest_cut_at_any_line_end_is_refused_naming_truncation(tmp_path, capsys):
    files = make_tree(tmp_path)
    text = manifest.build(tmp_path, files, {})
    cut = tmp_path / "cut.sha256"
    ends = [i + 1 for i, char in enumerate(text) if char == "\n"]
    assert len(ends) == 15 and ends[-1] == len(text)
    for end in [0, *ends[:-1]]:
        cut.write_text(text[:end])
        with pytest.raises(manifest.ManifestError, match=r"cut\.sha256: truncated or damaged manifest: no closing"):
            manifest.read(cut)
        assert cli.main(["manifest", "verify", str(cut), "--root", str(tmp_path)]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and "truncated or damaged manifest" in err, (end, err)
    # and inside a line: every byte but the last newline
    for end in range(len(text) - 1):
        cut.write_text(text[:end])
        with pytest.raises(manifest.ManifestError, match="truncated or damaged manifest"):
            manifest.read(cut)
    cut.write_text(text[:-1])  # only the last newline gone: the manifest is whole
    assert len(manifest.read(cut)[1]) == 5
    cut.write_text(text)
    assert cli.main(["manifest", "verify", str(cut), "--root", str(tmp_path)]) == 0


@pytest.mark.parametrize("count", [4, 6, 0, 50])
def test_a_closing_count_that_disagrees_is_refused(tmp_path, capsys, count):
    files = make_tree(tmp_path)
    text = manifest.build(tmp_path, files, {})
    bad = tmp_path / "M.sha256"
    bad.write_text(text.replace("# end: 5 entries", f"# end: {count} entries"))
    with pytest.raises(
        manifest.ManifestError, match=rf"truncated or damaged manifest: .* says {count} entries, it lists 5"
    ):
        manifest.read(bad)
    assert cli.main(["manifest", "verify", str(bad), "--root", str(tmp_path)]) == 2
    assert "truncated or damaged manifest" in capsys.readouterr().err


@pytest.mark.parametrize(
    "edit, words",
    [
        (lambda t: t + "# more: x\n", "line 16 follows the closing line (line 15)"),
        (lambda t: t.replace("# end: 5 entries", "# end: five entries"), "line 15 is not a closing"),
        (lambda t: "".join(l for l in t.splitlines(True) if "  results/table.md" not in l or "# content" in l)
         .replace("# end: 5", "# end: 4"), "content lines and its sha256 lines list other files (results/table.md)"),
    ],
)  # fmt: skip
def test_lines_after_the_closing_line_or_a_lost_line_are_refused(tmp_path, edit, words):
    files = make_tree(tmp_path)
    bad = tmp_path / "M.sha256"
    bad.write_text(edit(manifest.build(tmp_path, files, {})))
    with pytest.raises(manifest.ManifestError, match="truncated or damaged manifest") as err:
        manifest.read(bad)
    assert words in str(err.value)


def test_the_reference_manifest_ends_with_the_closing_line_build_writes(tmp_path):
    from pathlib import Path

    reference = Path(__file__).resolve().parents[1] / "reference/MANIFEST.sha256"
    _, entries, contents = manifest.read(reference)
    assert reference.read_text().endswith(f"\n# end: {len(entries)} entries\n") and len(contents) == len(entries)


def test_verify_cli_prints_each_file_and_one_summary_line(tmp_path, capsys):
    files = make_tree(tmp_path)
    out = tmp_path / "M.sha256"
    root = ["--root", str(tmp_path)]
    assert (
        cli.main(["manifest", "write", *files, "--config-json", "{}", "--plugins-json", "{}", "--out", str(out), *root])
        == 0
    )
    assert cli.main(["manifest", "verify", str(out), *root]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == f"identical: 5 files: 5 identical, 0 same content, 0 differs, 0 missing (against {out})"
    assert "identical     results/a.parquet" in lines
    write_parquet(tmp_path / "results/a.parquet", compression="snappy")
    assert cli.main(["manifest", "verify", str(out), *root]) == 1  # other bytes under the manifest's versions
    assert capsys.readouterr().out.splitlines()[-1].startswith("FAILED: 5 files: 4 identical, 0 same content, 1")
    out.write_text(elsewhere(out.read_text()))
    assert cli.main(["manifest", "verify", str(out), *root]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("same content: 5 files: 4 identical, 1 same content")
    write_parquet(tmp_path / "results/a.parquet", values=VALUES + 1)
    assert cli.main(["manifest", "verify", str(out), *root]) == 1
    out_lines = capsys.readouterr().out.splitlines()
    assert "differs       results/a.parquet" in out_lines
    assert out_lines[-1].startswith("FAILED: 5 files: 4 identical, 0 same content, 1 differs, 0 missing")


def test_verify_names_the_versions_that_differ_from_the_manifest(tmp_path, capsys):
    files = make_tree(tmp_path)
    out = tmp_path / "M.sha256"
    text = manifest.build(tmp_path, files, {}).replace(f'"numpy": "{np.__version__}"', '"numpy": "1.0"')
    out.write_text(text)
    assert manifest.environment_differences(out) == [f"numpy {np.__version__} (manifest 1.0)"]
    assert cli.main(["manifest", "verify", str(out), "--root", str(tmp_path)]) == 0
    assert f"environment differs from the manifest's: numpy {np.__version__} (manifest 1.0)" in capsys.readouterr().err


def test_a_manifest_without_content_lines_still_verifies_bytes(tmp_path):
    files = make_tree(tmp_path)
    text = manifest.build(tmp_path, files, {})
    out = tmp_path / "old.sha256"
    out.write_text("\n".join(line for line in text.splitlines() if not line.startswith("# content: ")) + "\n")
    write_parquet(tmp_path / "results/a.parquet", compression="snappy")
    assert manifest.verify(out, tmp_path)["results/a.parquet"] == manifest.DIFFERS


def test_malformed_manifests_and_bad_inputs_are_named(tmp_path, capsys):
    bad = tmp_path / "M.sha256"
    bad.write_text("# header: x\nnot-a-hash  file\n")
    assert cli.main(["manifest", "verify", str(bad)]) == 2
    assert "M.sha256:2: not a '<sha256>  <path>' line" in capsys.readouterr().err
    assert (
        cli.main(
            [
                "manifest",
                "write",
                "missing.txt",
                "--config-json",
                "{}",
                "--plugins-json",
                "{}",
                "--out",
                str(tmp_path / "o.sha256"),
                "--root",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "missing.txt: file not found, cannot be listed in the manifest" in capsys.readouterr().err
    assert not (tmp_path / "o.sha256").exists()
    (tmp_path / "foreign.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert (
        cli.main(
            [
                "manifest",
                "write",
                "foreign.png",
                "--config-json",
                "{}",
                "--plugins-json",
                "{}",
                "--out",
                str(tmp_path / "o.sha256"),
                "--root",
                str(tmp_path),
            ]
        )
        == 2
    )
    assert "foreign.png: PNG is truncated" in capsys.readouterr().err
    assert not (tmp_path / "o.sha256").exists()
    with pytest.raises(manifest.ManifestError, match="absent.sha256: file not found"):
        manifest.read(tmp_path / "absent.sha256")


def test_matrix_digest_ignores_the_last_bit_of_exp():
    X = np.array([[0.5, 0.8856176608159012], [0.1143823391840988, 0.5]])
    assert provenance.matrix_sha256(X) == provenance.matrix_sha256(np.nextafter(X, 0))
    assert provenance.matrix_sha256(X) != provenance.matrix_sha256(X.T)


def test_a_content_digest_is_computed_once_and_kept_in_the_ledger_while_the_bytes_are_the_recorded_ones(
    tmp_path, monkeypatch
):
    from duelbandits import files

    path = tmp_path / "results" / "t.parquet"
    storage.write_table(pa.table({"x": [1.0, -0.0, 2.5]}), path, provenance.record(table="t"))
    ledger = tmp_path / "ledger"
    files.record_written(ledger, path)
    expected = manifest.content_digest(path)
    assert manifest.content_digest(path, ledger) == expected
    record = files.read_record(ledger, path)
    assert record[0] == manifest.sha256(path) and record[1].endswith(expected)
    calls = []
    monkeypatch.setattr(manifest, "_content_digest", lambda p: calls.append(p) or "recomputed")
    assert manifest.content_digest(path, ledger) == expected and calls == []  # read from the ledger
    # another version of the digest's code: the kept value is not used
    files.record_written(ledger, path, sha256=record[0], content=record[1].replace("content ", "content 0", 1))
    assert manifest.content_digest(path, ledger) == "recomputed" and len(calls) == 1
    # bytes changed after the job: computed from the file, and the ledger is left as the job wrote it
    files.record_written(ledger, path)
    storage.write_table(pa.table({"x": [9.0]}), path, provenance.record(table="t"))
    assert manifest.content_digest(path, ledger) == "recomputed" and len(calls) == 2
    assert files.read_record(ledger, path) != [manifest.sha256(path)]
    # no record at all: computed, nothing written
    other = tmp_path / "results" / "u.parquet"
    storage.write_table(pa.table({"x": [1.0]}), other, provenance.record(table="u"))
    assert manifest.content_digest(other, ledger) == "recomputed" and files.read_record(ledger, other) is None


# --- Hand-made inputs: small trees, manifests, PNGs and PDFs built byte by byte ---------------


def small_tree(root, names=("a.md", "b.md", "c.md")):
    """Markdown files only (their content digest is their bytes): no figure to draw."""
    for name in names:
        (root / name).write_text(f"# {name}\n")
    return list(names)


def recorded_tree(root, recorded, names=("a.md", "b.md", "c.md")):
    """:func:`small_tree` with the ``recorded`` files in a ledger at ``root / "ledger"`` (as their jobs
    would have written them); returns the ledger."""
    from duelbandits import files

    small_tree(root, names)
    ledger = root / "ledger"
    for name in recorded:
        files.record_written(ledger, root / name)
    return ledger


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record_path(ledger, path) -> str:
    """Where the ledger keeps the record of the absolute ``path``: the path under the ledger, plus .sha256."""
    return f"{ledger}/{str(path).lstrip('/')}.sha256"


def test_build_names_the_one_file_no_job_recorded_with_the_command_that_rebuilds_it(tmp_path):
    ledger = recorded_tree(tmp_path, ("a.md", "c.md"))
    assert refusal(manifest.build, tmp_path, ["a.md", "b.md", "c.md"], {}, ledger) == (
        f"b.md: no job of the pipeline recorded writing it ({record_path(ledger, tmp_path / 'b.md')} is missing); "
        "rebuild it with: snakemake --cores all --forcerun b.md"
    )


def test_build_names_the_one_file_changed_since_its_job(tmp_path):
    ledger = recorded_tree(tmp_path, ("a.md", "b.md", "c.md"))
    (tmp_path / "c.md").write_text("edited\n")
    assert refusal(manifest.build, tmp_path, ["a.md", "b.md", "c.md"], {}, ledger) == (
        "c.md: changed since the job that wrote it (its sha256 is not the one recorded in "
        f"{record_path(ledger, tmp_path / 'c.md')}); rebuild it with: snakemake --cores all --forcerun c.md"
    )


def test_build_lists_every_file_the_ledger_does_not_vouch_for_in_one_message(tmp_path):
    ledger = recorded_tree(tmp_path, ("a.md", "c.md", "e.md"), ("a.md", "b.md", "c.md", "d.md", "e.md"))
    (tmp_path / "c.md").write_text("edited\n")
    (tmp_path / "e.md").write_text("edited\n")
    assert refusal(manifest.build, tmp_path, ["e.md", "d.md", "c.md", "b.md", "a.md"], {}, ledger) == (
        f"2 file(s) no job of the pipeline recorded writing (no record in {ledger}): b.md d.md; "
        "2 file(s) changed since the job that wrote them: c.md e.md; "
        "rebuild them all with: snakemake --cores all --forcerun b.md d.md c.md e.md"
    )
    assert refusal(manifest.build, tmp_path, ["a.md", "b.md"], {}, tmp_path / "no-ledger") == (
        f"2 file(s) no job of the pipeline recorded writing (the ledger {tmp_path / 'no-ledger'} is missing): "
        "a.md b.md; rebuild them all with: snakemake --cores all --forcerun a.md b.md"
    )


def test_build_with_a_ledger_that_vouches_for_every_file_lists_them(tmp_path):
    ledger = recorded_tree(tmp_path, ("a.md", "b.md", "c.md"))
    lines = manifest.build(tmp_path, ["c.md", "a.md", "b.md"], {"k": 2}, ledger).splitlines()
    assert lines[-7:] == [
        f"{sha(b'# a.md' + bytes([10]))}  a.md",
        f"{sha(b'# b.md' + bytes([10]))}  b.md",
        f"{sha(b'# c.md' + bytes([10]))}  c.md",
        f"# content: bytes:{sha(b'# a.md' + bytes([10]))}  a.md",
        f"# content: bytes:{sha(b'# b.md' + bytes([10]))}  b.md",
        f"# content: bytes:{sha(b'# c.md' + bytes([10]))}  c.md",
        "# end: 3 entries",
    ]
    assert lines[3] == '# config: {"k": 2}' and not any(line.startswith("# plugins:") for line in lines)


def test_the_plugins_a_run_used_are_recorded_and_read_back(tmp_path):
    small_tree(tmp_path)
    plugins = {
        "zeta": {"version": "1.0", "distribution": "z", "digest": "d1"},
        "alpha": {"version": "2", "distribution": "a", "digest": "d2"},
    }
    text = manifest.build(tmp_path, ["a.md"], {}, plugins=plugins)
    line = (
        '# plugins: {"alpha": {"digest": "d2", "distribution": "a", "version": "2"}, '
        '"zeta": {"digest": "d1", "distribution": "z", "version": "1.0"}}'
    )
    assert line in text.splitlines()
    out = tmp_path / "M.sha256"
    out.write_text(text)
    assert manifest.recorded_plugins(out) == plugins
    out.write_text(manifest.build(tmp_path, ["a.md"], {}))
    assert manifest.recorded_plugins(out) == {}
    assert manifest.recorded_plugins(tmp_path / "absent.sha256") == {}


@pytest.mark.parametrize(
    "record",
    [
        "{alpha",  # not JSON
        "[1, 2]",
        '{"dts": "x"}',
        '{"dts": {}}',
        '{"dts": {"distribution": "a", "version": "2"}}',  # a field missing
        '{"dts": {"distribution": "a", "version": 2, "digest": "d"}}',  # a number
        '{"dts": {"distribution": "a", "version": "2", "digest": "d", "more": "m"}}',
    ],
)
def test_a_plugins_line_of_another_shape_is_refused_naming_it(tmp_path, record):
    """What `manifest verify` prints of each plugin: a record without its three texts was a traceback."""
    small_tree(tmp_path)
    plugins = {"dts": {"distribution": "a", "version": "2", "digest": "d"}}
    text = manifest.build(tmp_path, ["a.md"], {}, plugins=plugins)
    out = tmp_path / "M.sha256"
    out.write_text(text.replace(f"# plugins: {json.dumps(plugins, sort_keys=True)}", f"# plugins: {record}"))
    assert refusal(manifest.recorded_plugins, out) == (
        f"{out}: its '# plugins:' line is not a JSON object of {{slug: {{distribution, version, digest}}}}"
    )


def a_manifest(tmp_path, *lines, end=None):
    """A manifest file of ``lines``, closed by its ``# end:`` line (the count of sha256 lines unless ``end``)."""
    count = sum(1 for line in lines if line and not line.startswith("#")) if end is None else end
    path = tmp_path / "M.sha256"
    path.write_text("\n".join([*lines, f"# end: {count} entries"]) + "\n")
    return path


H = "0123456789abcdef" * 4
"""A well-formed sha256 (64 lowercase hex digits)."""


@pytest.mark.parametrize("rel", ["/etc/passwd", "C:\\x.md", "c:/x.md", "a/../b.md", "..\\b.md", ".."])
def test_read_refuses_a_path_outside_the_tree_naming_its_line(tmp_path, rel):
    path = a_manifest(tmp_path, "# header: x", f"{H}  ok.md", f"{H}  {rel}")
    assert refusal(manifest.read, path) == f"{path}:3: {rel}: not a path inside the tree (absolute, or with '..')"


@pytest.mark.parametrize("rel", ["a..b.md", "..a/b.md", "x/y..", "d:x.md"])
def test_read_accepts_dots_and_colons_that_do_not_leave_the_tree(tmp_path, rel):
    assert manifest.read(a_manifest(tmp_path, f"{H}  {rel}"))[1] == {rel: H}


def test_read_refuses_a_path_listed_twice_naming_both_lines(tmp_path):
    path = a_manifest(tmp_path, f"{H}  a.md", f"{H}  b.md", f"{H}  a.md")
    assert refusal(manifest.read, path) == f"{path}:3: a.md is listed twice (also on line 1)"
    path = a_manifest(tmp_path, f"{H}  a.md", "# content: bytes:x  a.md", "# content: bytes:y  a.md")
    assert refusal(manifest.read, path) == f"{path}:3: a.md is listed twice (also on line 2)"


@pytest.mark.parametrize(
    "line, words",
    [
        ("# content: bytes:x", "not a '# content: <digest>  <path>' line"),
        ("# content: bytes:x  ", "not a '# content: <digest>  <path>' line"),
        (f"{H.upper()}  a.md", "not a '<sha256>  <path>' line"),
        (f"{H[:-1]}  a.md", "not a '<sha256>  <path>' line"),
        (f"{H} a.md", "not a '<sha256>  <path>' line"),
        (f"{H}  ", "not a '<sha256>  <path>' line"),
    ],
)
def test_read_refuses_a_malformed_line_naming_it(tmp_path, line, words):
    path = a_manifest(tmp_path, "# header: x", line, end=0)
    assert refusal(manifest.read, path) == f"{path}:2: {words}"


def test_read_returns_header_entries_and_contents_and_skips_comments_and_blank_lines(tmp_path):
    path = a_manifest(
        tmp_path,
        "# a comment without a colon",
        "# environment: {}",
        "#config: not a header (no space)",
        "",
        f"{H}  a.md",
        "# content: bytes:1  a.md",
        "# key: value: with a colon",
    )
    assert manifest.read(path) == (
        {"environment": "{}", "key": "value: with a colon"},
        {"a.md": H},
        {"a.md": "bytes:1"},
    )


def test_read_refuses_a_manifest_that_lists_no_files_or_cannot_be_read(tmp_path):
    path = a_manifest(tmp_path, "# header: x")
    assert refusal(manifest.read, path) == f"{path}: lists no files"
    path.write_bytes(b"\xff\xfe\n")
    with pytest.raises(manifest.ManifestError, match=rf"^{re.escape(str(path))}: cannot read manifest \("):
        manifest.read(path)
    assert refusal(manifest.read, tmp_path) == f"{tmp_path}: is a directory, not a file"


def test_a_manifest_cut_inside_its_last_line_names_that_line(tmp_path):
    path = tmp_path / "M.sha256"
    path.write_text(f"# header: x\n{H}  a.md\n# end: 1 entries\n{H[:10]}")
    assert (
        refusal(manifest.read, path)
        == f"{path}: truncated or damaged manifest: line 4 follows the closing line (line 3)"
    )
    path.write_text(f"# header: x\n{H}  a.md\n{H[:10]}")
    assert refusal(manifest.read, path) == f"{path}: truncated or damaged manifest: its last line (line 3) is cut short"
    path.write_text(f"# header: x\n{H[:10]}\n{H}  a.md\n# end: 1 entries\n")  # a whole bad line: not a cut
    assert refusal(manifest.read, path) == f"{path}:2: not a '<sha256>  <path>' line"


def test_a_closing_line_after_blank_lines_only_is_whole(tmp_path):
    path = tmp_path / "M.sha256"
    path.write_text(f"{H}  a.md\n# end: 1 entries\n\n   \n")
    assert manifest.read(path)[1] == {"a.md": H}
    path.write_text(f"{H}  a.md\n# end: 1 entries\n\n{H}  b.md\n")  # a line after the blank ones: refused
    assert (
        refusal(manifest.read, path)
        == f"{path}: truncated or damaged manifest: line 4 follows the closing line (line 2)"
    )
    path.write_text(f"{H}  a.md\n# end: 01 entries\n")
    assert (
        refusal(manifest.read, path)
        == f"{path}: truncated or damaged manifest: line 2 is not a closing '# end: N entries' line"
    )
    path.write_text("")
    assert refusal(manifest.read, path) == (
        f"{path}: truncated or damaged manifest: no closing '# end: N entries' line (it is empty): cut short, "
        "or not written by duelbandits manifest write"
    )


def test_a_manifest_with_content_lines_for_files_it_does_not_list_is_refused(tmp_path):
    path = a_manifest(tmp_path, f"{H}  a.md", "# content: bytes:1  a.md", "# content: bytes:2  b.md")
    assert refusal(manifest.read, path) == (
        f"{path}: truncated or damaged manifest: its content lines and its sha256 lines list other files (b.md)"
    )


def test_manifest_versions_read_the_environment_line(tmp_path):
    assert manifest.manifest_versions(a_manifest(tmp_path, '# environment: {"numpy": "1.0"}', f"{H}  a.md")) == {
        "numpy": "1.0"
    }
    assert manifest.manifest_versions(a_manifest(tmp_path, f"{H}  a.md")) is None
    for bad in ("[1, 2]", "{not json"):
        path = a_manifest(tmp_path, f"# environment: {bad}", f"{H}  a.md")
        assert refusal(manifest.manifest_versions, path) == f"{path}: its environment line is not a JSON object"


def test_verify_refuses_a_config_line_that_is_not_json(tmp_path):
    small_tree(tmp_path)
    path = a_manifest(tmp_path, "# config: {oops", f"{sha(b'# a.md' + bytes([10]))}  a.md")
    assert refusal(manifest.verify, path, tmp_path) == f"{path}: its config line is not JSON"
    for other in ("[1]", "null", '"all"'):  # JSON, but no config to compare the files' provenance with
        path = a_manifest(tmp_path, f"# config: {other}", f"{sha(b'# a.md' + bytes([10]))}  a.md")
        assert refusal(manifest.verify, path, tmp_path) == f"{path}: its config line is not a JSON object"
    path = a_manifest(tmp_path, "# config: {}", f"{sha(b'# a.md' + bytes([10]))}  a.md")
    assert manifest.verify(path, tmp_path) == {"a.md": manifest.IDENTICAL}
    path = a_manifest(tmp_path, "# environment: [1]", f"{sha(b'# a.md' + bytes([10]))}  a.md")
    assert refusal(manifest.verify, path, tmp_path) == f"{path}: its environment line is not a JSON object"


def test_verify_says_why_other_bytes_differ_under_the_manifests_versions(tmp_path):
    """Without versions, only bytes are compared; with this interpreter's versions and a tree that records
    none, a file is taken as made here."""
    small_tree(tmp_path)
    here = json.dumps(provenance.environment(), sort_keys=True)
    old = a_manifest(tmp_path, f"{sha(b'other')}  a.md", f"{sha(b'# b.md' + bytes([10]))}  b.md")
    reasons, compared = {}, {}
    assert manifest.verify(old, tmp_path, reasons, compared) == {"a.md": manifest.DIFFERS, "b.md": manifest.IDENTICAL}
    assert reasons == {"a.md": "other bytes (the manifest records no versions, so only bytes are compared)"}
    assert compared == {"a.md": (manifest.BYTES, manifest.INTERPRETER)}
    current = a_manifest(tmp_path, f"# environment: {here}", f"{sha(b'other')}  a.md", "# content: bytes:x  a.md")
    reasons = {}
    assert manifest.verify(current, tmp_path, reasons) == {"a.md": manifest.DIFFERS}
    assert reasons["a.md"] == (
        "other bytes under the manifest's own versions (this interpreter's: the file records none, so it is "
        "taken as made here; if it was made under other versions, verify with the interpreter that made it)"
    )


def test_verify_compares_content_and_says_when_there_is_none_to_compare(tmp_path):
    small_tree(tmp_path)
    elsewhere_versions = json.dumps({"python": "0.0"})
    path = a_manifest(
        tmp_path,
        f"# environment: {elsewhere_versions}",
        f"{sha(b'x')}  gone.md",
        f"{sha(b'other')}  a.md",
        f"{sha(b'other')}  b.md",
        f"{sha(b'# c.md' + bytes([10]))}  c.md",
        f"# content: bytes:{sha(b'# a.md' + bytes([10]))}  a.md",
        f"# content: bytes:{sha(b'other')}  b.md",
        "# content: bytes:x  c.md",
        "# content: bytes:x  gone.md",
    )
    reasons, compared = {}, {}
    assert manifest.verify(path, tmp_path, reasons, compared) == {
        "a.md": manifest.SAME_CONTENT,
        "b.md": manifest.DIFFERS,
        "c.md": manifest.IDENTICAL,
        "gone.md": manifest.MISSING,
    }
    assert reasons == {"b.md": "another content than the manifest's (its content digest differs)"}
    assert compared == {
        "a.md": (manifest.CONTENT, manifest.INTERPRETER),
        "b.md": (manifest.CONTENT, manifest.INTERPRETER),
    }
    no_content = a_manifest(tmp_path, f"# environment: {elsewhere_versions}", f"{sha(b'other')}  a.md")
    reasons = {}
    assert manifest.verify(no_content, tmp_path, reasons) == {"a.md": manifest.DIFFERS}
    assert reasons == {"a.md": "other bytes, and the manifest has no content line to compare"}


def test_environment_differences_name_each_installed_package_whose_version_differs_in_order(tmp_path):
    here = provenance.environment()
    edited = {**here, "python": "0.1", "numpy": "0.2", "not-a-package": "9"}
    path = a_manifest(tmp_path, f"# environment: {json.dumps(edited)}", f"{H}  a.md")
    assert manifest.environment_differences(path) == [
        f"numpy {here['numpy']} (manifest 0.2)",
        f"python {here['python']} (manifest 0.1)",
    ]
    assert manifest.environment_differences(a_manifest(tmp_path, f"{H}  a.md")) == []
    path = a_manifest(tmp_path, "# environment: {bad", f"{H}  a.md")
    assert manifest.environment_differences(path) == ["the manifest's environment line is not JSON"]


def test_a_figures_data_digest_is_the_sha256_of_its_inputs_content_and_arguments(tmp_path):
    """By the definition: sha256 of the canonical JSON (sorted keys, no spaces) of
    ``{"inputs": {role: content digest}, "args": args}``; the role, not the path, enters it."""
    small_tree(tmp_path)
    content = "bytes:" + sha(b"# a.md" + bytes([10]))
    text = '{"args":{"scenario":"borda","x":1},"inputs":{"summary":"' + content + '"}}'
    expected = sha(text.encode())
    assert manifest.data_digest({"summary": tmp_path / "a.md", "unused": None}, x=1, scenario="borda") == expected
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub/copy.md").write_bytes((tmp_path / "a.md").read_bytes())
    assert manifest.data_digest({"summary": tmp_path / "sub/copy.md"}, scenario="borda", x=1) == expected
    assert manifest.input_contents({"summary": tmp_path / "a.md", "unused": None}) == {"summary": content}
    assert manifest.figure_digest({"summary": content}, x=1, scenario="borda") == expected
    assert manifest.data_digest({"other": tmp_path / "a.md"}, x=1, scenario="borda") != expected


def test_tree_versions_are_those_every_parquet_file_with_provenance_records(tmp_path):
    v1, v2 = {"numpy": "1", "pandas": "3"}, {"numpy": "2"}
    write_parquet(tmp_path / "a.parquet", prov={"versions": v1})
    # v1 in another key order (with_provenance would sort the keys: written raw)
    table = pa.table({"t": [1]}).replace_schema_metadata({b"duelbandits": b'{"versions":{"pandas":"3","numpy":"1"}}'})
    pq.write_table(table, tmp_path / "b.parquet")
    write_parquet(tmp_path / "bare.parquet")  # no provenance: not counted
    write_parquet(tmp_path / "odd.parquet", prov={"versions": "1.0"})  # versions not a mapping: not counted
    (tmp_path / "x.md").write_text("x")
    (tmp_path / "x.json").write_text("{}")
    files = [tmp_path / n for n in ("a.parquet", "b.parquet", "bare.parquet", "odd.parquet", "x.md", "x.json")]
    assert manifest.tree_versions([*files, tmp_path / "absent.parquet"]) == v1
    write_parquet(tmp_path / "c.PARQUET", prov={"versions": v2})
    assert manifest.tree_versions([*files, tmp_path / "c.PARQUET"]) is None
    assert manifest.tree_versions(files[2:]) is None


def test_made_with_reads_a_parquet_files_own_versions_else_the_trees_else_this_interpreters(tmp_path):
    write_parquet(tmp_path / "a.parquet", prov={"versions": {"numpy": "1"}})
    write_parquet(tmp_path / "b.parquet", prov={"versions": "1"})
    write_parquet(tmp_path / "c.parquet")
    tree = {"numpy": "7"}
    assert manifest.made_with(tmp_path / "a.parquet", tree) == ({"numpy": "1"}, manifest.PROVENANCE)
    assert manifest.made_with(tmp_path / "b.parquet", tree) == (tree, manifest.TREE)
    assert manifest.made_with(tmp_path / "c.parquet", tree) == (tree, manifest.TREE)
    assert manifest.made_with(tmp_path / "c.parquet") == (provenance.environment(), manifest.INTERPRETER)


SIGNATURE = b"\x89PNG\r\n\x1a\n"
DIGEST = "0123456789abcdef" * 4


def png_chunk(kind: bytes, body: bytes) -> bytes:
    """One PNG chunk as the PNG specification lays it out: length, type, body, CRC-32 of type and body."""
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


IEND = png_chunk(b"IEND", b"")
TEXTS = png_chunk(b"tEXt", b"k\0v\0w") + png_chunk(b"tEXt", b"caf\xe9\0na\xefve")
KEYED = png_chunk(b"tEXt", manifest.FIGURE_DATA_KEY.encode() + b"\0" + DIGEST.encode())


def test_a_hand_made_png_gives_the_digest_under_its_key_whatever_the_suffixs_case(tmp_path):
    data = SIGNATURE + TEXTS + KEYED + IEND
    # a signed read of a CRC would fail a chunk whose CRC has its top bit set: this one has
    assert zlib.crc32(b"tEXt" + b"k\0v\0w") >= 2**31
    assert manifest._png_text(data) == {"k": "v\0w", "café": "naïve", manifest.FIGURE_DATA_KEY: DIGEST}
    (tmp_path / "f.PNG").write_bytes(data)
    assert manifest.figure_data_digest(tmp_path / "f.PNG") == DIGEST
    assert manifest.content_digest(tmp_path / "f.PNG") == f"figure:{DIGEST}"


@pytest.mark.parametrize(
    "data, problem",
    [
        (b"GIF89a" + TEXTS + IEND, "not a PNG file"),
        (b"\x89png\r\n\x1a\n" + KEYED + IEND, "not a PNG file"),
        (SIGNATURE + KEYED, "PNG is truncated (no IEND chunk)"),
        (SIGNATURE + KEYED + IEND[:5], "PNG is truncated (no IEND chunk)"),  # 5 bytes: not even a chunk header
        (SIGNATURE + KEYED + IEND[:-2], "PNG is truncated (no IEND chunk)"),  # cut inside the last CRC
        (SIGNATURE + KEYED[:-3], "PNG is truncated (no IEND chunk)"),
        (SIGNATURE + KEYED + IEND + b"\0", "PNG has data after its IEND chunk"),
        (SIGNATURE + KEYED[:-1] + bytes([KEYED[-1] ^ 1]) + IEND, "PNG chunk b'tEXt' fails its CRC"),
        (SIGNATURE + TEXTS + IEND, f"carries no {manifest.FIGURE_DATA_KEY} (not drawn by duelbandits)"),
    ],
    ids=["gif", "lowercase-signature", "no-iend", "cut-in-a-header", "cut-in-a-crc", "cut-in-a-body", "trailing-data",
         "bad-crc", "no-key"],
)  # fmt: skip
def test_a_damaged_or_foreign_png_is_named_with_its_fault(tmp_path, data, problem):
    path = tmp_path / "f.png"
    path.write_bytes(data)
    assert refusal(manifest.figure_data_digest, path) == f"{path}: {problem}"
    assert refusal(manifest.content_digest, path) == f"{path}: {problem}"


def flate_stream(payload: bytes) -> bytes:
    return b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(payload) + payload + b"\nendstream\n"


def pdf(*objects: bytes, keywords: str | None = DIGEST, xref_shift: int = 0, tail: bytes = b"\n") -> bytes:
    """A minimal PDF: header, objects, an info dictionary with the figure key in /Keywords, a
    cross-reference table and ``startxref`` pointing at it (``xref_shift`` bytes off)."""
    body = b"%PDF-1.4\n" + b"".join(objects)
    if keywords is not None:
        body += b"<< /Keywords (" + manifest.FIGURE_DATA_KEY.encode() + b"=" + keywords.encode() + b") >>\n"
    xref = len(body)
    return body + b"xref\n0 1\n0000000000 65535 f \ntrailer\n<< >>\nstartxref\n%d\n%%%%EOF" % (xref + xref_shift) + tail


def test_a_hand_made_pdf_gives_the_digest_in_its_keywords(tmp_path):
    path = tmp_path / "f.PDF"
    path.write_bytes(pdf(flate_stream(zlib.compress(b"0 0 m 1 1 l S")), flate_stream(zlib.compress(b"q Q"))))
    assert manifest.figure_data_digest(path) == DIGEST
    assert manifest.content_digest(path) == f"figure:{DIGEST}"
    path.write_bytes(pdf(tail=b"\n\n \r\n"))  # white space after %%EOF
    assert manifest.figure_data_digest(path) == DIGEST


BAD_STREAM = flate_stream(b"\x78\x9c not deflate data")


@pytest.mark.parametrize(
    "data, problem",
    [
        (b"%!PS" + pdf()[4:], "PDF is truncated or not a PDF"),
        (b"%pdf" + pdf()[4:], "PDF is truncated or not a PDF"),
        (pdf()[:-2], "PDF is truncated or not a PDF"),
        (pdf().replace(b"%%EOF", b"%%eof"), "PDF is truncated or not a PDF"),
        (pdf(xref_shift=1), "PDF's startxref does not point at its cross-reference table"),
        (pdf().replace(b"startxref", b"STARTXREF"), "PDF's startxref does not point at its cross-reference table"),
        (pdf().replace(b"\nxref", b"\nXREF"), "PDF's startxref does not point at its cross-reference table"),
        (pdf(keywords="AB" * 32), f"carries no {manifest.FIGURE_DATA_KEY} (not drawn by duelbandits)"),
        (pdf(keywords=None), f"carries no {manifest.FIGURE_DATA_KEY} (not drawn by duelbandits)"),
    ],
    ids=["not-pdf", "lowercase-header", "cut", "lowercase-eof", "startxref-off", "no-startxref", "no-xref",
         "uppercase-digest", "no-keywords"],
)  # fmt: skip
def test_a_damaged_or_foreign_pdf_is_named_with_its_fault(tmp_path, data, problem):
    path = tmp_path / "f.pdf"
    path.write_bytes(data)
    assert refusal(manifest.figure_data_digest, path) == f"{path}: {problem}"


def test_a_pdf_stream_that_does_not_inflate_is_named_by_its_offset(tmp_path):
    good = flate_stream(zlib.compress(b"0 0 m 1 1 l S"))
    data = pdf(good, BAD_STREAM, good)
    start = len(b"%PDF-1.4\n") + len(good) + BAD_STREAM.index(b"stream\n") + len(b"stream\n")  # its first data byte
    path = tmp_path / "f.pdf"
    path.write_bytes(data)
    with pytest.raises(manifest.ManifestError, match=rf"^{re.escape(str(path))}: PDF stream at byte {start} does not "):
        manifest.figure_data_digest(path)
    path.write_bytes(pdf(good, BAD_STREAM.replace(b"/FlateDecode", b"/DCTDecode")))  # not Flate: not inflated
    assert manifest.figure_data_digest(path) == DIGEST


def test_an_unreadable_figure_is_named(tmp_path):
    (tmp_path / "d.png").mkdir()
    with pytest.raises(manifest.ManifestError, match=rf"^{re.escape(str(tmp_path / 'd.png'))}: cannot read \("):
        manifest.figure_data_digest(tmp_path / "d.png")


def test_the_content_digest_goes_by_the_suffix_in_any_case(tmp_path):
    (tmp_path / "a.json").write_text('{"x": 1}')
    (tmp_path / "a.JSON").write_text('{"x": 1}')
    (tmp_path / "a.txt").write_text('{"x": 1}')
    json_digest = manifest.content_digest(tmp_path / "a.json")
    assert json_digest.startswith("json:") and manifest.content_digest(tmp_path / "a.JSON") == json_digest
    assert manifest.content_digest(tmp_path / "a.txt") == "bytes:" + sha(b'{"x": 1}')
    write_parquet(tmp_path / "a.PARQUET")
    assert manifest.content_digest(tmp_path / "a.PARQUET").startswith("parquet:")
    assert refusal(manifest.content_digest, tmp_path / "absent.json") == f"{tmp_path / 'absent.json'}: file not found"
    (tmp_path / "bad.parquet").write_bytes(b"PAR1 not really")
    with pytest.raises(manifest.ManifestError, match=rf"^{re.escape(str(tmp_path / 'bad.parquet'))}: not a readable"):
        manifest.content_digest(tmp_path / "bad.parquet")


def test_build_writes_the_header_lines_with_sorted_keys(tmp_path):
    """The two fixed lines as in reference/MANIFEST.sha256; the environment, config and plugins as JSON
    with sorted keys (the same values, the same bytes)."""
    small_tree(tmp_path)
    lines = manifest.build(tmp_path, ["a.md"], {"b": 1, "a": {"d": 2, "c": 3}}, plugins={"z": 1, "y": 2}).splitlines()
    assert lines[:2] == [
        "# duelbandits results manifest: sha256 of every result and figure, then its content digest",
        "# verify with: duelbandits manifest verify results/MANIFEST.sha256 (or sha256sum -c for the bytes)",
    ]
    environment = json.loads(lines[2][len("# environment: ") :])
    assert environment == provenance.environment() and list(environment) == sorted(environment)
    assert lines[3:5] == ['# config: {"a": {"c": 3, "d": 2}, "b": 1}', '# plugins: {"y": 2, "z": 1}']


def test_a_figures_inputs_are_read_from_the_ledger_when_it_keeps_their_digest(tmp_path):
    """``input_contents`` and ``data_digest`` pass the ledger on: a kept content digest (here a made-up
    one, so that it cannot be the computed one) is the one used."""
    from duelbandits import digests, files

    path = tmp_path / "results" / "s.json"
    path.parent.mkdir()
    path.write_text('{"x": 1}')
    ledger = tmp_path / "ledger"
    files.record_written(ledger, path, content=digests.ledger_line("json:kept"))
    assert manifest.input_contents({"s": path}, ledger) == {"s": "json:kept"}
    assert manifest.input_contents({"s": path})["s"] != "json:kept"
    assert manifest.data_digest({"s": path}, ledger) == sha(b'{"args":{},"inputs":{"s":"json:kept"}}')


def test_verify_says_whose_versions_decided_a_byte_comparison(tmp_path):
    """Under the manifest's own versions: a Parquet file's from its provenance, a figure's from the
    tree's Parquet files."""
    versions = {"numpy": "1.0"}
    write_parquet(tmp_path / "a.parquet", prov={"versions": versions})
    (tmp_path / "f.png").write_bytes(SIGNATURE + KEYED + IEND)
    path = a_manifest(
        tmp_path,
        f"# environment: {json.dumps(versions)}",
        f"{sha(b'other')}  a.parquet",
        f"{sha(b'other')}  f.png",
    )
    reasons, compared = {}, {}
    assert manifest.verify(path, tmp_path, reasons, compared) == {
        "a.parquet": manifest.DIFFERS,
        "f.png": manifest.DIFFERS,
    }
    assert reasons == {
        "a.parquet": "other bytes under the manifest's own versions (those its provenance records)",
        "f.png": "other bytes under the manifest's own versions (those the tree's Parquet files record)",
    }
    assert compared == {"a.parquet": (manifest.BYTES, manifest.PROVENANCE), "f.png": (manifest.BYTES, manifest.TREE)}


def test_verify_compares_a_figures_data_and_a_chunks_provenance_under_other_versions(tmp_path):
    """Under other versions than the manifest's: a figure with the same data digest is the same data,
    one with another differs; a run chunk whose provenance contradicts its path differs, whatever the
    config line holds (an empty object here: no config fields to compare)."""
    (tmp_path / "same.png").write_bytes(SIGNATURE + TEXTS + KEYED + IEND)
    (tmp_path / "other.png").write_bytes(SIGNATURE + KEYED + IEND)
    (tmp_path / "cut.png").write_bytes(SIGNATURE + KEYED)
    (tmp_path / "z.md").write_text("z\n")
    chunk = "results/runs/borda/dts/chunk-0.parquet"
    (tmp_path / chunk).parent.mkdir(parents=True)
    write_parquet(tmp_path / chunk, prov={"table": "runs", "scenario": "condorcet", "algorithm": "dts"})
    path = a_manifest(
        tmp_path,
        '# environment: {"python": "0.0"}',
        "# config: {}",
        f"{sha(b'x')}  0-gone.md",
        f"{sha(b'x')}  {chunk}",
        f"{sha(b'x')}  cut.png",
        f"{sha(b'x')}  other.png",
        f"{sha(b'x')}  same.png",
        f"{sha(b'z' + bytes([10]))}  z.md",
        "# content: bytes:x  0-gone.md",
        f"# content: parquet:x  {chunk}",
        f"# content: figure:{DIGEST}  cut.png",
        f"# content: figure:{'ff' * 32}  other.png",
        f"# content: figure:{DIGEST}  same.png",
        "# content: bytes:x  z.md",
    )
    reasons = {}
    assert manifest.verify(path, tmp_path, reasons) == {
        "0-gone.md": manifest.MISSING,
        chunk: manifest.DIFFERS,
        "cut.png": manifest.DIFFERS,
        "other.png": manifest.DIFFERS,
        "same.png": manifest.SAME_DATA,
        "z.md": manifest.IDENTICAL,
    }
    assert reasons == {
        chunk: f"{chunk}: its provenance says scenario 'condorcet', but its path and the config say 'borda'",
        "cut.png": f"{tmp_path / 'cut.png'}: PNG is truncated (no IEND chunk)",
        "other.png": "drawn from other data than the manifest's (its data digest differs)",
    }


def test_read_splits_a_line_at_the_first_two_spaces_and_takes_colons_as_part_of_a_path(tmp_path):
    """A path may hold two spaces or ': ' (sha256sum splits at the first two spaces too)."""
    path = a_manifest(
        tmp_path, f"{H}  a  b.md", f"{H}  c: d.md", "# content: bytes:1  a  b.md", "# content: bytes:2  c: d.md"
    )
    assert manifest.read(path) == ({}, {"a  b.md": H, "c: d.md": H}, {"a  b.md": "bytes:1", "c: d.md": "bytes:2"})


@pytest.mark.parametrize("closing", ["# end:1 entries", "# end: 1 entries.", "# end: 1 entry"])
def test_a_line_that_opens_like_the_closing_line_must_be_one(tmp_path, closing):
    path = tmp_path / "M.sha256"
    path.write_text(f"{H}  a.md\n{closing}\n")
    assert (
        refusal(manifest.read, path)
        == f"{path}: truncated or damaged manifest: line 2 is not a closing '# end: N entries' line"
    )


def test_the_closing_lines_count_and_a_missing_closing_line_are_named_with_their_lines(tmp_path):
    path = tmp_path / "M.sha256"
    path.write_text(f"# header: x\n{H}  a.md\n{H}  b.md\n# end: 3 entries\n")
    assert (
        refusal(manifest.read, path)
        == f"{path}: truncated or damaged manifest: its closing line (line 4) says 3 entries, it lists 2"
    )
    path.write_text(f"# header: x\n{H}  a.md\n")
    assert refusal(manifest.read, path) == (
        f"{path}: truncated or damaged manifest: no closing '# end: N entries' line (it ends at line 2): cut short, "
        "or not written by duelbandits manifest write"
    )


def test_a_pdf_stream_that_stops_before_its_end_does_not_inflate(tmp_path):
    """zlib checks a stream's checksum at its end only: a stream whose data stops short of it (no error,
    but no end either) is damaged too."""
    cut = flate_stream(zlib.compress(b"0 0 m 1 1 l S " * 50)[:-6])
    start = len(b"%PDF-1.4\n") + cut.index(b"stream\n") + len(b"stream\n")
    path = tmp_path / "f.pdf"
    path.write_bytes(pdf(cut, flate_stream(zlib.compress(b"q Q"))))
    assert (
        refusal(manifest.figure_data_digest, path)
        == f"{path}: PDF stream at byte {start} does not inflate (it stops before its end)"
    )


def test_verify_compares_a_chunks_provenance_with_the_manifests_config(tmp_path):
    """A run chunk with its own bytes, whose provenance says another seed than the config line: it differs."""
    chunk = "results/runs/borda/dts/chunk-0.parquet"
    (tmp_path / chunk).parent.mkdir(parents=True)
    write_parquet(tmp_path / chunk, prov={"table": "runs", "scenario": "borda", "algorithm": "dts", "seed": 8})
    listed = f"{manifest.sha256(tmp_path / chunk)}  {chunk}"
    assert manifest.verify(a_manifest(tmp_path, '# config: {"seed": 8}', listed), tmp_path) == {
        chunk: manifest.IDENTICAL
    }
    reasons = {}
    assert manifest.verify(a_manifest(tmp_path, '# config: {"seed": 7}', listed), tmp_path, reasons) == {
        chunk: manifest.DIFFERS
    }
    assert reasons == {chunk: f"{chunk}: its provenance says seed 8, but its path and the config say 7"}


def test_build_takes_a_files_content_digest_from_the_ledger_that_keeps_it(tmp_path):
    """The content line of a JSON file is the digest the ledger keeps for it (a made-up one here, so that
    it cannot be the computed one), as long as the file's bytes are the recorded ones."""
    from duelbandits import digests, files

    (tmp_path / "s.json").write_text('{"x": 1}')
    ledger = tmp_path / "ledger"
    files.record_written(ledger, tmp_path / "s.json", content=digests.ledger_line("json:kept"))
    assert "# content: json:kept  s.json" in manifest.build(tmp_path, ["s.json"], {}, ledger).splitlines()


def test_a_png_ends_where_its_iend_chunk_ends_its_length_counted(tmp_path):
    """An IEND chunk that carries a body (4 bytes here) still closes the file when the file ends with it."""
    data = SIGNATURE + KEYED + png_chunk(b"IEND", b"\0\0\0\0")
    assert manifest._png_text(data)[manifest.FIGURE_DATA_KEY] == DIGEST
    with pytest.raises(manifest.ManifestError, match="PNG has data after its IEND chunk"):
        manifest._png_text(data + b"\0")


def test_a_content_digest_without_a_ledger_record_is_computed_from_the_file(tmp_path):
    (tmp_path / "s.json").write_text('{"x": 1}')
    expected = manifest.content_digest(tmp_path / "s.json")
    assert expected.startswith("json:")
    assert manifest.content_digest(tmp_path / "s.json", tmp_path / "ledger") == expected
