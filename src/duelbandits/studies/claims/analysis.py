"""The claims ledger: every checkable claim of the paper, the number that tests it and a verdict.

The claims are data (:data:`DATA`, src/duelbandits/data/claims.yaml: texts, rule, threshold); each names a
rule of :data:`RULES`, which computes its number from the paper run's summary and, when they were built,
the long horizons, the Theorem 4.1 tail and family and the Bayesian reading, with a tolerance derived from
the numbers (an interval of a mean over runs, a slope's interval) at a stated level (docs/claims.md), and
a verdict by the rules of :mod:`.verdicts`.

A row says only what its runs know: a number from fewer than two runs has no interval and is ``not
tested`` (:data:`ONE_RUN`), and a claim about methods some of which were not run is ``not tested``
naming them (:func:`not_run`), never decided on the methods that were.
"""

from __future__ import annotations

import math
from dataclasses import field, make_dataclass, replace
from pathlib import Path

import numpy as np
import yaml

from ...algorithms import ALGORITHMS
from ...errors import InputError
from ...schemas import CLAIM_SCHEMA
from .verdicts import (
    FAILS,
    HOLDS,
    INCONCLUSIVE,
    NOT_TESTED,
    at_least,
    below,
    every,
    log_slope,
    mean_interval,
    ratio_interval,
    smallest,
    z_one_sided,
)

DATA_FILE = Path(__file__).parents[2] / "data" / "claims.yaml"
DATA = yaml.safe_load(DATA_FILE.read_text(encoding="utf-8"))
"""The ledger's rows as data (:data:`DATA_FILE`, package data): each claim's texts, rule and threshold."""

LEVEL = DATA["level"]
"""Level of the one-sided limits of every verdict: ``mean +- z std / sqrt(runs)``, ``z = 1.645``."""

READINGS = DATA["readings"]
"""Which reading of Theorem 4.1 a row tests: a bound on every fixed matrix, or on the Bayesian regret."""

ONE_RUN = "one run: no interval"
"""The reason of a row from fewer than two runs: its number stands, with no interval and no verdict."""


# --- The ledger -----------------------------------------------------------------------------------


TEXTS = ("claim", "where", "statement", "quantity", "method")

THIS_RUN, ARCHIVE, NONE = "this run", "archive", "-"
"""Where a row's table came from: built in this folder (or given), the archive (:mod:`.archive`), not built."""

Claim = make_dataclass("Claim", [*CLAIM_SCHEMA.names[:-1], ("source", str, field(default=THIS_RUN))])
"""A row of the ledger, a row of :data:`duelbandits.schemas.CLAIM_SCHEMA`: its texts, its number and interval
(NaN: none), threshold, verdict, reason, figure and the source of its table (:data:`THIS_RUN`, :data:`ARCHIVE`,
:data:`NONE`)."""

LABELS = {slug: a.label for slug, a in ALGORITHMS.items() if a.family == "paper"}
"""The paper's six algorithms, whose claims the ledger checks, by their labels (from the registry)."""


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


def row(spec, ctx, value, low, high, threshold, verdict, reason=None, runs=2) -> Claim:
    """The row of ``spec`` (an entry of :data:`DATA`) with its texts filled from ``ctx``; ``reason`` replaces
    the spec's (its ``no bound``, if it has one, when not tested); from fewer than two ``runs``: :func:`one_run`."""
    ctx = {**ctx, "seeds": DATA["seeds"].format(last=ctx["runs"] - 1)} if "runs" in ctx else ctx
    texts = [spec[key].format_map(ctx) for key in TEXTS]
    case = "no bound" if verdict == NOT_TESTED and "no bound" in spec else "reason"
    reason = spec.get(case, "").format_map(ctx) if reason is None else reason
    claim = Claim(*texts, value, low, high, threshold, verdict, reason, spec["figure"].format_map(ctx))
    return one_run(claim) if runs < 2 else claim


def not_tested(spec, ctx, reason: str | None = None, case: str = "not built") -> Claim:
    """The row of a claim that could not be tested (the texts of ``spec[case]`` over the spec's): no number,
    no interval, ``not tested`` and why (``reason``, else the case's)."""
    spec, nan = {**spec, **spec.get(case, {})}, math.nan
    return row(spec, ctx, nan, nan, nan, nan, NOT_TESTED, spec["reason"] if reason is None else reason)


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


