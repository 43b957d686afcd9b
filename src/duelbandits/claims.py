"""The claims ledger: every checkable claim of the paper, the number that tests it and a verdict.

The rows come from the paper run's summary (``results/summary.parquet``: mean, std and runs of every
regret at every summary step, with the theorem bounds joined in) and, when they were built, from the
long horizons (``results/asymptotics/local.parquet``) and the Theorem 4.1 tail
(``results/maximin-tail/estimates.parquet``). Each verdict rule is a small function below, with its
tolerance derived from the numbers (an interval of a mean over runs, a slope's interval) and a
stated level; docs/claims.md writes them out. A verdict is ``holds``, ``fails``, ``inconclusive``
(the interval straddles the threshold) or ``not tested`` (with the reason).

A row says only what its runs know: a number from fewer than two runs has no interval and is ``not
tested`` (:data:`ONE_RUN`), and a claim about methods some of which were not run is ``not tested``
naming them (:func:`not_run`), never decided on the methods that were.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .algorithms import ALGORITHMS
from .errors import InputError

HOLDS, FAILS, INCONCLUSIVE, NOT_TESTED = "holds", "fails", "inconclusive", "not tested"

LEVEL = 0.95
"""Level of the one-sided limits of every verdict: ``mean +- z std / sqrt(runs)``, ``z = 1.645``."""

LINEAR = 0.9
"""A regret "grows linearly" when the low end of its local slope's interval (log R_t on log t over
the last decade of t) is at least this; it does not when the high end is below it."""

COMPARABLE = 2.0
""""Comparably strong": the ratio of mean final regrets to the best state-of-the-art method's is at most this."""


ONE_RUN = "one run: no interval"
"""The reason of a row computed from fewer than two runs: its number stands, with no interval (a
standard deviation over one run is no spread) and no verdict."""


def z_one_sided(level: float = LEVEL) -> float:
    from statistics import NormalDist

    return NormalDist().inv_cdf(level)


# --- Verdict rules (each tested at its boundary in tests/test_claims.py) -------------------------


def below(low: float, high: float, threshold: float) -> str:
    """A quantity claimed below ``threshold``: holds when the interval's high end is below it, fails
    when its low end is above it, inconclusive otherwise (and at equality)."""
    if not all(map(math.isfinite, (low, high, threshold))):
        return NOT_TESTED
    if high < threshold:
        return HOLDS
    if low > threshold:
        return FAILS
    return INCONCLUSIVE


def at_least(low: float, high: float, threshold: float) -> str:
    """A quantity claimed at least ``threshold``: holds when the interval's low end reaches it, fails
    when its high end is below it, inconclusive otherwise."""
    if not all(map(math.isfinite, (low, high, threshold))):
        return NOT_TESTED
    if low >= threshold:
        return HOLDS
    if high < threshold:
        return FAILS
    return INCONCLUSIVE


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


def mean_interval(mean: float, std: float, runs: int, level: float = LEVEL) -> tuple[float, float]:
    """One-sided ``level`` limits of a mean over ``runs`` runs: ``mean -+ z std / sqrt(runs)``."""
    half = z_one_sided(level) * std / math.sqrt(runs) if runs > 0 else math.inf
    return mean - half, mean + half


def log_slope(m_a: float, s_a: float, t_a: int, m_b: float, s_b: float, t_b: int, runs: int, level: float = LEVEL):
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


def ratio_interval(m_a, s_a, m_b, s_b, runs: int, level: float = LEVEL):
    """``m_a / m_b`` and its one-sided limits (delta method on the log ratio, independent samples)."""
    if min(m_a, m_b) <= 0:
        return math.nan, math.nan, math.nan
    se = math.sqrt((s_a / m_a) ** 2 / runs + (s_b / m_b) ** 2 / runs)
    z = z_one_sided(level)
    ratio = m_a / m_b
    return ratio, ratio * math.exp(-z * se), ratio * math.exp(z * se)


MEAN_REGRETS = {
    "summary": ["scenario", "algorithm", "regret"],
    "asymptotics-local": ["scenario", "algorithm", "regret", "actions", "horizon"],
    "tail-estimates": [],
    "tail-family": ["actions", "gap"],
}
"""The tables the ledger reads mean regrets from (column ``mean`` at step ``t``, or ``horizon`` where there
is no ``t``: each horizon's runs tuned to it), by the columns of one curve; no ``regret`` column: Maximin."""


