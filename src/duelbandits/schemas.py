"""The columns and types of every Parquet table the pipeline writes, in one place, so that the
CLI, the workflow and the tests agree on them (the files: docs/outputs.md).
"""

from __future__ import annotations

import pyarrow as pa

MAX_STEP = 2**31 - 1
"""Largest horizon and run index: the ``t`` and ``run`` columns are int32."""

MAX_ACTIONS = 2**15 - 1
"""Largest number of actions: the ``I`` and ``J`` columns are int16."""

RANGES = {
    "confidence": {"exclusiveMinimum": 0, "exclusiveMaximum": 1},
    "share": {"exclusiveMinimum": 0, "maximum": 1},
    "near": {"minimum": 0},
}
"""The allowed values of the numbers that both the config and the command line set, as JSON Schema
bounds: the schema file's ``$defs`` of these names take them (``configschema.schema``), and the command
line checks its flags against them (``cli.args.check_range``), so the two cannot disagree. A level
of an interval (``confidence``, the claims' ``--level``) lies in (0, 1); the share of delta that
marks a trapped run in (0, 1]; the verdicts' ``near`` is at least 0."""

PRIORS = {"uniform": "uniform antisymmetric", "projected": "independent entries, projected"}
"""The priors of the Bayesian reading of Theorem 4.1 (config ``maximin-bayes/prior``, its schema's enum;
docs/claims.md) and their names in its tables and the ledger."""


def out_of_range(name: str, value: float) -> str | None:
    """``"must lie in (0, 1)"`` (the range of :data:`RANGES` ``name``) if ``value`` is not a finite
    number in it, None if it is."""
    import math

    bounds = RANGES[name]
    low = bounds.get("exclusiveMinimum", bounds.get("minimum", -math.inf))
    high = bounds.get("exclusiveMaximum", bounds.get("maximum", math.inf))
    text = (
        f"{'(' if 'exclusiveMinimum' in bounds or low == -math.inf else '['}{low:g}, "
        f"{high:g}{')' if 'exclusiveMaximum' in bounds or high == math.inf else ']'}"
    )
    fits = (
        math.isfinite(value)
        and (low < value if "exclusiveMinimum" in bounds else low <= value)
        and (value < high if "exclusiveMaximum" in bounds else value <= high)
    )
    return None if fits else f"must lie in {text}"


def _schema(columns: str) -> pa.Schema:
    """The schema of ``"name:type ..."``, each type a pyarrow factory (``int32``, ``string``, ``bool_``)."""
    return pa.schema([(name, getattr(pa, kind)()) for name, kind in (c.split(":") for c in columns.split())])


RUN_COLUMNS = {"run": pa.int32(), "t": pa.int32(), "I": pa.int16(), "J": pa.int16(), "outcome": pa.int8()}

TRACE_SCHEMA = _schema(
    "algorithm:string regret_kind:string run:int32 t:int32 I:int16 J:int16 outcome:int8 regret:float64"
    " cumulative_regret:float32"
)
"""Traces schema; ``cumulative_regret`` float32, a float64 sum made the file 7x larger (docs/outputs.md)."""

STRATEGY_SCHEMA = _schema("algorithm:string player:string t:int32 action:int16 mean:float64 std:float64 runs:int32")

SUMMARY_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string paper:bool_ t:int32 mean:float64 std:float64 runs:int32"
    " bound:float64"
)

BOUND_SCHEMA = _schema("algorithm:string theorem:string regret:string horizon:int32 holds:bool_ t:int32 bound:float64")

# The sweeps (target `sweeps`): results/sweeps/.

POINT_SCHEMA = _schema(
    "scenario:string algorithm:string actions:int16 horizon:int32 run:int32 regret:string t:int32"
    " cumulative_regret:float64"
)
"""One sweep point file: per run and regret kind, R_t on a thin grid of steps t."""

HORIZON_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string paper:bool_ actions:int16 horizon:int32 t:int32 mean:float64"
    " std:float64 runs:int32"
)
"""results/sweeps/horizon.parquet: mean and std over runs of R_t; ``t == horizon`` is R_T."""

EXPONENT_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string paper:bool_ theorem:string theorem_exponent:float64 actions:int16"
    " horizons:int16 runs:int32 rho:float64 log_c:float64 ci_low:float64 ci_high:float64 confidence:float64"
    " resamples:int32"
)
"""results/sweeps/exponents.parquet: fitted E[R_T] ~ exp(log_c) T^rho with a bootstrap CI; ``theorem`` null
where none bounds this (algorithm, regret), ``paper`` the regret the scenario's figures show."""

ACTIONS_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string paper:bool_ theorem:string actions:int16 horizon:int32 runs:int32"
    " mean:float64 std:float64 bound:float64 ratio:float64"
)
"""results/sweeps/actions.parquet: R_T per number of actions and mean / bound, both null unless the
algorithm's theorem bounds this regret and its horizon requirement holds at (A, T)."""

