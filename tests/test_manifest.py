"""The manifest and ``manifest verify``: strict from the manifest's versions, never from the tree."""

import json
import os
import re
import shutil

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402
import pytest  # noqa: E402

from duelbandits import cli, digests, manifest, provenance, storage  # noqa: E402
from duelbandits.plotting import style  # noqa: E402

VALUES = np.array([0.1, 1 / 3, 2.5e-7, 1234.5678, 0.0])
OTHER = {"numpy": "0.0", "python": "0.0"}
"""Versions that are not this interpreter's: a tree or a manifest made elsewhere."""


def write_chunk(path, values=VALUES, alpha=0.51, versions=None, compression="zstd"):
    """A small table with the provenance a job writes (a hyper-parameter ``alpha``), under ``versions``."""
    prov = provenance.record(table="runs", algorithm="dts", alpha=alpha)
    if versions is not None:
        prov["versions"] = versions
    table = pa.table({"t": np.arange(1, len(values) + 1, dtype=np.int32), "x": values})
    pq.write_table(storage.with_provenance(table, prov), path, compression=compression)


def draw(path, digest="ab" * 32, colour="C0"):
    fig, ax = plt.subplots(figsize=(2, 2))
    ax.plot([0, 1], [0, 1], color=colour)
    style.save(fig, path, data_digest=digest)
    plt.close(fig)


FILES = ["figures/f.pdf", "figures/f.png", "results/a.parquet", "results/s.json", "results/table.md"]


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A results tree and its manifest (``MANIFEST.sha256``), made under this interpreter, once a module."""
    root = tmp_path_factory.mktemp("tree")
    (root / "results").mkdir()
    (root / "figures").mkdir()
    write_chunk(root / "results/a.parquet")
    (root / "results/s.json").write_text(json.dumps({"b": [0.1, 2], "a": "x"}))
    (root / "results/table.md").write_text("| a |\n")
    draw(root / "figures/f.png")
    draw(root / "figures/f.pdf")
    (root / "MANIFEST.sha256").write_text(manifest.build(root, FILES, {"seed": 1}))
    return root


@pytest.fixture
def tree(pristine, tmp_path):
    """A copy of the pristine tree in ``tmp_path``, the test's to change."""
    shutil.copytree(pristine, tmp_path, dirs_exist_ok=True)
    return tmp_path


def made_elsewhere(root):
    """The tree's manifest as if written under other versions than this interpreter's."""
    path = root / "MANIFEST.sha256"
    lines = path.read_text().splitlines()
    lines = [f"# environment: {json.dumps(OTHER)}" if line.startswith("# environment:") else line for line in lines]
    path.write_text("\n".join(lines) + "\n")


def verify(root, capsys):
    """``(exit status, {path: status}, stderr)`` of ``duelbandits manifest verify`` on the tree."""
    code = cli.main(["manifest", "verify", str(root / "MANIFEST.sha256"), "--root", str(root)])
    out, err = capsys.readouterr()
    status = {line[15:]: line[:13].strip() for line in out.splitlines()[:-1]}
    return code, status, err


def test_the_manifest_is_sha256sum_lines_then_content_lines_closed_by_its_count(tree):
    lines = (tree / "MANIFEST.sha256").read_text().splitlines()
    sums = [line.split("  ") for line in lines if not line.startswith("#")]
    assert [rel for _, rel in sums] == FILES
    assert all(digest == provenance.file_sha256(tree / rel) for digest, rel in sums)
    contents = [line for line in lines if line.startswith("# content: ")]
    assert [line.split("  ")[1] for line in contents] == FILES
    assert contents[2].startswith("# content: table:") and contents[0].startswith("# content: figure:abab")
    assert lines[-1] == "# end: 5 entries"


@pytest.mark.parametrize("rel", ["results/a.parquet", "figures/f.png"])
def test_other_bytes_under_the_manifests_versions_differ_naming_the_file(tree, capsys, rel):
    """Under its own versions the manifest compares bytes, whatever the file: the two files whose content
    digest would call them the same (a text file's content is its bytes)."""
    path = tree / rel
    if rel.endswith(".parquet"):  # the same data and provenance, only re-encoded: still a changed file
        write_chunk(path, compression="snappy")
    else:
        draw(path, colour="red")  # painted over, its data digest kept
    code, status, err = verify(tree, capsys)
    assert code == 1 and status[rel] == "differs"
    assert f"{rel}: differs: other bytes under the manifest's own versions" in err
    assert [r for r, s in status.items() if s != "identical"] == [rel]


def test_a_tree_that_claims_other_versions_does_not_loosen_the_check(tree, capsys):
    write_chunk(tree / "results/a.parquet", versions=OTHER, compression="snappy")
    draw(tree / "figures/f.png", colour="red")
    code, status, _ = verify(tree, capsys)
    assert code == 1 and status["results/a.parquet"] == status["figures/f.png"] == "differs"


