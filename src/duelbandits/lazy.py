"""Names a package hands on without importing their modules until first use.

``duelbandits`` and ``duelbandits.plotting`` export names from their modules this way: every
command runs ``python -m duelbandits``, which imports the package, and a command must load (and its
rerun trigger cover) only the modules it runs.
"""

import importlib
import sys


def exports(package: str, names: dict[str, str]):
    """A module ``__getattr__`` for ``package`` that loads ``names[name]`` (a module of the package)
    on first use of ``name`` and keeps the value in the package."""

    def __getattr__(name: str):
        if name not in names:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{names[name]}", package), name)
        setattr(sys.modules[package], name, value)
        return value

    return __getattr__
