"""The one place that fixes how every figure looks, and how it is saved.

Sizes, fonts, line widths, colours per algorithm and the save metadata live
here, so the 14 figures look like one paper and render byte-identically from
the same inputs (no clock, no version string, fixed SVG hash salt).
"""

from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path

import matplotlib as mpl
import numpy as np

from ..algorithms import ALGORITHMS
from ..manifest import FIGURE_DATA_KEY
from ..storage import atomic_write

# Colours: the first six of seaborn's 'colorblind' palette (Okabe-Ito based),
# hard-coded so the figures do not change with a seaborn release.
ALGORITHM_COLORS = dict(zip(ALGORITHMS, ("#0173b2", "#de8f05", "#029e73", "#cc78bc", "#ca9161", "#333333")))
"""Fixed colour per algorithm slug, in the paper's algorithm order.

The paper's four algorithms get the strong hues (blue, orange, green, pink),
the two state-of-the-art baselines the muted ones (ISS brown, DTS near-black);
orange and vermillion are not both used, as they are hard to tell apart.
"""

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

BOUNDS_XSCALE = "log"
"""x scale of the bounds panel (d): on log-log axes each bound c t^rho is a straight line."""

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
"""Matplotlib rcParams applied (temporarily) while a figure is built and saved."""

METADATA = {
    "pdf": {"Creator": "duelbandits", "Producer": None, "CreationDate": None},
    "png": {"Software": None},
    "svg": {"Creator": None, "Date": None},
}
"""Per-format metadata that removes every clock- and version-dependent field."""


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
def style():
    """Apply :data:`RC` for the duration of the block, leaving global rcParams untouched."""
    with mpl.rc_context(RC):
        yield


def algorithm_color(slug: str) -> str:
    """The algorithm's fixed colour; unknown slugs get the neutral grey."""
    return ALGORITHM_COLORS.get(slug, NEUTRAL)


def darker(color, amount: float = 0.35):
    """``color`` mixed with ``amount`` black: the mean line over a bundle of light runs."""
    rgb = np.array(mpl.colors.to_rgb(color))
    return tuple(rgb * (1.0 - amount))


def algorithm_label(slug: str) -> str:
    """The readable label of an algorithm slug (the slug itself if unknown)."""
    algorithm = ALGORITHMS.get(slug)
    return algorithm.label if algorithm is not None else slug


def action_colors(actions: int) -> list:
    """One colour per action: tab10 up to 10 actions, evenly spaced viridis beyond."""
    if actions <= 10:
        cmap = mpl.colormaps[ACTION_CMAP]
        return [cmap(i) for i in range(actions)]
    cmap = mpl.colormaps["viridis"]
    return [cmap(x) for x in np.linspace(0.0, 0.95, actions)]


def display_index(horizon: int, max_points: int = MAX_POINTS) -> np.ndarray:
    """0-based indices of at most ``max_points`` evenly spread steps, first and last included."""
    if horizon <= max_points:
        return np.arange(horizon)
    return np.unique(np.linspace(0, horizon - 1, max_points).round().astype(np.int64))


def step_formatter():
    """Tick labels of the step axis with thousands separators (40,000)."""
    return mpl.ticker.FuncFormatter(lambda x, _: f"{x:,.0f}")


def save(fig, outputs, data_digest: str | None = None) -> list[Path]:
    """Save ``fig`` to every path of ``outputs`` atomically and deterministically.

    The format comes from the suffix (.pdf, .png, .svg). Each file is written
    to a temporary file in its own directory, then renamed over the target, so
    a crash never leaves a half-written figure. ``data_digest``, the content
    digest of the data drawn (:func:`duelbandits.manifest.data_digest`), goes
    into the file's metadata, where the manifest reads it.
    """
    if isinstance(outputs, (str, os.PathLike)):
        outputs = [outputs]
    paths = [Path(p) for p in outputs]
    if not paths:
        raise ValueError("outputs is empty: give at least one .pdf, .png or .svg path")
    for path in paths:
        if path.suffix.lower().lstrip(".") not in METADATA:
            raise ValueError(f"cannot save figure to {path}: suffix must be one of .pdf, .png, .svg")
    with style():
        for path in paths:
            fmt = path.suffix.lower().lstrip(".")
            with atomic_write(path) as tmp:
                fig.savefig(tmp, format=fmt, dpi=DPI[fmt], metadata=_metadata(fmt, data_digest))
    return paths
