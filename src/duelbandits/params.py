"""A hyper-parameter of an algorithm or a scenario (:class:`Param`): its default, its range, its check
and its config-schema fragment. Below both registries, which share it."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .errors import AlgorithmError


@dataclass(frozen=True)
class Param:
    """One hyper-parameter: its default, what it sets, and its range (bounds ``None`` when open)."""

    default: float
    description: str
    minimum: float | None = None
    maximum: float | None = None
    exclusive_minimum: bool = False
    exclusive_maximum: bool = False
    integer: bool = False

    def range_text(self) -> str:
        """What a valid value is, as a reader writes it: ``a finite number > 0``, ``a finite integer >= 1 and <= 9``."""
        low = None if self.minimum is None else (">" if self.exclusive_minimum else ">=") + f" {self.minimum:g}"
        high = None if self.maximum is None else ("<" if self.exclusive_maximum else "<=") + f" {self.maximum:g}"
        bounds = " and ".join(x for x in (low, high) if x)
        return f"a finite {'integer' if self.integer else 'number'}" + (f" {bounds}" if bounds else "")

    def check(self, where: str, value):
        """``value`` itself if it is a finite number in range (NaN fails every comparison, so it is
        refused by name), else AlgorithmError naming ``where`` and the range."""
        number = isinstance(value, (int, float, np.number)) and not isinstance(value, bool)
        below = above = False
        if number and np.isfinite(value):
            below = self.minimum is not None and (
                value <= self.minimum if self.exclusive_minimum else value < self.minimum
            )
            above = self.maximum is not None and (
                value >= self.maximum if self.exclusive_maximum else value > self.maximum
            )
        if not number or not np.isfinite(value) or (self.integer and int(value) != value) or below or above:
            raise AlgorithmError(f"{where} must be {self.range_text()}, got {value!r}")
        return int(value) if self.integer else value

    def schema(self) -> dict:
        """The JSON-schema fragment of this parameter (the config schema's algorithm_params)."""
        out = {"description": self.description, "type": "integer" if self.integer else "number"}
        if self.minimum is not None:
            out["exclusiveMinimum" if self.exclusive_minimum else "minimum"] = self.minimum
        if self.maximum is not None:
            out["exclusiveMaximum" if self.exclusive_maximum else "maximum"] = self.maximum
        return out
