"""Figures: files are valid, byte-reproducible, written atomically, and show the right things."""

from __future__ import annotations

import struct

import matplotlib as mpl
import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from summaries import paper_summary

from duelbandits import ALGORITHMS, make_scenario, storage
from duelbandits.algorithms import PAPER_ALGORITHMS, PAPER_REGRET
from duelbandits.plotting import style
from duelbandits.regret import REGRET_NAMES
from duelbandits.studies.paper.appendix import appendix_figure, appendix_panel
from duelbandits.studies.paper.main import main_figure, main_panel
from duelbandits.theorems import THEOREMS

A, T, RUNS = 4, 500, 5


def scenario_dict(name):
    """The scenario file's record of ``name`` at A actions."""
    return storage.scenario_record(make_scenario(name, A, seed=4), 4)


def make_summary(drop_bound=(), names=("condorcet", "borda")):
    """Paper rows with sqrt-like curves and the theorem bounds; plus Copeland rows off the figures."""
    return paper_summary(
        np.unique(np.r_[np.linspace(1, T, 100).round().astype(int), T]), A, RUNS, names, drop_bound, "copeland"
    )


def make_traces(seed=0, runs=RUNS, horizon=T):
    rng = np.random.default_rng(seed)
    regret = rng.uniform(0, 0.2, size=(runs, horizon))
    steps = dict(run=np.repeat(np.arange(runs, dtype=np.int32), horizon), t=np.tile(np.arange(1, horizon + 1), runs))
    duels = {side: rng.integers(0, A, runs * horizon).astype(np.int16) for side in "IJ"}
    return pd.DataFrame(
        {**steps, **duels, "regret": regret.ravel(), "cumulative_regret": np.cumsum(regret, axis=1).ravel()}
    )


LAYOUTS = ("ts-maximin", "partial-monitoring", "sparring-exp3p")
"""One algorithm of each appendix layout: no strategies; p; p and q."""


def make_strategies(algorithm, seed=0):
    """The strategies table of ``algorithm`` (None for one without strategies)."""
    rng = np.random.default_rng(seed)
    steps = np.r_[np.arange(1, T + 1, 10), T]
    frames = []
    for player in ALGORITHMS[algorithm].strategies:
        p = rng.dirichlet(np.ones(A), size=steps.size)
        cells = dict(t=np.repeat(steps, A), action=np.tile(np.arange(A), steps.size))
        frames.append(pd.DataFrame(dict(player=player, **cells, mean=p.ravel(), std=0.05)))
    return pd.concat(frames, ignore_index=True) if frames else None


def assert_valid(*paths, figsize, dpi=style.DPI["png"]):
    """A PDF (if given) that opens and closes as one, and a PNG of ``figsize`` at ``dpi``."""
    *pdf, png = paths
    assert all(p.read_bytes()[:5] == b"%PDF-" and p.read_bytes().rstrip().endswith(b"%%EOF") for p in pdf)
    head = png.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", head[16:24])
    assert abs(width - figsize[0] * dpi) <= 2 and abs(height - figsize[1] * dpi) <= 2


@pytest.fixture(scope="module")
def summary():
    return make_summary()


@pytest.fixture(scope="module")
def condorcet_render(tmp_path_factory, summary):
    out = tmp_path_factory.mktemp("main")
    paths = [out / "condorcet.pdf", out / "condorcet.png"]
    fig = main_figure(scenario_dict("condorcet"), summary, paths)
    return fig, paths


@pytest.fixture(scope="module")
def borda_fig(summary):
    return main_figure(scenario_dict("borda"), summary, [])  # built, not saved: its artists are read


def legend_texts(fig):
    return [t.get_text() for ax in fig.axes if ax.get_legend() for t in ax.get_legend().get_texts()]


def bound_slugs(fig):
    return {
        line.get_gid().split(":", 1)[1]
        for ax in fig.axes
        for line in ax.get_lines()
        if (line.get_gid() or "").startswith("bound:")
    }


def test_main_figure_writes_a_valid_pdf_and_png_of_four_titled_panels_of_the_paper_regret_rows(
    condorcet_render, summary
):
    fig, paths = condorcet_render
    assert_valid(*paths, figsize=style.MAIN_SIZE)
    titles = [ax.get_title() for ax in fig.axes if ax.get_title()]
    assert [t[:3] for t in titles] == ["(a)", "(b)", "(c)", "(d)"]
    assert len(fig.axes) == 5  # the four panels and the colour bar of X
    paper = summary[(summary.scenario == "condorcet") & summary.paper]
    means = [line for line in fig.axes[2].get_lines() if (line.get_gid() or "").startswith("mean:")]
    assert len(means) == len(PAPER_ALGORITHMS)
    assert max(line.get_ydata().max() for line in means) == pytest.approx(paper["mean"].max())


