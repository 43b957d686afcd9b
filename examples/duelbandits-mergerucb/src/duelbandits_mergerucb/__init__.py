"""An example duelbandits plugin: the MergeRUCB algorithm and the Thurstone scenario.

The two entry points (pyproject.toml) name ``ALGORITHM`` and ``SCENARIO`` of this package. They are
resolved lazily (PEP 562 ``__getattr__``), each from its own module, because duelbandits loads its
plugins while its own registries are being built: the scenario entry is loaded while
``duelbandits.scenarios`` is being imported, possibly from within the import of
``duelbandits.algorithms``. Importing ``duelbandits.algorithms`` here at the top would then meet a
partially initialised module; importing each entry's module only when its name is asked for meets
each duelbandits module after the classes the entry needs are defined.
"""

from __future__ import annotations

import importlib

_ENTRIES = {"ALGORITHM": ".mergerucb", "SCENARIO": ".scenarios"}

__all__ = sorted(_ENTRIES)


def __getattr__(name: str):
    if name in _ENTRIES:
        return getattr(importlib.import_module(_ENTRIES[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_ENTRIES))