def mean_regret_problem(frame, table: str) -> str | None:
    """Why the mean regrets of a table of :data:`MEAN_REGRETS` cannot be means of regrets (a mean of
    cumulative regrets is one: :func:`duelbandits.regret.curve_problem`), as one clause; None if they can
    be. Rows of no runs (a family member without a trap) hold none."""
    from .regret import curve_problem

    keys, step = MEAN_REGRETS[table], "t" if "t" in frame else "horizon"
    frame = frame[frame["runs"] > 0]
    for key, part in frame.sort_values(step).groupby(keys, sort=True) if keys else [((), frame.sort_values(step))]:
        kind = part["regret"].iloc[0] if "regret" in part else "maximin"
        name = "/".join(map(str, key)) or "the estimate"
        problem = curve_problem(kind, part[step].to_numpy(), part["mean"].to_numpy(), [f"{name} (mean)"])
        if problem:
            return problem
    return None


# --- The ledger -----------------------------------------------------------------------------------


@dataclass
class Claim:
    claim: str
    where: str
    statement: str
    quantity: str
    method: str
    value: float
    low: float
    high: float
    threshold: float
    verdict: str
    reason: str
    figure: str


def one_run(row: Claim) -> Claim:
    """``row`` computed from fewer than two runs: the same number, no interval, ``not tested``
    (:data:`ONE_RUN`, then the reason it was not tested anyway, if it was not)."""
    reason = ONE_RUN + (f"; {row.reason}" if row.verdict == NOT_TESTED and row.reason else "")
    return replace(row, low=math.nan, high=math.nan, verdict=NOT_TESTED, reason=reason)


def not_run(missing) -> str:
    """The reason of a claim about methods ``missing`` (slugs) were not run, by their labels:
    ``ISS not run``, ``ISS and DTS not run``."""
    names = [LABELS.get(a, a) for a in missing]
    return f"{', '.join(names[:-1])} and {names[-1]} not run" if len(names) > 1 else f"{names[0]} not run"


def not_tested(claim, where, statement, quantity, method, figure, reason: str) -> Claim:
    """A claim that could not be tested: no number, no interval, ``not tested`` and why."""
    nan = math.nan
    return Claim(claim, where, statement, quantity, method, nan, nan, nan, nan, NOT_TESTED, reason, figure)


def untested(claim, where, statement, quantity, method, figure, missing) -> Claim:
    """A claim about methods of which ``missing`` were not run: ``not tested`` naming them."""
    return not_tested(claim, where, statement, quantity, method, figure, not_run(missing))


def all_below(parts, claim, where, statement, quantity, method, figure) -> Claim:
    """The conjunction of theorem rows ``parts``: the largest R_T / bound with its limits, against 1
    (``not tested``, :data:`ONE_RUN`, when a part was computed from fewer than two runs)."""
    row = Claim(
        claim,
        where,
        statement,
        quantity,
        method,
        max(p.value / p.threshold for p in parts),
        max(p.low / p.threshold for p in parts),
        max(p.high / p.threshold for p in parts),
        1.0,
        every(p.verdict for p in parts),
        ", ".join(f"{p.claim.split(' (')[0]}: {p.verdict}" for p in parts),
        figure,
    )
    return replace(one_run(row), reason=ONE_RUN) if any(p.reason.startswith(ONE_RUN) for p in parts) else row


SEEDS = "runs 0-{last}, run r's stream SeedSequence([seed, scenario, algorithm, r])"

LABELS = {slug: a.label for slug, a in ALGORITHMS.items() if a.family == "paper"}
"""The paper's six algorithms, whose claims the ledger checks, by their labels (from the registry)."""


def _final(summary, scenario: str, algorithm: str, regret: str, t: float | None = None):
    part = summary[(summary["scenario"] == scenario) & (summary["algorithm"] == algorithm)]
    part = part[part["regret"] == regret]
    if part.empty:
        return None
    t = int(part["t"].max()) if t is None else int(part["t"].iloc[np.argmin(np.abs(part["t"] - t))])
    return part[part["t"] == t].iloc[0]


def _shown(summary, scenario: str, algorithm: str):
    """The row of the regret the scenario's figure shows for ``algorithm`` (``paper`` true), at T;
    InputError for a summary that holds the algorithm's runs but not that regret (the pipeline's holds it)."""
    part = summary[(summary["scenario"] == scenario) & (summary["algorithm"] == algorithm) & summary["paper"]]
    if part.empty:
        raise InputError(
            f"the summary holds {algorithm}'s runs on {scenario} but no row of the regret its figure shows "
            "(paper true): not a summary the pipeline wrote"
        )
    return _final(summary, scenario, algorithm, part["regret"].iloc[0])


