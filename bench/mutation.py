"""Mutation score of package modules with mutmut: an opt-in developer tool, not a test.

For each module it copies the working tree (tracked and new files, as they are now) into a scratch
folder, configures mutmut there to mutate that one module and to run only the module's fast tests
(:data:`TESTS`), runs ``mutmut run``, and prints the module's score: killed / (mutants -
equivalents), where a mutant that survives, times out or that no test reaches counts as not killed
and :data:`EQUIVALENT` lists the mutants that no test can kill, each with its reason. The work tree
itself is never touched (mutmut writes its ``mutants/`` folder in the scratch copy). It exits 1
when a module scores below ``--target`` (90% by default), listing its live mutants for
``mutmut show``, and 2 when mutmut fails or lists no mutant for a module (no score is printed for it).

mutmut is not in requirements.lock (CI does not run it); install it into the venv first:

    .venv/bin/pip install mutmut==3.8.1
    nice -n 10 .venv/bin/python bench/mutation.py regret theorems
    nice -n 10 .venv/bin/python bench/mutation.py --changed main   # the modules changed since main

The numba kernels (``algorithms/``) are not covered: mutmut wraps every function in a trampoline,
which numba cannot compile.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

TESTS = {
    "aggregate": ["tests/test_aggregate.py"],
    "asymptotics": ["tests/test_asymptotics.py", "tests/test_asymptotics_off_defaults.py"],
    "claims": [
        "tests/test_claims.py",
        # runs Snakemake on the work tree, which mutmut's copy of the sources and tests is not
        "--deselect=tests/test_claims.py::test_the_report_refuses_results_without_a_manifest",
    ],
    "digests": [
        "tests/test_digests.py",
        "tests/test_written_digests.py::test_a_tables_digest_is_the_digest_of_the_file_it_is_written_to",
        "tests/test_written_digests.py::test_a_digest_fed_in_parts_is_the_digest_of_the_whole",
        "tests/test_written_digests.py::test_one_changed_value_changes_the_digest",
        "tests/test_written_digests.py::test_a_noted_digest_reaches_only_the_ledger_of_its_own_command",
        "tests/test_storage.py",
    ],
    "field": ["tests/test_field.py"],
    "manifest": [
        "tests/test_manifest.py",
        # reads reference/MANIFEST.sha256, which mutmut's copy (src/, tests/, docs/, config.yaml) does not hold
        "--deselect=tests/test_manifest.py::test_the_reference_manifest_ends_with_the_closing_line_build_writes",
    ],
    "configcheck": ["tests/test_config_validation.py", "tests/test_plan.py"],
    "plan": ["tests/test_plan.py"],
    "points": ["tests/test_points.py"],
    "regret": ["tests/test_regret.py"],
    "scenarios": ["tests/test_scenarios.py", "tests/test_scenarios_edges.py", "tests/test_benchmarks.py"],
    "storage": [
        "tests/test_storage.py",
        "tests/test_read_runs.py",
        "tests/test_provenance.py",
        "tests/test_benchmarks.py",
    ],
    "tail": ["tests/test_tail.py"],
    "theorems": ["tests/test_theorems.py"],
    "winners": ["tests/test_winners.py"],
}
"""The fast tests of each module: the tests mutmut runs against its mutants (a module not listed here
gets ``tests/test_MODULE.py``): files, single tests (``file::name``) or ``--deselect=file::name``."""

EQUIVALENT: dict[str, str] = {
    "duelbandits.asymptotics.x__bound__mutmut_14": "float('NAN') for float('nan'): Python reads either case",
    "duelbandits.asymptotics.x_bootstrap_local_slopes__mutmut_32": (
        "np.diff's axis=1 dropped: its default, the last axis, is axis 1 of the (resamples, horizons) logs"
    ),
    "duelbandits.asymptotics.x_local_slopes__mutmut_12": (
        "errstate divide=None: the log sees only positive means (1.0 for the others), and comparing a NaN "
        "with 0 does not warn, so nothing in the block warns (checked with -W error)"
    ),
    "duelbandits.asymptotics.x_local_slopes__mutmut_13": "errstate invalid=None: as mutmut_12",
    "duelbandits.asymptotics.x_local_slopes__mutmut_14": "errstate divide dropped: as mutmut_12",
    "duelbandits.asymptotics.x_local_slopes__mutmut_15": "errstate invalid dropped: as mutmut_12",
    "duelbandits.asymptotics.x_local_slopes__mutmut_36": (
        "the inner where's `>= 0`: log(0) = -inf (its warning ignored by the errstate), and the outer where "
        "puts NaN there anyway"
    ),
    "duelbandits.asymptotics.x_local_slopes__mutmut_38": (
        "2.0 for the inner where's 1.0: the log of a non-positive mean's stand-in is replaced by NaN"
    ),
    "duelbandits.asymptotics.x_long_horizon_tables__mutmut_17": "groupby's sort=True dropped: True is its default",
    "duelbandits.asymptotics.x_long_horizon_tables__mutmut_32": (
        "the horizons' groupby sort=None: check_points sorts the rows by (scenario, algorithm, actions, "
        "horizon, ...), so each point's horizons come in increasing order already"
    ),
    "duelbandits.asymptotics.x_long_horizon_tables__mutmut_34": "groupby's sort=True dropped: as mutmut_17",
    "duelbandits.asymptotics.x_long_horizon_tables__mutmut_37": "the horizons' groupby sort=False: as mutmut_32",
    "duelbandits.asymptotics.x_verdict__mutmut_46": "float('NAN') for float('nan'): Python reads either case",
    "duelbandits.claims.x__shown__mutmut_12": (
        "`and False` on `part.empty`: the None branch is unreachable (section5_rows asks only for the paper's "
        "algorithms the summary ran, and aggregate marks one regret of each `paper`); without one both raise"
    ),
    "duelbandits.claims.x_family_row__mutmut_70": (
        "`and False` on a member exceeded: the tail target writes `exceeded` exactly when the low end is above "
        "the bound (tail.py), which below() calls fails"
    ),
    "duelbandits.claims.x_ledger__mutmut_32": (
        "columns=None: the rows are Claim's fields, in CLAIM_SCHEMA's order, and the ledger always has rows"
    ),
    "duelbandits.claims.x_ledger__mutmut_34": "columns dropped: as mutmut_32",
    "duelbandits.claims.x_long_horizon_rows__mutmut_36": "groupby's sort=True dropped: pandas sorts groups by default",
    "duelbandits.claims.x_tail_row__mutmut_51": "`and False` on a step exceeded: as family_row mutmut_70",
    "duelbandits.digests.xǁ_ColumnDigestǁupdate__mutmut_43": "zero_copy_only=None for False: None is false",
    "duelbandits.digests.xǁ_ColumnDigestǁupdate__mutmut_62": "zero_copy_only=None on the lengths: as mutmut_43",
    "duelbandits.digests.xǁ_ColumnDigestǁupdate__mutmut_64": (
        "zero_copy_only=True on the string lengths: after fill_null they are int64 without nulls, so numpy "
        "views them without a copy either way"
    ),
    "duelbandits.digests.x__validity__mutmut_3": (
        "`and` for `or`: with no nulls a bitmap, when pyarrow keeps one, is all ones, and reading it gives the "
        "same ones"
    ),
    "duelbandits.digests.x__values__mutmut_14": "np.where with no nulls too: the same values",
    "duelbandits.digests.x__joined__mutmut_2": (
        "`and` for `or`: pyarrow gives an array with rows a data buffer (empty, not None, when every string is "
        "empty), and with no rows both return no bytes"
    ),
    "duelbandits.digests.x_parquet_digest__mutmut_7": (
        "zip(strict=None) of the file's schema and the digest's columns: both come from the same schema"
    ),
    "duelbandits.digests.x_parquet_digest__mutmut_10": "zip without strict: as mutmut_7",
    "duelbandits.digests.x_parquet_digest__mutmut_11": "zip(strict=False): as mutmut_7",
    "duelbandits.digests.x_parquet_digest__mutmut_14": (
        "pyarrow's default batch size for BATCH_ROWS: memory only, the digest does not depend on the split (tested)"
    ),
    "duelbandits.field.x_curves_table__mutmut_58": "groupby's sort=True dropped: True is its default",
    "duelbandits.field.x_curves_table__mutmut_80": (
        "the scenario column inserted at 1, not 0: the table's columns are then taken in the schema's order"
    ),
    "duelbandits.field.x_curves_table__mutmut_89": "the regret column inserted at 3, not 2: as mutmut_80",
    "duelbandits.field.x_final_table__mutmut_65": (
        "sort kind None: pandas applies kind only when sorting by one column, and this sorts by four"
    ),
    "duelbandits.field.x_final_table__mutmut_68": "sort kind dropped: as mutmut_65",
    "duelbandits.field.x_final_table__mutmut_78": "sort kind 'XXstableXX': as mutmut_65 (not even checked)",
    "duelbandits.field.x_final_table__mutmut_79": "sort kind 'STABLE': as mutmut_65",
    "duelbandits.points.x_bootstrap_exponent__mutmut_19": "float('NAN') is NaN: float() ignores the case",
    "duelbandits.points.x_bootstrap_exponent__mutmut_22": "as mutmut_19",
    "duelbandits.points.x_bootstrap_exponent__mutmut_36": (
        "logs + their row mean: the centred log horizons xc sum to 0, so a constant per row leaves the slope (to "
        "rounding); a NaN row stays NaN"
    ),
    "duelbandits.points.x_bootstrap_exponent__mutmut_52": "as mutmut_19",
    "duelbandits.points.x_bootstrap_exponent__mutmut_55": "as mutmut_19",
    "duelbandits.points.x_check_points__mutmut_6": (
        "sort kind: pandas applies kind only when sorting by one column, and this sorts by seven"
    ),
    "duelbandits.points.x_check_points__mutmut_9": "sort kind dropped: as mutmut_6",
    "duelbandits.points.x_check_points__mutmut_25": (
        "sort kind 'XXstableXX': as mutmut_6 (pandas does not even check it)"
    ),
    "duelbandits.points.x_check_points__mutmut_26": "sort kind 'STABLE': as mutmut_25",
    "duelbandits.points.x_check_points__mutmut_58": (
        "groupby sort=None: the rows are sorted by these keys already, so the groups come in the same order"
    ),
    "duelbandits.points.x_check_points__mutmut_60": "groupby sort dropped: as mutmut_58",
    "duelbandits.points.x_check_points__mutmut_69": "groupby sort=True: as mutmut_58",
    "duelbandits.points.x_fit_power_law__mutmut_22": "float('NAN') is NaN: float() ignores the case",
    "duelbandits.points.x_fit_power_law__mutmut_25": "as mutmut_22",
    "duelbandits.points.x_fit_power_law__mutmut_32": (
        "x + its mean in the numerator: the deviations of y sum to 0, so the constant drops out (to rounding)"
    ),
    "duelbandits.points.x_fit_power_law__mutmut_33": (
        "y + its mean in the numerator: the deviations of x sum to 0, as mutmut_32"
    ),
    "duelbandits.points.x_resampled_log_means__mutmut_16": "integers(n) is integers(0, n): low alone is the bound",
    "duelbandits.points.x_resampled_log_means__mutmut_21": (
        "errstate divide: np.log is taken only of positive values (np.where(means > 0, means, 1.0)), no error to hide"
    ),
    "duelbandits.points.x_resampled_log_means__mutmut_22": "errstate invalid: as mutmut_21",
    "duelbandits.points.x_resampled_log_means__mutmut_23": "errstate divide dropped: as mutmut_21",
    "duelbandits.points.x_resampled_log_means__mutmut_24": "errstate invalid dropped: as mutmut_21",
    "duelbandits.points.x_resampled_log_means__mutmut_32": (
        "None for np.nan: numpy stores None in the float logs as NaN"
    ),
    "duelbandits.points.x_resampled_log_means__mutmut_45": (
        "means >= 0 inside: log(0) = -inf (its warning ignored) where the outer np.where puts NaN anyway"
    ),
    "duelbandits.points.x_resampled_log_means__mutmut_47": (
        "2.0 for 1.0 inside: where the outer np.where puts NaN anyway"
    ),
    "duelbandits.points.x_simulate_point__mutmut_70": "warn's category None: the default category is UserWarning",
    "duelbandits.points.x_simulate_point__mutmut_73": "warn's category dropped: as mutmut_70",
    "duelbandits.points.x_simulate_point__mutmut_74": "the warning's stacklevel: as theorems' _clipped_gamma mutmut_7",
    "duelbandits.points.x_simulate_point__mutmut_75": "the warning's stacklevel: as theorems' _clipped_gamma mutmut_7",
    "duelbandits.points.x_simulate_point__mutmut_79": "the schema dropped: each column is built with the schema's type",
    "duelbandits.points.x_simulate_point__mutmut_81": "the schema dropped: as mutmut_79",
    "duelbandits.points.x_simulate_point__mutmut_85": "a column's type None: pa.table casts it to the schema's",
    "duelbandits.points.x_simulate_point__mutmut_87": "a column's type dropped: as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_92": "as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_94": "as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_100": "int64 actions for int16: as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_103": "as mutmut_100",
    "duelbandits.points.x_simulate_point__mutmut_104": "X.shape[1] for X.shape[0]: a preference matrix is square",
    "duelbandits.points.x_simulate_point__mutmut_109": "int64 horizons for int32: as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_112": "as mutmut_109",
    "duelbandits.points.x_simulate_point__mutmut_120": "int64 runs for int32: as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_122": "as mutmut_120",
    "duelbandits.points.x_simulate_point__mutmut_129": "as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_131": "as mutmut_85",
    "duelbandits.points.x_simulate_point__mutmut_148": (
        "float64 steps for int32: pa.table casts the integral floats to the schema's int32"
    ),
    "duelbandits.manifest.x__png_text__mutmut_68": "'LATIN-1': codec names ignore case",
    "duelbandits.manifest.x__png_text__mutmut_71": "'LATIN-1': as mutmut_68",
    "duelbandits.manifest.x_content_digest__mutmut_35": (
        "sha256=None: record_written computes the file's sha256, equal to record[0] (checked just above)"
    ),
    "duelbandits.manifest.x_content_digest__mutmut_39": "sha256 dropped: as mutmut_35",
    "duelbandits.manifest.x__png_text__mutmut_20": (
        "a signed chunk length: one of 2 GiB or more reads negative, and a body can never be that long either, "
        "so both stop as truncated"
    ),
    "duelbandits.manifest.x_environment_differences__mutmut_17": (
        "here.get's default: only names installed here are listed, so it is never used"
    ),
    "duelbandits.manifest.x_environment_differences__mutmut_19": "here.get's default dropped: as mutmut_17",
    "duelbandits.manifest.x_environment_differences__mutmut_20": "here.get's default 'XX...XX': as mutmut_17",
    "duelbandits.manifest.x_environment_differences__mutmut_21": "here.get's default upper-cased: as mutmut_17",
    "duelbandits.manifest.x_made_with__mutmut_11": "'' for None after a StorageError: neither is a dict",
    "duelbandits.manifest.x_manifest_versions__mutmut_3": (
        "the manifest read again though its header is given: verify passes the header of the same file"
    ),
    "duelbandits.manifest.x_manifest_versions__mutmut_14": "'' for None on bad JSON: neither is a dict, the same error",
    "duelbandits.manifest.x_recorded_plugins__mutmut_10": (
        "'XX{}XX' for a missing plugins line: not JSON, so {}, as '{}' gives"
    ),
    "duelbandits.manifest.x_tree_versions__mutmut_2": (
        "`or` for `and`: a file that is not Parquet, or a Parquet path that is no file, fails read_provenance with "
        "a StorageError, which is skipped too"
    ),
    "duelbandits.manifest.x_verify__mutmut_15": (
        "manifest_versions without the header: it reads the same manifest's header again"
    ),
    "duelbandits.manifest.x_verify__mutmut_17": "the header argument dropped: as mutmut_15",
    "duelbandits.regret.x_copeland__mutmut_7": "X.shape[1] for X.shape[0]: a preference matrix is square",
    "duelbandits.regret.x_per_step__mutmut_9": "X.shape[1] for X.shape[0]: a preference matrix is square",
    "duelbandits.scenarios.x_validate_matrix__mutmut_14": "shape[1] for shape[0]: checked square before",
    "duelbandits.scenarios.x_validate_matrix__mutmut_18": "shape[1] for shape[0]: checked square before",
    "duelbandits.scenarios.x_cyclic_modification__mutmut_4": (
        "argsort kind: the utilities are continuous uniform draws below utility_max, without ties, so every "
        "sort kind gives the same order"
    ),
    "duelbandits.scenarios.x_cyclic_modification__mutmut_6": "argsort kind dropped: as mutmut_4",
    "duelbandits.scenarios.x_cyclic_modification__mutmut_8": "kind 'STABLE': numpy ignores its case",
    "duelbandits.scenarios.x_cyclic_modification__mutmut_103": "message of the unreachable branch (no cover)",
    "duelbandits.scenarios.x_cyclic_modification__mutmut_104": "as mutmut_103",
    "duelbandits.scenarios.x_cyclic_modification__mutmut_105": "as mutmut_103",
    "duelbandits.scenarios.x_cyclic_modification__mutmut_106": "as mutmut_103",
    "duelbandits.scenarios.x_borda_modification__mutmut_3": "argsort kind: as cyclic_modification mutmut_4",
    "duelbandits.scenarios.x_borda_modification__mutmut_5": "argsort kind dropped: as cyclic_modification mutmut_4",
    "duelbandits.scenarios.x_borda_modification__mutmut_7": "argsort kind 'STABLE': as cyclic_modification mutmut_8",
    "duelbandits.scenarios.x_borda_modification__mutmut_18": "shape[1] for shape[0]: checked square before",
    "duelbandits.scenarios.x_file_scenario__mutmut_4": "shape[1] for shape[0]: checked square before",
    "duelbandits.scenarios.x_read_matrix_file__mutmut_14": "'UTF-8-SIG': codec names ignore case",
    "duelbandits.scenarios.x_fitted_utilities__mutmut_10": "dtype=None: np.clip to float bounds gives floats",
    "duelbandits.scenarios.x_fitted_utilities__mutmut_12": "dtype dropped: as mutmut_10",
    "duelbandits.scenarios.x_benchmark_scenario__mutmut_4": "shape[1] for shape[0]: checked square before",
    "duelbandits.scenarios.x_generated_scenario__mutmut_41": "shape[1] for shape[0]: checked square before",
    "duelbandits.scenarios.x_generated_scenario__mutmut_44": "shape[1] in the message: checked square before",
    "duelbandits.scenarios.x_generated_scenario__mutmut_45": "shape[1] in the message: checked square before",
    "duelbandits.tail.x__first_reach__mutmut_3": "dtype=None: math.log and float() take a step at its double value",
    "duelbandits.tail.x__first_reach__mutmut_5": "dtype dropped: as mutmut_3",
    "duelbandits.tail.x_continue_runs__mutmut_8": "X.shape[1] for X.shape[0]: a preference matrix is square",
    "duelbandits.tail.x_continue_runs__mutmut_142": "curve schema dropped: each column has its type",
    "duelbandits.tail.x_continue_runs__mutmut_144": "schema dropped: as mutmut_142",
    "duelbandits.tail.x_continue_runs__mutmut_148": "a column type None: pa.table casts it to the schema",
    "duelbandits.tail.x_continue_runs__mutmut_150": "a column's type dropped: as mutmut_148",
    "duelbandits.tail.x_continue_runs__mutmut_159": "a column type None: as mutmut_148 (null, when empty, too)",
    "duelbandits.tail.x_continue_runs__mutmut_161": "a column's type dropped: as mutmut_159",
    "duelbandits.tail.x_continue_runs__mutmut_170": "a column's type None: as mutmut_148",
    "duelbandits.tail.x_continue_runs__mutmut_172": "a column's type dropped: as mutmut_148",
    "duelbandits.tail.x_continue_runs__mutmut_180": "a column's type None: as mutmut_148",
    "duelbandits.tail.x_continue_runs__mutmut_182": "a column's type dropped: as mutmut_148",
    "duelbandits.tail.x_continue_runs__mutmut_195": "the state table's schema dropped: as mutmut_142",
    "duelbandits.tail.x_continue_runs__mutmut_197": "schema dropped: as mutmut_142",
    "duelbandits.tail.x_continue_runs__mutmut_199": "the state columns' types None: as mutmut_159",
    "duelbandits.tail.x_continue_runs__mutmut_201": "the state columns' types dropped: as mutmut_159",
    "duelbandits.tail.x_escape_probabilities__mutmut_2": "wins.shape[1] for shape[0]: the counts are square",
    "duelbandits.tail.x_escape_probabilities__mutmut_36": "astype(None): numpy's default type is float64",
    "duelbandits.tail.x_estimates__mutmut_70": "reshape(-2, n): numpy 2 takes any negative size as the unknown one",
    "duelbandits.tail.x_estimates__mutmut_80": "reshape(-2, n): as mutmut_70",
    "duelbandits.tail.x_estimates__mutmut_111": "astype(None) of the trapped flags: numpy's default type is float64",
    "duelbandits.tail.x_estimates__mutmut_113": "astype(None): as mutmut_111",
    "duelbandits.tail.x_estimates__mutmut_189": "to_numpy(dtype=None): int64 steps, and sqrt of integers is float64",
    "duelbandits.tail.x_family_search__mutmut_99": "grid.astype(None): numpy's default type is float64",
    "duelbandits.tail.x_growth_exponent__mutmut_17": "`or True`: t >= NaN is all False, the zeros of the other branch",
    "duelbandits.tail.x_growth_exponent__mutmut_22": (
        "dtype of the zeros (start NaN): past.sum() < 2 skips the fit, and rho NaN returns before past is used again"
    ),
    "duelbandits.tail.x_growth_exponent__mutmut_24": "dtype dropped: as mutmut_22",
    "duelbandits.tail.x_growth_exponent__mutmut_27": "`or True`: fit_power_law of fewer than two steps is NaN already",
    "duelbandits.tail.x_growth_exponent__mutmut_46": "integers(runs) is integers(0, runs): low alone is the bound",
    "duelbandits.tail.x_growth_exponent__mutmut_63": (
        "* runs for / runs: every resample mean scaled by runs^2 > 0, same signs, logs shifted by a constant the "
        "centring removes (to rounding)"
    ),
    "duelbandits.tail.x_growth_exponent__mutmut_68": (
        "errstate divide: np.log is taken only of positive values (np.where(means > 0, means, 1.0)), no error to hide"
    ),
    "duelbandits.tail.x_growth_exponent__mutmut_69": "errstate invalid: as mutmut_68",
    "duelbandits.tail.x_growth_exponent__mutmut_70": "errstate divide dropped: as mutmut_68",
    "duelbandits.tail.x_growth_exponent__mutmut_71": "errstate invalid dropped: as mutmut_68",
    "duelbandits.tail.x_growth_exponent__mutmut_92": (
        "means >= 0 inside: log(0) = -inf (its warning ignored) where the outer np.where puts NaN anyway"
    ),
    "duelbandits.tail.x_growth_exponent__mutmut_94": "2.0 for 1.0 inside: where the outer np.where puts NaN anyway",
    "duelbandits.tail.x_growth_exponent__mutmut_99": (
        "y + its row mean: the centred log steps xc sum to 0, so a constant per row leaves the slope (to rounding)"
    ),
    "duelbandits.tail.x_growth_exponent__mutmut_100": (
        "y's overall mean for the row's: as mutmut_99; a NaN row makes every slope NaN, but one NaN already gives a "
        "NaN interval"
    ),
    "duelbandits.tail.x_growth_exponent__mutmut_102": "axis dropped: as mutmut_100",
    "duelbandits.tail.x_interval_slopes__mutmut_8": "dtype=None: the float64 zeros joined to R make it float64",
    "duelbandits.tail.x_interval_slopes__mutmut_10": "dtype dropped: as mutmut_8",
    "duelbandits.tail.x_interval_slopes__mutmut_18": "np.diff's axis dropped: its default is the last axis, -1",
    "duelbandits.tail.x_select_continued__mutmut_27": (
        "`or True`: with take = 0 rng.choice draws no run and gives free_runs' empty int64 array, as free_runs[:0] "
        "(the generator is local)"
    ),
    "duelbandits.tail.x_select_continued__mutmut_31": "replace=None for False: None is false",
    "duelbandits.tail.x_strata_of__mutmut_30": (
        "argsort kind: the chosen runs are distinct (a run is trapped or free, and the free ones are drawn "
        "without replacement), so every sort kind gives the same order"
    ),
    "duelbandits.tail.x_strata_of__mutmut_32": "argsort kind dropped: as mutmut_30",
    "duelbandits.tail.x_strata_of__mutmut_34": "kind 'STABLE': numpy ignores its case",
    "duelbandits.tail.x_stratified_mean__mutmut_37": "dtype=None for float: n only divides (true division)",
    "duelbandits.tail.x_stratified_mean__mutmut_39": "dtype dropped: as mutmut_37",
    "duelbandits.tail.x_stratified_mean__mutmut_42": "dtype=None for float: N_h only divides, as mutmut_37",
    "duelbandits.tail.x_stratified_mean__mutmut_44": "dtype dropped: as mutmut_37",
    "duelbandits.tail.x_stratified_mean__mutmut_66": (
        "`or True`: N = 1 is one stratum of one value, whose s^2 and deviation from the estimate are 0: S^2 / N = 0"
    ),
    "duelbandits.tail.x_stratified_mean__mutmut_68": "N >= 1: as mutmut_66 (N >= 1 always)",
    "duelbandits.storage.x__arrow__mutmut_32": (
        "null_count dropped: pyarrow counts the bitmap's zeros when asked, the same count, and the same bytes written"
    ),
    "duelbandits.storage.x__run_column__mutmut_6": (
        "dtype=None for the run number: _arrow converts every column to its Arrow type, so the integers' numpy "
        "dtype before it does not reach the file"
    ),
    "duelbandits.storage.x__run_column__mutmut_9": "dtype dropped: as mutmut_6",
    "duelbandits.storage.x__run_column__mutmut_15": "dtype=None for the steps: as mutmut_6",
    "duelbandits.storage.x__run_column__mutmut_18": "dtype dropped: as mutmut_6",
    "duelbandits.storage.x__run_column__mutmut_22": "astype(None) for I, J, outcome: float64 integers, as mutmut_6",
    "duelbandits.storage.x__without__mutmut_2": "None for False in a boolean mask: numpy stores None as False",
    "duelbandits.storage.x_write_frame__mutmut_9": (
        "preserve_index=None with a schema: the columns written are the schema's, no index (pyarrow adds only a "
        "column_indexes entry to the pandas metadata, which reading back ignores)"
    ),
    "duelbandits.storage.x_write_frame__mutmut_12": "preserve_index dropped: as mutmut_9",
    "duelbandits.storage.x_write_frame__mutmut_13": "preserve_index=True: as mutmut_9",
    "duelbandits.storage.x_write_options__mutmut_13": "'ZSTD': pyarrow's codec names ignore case (the same bytes)",
    "duelbandits.storage.x_write_runs__mutmut_49": (
        "the digest computed without a collector too: note_content then notes nothing (time only)"
    ),
    "duelbandits.storage.x_write_runs__mutmut_115": "_without with no NaN rows: a copy of the same mask",
    "duelbandits.theorems.x__clipped_gamma__mutmut_7": (
        "the warning's stacklevel (3, the tuning's caller) dropped: mutmut's trampolines add frames, so a test of "
        "the frame it names fails on the unmutated code under mutmut (the frames all lie in the mutated file)"
    ),
    "duelbandits.theorems.x__clipped_gamma__mutmut_8": "stacklevel 4 for 3: as mutmut_7",
    "duelbandits.winners.x_condorcet_winner__mutmut_9": "matrix.shape[1] for shape[0]: a preference matrix is square",
}
"""Mutants no test can kill, by mutmut's name, with the reason (the numbers change when the function
changes: rerun and recheck them then)."""

_AGGREGATE = {
    "sort kind: pandas applies kind only when sorting by one column, and these sort by (run, t)": (
        "load_algorithm_runs",
        [22, 25, 31, 32, 66, 69, 80, 81],
    ),
    "the index of a frame written with preserve_index=False: never read": (
        "aggregate_scenario",
        [176, 178, 179, 202, 204, 205],
    ),
    "the index of the concatenated summaries: merge gives a new one": ("join_summary", [4, 6, 7]),
    "preserve_index None/True with a schema: the columns written are the schema's (a RangeIndex is pandas metadata)": (
        "aggregate_scenario",
        [188, 191, 192, 215, 218, 219],
    ),
    "a dtype dropped before pa.table's schema casts the column to its type": (
        "aggregate_scenario",
        [43, 46, 89, 122, 127, 132, 137, 142, 149],
    ),
    "a dtype dropped before the strategy schema casts the column (integral floats)": ("_strategy_rows", [33, 40]),
    "grid.astype(None): int64 steps in, the same float bounds out": ("bounds_table", [42]),
    "the trace's schema dropped: the types of the columns as built are the schema's": (
        "aggregate_scenario",
        [105, 107],
    ),
    "row_group_size None: pyarrow's default is 1024 * 1024 rows, storage.ROW_GROUP_ROWS": (
        "aggregate_scenario",
        [151, 153],
    ),
    "merge on the common columns: after dropping bound they are algorithm, regret and t": ("join_summary", [21, 25]),
    "the warning's stacklevel: as theorems' _clipped_gamma mutmut_7": ("bounds_table", [29, 34]),
    "shape[1] for shape[0]: a preference matrix is square": ("aggregate_scenario", [4]),
    "cols[1] for cols[0]: a recorded player has a column for each of A >= 2 actions": ("_strategy_rows", [15]),
    "n + 2 offsets: an array of n strings reads only the first n + 1": ("_repeated", [9]),
}
EQUIVALENT.update(
    {
        f"duelbandits.aggregate.x_{function}__mutmut_{n}": reason
        for reason, (function, ns) in _AGGREGATE.items()
        for n in ns
    }
)

STATUS = re.compile(r"^\s*(duelbandits\.\S+): (.+)$")


def changed_modules(base: str, repo: Path = REPO) -> list[str]:
    """The package's top-level modules changed since ``base`` (committed or not) or new and not yet
    tracked, by name, in the order git lists them."""
    pattern = "src/duelbandits/*.py"
    git = ["git", "-C", str(repo)]
    changed = subprocess.run([*git, "diff", "--name-only", base, "--", pattern], check=True, capture_output=True)
    new = subprocess.run(
        [*git, "ls-files", "--others", "--exclude-standard", "--", pattern], check=True, capture_output=True
    )
    paths = (changed.stdout + new.stdout).decode().split()
    names = [Path(line).stem for line in paths if Path(line).parent == Path("src/duelbandits")]
    return [name for name in dict.fromkeys(names) if not name.startswith("_")]


def scratch_copy(folder: Path) -> None:
    """The work tree's tracked and new (not ignored) files, as they are now, into ``folder``."""
    files = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=REPO,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, files):
        source = REPO / os.fsdecode(name)
        if source.is_file():
            target = folder / os.fsdecode(name)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def mutmut_config(module: str, tests: list[str]) -> str:
    """The ``[tool.mutmut]`` table of one module's run."""
    quoted = ", ".join(f'"{test}"' for test in tests)
    return (
        "\n[tool.mutmut]\n"
        'source_paths = ["src"]\n'
        f'only_mutate = ["src/duelbandits/{module}.py"]\n'
        f"pytest_add_cli_args_test_selection = [{quoted}]\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q", "-x"]\n'
        'also_copy = ["docs", "config.yaml", "workflow/schemas"]\n'  # what tests read beside tests/: the docs'
        # numbers, the config and its schema file
    )


