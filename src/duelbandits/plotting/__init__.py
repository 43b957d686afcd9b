"""Figures of the paper: one function per figure family.

``main_figure`` draws figScen1/figScen2 (one per scenario), ``appendix_figure``
the appendix figures S1tsmm ... S2dts (one per scenario and algorithm). Both
save to every path given (.pdf, .png) atomically and byte-reproducibly and
return the Figure. They never touch pyplot or the global rcParams: figures
are plain ``matplotlib.figure.Figure`` objects styled by ``style.RC``.
``main_panel`` and ``appendix_panel`` draw one panel of those figures alone, at
the width its subfigure has in the paper (figures/panels/), with the same
drawing function as the composite. The figures of the other studies are their units' own
(:mod:`duelbandits.studies`).

Each figure family's module is loaded on first use, so that a figure job loads, and its rerun
trigger covers, only the module that draws it.
"""

from ..lazy import exports

_EXPORTS = {
    "ALGORITHM_COLORS": "style",
    "appendix_figure": "appendix",
    "appendix_panel": "appendix",
    "main_figure": "main",
    "main_panel": "main",
}

__getattr__ = exports(__name__, _EXPORTS)

__all__ = sorted(_EXPORTS)