def _ran(summary, scenario: str) -> set:
    """The algorithms the summary holds runs of on ``scenario``."""
    return set(summary.loc[summary["scenario"] == scenario, "algorithm"])


def theorem_rows(summary, level: float = LEVEL) -> list[Claim]:
    """Theorems 4.1-4.4 on the paper run's own results at its horizon, on both scenarios (``not
    tested`` on a scenario the theorem's algorithm was not run on)."""
    from .theorems import THEOREMS

    rows = []
    z = z_one_sided(level)
    for algorithm, theorem in THEOREMS.items():
        for scenario in sorted(summary["scenario"].unique()):
            if algorithm in LABELS and algorithm not in _ran(summary, scenario):
                rows.append(
                    untested(
                        f"Theorem {theorem.name} ({scenario})",
                        f"Theorem {theorem.name} (Section 4)",
                        f"{LABELS[algorithm]}'s expected {theorem.regret} regret is at most the bound, for every X",
                        f"mean {theorem.regret} regret of {LABELS[algorithm]} at T on the {scenario} matrix",
                        "paper run: the summary holds no run of it",
                        f"figures/main/{scenario}.png (d); figures/appendix/{scenario}-{algorithm}.png (a)",
                        [algorithm],
                    )
                )
                continue
            row = _final(summary, scenario, algorithm, theorem.regret)
            if row is None:
                continue
            T, runs = int(row["t"]), int(row["runs"])
            bound = float(row["bound"])  # null where T misses the theorem's requirement: not tested
            low, high = mean_interval(row["mean"], row["std"], runs, level)
            verdict = below(low, high, bound)
            claim = Claim(
                f"Theorem {theorem.name} ({scenario})",
                f"Theorem {theorem.name} (Section 4)",
                f"{LABELS[algorithm]}'s expected {theorem.regret} regret is at most the bound, for every X",
                f"mean {theorem.regret} regret of {LABELS[algorithm]} at T = {T:,} on the {scenario} matrix",
                f"paper run, {runs} runs ({SEEDS.format(last=runs - 1)}); one-sided {level:g} limits "
                f"mean -+ {z:.3f} std/sqrt({runs}) against the bound {bound:,.0f}",
                float(row["mean"]),
                low,
                high,
                bound,
                verdict,
                f"R_T / bound = {row['mean'] / bound:.3f}"
                if verdict != NOT_TESTED
                else f"T = {T:,} misses Theorem {theorem.name}'s horizon requirement",
                f"figures/main/{scenario}.png (d); figures/appendix/{scenario}-{algorithm}.png (a)",
            )
            rows.append(one_run(claim) if runs < 2 else claim)
    return rows


def slope_claim(
    summary, scenario, algorithm, regret, name, where, statement, level=LEVEL, ultimately: bool = False
) -> Claim:
    """ "``regret`` grows linearly" over the last decade of the paper's horizon (:func:`log_slope`,
    :func:`at_least`). A claim of what happens *ultimately* is not refuted by a slope below the
    threshold at T: it is then inconclusive (the long-horizon row decides). ``not tested`` when
    ``algorithm`` was not run on ``scenario``."""
    figure = f"figures/main/{scenario}.png (c); figures/appendix/{scenario}-{algorithm}.png (a)"
    if algorithm not in _ran(summary, scenario):
        quantity = f"local slope of log mean {regret} regret on log t of {LABELS[algorithm]} ({scenario})"
        return untested(
            name, where, statement, quantity, "paper run: the summary holds no run of it", figure, [algorithm]
        )
    end = _final(summary, scenario, algorithm, regret)
    T = int(end["t"])
    start = _final(summary, scenario, algorithm, regret, T / 10)  # the step nearest T/10 (docs/claims.md)
    runs = int(end["runs"])
    slope, low, high = log_slope(start["mean"], start["std"], int(start["t"]), end["mean"], end["std"], T, runs, level)
    verdict = at_least(low, high, LINEAR)
    claim = Claim(
        name,
        where,
        statement,
        f"local slope of log mean {regret} regret on log t of {LABELS[algorithm]}, t = {int(start['t']):,} to {T:,} "
        f"({scenario})",
        f"paper run, {runs} runs ({SEEDS.format(last=runs - 1)}); delta-method one-sided {level:g} limits "
        f"(ends taken as independent: conservative); linear when the low end >= {LINEAR}",
        slope,
        low,
        high,
        LINEAR,
        INCONCLUSIVE if ultimately and verdict != HOLDS else verdict,
        f"R_T / T = {end['mean'] / T:.4f}"
        + (
            "; not linear yet at the paper's horizon, which 'ultimately' allows"
            if ultimately and verdict != HOLDS
            else ""
        ),
        figure,
    )
    return one_run(claim) if runs < 2 else claim