def test_under_other_versions_a_table_rewritten_has_the_same_content(tree, capsys):
    made_elsewhere(tree)
    write_chunk(tree / "results/a.parquet", values=np.nextafter(VALUES, np.inf), compression="snappy")
    (tree / "results/s.json").write_text('{"a": "x",  "b": [0.1, 2]}')
    code, status, err = verify(tree, capsys)
    assert code == 0
    assert status["results/a.parquet"] == status["results/s.json"] == "same content"
    assert "environment differs from the manifest's" in err


@pytest.mark.parametrize(
    "change", [dict(values=VALUES * (1 + 1e-5)), dict(alpha=0.6)], ids=["data", "provenance hyper-parameter"]
)
def test_under_other_versions_a_table_with_other_data_or_provenance_differs(tree, capsys, change):
    made_elsewhere(tree)
    write_chunk(tree / "results/a.parquet", versions=OTHER, **change)
    code, status, err = verify(tree, capsys)
    assert code == 1 and status["results/a.parquet"] == "differs"
    assert "results/a.parquet: differs: another content than the manifest's" in err


def test_under_other_versions_a_figure_with_other_bytes_is_not_confirmed_and_so_is_the_tree(tree, capsys):
    """The verdict is the worst file's status: the tree is not "same content" while a figure is unconfirmed."""
    made_elsewhere(tree)
    draw(tree / "figures/f.png", colour="red")
    code = cli.main(["manifest", "verify", str(tree / "MANIFEST.sha256"), "--root", str(tree)])
    out = capsys.readouterr().out.splitlines()
    assert code == 0 and "not confirmed  figures/f.png" in out and "identical      figures/f.pdf" in out
    assert out[-1].startswith("not confirmed: ")


def test_under_other_versions_a_markdown_file_is_compared_by_its_bytes_and_a_damaged_table_differs(tree, capsys):
    made_elsewhere(tree)
    (tree / "results/table.md").write_text("| b |\n")
    (tree / "results/a.parquet").write_bytes(b"PAR1 not really")
    code, status, err = verify(tree, capsys)
    assert code == 1 and status["results/table.md"] == status["results/a.parquet"] == "differs"
    assert "results/a.parquet: differs: " + str(tree / "results/a.parquet: not a readable Parquet file (") in err
    assert manifest.verify(tree / "MANIFEST.sha256", tree)["results/table.md"] == "differs"  # reasons not asked


def test_a_folder_or_fifo_in_place_of_a_file_differs_naming_the_cause(tree, capsys):
    (tree / "figures/f.png").unlink()
    (tree / "figures/f.png").mkdir()  # listed before the FIFO: a bug that hashes it fails before one that blocks
    (tree / "results/table.md").unlink()
    os.mkfifo(tree / "results/table.md")  # hashed, it would block forever
    code, status, err = verify(tree, capsys)
    assert code == 1 and status["results/table.md"] == status["figures/f.png"] == "differs"
    assert "figures/f.png: differs: is a directory, not a file" in err.splitlines()
    assert "results/table.md: differs: is not a regular file" in err.splitlines()


def test_a_missing_file_is_named_missing(tree, capsys):
    """On its own, not beside the FIFO: a bug that hashes the missing file fails here instead of blocking there."""
    (tree / "results/s.json").unlink()
    code, status, _ = verify(tree, capsys)
    assert code == 1 and status["results/s.json"] == "missing"


def test_a_manifest_cut_short_is_refused_in_one_line(tree, capsys):
    path = tree / "MANIFEST.sha256"
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:-2]))
    code = cli.main(["manifest", "verify", str(path), "--root", str(tree)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert f"{path}: truncated or damaged manifest: no closing '# end: N entries' line" in err


SMALL = (
    f"# duelbandits results manifest\n# environment: {{}}\n{'a' * 64}  results/a.json\n{'b' * 64}  results/b.json\n"
    "# content: c1  results/a.json\n# content: c2  results/b.json\n# end: 2 entries\n"
)
"""A manifest of two files, for the refusals of :func:`manifest.read` (lines 3-4 sha256, 5-6 content, 7 end)."""


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda t: t + "\nx\n", ": truncated or damaged manifest: line 9 follows the closing line (line 7)"),
        (lambda t: t.replace("end: 2", "end: 3"), ": truncated or damaged manifest: its closing line (line 7) says 3 "),
        (lambda t: t.replace("end: 2", "end:2"), ": truncated or damaged manifest: line 7 is not a closing '# end: N"),
        (
            lambda t: t.replace("# end: 2 entries\n", ""),
            ": truncated or damaged manifest: no closing '# end: N entries' line (it ends at line 6)",
        ),
        (lambda t: t[:-5], ": truncated or damaged manifest: its last line (line 7) is cut short"),
        (lambda t: t.replace("c2  results/b", "c2  results/c"), " list other files (results/b.json)"),
        (lambda t: t.replace("# end", "# content: c3  results/c.json\n# end"), " list other files (results/c.json)"),
        (lambda t: t.replace("a" * 64, "a" * 63), ":3: not a '<sha256>  <path>' line"),
        (lambda t: t.replace("a" * 64 + "  ", "a: "), ":3: not a '<sha256>  <path>' line"),
        (lambda t: t.replace("c1  results/a.json", "c1  "), ":5: not a '# content: <digest>  <path>' line"),
        (lambda t: t.replace("a.json\n#", "b.json\n#"), ":6: results/b.json is listed twice (also on line 5)"),
        (lambda t: t.replace("results/a.json\n" + "b", "c:/a.json\n" + "b"), ":3: c:/a.json: not a path inside the"),
        (lambda t: t.splitlines(keepends=True)[1] + "# end: 0 entries\n", ": lists no files"),
        (lambda t: "", ": truncated or damaged manifest: no closing '# end: N entries' line (it is empty)"),
    ],
)
def test_each_kind_of_damaged_manifest_is_refused_naming_its_line(tmp_path, edit, words):
    path = tmp_path / "MANIFEST.sha256"
    path.write_text(edit(SMALL))
    with pytest.raises(manifest.ManifestError) as refused:
        manifest.read(path)
    line = str(refused.value)
    assert line.startswith(str(path)) and words in line and "\n" not in line, line