def test_main_figure_legend_names_each_regret_in_condorcet_and_plain_labels_when_every_regret_is_borda(
    condorcet_render, borda_fig
):
    texts = legend_texts(condorcet_render[0])
    for slug in PAPER_ALGORITHMS:
        kind = {"maximin": "Maximin", "borda": "Borda", "exp3p": "Exp3.P"}[PAPER_REGRET["condorcet"][slug]]
        assert f"{ALGORITHMS[slug].label} ({kind} regret)" in texts
    assert {ALGORITHMS[a].label for a in PAPER_ALGORITHMS} <= set(legend_texts(borda_fig))
    assert "Borda regret" in borda_fig.axes[2].get_title()


def test_main_figure_draws_the_bounds_dashed_in_their_colour_four_in_condorcet_two_in_borda(
    condorcet_render, borda_fig
):
    assert bound_slugs(condorcet_render[0]) == set(THEOREMS)
    assert bound_slugs(borda_fig) == {"ts-borda", "partial-monitoring"}
    assert not any((line.get_gid() or "").startswith("bound:") for line in condorcet_render[0].axes[2].get_lines())
    for line in condorcet_render[0].axes[3].get_lines():
        gid = line.get_gid() or ""
        if gid.startswith("bound:"):
            assert line.get_linestyle() == "--"
            assert mpl.colors.same_color(line.get_color(), style.ALGORITHM_COLORS[gid.split(":")[1]])


def test_main_figure_leaves_out_a_nan_bound_and_says_so():
    fig = main_figure(scenario_dict("condorcet"), make_summary(drop_bound=("partial-monitoring",)), [])
    assert bound_slugs(fig) == set(THEOREMS) - {"partial-monitoring"}
    notes = " ".join(t.get_text() for t in fig.axes[3].texts)
    assert "Thm 4.4" in notes and "not shown" in notes


def test_main_figure_of_a_target_scenario_draws_one_regret_kind_per_panel_pair(tmp_path):
    """cyclic (view target): each algorithm against the winner it is built for, one pair of panels per
    regret kind, never TS-Maximin's Maximin regret beside DTS's Copeland regret."""
    cyclic = storage.scenario_record(make_scenario("cyclic", 5, seed=4), 4)
    fig = main_figure(cyclic, make_summary(names=("cyclic",)), [tmp_path / "cyclic.png"])
    kinds = ["maximin", "borda", "exp3p", "copeland"]
    assert_valid(tmp_path / "cyclic.png", figsize=(style.MAIN_SIZE[0], style.MAIN_SIZE[1] * 5 / 2))
    panels = [ax for ax in fig.axes if ax.get_title()[:3] not in ("", "(a)", "(b)")]
    assert [ax.get_title()[:3] for ax in panels] == [f"({x})" for x in "cdefghij"]
    for k, kind in enumerate(kinds):
        for ax in panels[2 * k : 2 * k + 2]:
            slugs = {line.get_gid()[5:] for line in ax.get_lines() if line.get_gid().startswith("mean:")}
            assert slugs == {s for s in PAPER_ALGORITHMS if PAPER_REGRET["cyclic"][s] == kind}
            assert f"{REGRET_NAMES[kind]} regret" in ax.get_title()


@pytest.fixture(scope="module")
def appendix_renders(tmp_path_factory):
    """One condorcet appendix figure per strategy layout (none; p; p and q), as PNG (and PDF for p and q)."""
    out = tmp_path_factory.mktemp("appendix")
    renders = {}
    for algorithm in LAYOUTS:
        paths = [out / f"{algorithm}.pdf"] if algorithm == "sparring-exp3p" else []  # one PDF: the re-render's
        paths.append(out / f"{algorithm}.png")
        fig = appendix_figure(scenario_dict("condorcet"), algorithm, make_traces(), make_strategies(algorithm), paths)
        renders[algorithm] = fig, paths
    return renders


