"""How every figure looks (sizes, fonts, line widths, colours per algorithm) and how it is saved
(byte-identical from the same inputs: no clock, no version string, fixed SVG hash salt)."""

from __future__ import annotations

import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib as mpl
import numpy as np
from matplotlib.figure import Figure

from ..algorithms import ALGORITHMS
from ..digests import FIGURE_DATA_KEY
from ..errors import InputError
from ..storage import atomic_write

ALGORITHM_COLORS = {slug: a.color for slug, a in ALGORITHMS.items()}
"""Fixed colour per algorithm slug, from its registry entry (the paper's six: docs/reproducibility.md)."""

NEUTRAL = "#4d4d4d"
"""Colour of things that belong to no algorithm (utility bars, reference lines)."""

MARKERS = {"condorcet": ("*", "#000000"), "borda": ("v", "#d55e00")}
"""Marker and colour of the Condorcet and Borda winners in the utilities panel."""

MATRIX_CMAP = "RdBu_r"
"""Diverging colour map of X, centred on 1/2 (blue: row loses, red: row wins)."""

ACTION_CMAP = "tab10"
"""Qualitative colour map of the actions in the strategy panels (viridis above 10)."""

MAIN_SIZE = (10.0, 8.2)
"""Main-text figure size in inches (2 x 2 panels)."""

APPENDIX_WIDTH = 8.0
APPENDIX_PANEL_HEIGHT = 2.3
"""Appendix figure: width, and height per stacked panel, in inches."""

LINE_WIDTH = {"mean": 1.8, "bound": 1.5, "run": 0.4}
ALPHA = {"std": 0.18, "run": 0.12}
"""Line widths and transparencies: mean curves, bound curves, single runs; std shading."""

MAX_POINTS = 2000
"""At most this many points per drawn curve (t = T always included)."""

SELECTION_WINDOWS = 400
"""The I_t / J_t panels average each run over this many windows of the horizon."""

DPI = {"png": 150, "pdf": 200, "svg": 150}
"""PNG resolution, and the resolution of rasterised line bundles in PDF/SVG."""

RC = {
    "font.family": "DejaVu Sans",  # bundled with matplotlib: same glyphs everywhere
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 7.5,
    "legend.framealpha": 0.85,
    "figure.titlesize": 12,
    "axes.grid": True,
    "grid.color": "#e0e0e0",
    "grid.linewidth": 0.6,
    "axes.axisbelow": True,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "lines.solid_capstyle": "butt",
    "pdf.fonttype": 42,  # TrueType subsets: editable text in the PDF
    "svg.hashsalt": "duelbandits",
    "svg.fonttype": "none",
    "path.simplify": True,
    "image.interpolation": "nearest",
}
"""Matplotlib rcParams while a figure is built and saved."""

# --- Panels at print size (figures/panels/): one file per subfigure of the paper -----------------

TEXT_WIDTH = 5.5
"""Text width of the paper's page (NeurIPS 2019 style), in inches: each subfigure is a fraction of it."""

SUBCAPTION_SIZE = 9
"""A subcaption's size in points: one step below the caption's 10 pt (subcaption's ``font+=smaller``)."""

MAIN_PANELS = {"a": (0.35, 1.7), "b": (0.35, 1.7), "c": (0.40, 2.1), "d": (0.40, 2.1)}
"""Main figures: panel letter -> (subfigure width as a fraction of the text width, panel height in
inches); the sizes and why: docs/outputs.md, "Sizes"."""

APPENDIX_PANELS = {3: (0.75, 1.8), 4: (0.65, 1.6), 5: (0.5, 1.35)}
"""Appendix figures, by their number of stacked panels: (width fraction, panel height in inches)."""

PANEL_RC = {
    **RC,
    "font.size": SUBCAPTION_SIZE,
    "axes.titlesize": SUBCAPTION_SIZE,
    "axes.labelsize": SUBCAPTION_SIZE,
    "legend.fontsize": 7,
    "legend.title_fontsize": 7,
    "legend.borderpad": 0.3,
    "legend.handlelength": 1.2,
    "legend.handletextpad": 0.5,
    "legend.columnspacing": 1.0,
    "legend.labelspacing": 0.3,
    "axes.labelpad": 2.0,
    "xtick.major.pad": 2.0,
    "ytick.major.pad": 2.0,
}
"""rcParams of a panel alone at print size, its text at the paper's caption sizes (docs/outputs.md)."""