def test_the_plugins_and_versions_lines_are_read_back_and_a_plugins_line_of_another_shape_is_refused(tmp_path):
    path, made = tmp_path / "MANIFEST.sha256", {"distribution": "p", "version": "1", "digest": "d"}
    for record in ("[1]", "{", json.dumps({"toy": 1}), json.dumps({"toy": {"distribution": "p"}}),
                   json.dumps({"toy": {**made, "version": 1}}), json.dumps({"toy": made})):  # fmt: skip
        path.write_text(SMALL.replace("# environment: {}", f"# plugins: {record}"))
        if record == json.dumps({"toy": made}):
            assert manifest.recorded_plugins(path) == {"toy": made}
            continue
        with pytest.raises(manifest.ManifestError, match=r"object of \{slug: \{distribution, version, digest\}\}$"):
            manifest.recorded_plugins(path)
    (tmp_path / "x  y.json").write_text("{}")  # two spaces in a name: the path is all after the first two
    path.write_text(manifest.build(tmp_path, ["x  y.json"], {"b": 1, "a": 2}, {"toy": made}))
    text = path.read_text()
    assert set(manifest.read(path)[1]) == set(manifest.read(path)[2]) == {"x  y.json"}
    assert '\n# plugins: {"toy": {"digest": "d", "distribution": "p", "version": "1"}}\n' in text
    assert manifest.recorded_plugins(path) == {"toy": made} and '\n# config: {"a": 2, "b": 1}\n' in text
    assert f"\n# environment: {json.dumps(provenance.environment(), sort_keys=True)}\n" in text
    with pytest.raises(manifest.ManifestError, match=r"y.json: file not found.*, cannot be listed in the manifest$"):
        manifest.build(tmp_path, ["x  y.json", "y.json"], {})
    with pytest.raises(manifest.ManifestError, match=r"none.sha256: file not found$"):
        manifest.read(tmp_path / "none.sha256")
    path.write_text(SMALL.replace("{}", json.dumps({"numpy": "0.0", "no-such-library": "1"}), 1))
    assert manifest.environment_differences(path) == [f"numpy {provenance.environment()['numpy']} (manifest 0.0)"]
    path.write_text(SMALL.replace("{}", "{", 1))
    with pytest.raises(manifest.ManifestError, match="its environment line is not a JSON object$"):
        manifest.environment_differences(path)


@pytest.mark.parametrize(
    "suffix, damage, problem",
    [
        ("png", lambda b: b, None),
        ("pdf", lambda b: b, None),
        ("png", lambda b: b"x" + b, "not a PNG file"),
        ("png", lambda b: b[:-40], "PNG is truncated (no IEND chunk)"),
        ("png", lambda b: b + b"x", "PNG has data after its IEND chunk"),
        ("png", lambda b: b[:20] + bytes([b[20] ^ 1]) + b[21:], "PNG chunk b'IHDR' fails its CRC"),
        ("pdf", lambda b: b[:-40], "PDF is truncated or not a PDF"),
    ],
)
def test_a_figure_carries_its_data_digest_and_each_kind_of_damaged_figure_is_refused(tmp_path, suffix, damage, problem):
    path = tmp_path / f"f.{suffix}"
    draw(path, "01" * 32)
    path.write_bytes(damage(path.read_bytes()))
    if problem is None:
        assert digests.figure_data_digest(path) == "01" * 32
        return
    with pytest.raises(digests.DigestError, match=f"^{re.escape(f'{path}: {problem}')}$"):
        digests.figure_data_digest(path)