def _intervals(d, scenario) -> dict:
    """The paper's methods run on ``scenario``: slug -> (final row of the figure's regret, its interval)."""
    ran = _ran(d["summary"], scenario)
    shown = {a: _shown(d["summary"], scenario, a) for a in LABELS if a in ran}
    return {a: (r, mean_interval(r["mean"], r["std"], int(r["runs"]), d["level"])) for a, r in shown.items()}


# --- The rules, by the name the data gives them ---------------------------------------------------


def _below_bound(spec, c, mean, std, bound: float, level: float) -> Claim:
    """The row of a mean regret over ``c["runs"]`` runs :func:`below` ``bound``, by its one-sided limits."""
    low, high = mean_interval(mean, std, c["runs"], level)
    return row(spec, c, float(mean), low, high, bound, below(low, high, bound), runs=c["runs"])


def rule_bound(spec, d, ctx) -> list[Claim]:
    """Theorems 4.1-4.4 at the paper run's horizon on every scenario: the mean's interval :func:`below` the
    bound (``not tested`` where T misses the theorem's requirement, or the method was not run)."""
    from ...theorems import THEOREMS

    rows = []
    for algorithm, theorem in THEOREMS.items():
        for scenario in sorted(d["summary"]["scenario"].unique()):
            c = {**ctx, "theorem": theorem.name, "scenario": scenario, "algorithm": algorithm}
            c |= {"regret": theorem.regret, "label": LABELS[algorithm]}
            if algorithm not in _ran(d["summary"], scenario):
                rows.append(not_tested(spec, c, not_run([algorithm]), "not run"))
                continue
            end = _final(d["summary"], scenario, algorithm, theorem.regret)
            if end is None:
                continue
            bound = float(end["bound"])  # null where T misses the theorem's requirement: not tested
            c |= {"T": int(end["t"]), "runs": int(end["runs"]), "bound": bound, "ratio": end["mean"] / bound}
            rows.append(_below_bound(spec, c, end["mean"], end["std"], bound, d["level"]))
    return rows


def rule_smallest(spec, d, ctx) -> list[Claim]:
    """The methods ``which`` have the :func:`smallest` mean final regrets of the paper's methods."""
    ivs = _intervals(d, spec["scenario"])
    missing = [a for a in LABELS if a not in ivs]
    if missing:
        return [not_tested(spec, ctx, not_run(missing), "not run")]
    which = spec["which"]
    weaker = max(which, key=lambda a: ivs[a][0]["mean"])
    worst, (low, high) = ivs[weaker][0]["mean"], ivs[weaker][1]
    rest = min(r["mean"] for a, (r, _) in ivs.items() if a not in which)
    verdict = smallest({a: iv for a, (_, iv) in ivs.items()}, which)
    fewest = min(int(r["runs"]) for r, _ in ivs.values())
    return [row(spec, {**ctx, "worst": worst, "rest": rest}, worst, low, high, rest, verdict, runs=fewest)]


def rule_ratio(spec, d, ctx) -> list[Claim]:
    """The mean final regret of ``of`` over the best of ``over``'s, :func:`below` the threshold
    (:func:`ratio_interval`); inconclusive at a high end equal to the threshold."""
    ivs = _intervals(d, spec["scenario"])
    missing = [a for a in (spec["of"], *spec["over"]) if a not in ivs]
    if missing:
        return [not_tested(spec, ctx, not_run(missing), "not run")]
    best = min(spec["over"], key=lambda a: ivs[a][0]["mean"])
    a, b = ivs[spec["of"]][0], ivs[best][0]
    ratio, low, high = ratio_interval(a["mean"], a["std"], b["mean"], b["std"], ctx["runs"], d["level"])
    rest = [x for x in ivs if x not in spec["over"]]
    c = {**ctx, "best": LABELS[best], "of": a["mean"], "over": b["mean"], "high": high}
    c |= {"were_run": "" if len(rest) == 4 else "that were run "}
    c["best_of_rest"] = LABELS[min(rest, key=lambda x: ivs[x][0]["mean"])]
    verdict = below(low, high, spec["threshold"])
    return [row(spec, c, ratio, low, high, spec["threshold"], verdict, runs=min(int(a["runs"]), int(b["runs"])))]


