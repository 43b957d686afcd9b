"""An example duelbandits plugin: the MergeRUCB algorithm and the Thurstone scenario.

The two entry points of pyproject.toml name ``ALGORITHM`` and ``SCENARIO`` of this package.
"""

from .mergerucb import ALGORITHM
from .scenarios import SCENARIO

__all__ = ["ALGORITHM", "SCENARIO"]