def run_module(module: str, mutmut: str, children: int, diffs: bool) -> tuple[dict[str, str], dict[str, str]] | None:
    """``{mutant: status}`` of one module's mutmut run, and with ``diffs`` the diff of each live one; None
    (said on stderr) when mutmut failed or listed no mutant, which must not read as a score of 100%."""
    tests = TESTS.get(module, [f"tests/test_{module}.py"])
    with tempfile.TemporaryDirectory(prefix=f"mutation-{module}-") as scratch:
        folder = Path(scratch)
        scratch_copy(folder)
        with open(folder / "pyproject.toml", "a", encoding="utf-8") as handle:
            handle.write(mutmut_config(module, tests))
        run = subprocess.run(
            [mutmut, "run", "--max-children", str(children)], cwd=folder, capture_output=True, text=True, check=False
        )
        out = subprocess.run(
            [mutmut, "results", "--all", "true"], cwd=folder, capture_output=True, text=True, check=False
        ).stdout
        status = {m.group(1): m.group(2).strip() for m in map(STATUS.match, out.splitlines()) if m}
        if run.returncode or not status:
            why = f"mutmut run exited {run.returncode}" if run.returncode else "mutmut listed no mutant"
            tail = (run.stdout + run.stderr).splitlines()[-5:]
            print(f"mutation: {module}: {why}:", *tail, sep="\n    ", file=sys.stderr)
            return None
        if status and all(s == "not checked" for s in status.values()):  # the run stopped before the mutants
            print(f"mutation: mutmut checked no mutant of {module}:", *run.stdout.splitlines()[-5:], sep="\n    ")
        live = [name for name, s in status.items() if s != "killed" and name not in EQUIVALENT]
        shown = live_diffs(folder, module, live) if diffs and live else {}
    return status, shown


