"""Several figures in one call (issue 20: one figure job per scenario, one panel job per figure):
``figure appendix --algorithm A B ...`` and ``--panel a b ...``, ``figure main --panel a b ...``, with
``--out`` path templates in which {algorithm} and {panel} are replaced. Each figure is the bytes one
call per figure gives; every argument is checked before the first figure is drawn, so that a bad
call writes nothing and exits 2 with one line. The quick tier compares two panels of two appendix figures
(the loop that draws whole figures or other panels is the same); the main figure's panels, another loop,
are compared in the slow tier."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from paper_files import paper_files

from duelbandits import cli
from duelbandits.studies.paper import appendix, main

ALGORITHMS = ["dts", "partial-monitoring", "sparring-exp3p"]
"""One of each appendix layout: panels a-c; a-d (p_t); a-e (p_t and q_t)."""


def run(*argv):
    return cli.main([str(a) for a in argv])


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The borda scenario's files for three algorithms (tests/paper_files.py)."""
    return paper_files(tmp_path_factory.mktemp("batches"), ALGORITHMS)


def appendix_call(data, *algorithms, panels=(), out=()):
    panel_args = ["--panel", *panels] if panels else []
    return [
        "figure", "appendix", "--algorithm", *algorithms, *panel_args,
        "--scenario-file", data / "borda.json", "--traces", data / "traces-borda.parquet",
        "--strategies", data / "strategies-borda.parquet", "--out", *out,
    ]  # fmt: skip


def main_call(data, panels=(), out=()):
    panel_args = ["--panel", *panels] if panels else []
    return [
        "figure", "main", "--scenario-file", data / "borda.json", "--summary", data / "summary.parquet",
        "--c-alpha", 0.7, *panel_args, "--out", *out,
    ]  # fmt: skip


def digests(folder):
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_every_panel_of_two_appendix_figures_in_one_call_is_the_bytes_of_one_call_each(data, tmp_path):
    """--algorithm and --panel repeated, after --out (the files are known once every option is parsed)."""
    out = [tmp_path / "one/{algorithm}-{panel}.png", tmp_path / "one/{panel}/{algorithm}.svg"]
    assert run(*appendix_call(data, "sparring-exp3p", panels="c", out=out), "--algorithm", "dts", "--panel", "b") == 0
    for algorithm in ("dts", "sparring-exp3p"):
        for panel in "bc":
            plain = [tmp_path / f"each/{algorithm}-{panel}.png", tmp_path / f"each/{panel}/{algorithm}.svg"]
            assert run(*appendix_call(data, algorithm, panels=panel, out=plain)) == 0
    one, each = digests(tmp_path / "one"), digests(tmp_path / "each")
    assert one == each and len(one) == 2 * 2 * 2


@pytest.mark.slow  # each figure drawn twice: the slow tier's
def test_the_four_panels_of_a_main_figure_in_one_call_are_the_bytes_of_one_call_each(data, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = ["one/{panel}.pdf", "one/{panel}.png"]
    assert run(*main_call(data, panels="abcd", out=out)) == 0
    for panel in "dcba":
        assert run(*main_call(data, panels=panel, out=[f"each/{panel}.pdf", f"each/{panel}.png"])) == 0
    one = digests(tmp_path / "one")
    assert one == digests(tmp_path / "each") and len(one) == 8
    assert run(*main_call(data, out=["composite.png"])) == 0  # no --panel: the composite, as before
    assert (tmp_path / "composite.png").read_bytes() != (tmp_path / "one/a.png").read_bytes()


P = pytest.param
REFUSED = [  # algorithms (None: a main figure), panels, --out in figs/, the message ({t}: the test's folder)
    P(["dts", "sparring-exp3p"], "", ["f.png"], "--out {t}/figs/f.png: 2 values of --algorithm (dts, sparring-exp3p) "
      "need {{algorithm}} in every --out template", id="two algorithms, a template without {algorithm}"),
    P(["dts"], "", ["{algorithm}/{scenario}.png"], "unknown placeholder {{scenario}} (allowed: {{algorithm}}, "
      "{{panel}})", id="an unknown placeholder"),
    P(["dts"], "", ["{algorithm}-{panel}.png"], "{{panel}} needs --panel", id="{panel} without --panel"),
    P(["dts"], "", ["{algorithm.png"], "not a path template", id="an unclosed brace"),
    P(["dts", "dts"], "", ["{algorithm}.png"], "--algorithm dts is given twice", id="an algorithm twice"),
    P(["dts"], "ab", ["{panel}b.png", "a{panel}.png"], "ab.png would be written by two figures", id="a clash"),
    P(None, "ab", ["{algorithm}-{panel}.png"], "unknown placeholder {{algorithm}} (allowed: {{panel}})", id="main"),
    # a bad value among good ones: nothing is drawn for the good ones either
    P(["dts", "no-such", "sparring-exp3p"], "", ["{algorithm}.png"], "unknown algorithm 'no-such'", id="algorithm"),
    P(["sparring-exp3p", "dts"], "ad", ["{algorithm}-{panel}.png"], "the appendix figure of dts has panels a, b, c, "
      "not 'd'", id="a panel one algorithm does not have"),
    P(["dts", "iss"], "", ["{algorithm}.png"], "holds algorithms ['dts', 'partial-monitoring', 'sparring-exp3p'], "
      "not 'iss'", id="an algorithm the traces do not hold"),
]  # fmt: skip


@pytest.mark.parametrize("algorithms, panels, out, message", REFUSED)
def test_a_bad_call_names_its_problem_in_one_line_exits_2_and_draws_nothing(
    data, tmp_path, capsys, monkeypatch, algorithms, panels, out, message
):
    (tmp_path / "figs").mkdir()
    drawn = []
    for module, name in ((appendix, "appendix_figure"), (appendix, "appendix_panel"), (main, "main_panel")):
        monkeypatch.setattr(module, name, lambda *args, name=name, **kwargs: drawn.append(name))
    out = [tmp_path / "figs" / template for template in out]
    if algorithms is None:
        argv = main_call(data, panels=panels, out=out)
    else:
        argv = appendix_call(data, *algorithms, panels=panels, out=out)
    assert run(*argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message.format(t=tmp_path) in err, err
    assert not list((tmp_path / "figs").rglob("*")) and not drawn


def test_a_call_that_fails_after_its_first_figure_leaves_none_of_its_figures(data, tmp_path, monkeypatch, capsys):
    (tmp_path / "figs").mkdir()
    (tmp_path / "figs/sparring-exp3p.png").write_bytes(b"an older figure, not written by this call")
    drawn = []

    def full_disk_at_the_second(*args, outputs, **kwargs):  # the first writes its files (not drawn: bytes)
        drawn.append(args[1])
        if len(drawn) == 2:
            raise OSError(28, "No space left on device")
        for path in outputs:
            Path(path).write_bytes(b"a figure")

    monkeypatch.setattr(appendix, "appendix_figure", full_disk_at_the_second)
    out = [tmp_path / "figs/{algorithm}.pdf", tmp_path / "figs/{algorithm}.png"]
    assert run(*appendix_call(data, *ALGORITHMS, out=out)) == 2
    assert drawn == ALGORITHMS[:2] and "No space left on device" in capsys.readouterr().err
    assert sorted(os.listdir(tmp_path / "figs")) == ["sparring-exp3p.png"]  # dts's two files removed
    assert (tmp_path / "figs/sparring-exp3p.png").read_bytes().startswith(b"an older figure")