# Long horizons (target `asymptotics`): results/asymptotics/. Its points are sweep points (POINT_SCHEMA).

ASYMPTOTIC_LOCAL_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string paper:bool_ theorem:string theorem_exponent:float64 actions:int16"
    " horizon:int32 runs:int32 mean:float64 std:float64 bound:float64 ratio:float64 from_horizon:int32 slope:float64"
    " ci_low:float64 ci_high:float64 confidence:float64 resamples:int32"
)
"""results/asymptotics/local.parquet (docs/beyond-the-paper.md): the local exponent ``slope`` is from
``from_horizon``, the previous horizon, to ``horizon`` (null and NaN at the first horizon)."""

ASYMPTOTIC_EXPONENT_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string paper:bool_ theorem:string theorem_exponent:float64"
    " lower_bound_exponent:float64 actions:int16 horizons:int16 runs:int32 first_horizon:int32 last_horizon:int32"
    " prev_from:int32 prev_slope:float64 prev_low:float64 prev_high:float64 last_from:int32 last_slope:float64"
    " last_low:float64 last_high:float64 rho:float64 log_c:float64 rho_low:float64 rho_high:float64 last_ratio:float64"
    " verdict:string near:float64 confidence:float64 resamples:int32"
)
"""results/asymptotics/exponents.parquet: per (scenario, algorithm, regret, A), the local exponents of
the last two intervals (``prev_from``-``last_from`` and ``last_from``-``last_horizon``) with their
bootstrap intervals, the global fit E[R_T] ~ exp(log_c) T^rho over every horizon with its interval,
R_T / bound at the largest horizon, the worst-case lower bound's exponent where one applies, and the
verdict against the theorem's exponent (null without a theorem; rules in
:mod:`duelbandits.studies.asymptotics.analysis`). ``runs`` is the fewest runs of any horizon."""


FIELD_CURVES_SCHEMA = _schema(
    "scenario:string algorithm:string regret:string actions:int16 horizon:int32 t:int32 mean:float64 std:float64"
    " runs:int32 family:string"
)
"""results/field/curves.parquet: mean and std over runs of each field regret (``condorcet`` where a Condorcet
winner exists, else ``copeland``; ``borda``) at the thin grid's steps; ``family`` ``paper`` or ``field``."""

FIELD_TABLE_SCHEMA = _schema(
    "scenario:string regret:string algorithm:string family:string actions:int16 horizon:int32 runs:int32 mean:float64"
    " std:float64 rank:int16"
)
"""results/field/table.parquet: final regret R_T per (scenario, regret, algorithm) and its rank (1 = lowest mean)."""


TAIL_CURVE_SCHEMA = _schema("run:int32 stratum:string t:int32 cumulative_regret:float64")
"""results/maximin-tail/continued/chunk-{k}.parquet: phase 2 of the maximin-tail target, TS-Maximin's
Maximin R_t per continued run on a thin grid ending at the long horizon; ``stratum`` is ``trapped`` or
``free`` (the run's class at the first horizon, duelbandits.studies.tail)."""

TAIL_STATE_SCHEMA = _schema(
    "run:int32 stratum:string t:int32 cumulative_regret:float64 duels_star_borda:int64 wins_star_borda:int64"
    " never_observed:int16 never_observed_star:int16 fewest_duels_star:int64 p_star:float64 p_duel_borda:float64"
    " p_escape:float64"
)
"""results/maximin-tail/continued/state-{k}.parquet: a continued run's posterior state at the first and
the long horizon: duels and wins of the Maximin winner i* against the Borda winner i2, ordered pairs
never observed (all, and those of i*'s row), the fewest duels of i* against any j (the entry j_min of i*'s
row least observed), and under the frozen posterior the probability that one draw picks i*, that a step
duels i* against i2, and that a step duels i* against j_min (the only duel that can correct that entry)."""

TAIL_ESTIMATE_SCHEMA = _schema(
    "source:string t:int32 runs:int32 trapped_runs:int32 free_runs_continued:int32 mean:float64 se:float64 low:float64"
    " high:float64 trapped:float64 trapped_low:float64 trapped_high:float64 bound:float64 ratio:float64"
    " ratio_low:float64 ratio_high:float64 verdict:string confidence:float64"
)
"""results/maximin-tail/estimates.parquet: per step t, E[R_t] (Maximin) with its interval, the trapped
fraction (the survival curve) with its interval, Theorem 4.1's bound, R_t / bound and the verdict
(``exceeded``, ``below``, ``inconclusive``)."""

