"""The ledger's verdict rules and one-sided intervals: a quantity's interval against a threshold gives
``holds``, ``fails``, ``inconclusive`` (it straddles the threshold) or ``not tested`` (an end missing);
each rule is tested at its boundary in tests/test_claims.py. The level is the ledger's
(:data:`duelbandits.studies.claims.analysis.LEVEL`)."""

from __future__ import annotations

import math
from statistics import NormalDist

HOLDS, FAILS, INCONCLUSIVE, NOT_TESTED = "holds", "fails", "inconclusive", "not tested"


def z_one_sided(level: float) -> float:
    """The one-sided normal quantile of ``level``."""
    return NormalDist().inv_cdf(level)


# --- Verdict rules (each tested at its boundary in tests/test_claims.py) -------------------------


def _side(ends, holds: bool, fails: bool) -> str:
    """``not tested`` when an end or the threshold is missing (NaN) or infinite, else by the two tests."""
    return NOT_TESTED if not all(map(math.isfinite, ends)) else HOLDS if holds else FAILS if fails else INCONCLUSIVE


def below(low: float, high: float, threshold: float) -> str:
    """A quantity claimed below ``threshold``: holds when the interval's high end is below it, fails
    when its low end is above it, inconclusive otherwise (and at equality)."""
    return _side((low, high, threshold), high < threshold, low > threshold)


def at_least(low: float, high: float, threshold: float) -> str:
    """A quantity claimed at least ``threshold``: holds when the interval's low end reaches it, fails
    when its high end is below it, inconclusive otherwise."""
    return _side((low, high, threshold), low >= threshold, high < threshold)


def smallest(intervals: dict, which) -> str:
    """The methods ``which`` have lower means than every other method of ``intervals`` (name -> (low,
    high)): holds when every high end of ``which`` is below every other low end; fails when some other
    method's high end is below the low end of one of ``which``; inconclusive otherwise; not tested when
    an end is missing (NaN) or infinite, as in :func:`below`."""
    if not all(math.isfinite(end) for interval in intervals.values() for end in interval):
        return NOT_TESTED
    mine = [intervals[name] for name in which]
    others = [iv for name, iv in intervals.items() if name not in which]
    if max(h for _, h in mine) < min(low for low, _ in others):
        return HOLDS
    if any(h < low for _, h in others for low, _ in mine):
        return FAILS
    return INCONCLUSIVE


def every(verdicts) -> str:
    """A conjunction: fails if any fails, holds if all hold, not tested if none was tested, else inconclusive."""
    verdicts = list(verdicts)
    if FAILS in verdicts:
        return FAILS
    if verdicts and all(v == HOLDS for v in verdicts):
        return HOLDS
    if not verdicts or all(v == NOT_TESTED for v in verdicts):
        return NOT_TESTED
    return INCONCLUSIVE


def mean_interval(mean: float, std: float, runs: int, level: float) -> tuple[float, float]:
    """One-sided ``level`` limits of a mean over ``runs`` runs: ``mean -+ z std / sqrt(runs)``."""
    half = z_one_sided(level) * std / math.sqrt(runs) if runs > 0 else math.inf
    return mean - half, mean + half


def log_slope(m_a: float, s_a: float, t_a: int, m_b: float, s_b: float, t_b: int, runs: int, level: float):
    """Local slope of ``log E[R_t]`` on ``log t`` from ``t_a`` to ``t_b`` and its one-sided limits.

    ``var(log mean) ~ (std / mean)^2 / runs`` at each end (delta method); the two ends are treated as
    independent, which overstates the variance of the difference (R_{t_a} and R_{t_b} of one run are
    positively correlated), so the interval is conservative."""
    if min(m_a, m_b) <= 0 or t_b <= t_a:
        return math.nan, math.nan, math.nan
    width = math.log(t_b / t_a)
    slope = (math.log(m_b) - math.log(m_a)) / width
    se = math.sqrt((s_a / m_a) ** 2 / runs + (s_b / m_b) ** 2 / runs) / width
    z = z_one_sided(level)
    return slope, slope - z * se, slope + z * se


def ratio_interval(m_a, s_a, m_b, s_b, runs: int, level: float):
    """``m_a / m_b`` and its one-sided limits (delta method on the log ratio, independent samples)."""
    if min(m_a, m_b) <= 0:
        return math.nan, math.nan, math.nan
    se = math.sqrt((s_a / m_a) ** 2 / runs + (s_b / m_b) ** 2 / runs)
    z = z_one_sided(level)
    ratio = m_a / m_b
    return ratio, ratio * math.exp(-z * se), ratio * math.exp(z * se)
