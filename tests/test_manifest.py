import pytest

from duelbandits import cli, manifest


def make_tree(root):
    (root / "results").mkdir()
    (root / "figures").mkdir()
    (root / "results/a.parquet").write_bytes(b"alpha")
    (root / "figures/b.png").write_bytes(b"beta")
    return ["results/a.parquet", "figures/b.png"]


def test_manifest_records_hashes_versions_and_config_and_verifies(tmp_path):
    files = make_tree(tmp_path)
    text = manifest.build(tmp_path, files, {"horizon": 300})
    assert text == manifest.build(tmp_path, list(reversed(files)), {"horizon": 300})  # deterministic
    out = tmp_path / "results/MANIFEST.sha256"
    out.write_text(text)
    header, entries = manifest.read(out)
    assert '"numpy"' in header["environment"] and '"python"' in header["environment"]
    assert header["config"] == '{"horizon": 300}'
    # sha256(b"alpha")
    assert entries["results/a.parquet"] == "8ed3f6ad685b959ead7022518e1af76cd816f8e8ec7ccdda1ed4018e8f2223f8"
    assert manifest.verify(out, tmp_path) == []
    (tmp_path / "figures/b.png").write_bytes(b"changed")
    (tmp_path / "results/a.parquet").unlink()
    assert manifest.verify(out, tmp_path) == ["changed: figures/b.png", "missing: results/a.parquet"]


def test_manifest_cli_exit_codes(tmp_path, capsys):
    files = make_tree(tmp_path)
    out = tmp_path / "M.sha256"
    root = ["--root", str(tmp_path)]
    assert cli.main(["manifest", "write", *files, "--config-json", "{}", "--out", str(out), *root]) == 0
    assert cli.main(["manifest", "verify", str(out), *root]) == 0
    (tmp_path / "figures/b.png").write_bytes(b"changed")
    assert cli.main(["manifest", "verify", str(out), *root]) == 1
    assert "changed: figures/b.png" in capsys.readouterr().out


def test_malformed_manifests_and_bad_inputs_are_named(tmp_path, capsys):
    bad = tmp_path / "M.sha256"
    bad.write_text("# header: x\nnot-a-hash  file\n")
    assert cli.main(["manifest", "verify", str(bad)]) == 2
    assert "M.sha256:2: not a '<sha256>  <path>' line" in capsys.readouterr().err
    assert cli.main(["manifest", "write", "missing.txt", "--config-json", "{}", "--out",
                     str(tmp_path / "o.sha256"), "--root", str(tmp_path)]) == 2
    assert "missing.txt: not a file" in capsys.readouterr().err
    assert not (tmp_path / "o.sha256").exists()
    with pytest.raises(manifest.ManifestError, match="cannot read manifest"):
        manifest.read(tmp_path / "absent.sha256")