def rule_every(spec, d, ctx) -> list[Claim]:
    """The conjunction of the theorem rows of ``theorems`` on ``scenario``: the largest R_T / bound with its
    limits, against 1 (``not tested``, :data:`ONE_RUN`, when a part was computed from fewer than two runs)."""
    from ...theorems import THEOREMS

    names, ran = spec["theorems"], _ran(d["summary"], spec["scenario"])
    missing = [a for a, th in THEOREMS.items() if a in LABELS and th.name in names and a not in ran]
    if missing:
        return [not_tested(spec, ctx, not_run(missing), "not run")]
    parts = [d["rows"][n] for n in (f"Theorem {n} ({spec['scenario']})" for n in names) if n in d["rows"]]
    if not parts:
        return []
    ends = [max(getattr(p, end) / p.threshold for p in parts) for end in ("value", "low", "high")]
    reason = ", ".join(f"{p.claim.split(' (')[0]}: {p.verdict}" for p in parts)
    claim = row(spec, ctx, *ends, 1.0, every(p.verdict for p in parts), reason)
    return [replace(one_run(claim), reason=ONE_RUN) if any(p.reason.startswith(ONE_RUN) for p in parts) else claim]


def rule_slope(spec, d, ctx) -> list[Claim]:
    """ "``regret`` grows linearly" over the last decade of the paper's horizon (:func:`log_slope`,
    :func:`at_least`). A claim of what happens *ultimately* (``ultimately`` in the spec) is not refuted by a
    slope below the threshold at T: it is then inconclusive (the long-horizon row decides)."""
    summary, scenario, algorithm, regret = d["summary"], spec["scenario"], spec["algorithm"], spec["regret"]
    c = {**ctx, "scenario": scenario, "algorithm": algorithm, "regret": regret, "label": LABELS[algorithm]}
    if algorithm not in _ran(summary, scenario):
        return [not_tested(spec, c, not_run([algorithm]), "not run")]
    end = _final(summary, scenario, algorithm, regret)
    T, runs = int(end["t"]), int(end["runs"])
    start = _final(summary, scenario, algorithm, regret, T / 10)  # the step nearest T/10 (docs/claims.md)
    ends = (start["mean"], start["std"], int(start["t"]), end["mean"], end["std"], T, runs, d["level"])
    slope, low, high = log_slope(*ends)
    verdict = at_least(low, high, spec["threshold"])
    c |= {"T": T, "start": int(start["t"]), "runs": runs}
    reason = f"{spec['reason'].format(per_step=end['mean'] / T)}"
    if "ultimately" in spec and verdict != HOLDS:
        verdict, reason = INCONCLUSIVE, reason + spec["ultimately"]
    return [row(spec, c, slope, low, high, spec["threshold"], verdict, reason, runs)]


def rule_long_horizons(spec, d, ctx) -> list[Claim]:
    """Theorems 4.1-4.4 at the longest horizon of the asymptotics target, and the ``exponent`` regret's last
    local exponent :func:`at_least` its threshold."""
    local, expo = d["local"], spec["exponent"]
    if local is None:
        return [not_tested(spec, ctx)]
    rows = []
    # mutmut equivalent: groupby's sort=True dropped: pandas sorts groups by default
    for (scenario, algorithm, regret), part in local.groupby(["scenario", "algorithm", "regret"], sort=True):  # noqa: E501  # pragma: no mutate
        last = part.sort_values("horizon").iloc[-1]
        T, runs = int(last["horizon"]), int(last["runs"])
        c = {**ctx, "T": T, "runs": runs, "regret": regret}
        if isinstance(last["theorem"], str) and last["theorem"] and np.isfinite(last["bound"]):
            c |= {"theorem": last["theorem"], "scenario": scenario, "label": LABELS.get(algorithm, algorithm)}
            c["ratio"] = last["ratio"]
            rows.append(_below_bound(spec, c, last["mean"], last["std"], float(last["bound"]), d["level"]))
        if [scenario, algorithm, regret] == expo["of"] and np.isfinite(last["slope"]):
            low, high = float(last["ci_low"]), float(last["ci_high"])
            c |= {"start": int(last["from_horizon"]), "confidence": last["confidence"], "threshold": expo["threshold"]}
            fewest = int(part.loc[part["horizon"].isin([last["from_horizon"], T]), "runs"].min())
            verdict = at_least(low, high, expo["threshold"])
            rows.append(row(expo, c, float(last["slope"]), low, high, expo["threshold"], verdict, runs=fewest))
    return rows