@pytest.mark.parametrize("algorithm, panels", [("ts-maximin", 3), ("sparring-exp3p", 5), ("partial-monitoring", 4)])
def test_appendix_figure_stacks_one_panel_per_quantity(appendix_renders, algorithm, panels):
    fig, paths = appendix_renders[algorithm]
    titles = [ax.get_title()[:3] for ax in fig.axes]
    assert titles == ["(a)", "(b)", "(c)", "(d)", "(e)"][:panels]
    assert_valid(*paths, figsize=fig.get_size_inches())


def test_appendix_figure_draws_each_run_in_one_rasterised_bundle(appendix_renders):
    fig, _ = appendix_renders["ts-maximin"]
    runs = [c for ax in fig.axes for c in ax.collections if c.get_gid() == "runs"]
    assert len(runs) == 3 and all(c.get_rasterized() for c in runs)
    assert all(len(c.get_segments()) == RUNS for c in runs)


def test_appendix_figure_marks_the_paper_regret_winner(appendix_renders):
    fig, _ = appendix_renders["partial-monitoring"]  # Borda regret in condorcet
    borda = scenario_dict("condorcet")["winners"]["borda"][0]
    assert f"Borda winner (action {borda})" in legend_texts(fig)


def test_appendix_figure_is_byte_identical_whatever_the_strategies_row_order_and_leaves_the_rcparams(
    appendix_renders, tmp_path
):
    _, first = appendix_renders["sparring-exp3p"]
    again = [tmp_path / p.name for p in first]
    strategies = make_strategies("sparring-exp3p").iloc[::-1]
    before = dict(mpl.rcParams)
    appendix_figure(scenario_dict("condorcet"), "sparring-exp3p", make_traces(), strategies, again)
    assert dict(mpl.rcParams) == before  # the figure's look is set for its own build and save only
    for a, b in zip(first, again):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_save_replaces_the_target_atomically_and_leaves_no_temporary_file(tmp_path):
    fig = mpl.figure.Figure(figsize=(1, 1))
    target = tmp_path / "f.png"
    target.write_bytes(b"old")

    def crash(*args, **kwargs):
        raise RuntimeError("disk full")

    fig.savefig = crash
    with pytest.raises(RuntimeError):
        style.save(fig, [target])
    assert target.read_bytes() == b"old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.png"]


def test_display_index_keeps_at_most_max_points_and_both_ends():
    idx = style.display_index(40_000)
    assert len(idx) <= style.MAX_POINTS
    assert idx[0] == 0 and idx[-1] == 39_999
    assert np.array_equal(style.display_index(10), np.arange(10))


# --- Panels alone at print size (figures/panels/) ---------------------------------------------


@pytest.fixture(scope="module")
def main_panels(tmp_path_factory, summary):
    """Every panel of the condorcet main figure alone: {panel: (Figure, [pdf, png])}."""
    out, renders = tmp_path_factory.mktemp("panels"), {}
    for panel in style.MAIN_PANELS:
        paths = [out / f"{panel}.pdf", out / f"{panel}.png"]
        renders[panel] = main_panel(scenario_dict("condorcet"), summary, panel, paths), paths
    return renders


@pytest.fixture(scope="module")
def appendix_panels(tmp_path_factory):
    """Every panel of each layout's appendix figure alone, as PNG (a panel's PDF: the main panels')."""
    out, renders = tmp_path_factory.mktemp("panels"), {}
    for algorithm in LAYOUTS:
        renders[algorithm] = {}
        for panel in style.appendix_panel_letters(ALGORITHMS[algorithm].strategies):
            paths = [out / f"{algorithm}-{panel}.png"]
            args = make_traces(), make_strategies(algorithm), panel, paths
            renders[algorithm][panel] = appendix_panel(scenario_dict("condorcet"), algorithm, *args), paths
    return renders


def test_a_panel_is_as_wide_as_its_subfigure_in_the_paper(main_panels, appendix_panels):
    widths = {"a": 0.35, "b": 0.35, "c": 0.4, "d": 0.4, "ts-maximin": 0.75, "partial-monitoring": 0.65}
    widths["sparring-exp3p"] = 0.5
    renders = [(panel, render) for panel, render in main_panels.items()]
    for algorithm, panels in appendix_panels.items():
        assert "".join(panels) == "abcde"[: 3 + len(ALGORITHMS[algorithm].strategies)]
        renders += [(algorithm, render) for render in panels.values()]
    for name, (fig, paths) in renders:
        assert fig.get_size_inches()[0] == pytest.approx(widths[name] * 5.5), name
        assert_valid(*paths, figsize=fig.get_size_inches(), dpi=style.PANEL.dpi["png"])
    assert [main_panels[p][0].get_size_inches()[1] for p in "abcd"] == [1.7, 1.7, 2.1, 2.1]


