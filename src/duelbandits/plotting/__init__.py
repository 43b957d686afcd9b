"""Figures of the paper: one function per figure family.

``main_figure`` draws figScen1/figScen2 (one per scenario), ``appendix_figure``
the appendix figures S1tsmm ... S2dts (one per scenario and algorithm). Both
save to every path given (.pdf, .png) atomically and byte-reproducibly and
return the Figure. They never touch pyplot or the global rcParams: figures
are plain ``matplotlib.figure.Figure`` objects styled by ``style.RC``.
``main_panel`` and ``appendix_panel`` draw one panel of those figures alone, at
the width its subfigure has in the paper (figures/panels/), with the same
drawing function as the composite. Beyond the paper, ``horizon_sweep_figure``
and ``actions_sweep_figure`` draw the regret-exponent and scaling-in-A figures
of the sweeps, and ``field_figure`` the field's regret curves.
"""

from .appendix import appendix_figure, appendix_panel
from .field import field_figure
from .main import main_figure, main_panel
from .style import ALGORITHM_COLORS
from .sweeps import actions_sweep_figure, horizon_sweep_figure

__all__ = [
    "ALGORITHM_COLORS",
    "actions_sweep_figure",
    "appendix_figure",
    "appendix_panel",
    "field_figure",
    "horizon_sweep_figure",
    "main_figure",
    "main_panel",
]
