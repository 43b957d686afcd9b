"""Running the repo's workflow from tests."""

import hashlib
import os
import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from cli_process import run_main

REPO = Path(__file__).resolve().parents[1]
TINY = REPO / "tests" / "workflow" / "tiny.yaml"


def snakemake_command(workdir, configfiles, *args) -> list[str]:
    """The command that runs the repo's workflow in ``workdir`` with ``configfiles`` merged, and ``args``."""
    configs = [str(c) for c in configfiles]
    return [sys.executable, "-m", "snakemake", "-s", str(REPO / "Snakefile"), "--directory", str(workdir),
            "--configfile", *configs, *args]  # fmt: skip


def run_workflow(cmd, timeout=1200, env=None):
    """A command of :func:`snakemake_command`, run in a fork of a process that has imported Snakemake and
    the package (tests/cli_process.py: 1-1.5 s of imports less a call), or, given ``env``, in a fresh
    interpreter."""
    if env is None:
        assert cmd[1:3] == ["-m", "snakemake"], cmd
        return run_main("snakemake.cli", cmd[3:], timeout=timeout)
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)


def snakemake(workdir, *args, configs=(TINY,), timeout=1200, env=None, check=False):
    """Run the repo's workflow in ``workdir`` with the paper config, ``configs`` laid over it, and ``args``;
    with ``check``, assert that it succeeded."""
    result = run_workflow(snakemake_command(workdir, [REPO / "config.yaml", *configs], *args), timeout, env)
    assert not check or result.returncode == 0, (result.stdout + result.stderr)[-5000:]
    return result


def sha256_tree(root, *folders):
    """``{path: sha256}`` of every file under ``root``'s ``folders``."""
    return {
        str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in folders
        for p in sorted((root / folder).rglob("*"))
        if p.is_file()
    }


def verify(manifest_path, root, python=sys.executable, env=None):
    """``duelbandits manifest verify`` in a fresh process: (exit code, {path: status}, summary line)."""
    cmd = [python, "-m", "duelbandits", "manifest", "verify", str(manifest_path), "--root", str(root)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    lines = result.stdout.splitlines()
    status = dict(reversed(re.split(r"\s{2,}", line, maxsplit=1)) for line in lines[:-1])
    return result.returncode, status, lines[-1] if lines else result.stderr


def same_content_in_venv(venv, request, tmp_path):
    """The tiny run made by ``venv``'s interpreter (its own numba cache) and verified by it against the
    session's tiny run: other versions than the manifest's, so the tables are compared by content (this
    environment would compare bytes). Returns ``{path: status}``. The session's run is asked for only
    when it is read, so that the venv's install and run overlap its build on another worker."""
    from duelbandits import manifest

    python = str(venv / "bin" / "python")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    cmd = [python, *snakemake_command(tmp_path / "run", [REPO / "config.yaml", TINY], "--cores", "2")[1:]]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=env)
    assert run.returncode == 0, run.stderr[-3000:]
    tiny_run = request.getfixturevalue("tiny_run")
    code, status, summary = verify(tiny_run / "results/MANIFEST.sha256", tmp_path / "run", python, env)
    assert code == 0, summary
    assert set(status.values()) <= {manifest.IDENTICAL, manifest.SAME_CONTENT, manifest.NOT_CONFIRMED}, summary
    return status


def png_size(path) -> tuple[int, int]:
    """``(width, height)`` in pixels from a PNG's IHDR chunk (the first chunk, right after the signature)."""
    data = Path(path).read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    return struct.unpack(">II", data[16:24])


def pdf_pages(path) -> list[tuple[float, float]]:
    """``(width, height)`` in points of every page of a PDF (matplotlib writes one MediaBox per page)."""
    data = Path(path).read_bytes()
    assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF"), path
    pages = len(re.findall(rb"/Type\s*/Page\b", data))  # \b: not /Pages
    boxes = [tuple(map(float, box.split())) for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", data)]
    assert len(boxes) == pages, (path, pages, boxes)
    return [(x1 - x0, y1 - y0) for x0, y0, x1, y1 in boxes]


def assert_figure_pair(pdf, png, size_inches=None, width_inches=None):
    """The PDF is one page, the PNG has that page's size at the PNG resolution, and both carry the same
    data digest; ``size_inches`` / ``width_inches`` pin the page size. Returns the digest."""
    from duelbandits import digests
    from duelbandits.plotting.style import DPI

    (page,) = pdf_pages(pdf)
    inches = (page[0] / 72, page[1] / 72)
    assert png_size(png) == (round(inches[0] * DPI["png"]), round(inches[1] * DPI["png"])), (png, inches)
    if size_inches is not None:
        assert inches == pytest.approx(size_inches, abs=1e-6), (pdf, inches)
    if width_inches is not None:
        assert inches[0] == pytest.approx(width_inches, abs=1e-6), (pdf, inches)
    digest = digests.figure_data_digest(pdf)
    assert digests.figure_data_digest(png) == digest, (pdf, png)
    return digest


def planned_rules(output: str) -> dict:
    """``{rule: jobs}`` from the job table of ``snakemake --dry-run --quiet rules``."""
    return {rule: int(n) for rule, n in re.findall(r"^(\w+)\s+(\d+)$", output, re.M) if rule != "total"}