def section5_rows(summary, theorems: list[Claim], level: float = LEVEL) -> list[Claim]:
    """The checkable statements of Section 5 (Results) on the paper run. A statement about methods
    some of which were not run on its scenario is ``not tested``, naming them (:func:`untested`); one
    computed from fewer than two runs has no interval (:func:`one_run`)."""
    from .theorems import THEOREMS

    rows = []
    runs = int(summary["runs"].max())
    seeds = SEEDS.format(last=runs - 1)
    by_name = {c.claim: c for c in theorems}

    def intervals(scenario):
        out = {}
        for algorithm in LABELS:
            if algorithm in _ran(summary, scenario):
                row = _shown(summary, scenario, algorithm)
                out[algorithm] = (row, mean_interval(row["mean"], row["std"], int(row["runs"]), level))
        return out

    def fewest(*parts) -> int:
        return min(int(row["runs"]) for row in parts)

    def bounded(names, scenario) -> list[str]:
        """The paper's algorithms of the theorems ``names`` that were not run on ``scenario``."""
        ran = _ran(summary, scenario)
        return [a for a, theorem in THEOREMS.items() if a in LABELS and theorem.name in names and a not in ran]

    if "condorcet" in set(summary["scenario"]):
        cond = intervals("condorcet")
        sota = [a for a in ("iss", "dts") if a in cond]
        claim = (
            "S5 condorcet: state of the art very strong",
            "Section 5.2, Condorcet scenario",
            "both state-of-the-art methods (ISS, DTS) show very strong regret performance",
            "mean final regret of the figure's regret (all coincide here up to the winner's definitions), "
            "ISS and DTS against the paper's four",
            f"paper run, {runs} runs ({seeds}); holds when ISS's and DTS's one-sided {level:g} upper limits are "
            "below every other method's lower limit",
        )
        missing = [a for a in LABELS if a not in cond]  # ISS and DTS against all four others
        if missing:
            rows.append(untested(*claim, "figures/main/condorcet.png (c)", missing))
        else:
            verdict = smallest({a: iv for a, (_, iv) in cond.items()}, sota)
            weaker = max(sota, key=lambda a: cond[a][0]["mean"])
            worst = cond[weaker][0]["mean"]
            rest = min(cond[a][0]["mean"] for a in cond if a not in sota)
            row = Claim(
                *claim,
                worst,
                cond[weaker][1][0],
                cond[weaker][1][1],
                rest,
                verdict,
                f"largest of ISS, DTS {worst:,.1f}; smallest of the others {rest:,.1f}",
                "figures/main/condorcet.png (c)",
            )
            rows.append(one_run(row) if fewest(*(r for r, _ in cond.values())) < 2 else row)
        missing = [a for a in ("ts-borda", "iss", "dts") if a not in cond]
        if missing:
            rows.append(
                untested(
                    "S5 condorcet: TS-Borda comparably strong",
                    "Section 5.2, Condorcet scenario",
                    "TS-Borda shows comparably strong performance (to ISS and DTS)",
                    "TS-Borda's mean final Borda regret over the smaller of ISS's and DTS's mean final Maximin regrets",
                    f"paper run, {runs} runs ({seeds}); delta-method one-sided {level:g} limits of the ratio; "
                    f"comparable when the ratio is at most {COMPARABLE:g}",
                    "figures/main/condorcet.png (c)",
                    missing,
                )
            )
        else:
            best = min(sota, key=lambda a: cond[a][0]["mean"])
            a, b = cond["ts-borda"][0], cond[best][0]
            ratio, low, high = ratio_interval(a["mean"], a["std"], b["mean"], b["std"], runs, level)
            four = [x for x in cond if x not in sota]
            row = Claim(
                "S5 condorcet: TS-Borda comparably strong",
                "Section 5.2, Condorcet scenario",
                "TS-Borda shows comparably strong performance (to ISS and DTS)",
                f"TS-Borda's mean final Borda regret over {LABELS[best]}'s mean final Maximin regret (the same "
                "winner here)",
                f"paper run, {runs} runs ({seeds}); delta-method one-sided {level:g} limits of the ratio; "
                f"comparable when the ratio is at most {COMPARABLE:g}",
                ratio,
                low,
                high,
                COMPARABLE,
                below(low, high, COMPARABLE),  # inconclusive at a high end equal to the threshold
                f"TS-Borda {a['mean']:,.1f} vs {LABELS[best]} {b['mean']:,.1f}, comparable only for a factor "
                f">= {high:.1f}; the best of the paper's four {'' if len(four) == 4 else 'that were run '}is "
                f"{LABELS[min(four, key=lambda x: cond[x][0]['mean'])]}",
                "figures/main/condorcet.png (c)",
            )
            rows.append(one_run(row) if fewest(a, b) < 2 else row)
        names = [f"Theorem {n} (condorcet)" for n in ("4.1", "4.2", "4.3", "4.4")]
        claim = (
            "S5 condorcet: every method beats its bound",
            "Section 5.2, Condorcet scenario",
            "all methods beat the regret upper bounds proposed in their respective theorems",
            "the four theorem rows on the condorcet matrix (largest R_T / bound reported)",
            "conjunction of the rows Theorem 4.1-4.4 (condorcet)",
            "figures/main/condorcet.png (d)",
        )
        missing = bounded(("4.1", "4.2", "4.3", "4.4"), "condorcet")
        parts = [by_name[n] for n in names if n in by_name]
        rows.append(untested(*claim, missing) if missing else all_below(parts, *claim))
    if "borda" in set(summary["scenario"]):
        for algorithm in ("iss", "dts"):
            rows.append(
                slope_claim(
                    summary,
                    "borda",
                    algorithm,
                    "borda",
                    f"S5 borda: {LABELS[algorithm]}'s Borda regret linear",
                    "Section 5.2, Borda scenario",
                    "both state-of-the-art methods struggle with Borda winners, and so their Borda regret grows "
                    "linearly",
                    level,
                )
            )
        rows.append(
            slope_claim(
                summary,
                "borda",
                "sparring-exp3p",
                "borda",
                "S5 borda: SparringExp3.P ultimately linear (T = 40,000)",
                "Section 5.2, Borda scenario",
                "a similar behaviour (linear Borda regret) ultimately happens to SparringExp3.P",
                level,
                ultimately=True,
            )
        )
        bor = intervals("borda")
        claim = (
            "S5 borda: Thompson Sampling shines",
            "Section 5.2, Borda scenario",
            "Thompson Sampling (TS-Borda) shines in the Borda scenario",
            "TS-Borda's mean final Borda regret against every other method's",
            f"paper run, {runs} runs ({seeds}); holds when TS-Borda's one-sided {level:g} upper limit is "
            "below every other method's lower limit",
        )
        missing = [a for a in LABELS if a not in bor]  # TS-Borda against all five others
        if missing:
            rows.append(untested(*claim, "figures/main/borda.png (c)", missing))
        else:
            verdict = smallest({a: iv for a, (_, iv) in bor.items()}, ["ts-borda"])
            rest = min(bor[a][0]["mean"] for a in bor if a != "ts-borda")
            row, (low, high) = bor["ts-borda"]
            shines = Claim(
                *claim,
                float(row["mean"]),
                low,
                high,
                rest,
                verdict,
                f"next smallest mean {rest:,.1f}",
                "figures/main/borda.png (c)",
            )
            rows.append(one_run(shines) if fewest(*(r for r, _ in bor.values())) < 2 else shines)
        names = ["Theorem 4.2 (borda)", "Theorem 4.4 (borda)"]
        claim = (
            "S5 borda: Borda methods beat their bounds",
            "Section 5.2, Borda scenario",
            "both methods that focus on Borda winners (TS-Borda, Partial Monitoring) beat their regret upper bounds",
            "the rows Theorem 4.2 and 4.4 on the borda matrix (largest R_T / bound reported)",
            "conjunction of the rows Theorem 4.2 (borda) and Theorem 4.4 (borda)",
            "figures/main/borda.png (d)",
        )
        missing = bounded(("4.2", "4.4"), "borda")
        parts = [by_name[n] for n in names if n in by_name]
        if missing:
            rows.append(untested(*claim, missing))
        elif parts:
            rows.append(all_below(parts, *claim))
    return rows