def test_a_panel_has_no_title_its_text_at_the_caption_sizes_and_nothing_clipped_by_the_page(
    main_panels, appendix_panels
):
    for fig, paths in [*main_panels.values(), *(r for panels in appendix_panels.values() for r in panels.values())]:
        ax = fig.axes[0]
        assert ax.get_title() == ""  # the subfigure's caption gives the letter and says what it shows
        assert ax.xaxis.label.get_fontsize() == ax.yaxis.label.get_fontsize() == style.SUBCAPTION_SIZE == 9
        shown = [t for t in fig.findobj(mpl.text.Text) if t.get_visible() and t.get_text().strip()]
        assert min(t.get_fontsize() for t in shown) >= 6  # legends 7 pt, cell values 6 pt at A <= 6
        with style.style(style.PANEL.rc):  # as saved: the layout of the last save, text at the panel's sizes
            box, page = fig.get_tightbbox(FigureCanvasAgg(fig).get_renderer()), fig.bbox_inches
        assert box.x0 >= -0.01 and box.y0 >= -0.01, paths[0].name
        assert box.x1 <= page.x1 + 0.01 and box.y1 <= page.y1 + 0.01, paths[0].name


def drawn(ax):
    """What an axes shows: its named lines' data, its run bundles' segments and its images."""
    lines = {line.get_gid(): line.get_xydata().tolist() for line in ax.get_lines() if line.get_gid()}
    runs = [np.asarray(c.get_segments()).tolist() for c in ax.collections if c.get_gid() == "runs"]
    return lines, runs, [np.asarray(image.get_array()).tolist() for image in ax.get_images()]


def test_a_panel_draws_what_its_composite_figure_draws(
    main_panels, condorcet_render, appendix_panels, appendix_renders
):
    composite = condorcet_render[0].axes
    for k, panel in enumerate(style.MAIN_PANELS):
        assert drawn(main_panels[panel][0].axes[0]) == drawn(composite[k]), panel
    for algorithm, renders in appendix_panels.items():
        stacked = appendix_renders[algorithm][0].axes
        for k, (fig, _) in enumerate(renders.values()):
            assert drawn(fig.axes[0]) == drawn(stacked[k]), (algorithm, k)
            assert drawn(fig.axes[0])[0] or drawn(fig.axes[0])[1]


def tick_labels_overlap(fig):
    """Pairs of tick labels of one axis whose boxes overlap, as drawn."""
    with style.style(style.PANEL.rc):
        renderer = FigureCanvasAgg(fig).get_renderer()
        clashes = []
        for axis in (fig.axes[0].xaxis, fig.axes[0].yaxis):
            labels = [t for t in axis.get_ticklabels() if t.get_visible() and t.get_text()]
            boxes = [t.get_window_extent(renderer) for t in labels]
            clashes += [
                (labels[i].get_text(), labels[j].get_text())
                for i in range(len(boxes))
                for j in range(i + 1, len(boxes))
                if boxes[i].overlaps(boxes[j])
            ]
    return clashes


def test_tick_labels_of_a_panel_do_not_overlap_at_the_papers_horizon(tmp_path, main_panels):
    for panel, (fig, _) in main_panels.items():
        assert tick_labels_overlap(fig) == [], panel
    traces = make_traces(seed=1, runs=2, horizon=40_000)  # labels up to '40,000', in the paper's narrowest panels
    for algorithm in LAYOUTS:  # the three panel widths
        for panel in "ab":
            args = traces, make_strategies(algorithm), panel, [tmp_path / "p.png"]
            fig = appendix_panel(scenario_dict("condorcet"), algorithm, *args)
            assert tick_labels_overlap(fig) == [], (algorithm, panel)


def test_the_panels_stacked_in_an_appendix_figure_line_up(appendix_panels):
    for algorithm, renders in appendix_panels.items():
        edges = set()
        for fig, _ in renders.values():
            box, width = fig.axes[0].get_position(), fig.get_size_inches()[0]
            edges.add((round(box.x0 * width, 6), round(box.x1 * width, 6)))
        assert len(edges) == 1, (algorithm, edges)
        assert next(iter(edges))[0] == pytest.approx(style.PANEL_GUTTER)
