"""The figures as an author includes them, end to end on the tiny config: the `panels` target (one
file per panel, figures/figures.tex) and the `paper` target (figures/figures.pdf through LaTeX).

Both run in a copy of the tiny run (the session's `tiny_run` is only read). The LaTeX build is
opt-in, with DUELBANDITS_LATEX_TEST=1 (CI sets it and installs Debian's TeX Live first, see
.ci/run): it needs latexmk, texlive-latex-base, texlive-latex-recommended and poppler-utils.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from workflow_helpers import REPO, TINY, sha256_tree, snakemake

from duelbandits.studies.paper import latex

CONFIG = {**yaml.safe_load((REPO / "config.yaml").read_text()), **yaml.safe_load(TINY.read_text())}


def expected_panels():
    return latex.panel_files(CONFIG["scenarios"], CONFIG["algorithms"])


@pytest.fixture(scope="module")
def panels_run(tiny_run, tmp_path_factory):
    """A copy of the tiny run with the `panels` target made; and the hashes of the copy before it."""
    workdir = tmp_path_factory.mktemp("panels") / "run"
    shutil.copytree(tiny_run, workdir, symlinks=True)
    before = sha256_tree(workdir, "figures", "results")
    result = snakemake(workdir, "--cores", "2", "panels", check=True)
    return workdir, before, result.stdout + result.stderr


def test_panels_makes_every_panel_of_the_fourteen_figures_as_pdf_and_png(panels_run):
    workdir, _, _ = panels_run
    pdfs = sorted(str(p.relative_to(workdir / "figures/panels")) for p in workdir.glob("figures/panels/*/*.pdf"))
    assert pdfs == sorted(expected_panels()) and len(pdfs) == 50
    for pdf in pdfs:
        png = workdir / "figures/panels" / Path(pdf).with_suffix(".png")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", png
        assert (workdir / "figures/panels" / pdf).read_bytes().rstrip().endswith(b"%%EOF"), pdf


def test_figures_tex_includes_exactly_the_panel_files_that_exist(panels_run):
    workdir, _, _ = panels_run
    text = (workdir / "figures/figures.tex").read_text()
    included = re.findall(r"\\includegraphics\[width=\\textwidth\]\{([^}]*)\}", text)
    assert len(included) == len(set(included))
    existing = {str(p.relative_to(workdir / latex.PANEL_FOLDER)) for p in workdir.glob("figures/panels/*/*.pdf")}
    assert set(included) == existing
    assert len(re.findall(r"\\begin\{figure\}", text)) == 14
    assert f"$A = {CONFIG.get('actions', 10)}$ actions, $T = {CONFIG['horizon']}$ steps, {CONFIG['runs']} runs" in text


def test_panels_leave_the_composite_figures_results_and_manifest_untouched(panels_run):
    workdir, before, _ = panels_run
    after = sha256_tree(workdir, "figures", "results")
    assert {path: after[path] for path in before} == before
    dry = snakemake(workdir, "--dry-run")  # the default target: nothing to do, the panels are not in it
    assert dry.returncode == 0 and "Nothing to be done" in dry.stdout + dry.stderr, dry.stdout[-3000:]


def test_paper_without_latexmk_stops_at_planning_with_one_line_naming_the_packages(tmp_path):
    tools = tmp_path / "bin"  # a PATH without latexmk: this environment's folder, and `which` (the Slurm plugin's)
    tools.mkdir()
    (tools / "which").symlink_to(shutil.which("which"))
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), str(tools)])}
    result = snakemake(tmp_path, "--dry-run", "paper", env=env)
    assert result.returncode != 0
    out = result.stdout + result.stderr
    line = f"figures/figures.pdf needs latexmk and TeX Live: install them with: {latex.INSTALL}"
    assert line in out.splitlines() or f"  ValueError: {line}" in out.splitlines(), out[-3000:]
    assert not (tmp_path / "results").exists()


LATEX = os.environ.get("DUELBANDITS_LATEX_TEST") == "1"


@pytest.mark.skipif(
    not LATEX,
    reason="LaTeX build test is opt-in: set DUELBANDITS_LATEX_TEST=1 (needs latexmk, texlive-latex-base, "
    "texlive-latex-recommended and poppler-utils from Debian)",
)
def test_paper_builds_a_pdf_of_the_fourteen_figures_whose_pages_render(panels_run, tmp_path):
    for tool in ("latexmk", "pdfinfo", "pdftotext", "pdftoppm"):
        assert shutil.which(tool), (
            f"{tool} not found: apt-get install --no-install-recommends {latex.INSTALL} poppler-utils"
        )
    workdir, _, _ = panels_run
    copy = tmp_path / "run"
    shutil.copytree(workdir, copy, symlinks=True)
    result = snakemake(copy, "--cores", "2", "paper", check=True)
    assert not re.search(r"^localrule (panel_|figure_|simulate|aggregate)", result.stdout + result.stderr, re.M)
    pdf = copy / "figures/figures.pdf"
    built = pdf.read_bytes()

    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, re.M).group(1))
    assert re.search(r"^Page size:\s+612 x 792 pts", info, re.M)  # US letter, as the NeurIPS style
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    captions = re.findall(r"^Figure (\d+):", text, re.M)
    assert captions == [str(n) for n in range(1, 15)], captions
    assert 14 <= pages <= 16  # one figure per float page; a main figure may share one

    subprocess.run(["pdftoppm", "-png", "-r", "60", str(pdf), str(tmp_path / "page")], check=True)
    rendered = sorted(tmp_path.glob("page-*.png"))
    assert len(rendered) == pages
    for page in rendered:
        data = page.read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000, page  # a page with figures on it

    snakemake(copy, "--cores", "2", "paper", "--forcerun", "figures_pdf", check=True)
    assert pdf.read_bytes() == built  # SOURCE_DATE_EPOCH and no random ID: the same bytes