def long_horizon_rows(local, level: float = LEVEL) -> list[Claim]:
    """Theorems 4.1-4.4 at the longest horizon of the asymptotics target, and SparringExp3.P's Borda
    regret's last local exponent; one "not tested" row when that target was not built."""
    if local is None:
        return [
            not_tested(
                "Theorems 4.1-4.4 at long horizons",
                "Theorems 4.1-4.4 (Section 4)",
                "each bound holds at every horizon",
                "mean regret at the asymptotics target's longest horizon",
                "results/asymptotics/local.parquet",
                "figures/asymptotics/{scenario}.png",
                "the asymptotics target was not built (snakemake --cores 2 asymptotics)",
            )
        ]
    rows = []
    # mutmut equivalent: groupby's sort=True dropped: pandas sorts groups by default
    for (scenario, algorithm, regret), part in local.groupby(["scenario", "algorithm", "regret"], sort=True):  # noqa: E501  # pragma: no mutate
        last = part.sort_values("horizon").iloc[-1]
        T, runs = int(last["horizon"]), int(last["runs"])
        if isinstance(last["theorem"], str) and last["theorem"] and np.isfinite(last["bound"]):
            low, high = mean_interval(last["mean"], last["std"], runs, level)
            row = Claim(
                f"Theorem {last['theorem']} ({scenario}, T = {T:,})",
                f"Theorem {last['theorem']} (Section 4)",
                f"{LABELS.get(algorithm, algorithm)}'s expected {regret} regret is at most the theorem's bound",
                f"mean {regret} regret at T = {T:,} (asymptotics target, each run tuned to T)",
                f"{runs} runs (asymptotics; {SEEDS.format(last=runs - 1)} at horizon T); one-sided {level:g} "
                "limits of the mean",
                float(last["mean"]),
                low,
                high,
                float(last["bound"]),
                below(low, high, float(last["bound"])),
                f"R_T / bound = {last['ratio']:.3f}",
                f"figures/asymptotics/{scenario}.png",
            )
            rows.append(one_run(row) if runs < 2 else row)
        if scenario == "borda" and algorithm == "sparring-exp3p" and regret == "borda" and np.isfinite(last["slope"]):
            row = Claim(
                f"S5 borda: SparringExp3.P ultimately linear (T = {T:,})",
                "Section 5.2, Borda scenario",
                "a similar behaviour (linear Borda regret) ultimately happens to SparringExp3.P",
                f"local exponent of mean Borda regret across horizons {int(last['from_horizon']):,} -> {T:,}",
                f"asymptotics target, {runs} runs; {last['confidence']:g} percentile bootstrap interval; "
                f"linear when the low end >= {LINEAR}",
                float(last["slope"]),
                float(last["ci_low"]),
                float(last["ci_high"]),
                LINEAR,
                at_least(float(last["ci_low"]), float(last["ci_high"]), LINEAR),
                "across horizons, each run tuned to its T",
                "figures/asymptotics/borda.png",
            )
            fewest = int(part.loc[part["horizon"].isin([last["from_horizon"], T]), "runs"].min())
            rows.append(one_run(row) if fewest < 2 else row)
    return rows