DIFFS = """
import sys
from mutmut.mutation.diff_apply import get_diff_for_mutant
for name in sys.argv[2:]:
    print(f"\\0{name}\\n{get_diff_for_mutant(name, path=sys.argv[1])}")
"""
"""Prints each named mutant's diff, as ``mutmut show`` does, in one process (one ``mutmut show`` each
takes seconds on a loaded machine)."""


def live_diffs(folder: Path, module: str, names: list[str]) -> dict[str, str]:
    """``{mutant: diff}`` of the mutants ``names`` of a finished run in ``folder``."""
    out = subprocess.run(
        [sys.executable, "-c", DIFFS, f"src/duelbandits/{module}.py", *names],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    return dict(part.split("\n", 1) for part in out.split("\0") if "\n" in part)


def parser() -> argparse.ArgumentParser:
    """The command line (docs/testing.md shows it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules of src/duelbandits, e.g. regret theorems")
    parser.add_argument("--changed", metavar="BASE", help="also every module changed since git revision BASE")
    parser.add_argument("--children", type=int, default=2, help="mutants tested at once (default 2)")
    parser.add_argument("--diffs", action="store_true", help="print the diff of each live mutant")
    parser.add_argument("--target", type=float, default=90.0, help="the score a module must reach, in %%")
    return parser


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    modules = list(dict.fromkeys(args.modules + (changed_modules(args.changed) if args.changed else [])))
    unknown = [m for m in modules if not (REPO / "src/duelbandits" / f"{m}.py").is_file()]
    if unknown:
        print(f"mutation: no module src/duelbandits/{unknown[0]}.py", file=sys.stderr)
        return 2
    mutmut = shutil.which("mutmut", path=str(Path(sys.executable).parent)) or shutil.which("mutmut")
    if mutmut is None:
        print("mutation: mutmut is not installed: .venv/bin/pip install mutmut==3.8.1", file=sys.stderr)
        return 2
    if not modules:
        print("mutation: no module to mutate")
        return 0
    below = failed = False
    print(f"{'module':<12} {'mutants':>7} {'killed':>6} {'equiv':>5} {'live':>4} {'score':>6}")
    for module in modules:
        result = run_module(module, mutmut, args.children, args.diffs)
        if result is None:
            failed = True
            continue
        status, shown = result
        equivalent = [name for name in status if name in EQUIVALENT]
        live = [name for name, s in status.items() if s != "killed" and name not in EQUIVALENT]
        counted = len(status) - len(equivalent)
        killed = counted - len(live)
        score = 100.0 * killed / counted if counted else 100.0
        print(f"{module:<12} {len(status):>7} {killed:>6} {len(equivalent):>5} {len(live):>4} {score:>5.1f}%")
        for name in live:
            print(f"    {name}: {status[name]}")
            for line in shown.get(name, "").splitlines():
                if line.startswith(("+", "-")) and not line.startswith(("+++", "---")):
                    print(f"        {line}")
        below |= score < args.target
    return 2 if failed else 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