def _first_exceeded(over, rest):
    """The first row of ``over`` (rows the tail target found ``exceeded``), which fails, else the last of
    ``rest`` decided on its interval (:func:`below`)."""
    r = over.iloc[0] if len(over) else rest.iloc[-1]
    # mutmut equivalent: `and False` on a row exceeded: the tail target writes `exceeded` exactly when the low end is
    # above the bound (studies/tail/analysis.py), which below() calls fails
    return r, FAILS if len(over) else below(float(r["low"]), float(r["high"]), float(r["bound"]))  # pragma: no mutate


def rule_tail(spec, d, ctx) -> list[Claim]:
    """Theorem 4.1 past the paper's horizon, from the maximin-tail target: the first step exceeded (fails),
    else the last, decided on its interval."""
    if d["tail"] is None:
        return [not_tested(spec, ctx)]
    frame = d["tail"].sort_values("t")
    r, verdict = _first_exceeded(frame[frame["verdict"] == "exceeded"], frame)
    c = {**ctx, "t": int(r["t"]), "runs": int(r["runs"]), "trapped": int(r["trapped_runs"])}
    c |= {"continued": int(r["free_runs_continued"]), "confidence": r["confidence"]}
    c["verdict_text"] = d["tail_verdict"] or ""
    ends = (float(r[k]) for k in ("mean", "low", "high", "bound"))
    return [row(spec, c, *ends, verdict, runs=int(r["runs"]))]


def rule_family(spec, d, ctx) -> list[Claim]:
    """Theorem 4.1 on the small family of duelbandits.studies.tail.family.family_matrix: the member whose interval first
    lies above the bound (fails), else the largest ratio at the last t searched."""
    family = d["family"]
    if family is None:
        return [not_tested(spec, ctx)]
    over = family[family["verdict"] == "exceeded"].sort_values(["t", "actions", "gap"])
    tested = family[family["verdict"] != "no trap"]
    if tested.empty:
        return [not_tested(spec, ctx, spec["no trap"])]
    r, verdict = _first_exceeded(over, tested.sort_values(["t", "ratio"]))
    c = {**ctx, "actions": int(r["actions"]), "gap": r["gap"], "t": int(r["t"]), "runs": int(r["runs"])}
    c |= {"members": tested[["actions", "gap"]].drop_duplicates().shape[0], "last": int(family["t"].max())}
    c |= {"ratio": r["ratio"], "sharpened": family_sharpened(spec["sharpened"], family, r)}
    ends = (float(r[k]) for k in ("mean", "low", "high", "bound"))
    return [row(spec, c, *ends, verdict, runs=int(r["runs"]))]


def family_sharpened(texts, family, r) -> str:
    """The family row's crossing, growth exponent and reach (smallest A, largest gap failing), as clauses
    ``texts`` (the spec's ``sharpened``) each begun by "; "."""
    from ..tail.family import family_extremes

    parts = []
    if "crossing" in r.index and not math.isnan(r["crossing"]):
        upper = texts["beyond"] if math.isnan(r["crossing_high"]) else f"{r['crossing_high']:,.0f}"
        parts.append(texts["crossing"].format(upper=upper, **r))
        parts += [texts["exponent"].format(**r)] if not math.isnan(r["exponent"]) else []
    extremes = family_extremes(family)
    if extremes is not None:
        parts.append(texts["reach"].format(small=extremes[0][0], large=extremes[1][0]))
    return "".join(f"; {p}" for p in parts)