PANEL_GUTTER = 0.6
"""Left margin in inches of every appendix panel alone (room for tick labels up to five digits), so
that the panels stacked in a figure line up."""


def align_left(fig, ax, gutter: float = PANEL_GUTTER) -> None:
    """Put the left edge of ``ax`` ``gutter`` inches from the figure's, keeping the rest of the
    constrained layout (laid out once, then frozen), unless its labels need more room than that."""
    fig.draw_without_rendering()
    box = ax.get_position()
    left = gutter / fig.get_size_inches()[0]
    if box.x0 > left:
        return
    fig.set_layout_engine("none")
    ax.set_position([left, box.y0, box.x1 - left, box.height])


def appendix_panel_letters(players) -> str:
    """The panels of an appendix figure whose algorithm has the strategies ``players``:
    (a) regret, (b) I_t, (c) J_t, then (d) p_t and (e) q_t where the algorithm has them."""
    return "abc" + "de"[: len(players)]


def panel_size(fraction: float, height: float) -> tuple[float, float]:
    """Width and height in inches of a panel alone at print size, from its entry of :data:`MAIN_PANELS`
    or :data:`APPENDIX_PANELS`."""
    return (fraction * TEXT_WIDTH, height)


@dataclass(frozen=True)
class Look:
    """What differs between a panel inside a composite figure and the same panel alone at print size."""

    rc: dict = field(repr=False)  # rcParams while the figure is built and saved
    dpi: dict = field(repr=False)  # per format: the PNG's, and that of rasterised line bundles in a PDF
    titles: bool = True  # axes titles '(a) ...'; a panel's subfigure caption gives its letter
    # labels without what the caption says (the winner's action, each algorithm's regret, the algorithm
    # of each bound; 'regret' for 'cumulative regret'): a panel is a fraction as wide
    short_labels: bool = False
    note_size: float = 7  # notes in a panel and titles of small legends, points
    marker_scale: float = 1.0  # size of the winner markers relative to the composite's
    headroom: float = 0.0  # fraction of the utilities panel's height kept free above the bars, for its legend
    # size of the values in the cells of X: {largest A: size}; none above the largest A
    cell_text: dict = field(default_factory=lambda: {8: 7, 12: 5.5})
    # legends above the axes, frameless: not inside them (panels (c), (d) of a main figure) or beside
    # them (the strategy panels of an appendix figure)
    legends_above: bool = False
    action_ticks: int | None = None  # at most this many ticks on an action axis; None: every action up to 12
    step_bins: int | None = None  # at most this many tick intervals on an appendix panel's step axis (wide labels)
    strategy_legend_size: float = 6.5  # legend of the actions beside a strategy panel, points
    strategy_legend_columns: int | None = None  # above the axes; None: beside, 1 column up to 12 actions, else 2


COMPOSITE = Look(RC, DPI)
"""The composite figures of figures/main and figures/appendix: the defaults."""

PANEL = Look(
    PANEL_RC,
    {"png": 300, "pdf": 300, "svg": 300},
    titles=False,
    short_labels=True,
    marker_scale=0.7,
    headroom=0.3,
    cell_text={6: 6},
    legends_above=True,
    action_ticks=5,
    step_bins=4,
    strategy_legend_size=7,
    strategy_legend_columns=5,
)
"""A panel alone at print size (figures/panels): 300 dpi, text sized for the page."""

METADATA = {
    "pdf": {"Creator": "duelbandits", "Producer": None, "CreationDate": None},
    "png": {"Software": None},
    "svg": {"Creator": None, "Date": None},
}
"""Per-format metadata that removes every clock- and version-dependent field."""


def check_figure_paths(paths) -> None:
    """InputError unless every output is a format the figures are saved in (before anything is drawn)."""
    for path in paths:
        if Path(path).suffix.lower().lstrip(".") not in METADATA:
            raise InputError(f"--out {path}: a figure is saved as .pdf, .png or .svg")


