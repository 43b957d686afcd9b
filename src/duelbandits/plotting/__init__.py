"""The style every study's figures share (:mod:`.style`: colours, sizes, the figures' metadata). The
figures are their studies' own (:mod:`duelbandits.studies`; the paper's in
:mod:`duelbandits.studies.paper.main` and :mod:`~duelbandits.studies.paper.appendix`). They never touch
pyplot or the global rcParams: figures are plain ``matplotlib.figure.Figure`` objects styled by ``style.RC``.
"""

from ..lazy import exports

_EXPORTS = {
    "ALGORITHM_COLORS": "style",
}

__getattr__ = exports(__name__, _EXPORTS)

__all__ = sorted(_EXPORTS)