def rule_bayes(spec, d, ctx) -> list[Claim]:
    """Theorem 4.1 read as a Bayesian bound: one row per (prior, A, horizon) of the estimates the ledger reads
    (each file's longest horizon: :func:`duelbandits.studies.claims.bayes_rows`), ``E[R_T] / bound``
    :func:`below` 1, in the order of the priors (:data:`duelbandits.schemas.PRIORS`), then T, then A; an
    inconclusive row says how many matrices would decide it (``bayes_growth.matrices_to_decide``)."""
    from ...schemas import PRIORS
    from ..bayes_growth import matrices_to_decide

    estimates, order = d["bayes"], list(PRIORS.values())
    if estimates is None or estimates.empty:
        return [not_tested(spec, {**ctx, "prior": order[0]})]
    rank = estimates["prior"].map(lambda p: order.index(p) if p in order else len(order))
    rows = []
    for _, r in estimates.assign(rank=rank).sort_values(["rank", "horizon", "actions"]).iterrows():
        c = {**ctx, "prior": r["prior"], "actions": int(r["actions"]), "T": int(r["horizon"])}
        c |= {k: int(r[k]) for k in ("matrices", "runs_per_matrix")} | {"confidence": r["confidence"]}
        c |= {k: 100 * r[f"share_{k}"] for k in ("above", "low", "high")}
        ratio, low, high = float(r["ratio"]), float(r["low"]), float(r["high"])
        verdict, reason = below(low, high, 1.0), spec["reason"].format_map(c)
        n = matrices_to_decide(c["matrices"], high - ratio, ratio) if verdict == INCONCLUSIVE else math.inf
        reason += spec["undecided"].format(n=n) if math.isfinite(n) else ""
        rows.append(row(spec, c, ratio, low, high, 1.0, verdict, reason, runs=c["matrices"]))
    return rows


RULES = {name.removeprefix("rule_").replace("_", " "): f for name, f in globals().items() if name.startswith("rule_")}
"""The rules a claim of :data:`DATA` names, by that name."""


def reading(row: Claim) -> Claim:
    """``row`` with its verdict qualified by the reading of Theorem 4.1 it tests (:data:`READINGS`)."""
    if not row.claim.startswith("Theorem 4.1 ("):
        return row
    kind = "bayes" if row.claim.startswith("Theorem 4.1 (Bayesian") else "fixed"
    text = READINGS[kind].get(row.verdict)
    prior = row.claim.partition("prior: ")[2].partition(")")[0]  # the Bayesian row names its prior
    return replace(row, verdict=text.format(prior=prior)) if text else row


INPUTS = ("local", "tail", "family", "bayes", "tail_verdict")
"""The ledger's optional inputs: the long targets' tables (None: not built) and the tail's overall verdict."""

RULE_INPUT = {"long horizons": "local", "tail": "tail", "family": "family", "bayes": "bayes"}
"""The optional table each rule beyond the paper run reads (the others read the summary: :data:`THIS_RUN`)."""


def rows(summary, level: float = LEVEL, sources=None, **inputs) -> list[Claim]:
    """The rows of the claims of :data:`DATA`, in order, each from its rule, from ``summary`` and ``inputs`` (of
    :data:`INPUTS`), each naming the source of its table (``sources``: {input: :data:`ARCHIVE` or
    :data:`THIS_RUN`}, this run if not given); a claim about a scenario the summary lacks has none."""
    d = dict.fromkeys(INPUTS) | inputs | {"summary": summary, "level": level, "rows": {}}
    ctx = {"level": level, "z": z_one_sided(level), "runs": int(summary["runs"].max())}
    out = []
    for spec in DATA["claims"]:
        if "scenario" not in spec or spec["scenario"] in set(summary["scenario"]):
            key = RULE_INPUT.get(spec["rule"])
            source = NONE if key and d[key] is None else (sources or {}).get(key, THIS_RUN)
            made = RULES[spec["rule"]](spec, d, {**ctx, "threshold": spec.get("threshold")})
            out += [replace(r, source=source) for r in made]
            d["rows"] = {r.claim: r for r in out}  # the rows a conjunction reads
    return out


def ledger(summary, level: float = LEVEL, sources=None, **inputs):
    """:func:`rows` as a DataFrame of :data:`duelbandits.schemas.CLAIM_SCHEMA`'s columns, the Theorem 4.1 rows'
    verdicts naming the reading they test (:func:`reading`), after every rule built on them has run."""
    import pandas as pd

    table = [vars(reading(r)) for r in rows(summary, level, sources, **inputs)]
    # mutmut equivalent: columns=None or dropped: the rows are Claim's fields in CLAIM_SCHEMA's order, never none
    return pd.DataFrame(table, columns=CLAIM_SCHEMA.names)  # pragma: no mutate