def _metadata(fmt: str, data_digest: str | None) -> dict:
    """:data:`METADATA` of ``fmt``, with the data digest where the format has a place for it."""
    if data_digest is None:
        return METADATA[fmt]
    key = FIGURE_DATA_KEY
    extra = {
        "pdf": {"Keywords": f"{key}={data_digest}"},
        "png": {key: data_digest},
        "svg": {"Keywords": [key, data_digest]},
    }
    return {**METADATA[fmt], **extra[fmt]}


@contextmanager
def style(rc: dict = RC):
    """Apply ``rc`` (default :data:`RC`) for the duration of the block, leaving global rcParams untouched."""
    with mpl.rc_context(rc):
        yield


@contextmanager
def figure(size, outputs, data_digest: str | None = None, look: Look = COMPOSITE):
    """A constrained-layout Figure of ``size`` inches, drawn under ``look``'s rcParams and saved to every
    path of ``outputs`` (:func:`save`) when the block ends."""
    with style(look.rc):
        fig = Figure(figsize=size, layout="constrained")
        yield fig
        save(fig, outputs, data_digest, look)


def algorithm_color(slug: str) -> str:
    """The algorithm's fixed colour; unknown slugs get the neutral grey."""
    return ALGORITHM_COLORS.get(slug, NEUTRAL)


def darker(color, amount: float = 0.35):
    """``color`` mixed with ``amount`` black: the mean line over a bundle of light runs."""
    rgb = np.array(mpl.colors.to_rgb(color))
    return tuple(rgb * (1.0 - amount))


def algorithm_label(slug: str) -> str:
    """The readable label of an algorithm slug (the slug itself if unknown)."""
    return ALGORITHMS[slug].label if slug in ALGORITHMS else slug


def scenario_label(slug: str) -> str:
    """The label of a scenario slug in a figure's title (its entry's; the slug itself if unknown)."""
    from ..scenarios import registry

    entry = registry().get(slug)
    return entry.label if entry is not None else slug


def action_colors(actions: int) -> list:
    """One colour per action: tab10 up to 10 actions, evenly spaced viridis beyond."""
    if actions <= 10:
        return [mpl.colormaps[ACTION_CMAP](i) for i in range(actions)]
    return [mpl.colormaps["viridis"](x) for x in np.linspace(0.0, 0.95, actions)]


def display_index(horizon: int, max_points: int = MAX_POINTS) -> np.ndarray:
    """0-based indices of at most ``max_points`` evenly spread steps, first and last included."""
    if horizon <= max_points:
        return np.arange(horizon)
    return np.unique(np.linspace(0, horizon - 1, max_points).round().astype(np.int64))


def step_formatter():
    """Tick labels of the step axis with thousands separators (40,000)."""
    return mpl.ticker.FuncFormatter(lambda x, _: f"{x:,.0f}")


def save(fig, outputs, data_digest: str | None = None, look: Look = COMPOSITE) -> list[Path]:
    """Save ``fig`` to every path of ``outputs`` (format from the suffix; the command line checked it)
    atomically and deterministically, ``data_digest`` (:func:`duelbandits.digests.data_digest`) in the
    metadata; ``look`` gives the rcParams and resolution (:data:`COMPOSITE` or :data:`PANEL`)."""
    paths = [Path(p) for p in ([outputs] if isinstance(outputs, (str, os.PathLike)) else outputs)]
    with style(look.rc):
        for path in paths:
            fmt = path.suffix.lower().lstrip(".")
            with atomic_write(path) as tmp:
                fig.savefig(tmp, format=fmt, dpi=look.dpi[fmt], metadata=_metadata(fmt, data_digest))
    return paths


def runs_text(runs, dash: str = "-") -> str:
    """``100 runs``, or ``20-40 runs`` from the sorted run counts ``runs`` of a figure (``dash`` ``--`` in LaTeX)."""
    return f"{runs[0]} runs" if len(runs) == 1 else f"{runs[0]}{dash}{runs[-1]} runs"


def ordered_slugs(slugs) -> list[str]:
    """Algorithm slugs in the paper's legend order, unknown ones last."""
    slugs = set(slugs)
    return [a for a in ALGORITHMS if a in slugs] + sorted(slugs - set(ALGORITHMS))