def tail_row(estimates, verdict_text: str | None) -> Claim:
    """Theorem 4.1 past the paper's horizon, from the maximin-tail target (or "not tested")."""
    if estimates is None:
        return not_tested(
            "Theorem 4.1 (borda, past 10^7)",
            "Theorem 4.1 (Section 4)",
            "TS-Maximin's expected Maximin regret is at most A/sqrt(2) sqrt(log A) sqrt(T), for every X and T",
            "stratified E[R_t] of TS-Maximin on the borda matrix far past the paper's horizon",
            "results/maximin-tail/estimates.parquet",
            "figures/maximin-tail/tail.png (a, b); results/maximin-tail/tail.md",
            "the maximin-tail target was not built (snakemake --cores 2 maximin_tail)",
        )
    frame = estimates.sort_values("t")
    exceeded = frame[frame["verdict"] == "exceeded"]
    row = exceeded.iloc[0] if len(exceeded) else frame.iloc[-1]
    # mutmut equivalent: `and False` on a step exceeded: the tail target writes `exceeded` exactly when the low end is
    # above the bound (tail.py), which below() calls fails
    verdict = FAILS if len(exceeded) else below(float(row["low"]), float(row["high"]), float(row["bound"]))  # noqa: E501  # pragma: no mutate
    claim = Claim(
        f"Theorem 4.1 (borda, t = {int(row['t']):,})",
        "Theorem 4.1 (Section 4)",
        "TS-Maximin's expected Maximin regret is at most A/sqrt(2) sqrt(log A) sqrt(T), for every X and T",
        f"E[R_t] of TS-Maximin on the borda matrix at t = {int(row['t']):,} (first t exceeded, else the last)",
        f"maximin-tail: {int(row['runs']):,} runs to the first horizon, {int(row['trapped_runs'])} trapped and "
        f"{int(row['free_runs_continued'])} free continued; two-phase stratified mean, two-sided "
        f"{row['confidence']:g} normal interval",
        float(row["mean"]),
        float(row["low"]),
        float(row["high"]),
        float(row["bound"]),
        verdict,
        verdict_text or "",
        "figures/maximin-tail/tail.png (a, b); results/maximin-tail/tail.md",
    )
    return one_run(claim) if int(row["runs"]) < 2 else claim