TAIL_FAMILY_SCHEMA = _schema(
    "actions:int16 gap:float64 others_gap:float64 strength:float64 t:int32 runs:int32 mean:float64 se:float64"
    " low:float64 high:float64 bound:float64 ratio:float64 verdict:string crossing:float64 crossing_low:float64"
    " crossing_high:float64 exponent:float64 exponent_low:float64 exponent_high:float64"
)
"""results/maximin-tail/family.parquet: TS-Maximin's mean Maximin R_t on each member (A, gap) of the
family of duelbandits.studies.tail.family.family_matrix, its two-sided normal interval, Theorem 4.1's bound and the
verdict (``exceeded``, ``below``, ``inconclusive``; ``no trap`` for a member whose Borda winner is its
Condorcet winner, one row with t = 0). The last six columns are the member's, repeated on each of its rows:
where E[R_t] first reaches the bound with its interval (duelbandits.studies.tail.family.crossing; NaN: not
within the grid) and the growth exponent of E[R_t] past that crossing with its bootstrap interval
(duelbandits.studies.tail.family.growth_exponent)."""

BAYES_RUN_SCHEMA = _schema(
    "actions:int16 matrix:int32 run:int32 horizon:int32 regret:float64 bound:float64 ratio:float64"
)
"""results/maximin-bayes/runs-A{A}-{job}.parquet: TS-Maximin's Maximin R_t on matrices drawn from the prior
of duelbandits.studies.bayes, one row per (matrix, run, grid horizon t), with Theorem 4.1's bound and R_t / bound."""

BAYES_ESTIMATE_SCHEMA = _schema(
    "actions:int16 horizon:int32 matrices:int32 runs_per_matrix:int32 ratio:float64 se:float64 low:float64 high:float64"
    " share_above:float64 share_low:float64 share_high:float64 condorcet_share:float64 condorcet_low:float64"
    " condorcet_high:float64 strata_draws:int64 exponent:float64 exponent_low:float64 exponent_high:float64"
    " exponent_undefined:int64 crossing:float64 crossing_low:float64 crossing_high:float64 crossing_undefined:int64"
    " confidence:float64 verdict:string prior:string"
)
"""results/maximin-bayes/estimates.parquet: per A and horizon t, E[R_t] / Theorem 4.1's bound over the
prior (stratified by a Condorcet winner, the stratum's share of ``strata_draws`` matrices with its
interval) with its two-sided normal interval, the share of matrices whose mean R_t exceeds the bound with
its interval, the verdict (``holds``, ``fails``, ``inconclusive``), the local growth exponent of E[R_t]
since the previous horizon and the predicted crossing of the bound (``inf``: never; the horizon itself:
reached), with bootstrap intervals over the resamplings where each is defined and the count of the others
(``*_undefined``: a resampled mean not positive; duelbandits.studies.bayes.estimates)."""

CLAIM_SCHEMA = _schema(
    "claim:string where:string statement:string quantity:string method:string value:float64 low:float64 high:float64"
    " threshold:float64 verdict:string reason:string figure:string source:string"
)
"""results/claims.parquet: one row per claim of the paper (duelbandits.studies.claims): the number measured
with its interval, the threshold its verdict rule compares it with, and the verdict (``holds``,
``fails``, ``inconclusive``, ``not tested``; a Theorem 4.1 row's ``holds`` and ``fails`` name the reading
it tests, duelbandits.studies.claims.analysis.READINGS) with its reason, and where its table came from
(``this run``, ``archive``: docs/claims.md#the-archive, ``-``: not built)."""

TABLE_SCHEMAS = {
    "traces": TRACE_SCHEMA,
    "strategies": STRATEGY_SCHEMA,
    "scenario-summary": SUMMARY_SCHEMA,
    "summary": SUMMARY_SCHEMA,
    "bounds": BOUND_SCHEMA,
    "sweep-horizon": HORIZON_SCHEMA,
    "sweep-exponents": EXPONENT_SCHEMA,
    "sweep-actions": ACTIONS_SCHEMA,
    "asymptotics-local": ASYMPTOTIC_LOCAL_SCHEMA,
    "asymptotics-exponents": ASYMPTOTIC_EXPONENT_SCHEMA,
    "field-curves": FIELD_CURVES_SCHEMA,
    "field-table": FIELD_TABLE_SCHEMA,
    "tail-curves": TAIL_CURVE_SCHEMA,
    "tail-states": TAIL_STATE_SCHEMA,
    "tail-estimates": TAIL_ESTIMATE_SCHEMA,
    "tail-family": TAIL_FAMILY_SCHEMA,
    "bayes-runs": BAYES_RUN_SCHEMA,
    "bayes-estimates": BAYES_ESTIMATE_SCHEMA,
    "claims": CLAIM_SCHEMA,
}
"""The schema of each table by the name its provenance gives it (``table``): a checked read of a table
(``storage.read_frame(path, NAME)``) checks the file's columns against it. The run chunks (their
strategy columns depend on the algorithm and A) and the point files are checked by their readers."""

MAY_BE_NULL = {"asymptotics-local": {"from_horizon"}, "asymptotics-exponents": {"prev_from", "last_from"}}
"""The integer columns of each table that hold a null by design (a first horizon has no previous one);
a float or string column may hold one anywhere (a NaN, no theorem), an integer or boolean column of
any other table nowhere: a checked read refuses it."""


def strategy_columns(player: str, actions: int) -> list[str]:
    return [f"{player}_{a}" for a in range(actions)]