def family_row(family) -> Claim:
    """Theorem 4.1 on the small family of duelbandits.tail_family.family_matrix: the member whose interval first
    lies above the bound (fails), else the largest t searched (or "not tested")."""
    statement = "TS-Maximin's expected Maximin regret is at most A/sqrt(2) sqrt(log A) sqrt(T), for every X and T"

    def family_not_tested(reason: str) -> Claim:
        return not_tested(
            "Theorem 4.1 (small family)",
            "Theorem 4.1 (Section 4)",
            statement,
            "mean Maximin regret of TS-Maximin on a small family of trap matrices",
            "results/maximin-tail/family.parquet",
            "figures/maximin-tail/tail.png (b); results/maximin-tail/family.md",
            reason,
        )

    if family is None:
        return family_not_tested("the maximin_tail target was not built (snakemake --cores 2 maximin_tail)")
    over = family[family["verdict"] == "exceeded"].sort_values(["t", "actions", "gap"])
    tested = family[family["verdict"] != "no trap"]
    if tested.empty:
        return family_not_tested("no member of the family searched has a trap (see results/maximin-tail/family.md)")
    row = over.iloc[0] if len(over) else tested.sort_values(["t", "ratio"]).iloc[-1]
    # mutmut equivalent: `and False` on a member exceeded: the tail target writes `exceeded` exactly when the low end is
    # above the bound (tail.py), which below() calls fails
    verdict = FAILS if len(over) else below(float(row["low"]), float(row["high"]), float(row["bound"]))  # noqa: E501  # pragma: no mutate
    claim = Claim(
        f"Theorem 4.1 (A = {int(row['actions'])}, gap {row['gap']:g}, t = {int(row['t']):,})",
        "Theorem 4.1 (Section 4)",
        statement,
        "mean Maximin regret of TS-Maximin on the family member whose interval first lies above the bound "
        "(else the largest ratio at the last t)",
        f"{int(row['runs'])} runs per member, seed stream SeedSequence([seed, 'maximin-tail', 'family', A, "
        f"1000 gap, run]); two-sided 0.95 normal interval; {tested[['actions', 'gap']].drop_duplicates().shape[0]} "
        f"members with a trap searched up to t = {int(family['t'].max()):,}",
        float(row["mean"]),
        float(row["low"]),
        float(row["high"]),
        float(row["bound"]),
        verdict,
        f"R_t / bound = {row['ratio']:.2f}{family_sharpened(family, row)}",
        "figures/maximin-tail/tail.png (b); results/maximin-tail/family.md",
    )
    return one_run(claim) if int(row["runs"]) < 2 else claim


def family_sharpened(family, row) -> str:
    """The family row's crossing, growth exponent and reach (smallest A, largest gap failing), as a clause."""
    from .tail_family import family_extremes

    parts = []
    if "crossing" in row.index and not math.isnan(row["crossing"]):
        high = "beyond the grid" if math.isnan(row["crossing_high"]) else f"{row['crossing_high']:,.0f}"
        parts.append(f"E[R_t] crosses the bound at t = {row['crossing']:,.0f} [{row['crossing_low']:,.0f}, {high}]")
        if not math.isnan(row["exponent"]):
            parts.append(
                f"grows like t^{row['exponent']:.2f} [{row['exponent_low']:.2f}, {row['exponent_high']:.2f}] past it"
            )
    extremes = family_extremes(family)
    if extremes is not None:
        (small, _), (large, _) = extremes
        parts.append(f"within the grid, fails down to A = {small} and up to gap {large:g}")
    return "; " + "; ".join(parts) if parts else ""


def bayes_row(estimates, verdict_text: str | None = None) -> Claim:
    """Theorem 4.1 read as a Bayesian bound, from the maximin-bayes target (or "not tested"): the A whose
    interval on ``E[R_T] / bound`` first lies above 1 (fails), else the one with the highest upper end; the
    verdict ``every`` of the per-A verdicts."""
    from .bayes import PRIOR, prior_name

    claim = f"Theorem 4.1 (Bayesian, prior: {PRIOR if estimates is None else prior_name(estimates)})"
    statement = "TS-Maximin's Bayesian Maximin regret (X drawn from the prior) is at most A/sqrt(2) sqrt(log A) sqrt(T)"
    figure = "results/maximin-bayes/bayes.md"
    if estimates is None or estimates.empty:
        return not_tested(
            claim,
            "Theorem 4.1 (Section 4; its proof)",
            statement,
            "E[R_T] / bound over matrices drawn from the prior",
            "results/maximin-bayes/estimates.parquet",
            figure,
            "the maximin_bayes target was not built (snakemake --cores 2 maximin_bayes)",
        )
    verdicts = [below(low, high, 1.0) for low, high in zip(estimates["low"], estimates["high"])]
    failing = estimates[[v == FAILS for v in verdicts]].sort_values("actions")
    row = failing.iloc[0] if len(failing) else estimates.sort_values(["high", "actions"]).iloc[-1]
    verdict = every(verdicts)
    return Claim(
        f"{claim} (A = {int(row['actions'])}, T = {int(row['horizon']):,})",
        "Theorem 4.1 (Section 4; its proof)",
        statement,
        f"E[R_T] / bound of TS-Maximin over the prior at A = {int(row['actions'])} (the first A above 1, else "
        "the highest upper end)",
        f"maximin-bayes: A = {', '.join(str(int(a)) for a in estimates['actions'])}, {int(row['matrices'])} "
        f"matrices x {int(row['runs_per_matrix'])} runs each; mean of the matrix means, two-sided "
        f"{row['confidence']:g} normal interval from their spread",
        float(row["ratio"]),
        float(row["low"]),
        float(row["high"]),
        1.0,
        verdict,
        (verdict_text or "") + f"; {100 * row['share_above']:.1f}% of the drawn matrices above the bound",
        figure,
    )


READINGS = {
    "fixed": {HOLDS: "holds on this fixed matrix", FAILS: "fails as a bound on a fixed matrix"},
    "bayes": {HOLDS: "holds as a Bayesian bound (prior: {prior})", FAILS: "fails as a Bayesian bound (prior: {prior})"},
}
"""The verdict of a Theorem 4.1 row says which reading it tests: a bound on every fixed matrix (the paper's
use of it), or a bound on the Bayesian regret (what its proof gives). ``inconclusive`` and ``not tested``
stay as they are."""


def reading(row: Claim) -> Claim:
    """``row`` with its verdict qualified by the reading of Theorem 4.1 it tests (:data:`READINGS`)."""
    if not row.claim.startswith("Theorem 4.1 ("):
        return row
    kind = "bayes" if row.claim.startswith("Theorem 4.1 (Bayesian") else "fixed"
    text = READINGS[kind].get(row.verdict)
    prior = row.claim.partition("prior: ")[2].partition(")")[0]  # the Bayesian row names its prior
    return replace(row, verdict=text.format(prior=prior)) if text else row


def ledger(
    summary,
    local=None,
    estimates=None,
    tail_verdict: str | None = None,
    level: float = LEVEL,
    family=None,
    bayes=None,
    bayes_verdict: str | None = None,
):
    """The claims as a DataFrame of :data:`duelbandits.schemas.CLAIM_SCHEMA`'s columns; the Theorem 4.1 rows'
    verdicts name the reading they test (:func:`reading`), after every rule built on them has run."""
    import pandas as pd

    from .schemas import CLAIM_SCHEMA

    theorems = theorem_rows(summary, level)
    rows = theorems + section5_rows(summary, theorems, level) + long_horizon_rows(local, level)
    rows.append(tail_row(estimates, tail_verdict))
    rows.append(family_row(family))
    rows.append(bayes_row(bayes, bayes_verdict))
    # mutmut equivalent: columns=None or columns dropped: the rows are Claim's fields, in CLAIM_SCHEMA's order, and the
    # ledger always has rows
    return pd.DataFrame([vars(reading(r)) for r in rows], columns=CLAIM_SCHEMA.names)  # pragma: no mutate
