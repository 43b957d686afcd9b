"""Command line: ``duelbandits COMMAND``, one command per pipeline step (``duelbandits --help`` lists them).

Each subcommand is one step of the pipeline, so every Snakemake rule is a
single call. Bad input exits with status 2 and a message naming the problem;
outputs are written atomically, so a failed call leaves no file behind.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from functools import partial
from pathlib import Path

import numpy as np

from . import algorithms, limits, manifest, provenance, regret, scenarios, storage, sweeps
from .simulate import DEFAULT_STRIDE, SimulationError, run_seed, simulate

KNOWN_ERRORS = (
    scenarios.ScenarioError,
    scenarios.MatrixError,
    algorithms.AlgorithmError,
    SimulationError,
    storage.StorageError,
    manifest.ManifestError,
    sweeps.SweepError,
    provenance.ProvenanceError,
    limits.LimitError,
)


class UsageError(ValueError):
    """A command-line value is malformed."""


def _key_values(pairs, what: str) -> dict:
    """``["a=1", "b=2.5"]`` -> ``{"a": 1.0, "b": 2.5}``."""
    out = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UsageError(f"{what} must look like NAME=VALUE, got {pair!r}")
        try:
            out[name] = float(value)
        except ValueError:
            raise UsageError(f"{what} {name} must be a number, got {value!r}") from None
    return out


def _run_range(text: str) -> range:
    """``"5"`` -> range(5, 6); ``"0-24"`` -> range(0, 25) (a range: its size is checked before any list)."""
    first, _, last = text.partition("-")
    try:
        lo, hi = int(first), int(last or first)
    except ValueError:
        raise UsageError(f"--runs must be R or FIRST-LAST with integers, got {text!r}") from None
    if lo < 0 or hi < lo or hi > limits.MAX_STEP:
        raise UsageError(f"--runs must satisfy 0 <= FIRST <= LAST <= {limits.MAX_STEP}, got {text!r}")
    return range(lo, hi + 1)


def _scenario(args):
    if args.matrix_file is not None and args.scenario != "file":
        raise UsageError(f"--matrix-file applies only to --scenario file, not {args.scenario!r}")
    if args.scenario == "file" and args.matrix_file is None:
        raise UsageError("--scenario file needs --matrix-file PATH (a CSV preference matrix)")
    path = {"path": args.matrix_file} if args.scenario == "file" else {}
    if args.actions is not None:
        limits.check_memory(f"--actions {args.actions}", limits.matrix_bytes(args.actions))
    return scenarios.make_scenario(
        args.scenario,
        actions=args.actions,
        seed=args.seed,
        **path,
        **_key_values(args.scenario_param, "--scenario-param"),
    )


def cmd_list(args) -> None:
    print("algorithms:")
    for a in algorithms.ALGORITHMS.values():
        params = ", ".join(f"{k}={v}" for k, v in a.defaults.items()) or "-"
        print(f"  {a.slug:20s} {a.label:20s} params: {params}")
    print("scenarios:")
    for name in scenarios.SCENARIOS:
        if name in scenarios.BENCHMARKS:  # a published matrix: its size and where it comes from
            actions = scenarios.benchmark_matrix(name).shape[0]
            print(f"  {name:12s} A = {actions:<3d} {scenarios.BENCHMARKS[name][1]}")
        else:
            print(f"  {name}")
    print("  parameters: " + ", ".join(f"{k}={v}" for k, v in scenarios.DEFAULTS.items()))
    print("regrets:")
    for name, fn in regret.REGRETS.items():
        print(f"  {name:10s} {fn.__doc__.splitlines()[0]}")


def cmd_matrix(args) -> None:
    X = _scenario(args).matrix
    for row in X:
        print(",".join(repr(float(v)) for v in row))


def cmd_scenario(args) -> None:
    storage.write_scenario(args.out, _scenario(args), args.seed)


def _runs_provenance(table: str, args, sc, runs, params: dict, **extra) -> dict:
    """The provenance of a file of simulated runs (``simulate``, ``sweep-point``)."""
    return provenance.record(
        table=table,
        scenario=args.scenario,
        algorithm=args.algorithm,
        runs=f"{runs[0]}-{runs[-1]}",
        horizon=args.horizon,
        seed=args.seed,
        scenario_params=sc.params,
        params=params,
        matrix_sha256=provenance.matrix_sha256(sc.matrix),
        **extra,
    )


def cmd_simulate(args) -> None:
    if args.run is not None and args.runs is not None:
        raise UsageError("give either --run or --runs, not both")
    if args.run is None and args.runs is None:
        raise UsageError("one of --run R or --runs FIRST-LAST is required")
    runs = range(args.run, args.run + 1) if args.run is not None else _run_range(args.runs)
    if not str(args.out).endswith(".parquet"):
        raise UsageError(f"--out must name a .parquet file, got {args.out!r}")
    sc = _scenario(args)
    params = _key_values(args.param, "--param")
    actions, players = sc.matrix.shape[0], len(algorithms.get(args.algorithm).strategies)
    limits.check_memory(
        f"--horizon {args.horizon} x {len(runs)} run(s) at A = {actions}",
        limits.simulate_bytes(len(runs), args.horizon, actions, players),
    )
    results = []
    for run in runs:
        seed = run_seed(args.seed, args.scenario, args.algorithm, run)
        results.append((run, simulate(sc.matrix, args.algorithm, args.horizon, seed, stride=args.stride, **params)))
    prov = _runs_provenance("runs", args, sc, runs, results[0][1].params, stride=args.stride)
    storage.write_table(storage.run_table(results, sc.matrix.shape[0]), args.out, prov)


def cmd_aggregate(args) -> None:
    from .aggregate import aggregate_scenario

    record = storage.read_scenario(args.scenario_file)
    chunks: dict[str, list[str]] = {}
    for item in args.chunk:
        slug, sep, path = item.partition("=")
        if not sep:
            raise UsageError(f"--chunk must look like ALGORITHM=PATH, got {item!r}")
        algorithms.get(slug)
        chunks.setdefault(slug, []).append(path)
    actions = len(record["matrix"])
    limits.check_memory(
        f"--horizon {args.horizon} x --runs {args.runs} at A = {actions}",
        limits.aggregate_bytes(args.runs, args.horizon, actions),
    )
    matrix_sha = provenance.matrix_sha256(record["matrix"])
    sources = {}
    for slug, paths in chunks.items():
        for path in paths:
            prov = storage.read_provenance(path)
            provenance.check(
                path,
                prov,
                table="runs",
                scenario=record["name"],
                algorithm=slug,
                horizon=args.horizon,
                matrix_sha256=matrix_sha,
                seed=record.get("seed"),
            )
            sources.setdefault(slug, []).append(prov["config_sha256"])
    outputs = {"traces": args.traces, "strategies": args.strategies, "summary": args.summary}
    fields = dict(
        actions=actions,
        scenario=record["name"],
        algorithms=list(chunks),
        runs=args.runs,
        horizon=args.horizon,
        seed=record.get("seed"),
        matrix_sha256=matrix_sha,
        points=args.points,
        chunks=sources,
    )
    tables = {"traces": "traces", "strategies": "strategies", "summary": "scenario-summary"}
    prov = {name: provenance.record(table=tables[name], **fields) for name in outputs}
    aggregate_scenario(
        record["name"],
        np.array(record["matrix"]),
        chunks,
        args.horizon,
        args.runs,
        outputs,
        points=args.points,
        provenance=prov,
    )


def cmd_bounds(args) -> None:
    from .aggregate import bounds_table

    for slug in args.algorithms:
        algorithms.get(slug)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        df = bounds_table(args.algorithms, args.actions, args.horizon, args.points, args.c_alpha)
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    prov = provenance.record(
        table="bounds",
        algorithms=args.algorithms,
        actions=args.actions,
        horizon=args.horizon,
        points=args.points,
        c_alpha=args.c_alpha,
    )
    storage.write_frame(df, storage.BOUND_SCHEMA, args.out, prov)


def cmd_summary(args) -> None:
    from .aggregate import join_summary

    bounds_prov = storage.read_provenance(args.bounds)
    provenance.check(args.bounds, bounds_prov, table="bounds")
    matrices, algorithms_ = {}, []
    for path in args.summaries:
        prov = storage.read_provenance(path)
        provenance.check(
            path, prov, table="scenario-summary", horizon=bounds_prov["horizon"], actions=bounds_prov["actions"]
        )
        missing = sorted(set(prov["algorithms"]) - set(bounds_prov["algorithms"]))
        if missing:
            raise UsageError(f"{args.bounds}: has no bounds for algorithm(s) {', '.join(missing)} of {path}")
        if prov["scenario"] in matrices:
            raise UsageError(f"{path}: a second summary of scenario {prov['scenario']!r}")
        matrices[prov["scenario"]] = prov["matrix_sha256"]
        algorithms_ += [a for a in prov["algorithms"] if a not in algorithms_]
    summaries = [storage.read_table(p).to_pandas() for p in args.summaries]
    bounds_df = storage.read_table(args.bounds).to_pandas()
    df = join_summary(summaries, bounds_df)
    prov = provenance.record(
        table="summary",
        scenarios=list(matrices),
        algorithms=algorithms_,
        horizon=bounds_prov["horizon"],
        matrix_sha256=matrices,
        bounds=bounds_prov["config_sha256"],
    )
    storage.write_frame(df, storage.SUMMARY_SCHEMA, args.out, prov)


def _figure_paths(paths) -> None:
    """UsageError unless every output is a format the figures are saved in."""
    from .plotting import style

    for path in paths:
        if Path(path).suffix.lower().lstrip(".") not in style.METADATA:
            raise UsageError(f"--out {path}: a figure is saved as .pdf, .png or .svg")


def cmd_figure_main(args) -> None:
    from . import plotting

    _figure_paths(args.out)
    record = storage.read_scenario(args.scenario_file)
    prov = storage.read_provenance(args.summary)
    provenance.check(args.summary, prov, table="summary", scenarios=record["name"])
    provenance.check(
        args.summary, prov["matrix_sha256"], **{record["name"]: provenance.matrix_sha256(record["matrix"])}
    )
    summary = storage.read_table(args.summary, filters=[("scenario", "=", record["name"])]).to_pandas()
    inputs = {"scenario": args.scenario_file, "summary": args.summary}
    if args.panel is None:
        digest = manifest.data_digest(inputs, figure="main")
        plotting.main_figure(record, summary, args.out, c_alpha=args.c_alpha, data_digest=digest)
        return
    digest = manifest.data_digest(inputs, figure="main", panel=args.panel)
    plotting.main_panel(record, summary, args.panel, args.out, c_alpha=args.c_alpha, data_digest=digest)


def cmd_figure_appendix(args) -> None:
    from . import plotting

    _figure_paths(args.out)
    players = algorithms.get(args.algorithm).strategies
    if args.panel is not None and args.panel not in plotting.style.appendix_panel_letters(players):
        letters = ", ".join(plotting.style.appendix_panel_letters(players))
        raise UsageError(f"--panel: the appendix figure of {args.algorithm} has panels {letters}, not {args.panel!r}")
    record = storage.read_scenario(args.scenario_file) if args.scenario_file else None
    expected = {"scenario": args.scenario, "algorithms": args.algorithm}
    if record is not None:
        expected["matrix_sha256"] = provenance.matrix_sha256(record["matrix"])
    for path, table in ((args.traces, "traces"), (args.strategies, "strategies")):
        provenance.check(path, storage.read_provenance(path), table=table, **expected)
    traces = storage.read_table(args.traces, filters=[("algorithm", "=", args.algorithm)]).to_pandas()
    strategies = storage.read_table(args.strategies, filters=[("algorithm", "=", args.algorithm)]).to_pandas()
    inputs = {"scenario": args.scenario_file, "traces": args.traces, "strategies": args.strategies}
    panel = {} if args.panel is None else {"panel": args.panel}
    digest = manifest.data_digest(inputs, figure="appendix", scenario=args.scenario, algorithm=args.algorithm, **panel)
    draw = plotting.appendix_figure if args.panel is None else partial(plotting.appendix_panel, panel=args.panel)
    draw(
        args.scenario,
        args.algorithm,
        traces,
        strategies if len(strategies) else None,
        outputs=args.out,
        scenario=record,
        data_digest=digest,
    )


def cmd_latex_figures(args) -> None:
    from . import latex

    records = [storage.read_scenario(path) for path in args.scenario_file]
    names = [record["name"] for record in records]
    if len(set(names)) < len(names):
        raise UsageError(f"--scenario-file: a scenario given twice ({', '.join(names)})")
    prov = storage.read_provenance(args.summary)
    provenance.check(args.summary, prov, table="summary")
    for record in records:
        provenance.check(args.summary, prov, scenarios=record["name"])
        provenance.check(
            args.summary, prov["matrix_sha256"], **{record["name"]: provenance.matrix_sha256(record["matrix"])}
        )
    summary = storage.read_table(args.summary).to_pandas()
    storage.write_text(args.out, latex.figures_tex(records, summary, c_alpha=args.c_alpha))


def cmd_latex_build(args) -> None:
    from . import latex

    if Path(args.out).suffix.lower() != ".pdf":
        raise UsageError(f"--out must name a .pdf file, got {args.out!r}")
    try:
        latex.build_pdf(args.document, args.out)
    except latex.LatexError as err:
        raise UsageError(str(err)) from None


def _json_arg(text: str, flag: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as err:
        raise UsageError(f"{flag} is not JSON: {err}") from None


def cmd_manifest_write(args) -> None:
    config = _json_arg(args.config_json, "--config-json")
    storage.write_text(args.out, manifest.build(args.root, args.files, config, ledger=storage.LEDGER))


def cmd_manifest_verify(args) -> int:
    if not Path(args.root).is_dir():
        raise UsageError(f"--root {args.root}: not a directory")
    status = manifest.verify(args.manifest, args.root)
    if all(state == manifest.MISSING for state in status.values()):
        print(
            f"none of the {len(status)} files is under {Path(args.root).resolve()}: run from the folder the "
            "manifest's paths are relative to (where snakemake ran), or pass --root",
            file=sys.stderr,
        )
    width = max(map(len, manifest.STATUSES))
    for rel, state in status.items():
        print(f"{state:{width}}  {rel}")
    differences = manifest.environment_differences(args.manifest)
    if differences:
        print("environment differs from the manifest's: " + ", ".join(differences), file=sys.stderr)
    counts = {state: sum(s == state for s in status.values()) for state in manifest.STATUSES}
    summary = ", ".join(f"{n} {state}" for state, n in counts.items())
    bad = counts[manifest.DIFFERS] + counts[manifest.MISSING]
    verdict = "FAILED" if bad else ("identical" if counts[manifest.IDENTICAL] == len(status) else "same content")
    print(f"{verdict}: {len(status)} files: {summary} (against {args.manifest})")
    return 1 if bad else 0


def cmd_provenance(args) -> None:
    for path in args.files:
        if Path(path).suffix.lower() in (".png", ".pdf"):
            info = {manifest.FIGURE_DATA_KEY: manifest.figure_data_digest(path)}
        else:
            info = storage.read_provenance(path)
        print(f"{path}: {json.dumps(info, indent=1, sort_keys=True)}")


def cmd_sweep_point(args) -> None:
    if not str(args.out).endswith(".parquet"):
        raise UsageError(f"--out must name a .parquet file, got {args.out!r}")
    sc = _scenario(args)
    params = _key_values(args.param, "--param")
    algorithms.get(args.algorithm).hyperparameters(**params)
    runs = _run_range(args.runs)
    limits.check_memory(
        f"--horizon {args.horizon} at A = {sc.matrix.shape[0]}",
        limits.sweep_point_bytes(args.horizon, sc.matrix.shape[0]),
    )
    label = f"sweep-point {args.scenario}/{args.algorithm} T={args.horizon} runs {runs[0]}-{runs[-1]}"
    table = sweeps.simulate_point(
        sc.matrix,
        args.scenario,
        args.algorithm,
        args.horizon,
        runs,
        args.seed,
        args.points,
        progress=_progress_line(label),
        **params,
    )
    prov = _runs_provenance("sweep-point", args, sc, runs, params, points=args.points)
    storage.write_table(table, args.out, prov)


def _progress_line(label: str):
    """A ``progress(done, total)`` that prints one line per finished run to stderr (the job's log):
    runs done, elapsed time and projected end. The clock is read for the log only, never for results."""
    import time

    start = time.monotonic()

    def report(done: int, total: int) -> None:
        elapsed = time.monotonic() - start
        left = elapsed / done * (total - done)
        end = time.strftime("%H:%M:%S", time.localtime(time.time() + left))
        print(
            f"{label}: {done}/{total} runs done, elapsed {elapsed:.1f} s, projected end {end} (in {left:.1f} s)",
            file=sys.stderr,
            flush=True,
        )

    return report


def _read_points(paths):
    """The sweep point files as one DataFrame, the sorted digests of their provenance, and the
    provenance records themselves (one per path, in order)."""
    import pyarrow as pa

    tables, records = [], []
    for path in paths:
        table = storage.read_table(path)
        if not table.schema.equals(storage.POINT_SCHEMA):
            raise storage.StorageError(f"{path}: not a sweep point file (columns {', '.join(table.column_names)})")
        prov = storage.read_provenance(path)
        provenance.check(path, prov, table="sweep-point")
        tables.append(table)
        records.append(prov)
    return pa.concat_tables(tables).to_pandas(), sorted(p["config_sha256"] for p in records), records


def _check_bootstrap_memory(resamples: int, points) -> None:
    """A bootstrap holds ``resamples`` x (horizons + runs) floats a few times over: refuse it before it runs
    out of memory."""
    horizons = points["horizon"].nunique()
    runs = int(points["run"].max()) + 1 if len(points) else 1
    limits.check_memory(f"--resamples {resamples}", 4 * 8 * resamples * (horizons + runs))


def cmd_sweep_horizon(args) -> None:
    from . import tables

    if not 0 < args.confidence < 1:
        raise UsageError(f"--confidence must lie in (0, 1), got {args.confidence}")
    points, sources, _ = _read_points(args.points)
    _check_bootstrap_memory(args.resamples, points)
    prov = provenance.record(
        table="sweep-horizon", points=sources, resamples=args.resamples, confidence=args.confidence, seed=args.seed
    )
    storage.write_frame(sweeps.horizon_table(points), storage.HORIZON_SCHEMA, args.table, prov)
    exponents = sweeps.exponent_table(points, args.resamples, args.confidence, args.seed)
    storage.write_frame(exponents, storage.EXPONENT_SCHEMA, args.exponents, {**prov, "table": "sweep-exponents"})
    storage.write_text(args.markdown, tables.exponent_markdown(exponents))
    storage.write_text(args.html, tables.exponent_html(exponents))


def cmd_sweep_actions(args) -> None:
    from . import tables

    points, sources, _ = _read_points(args.points)
    table = sweeps.actions_table(points, args.c_alpha)
    prov = provenance.record(table="sweep-actions", points=sources, c_alpha=args.c_alpha)
    storage.write_frame(table, storage.ACTIONS_SCHEMA, args.table, prov)
    storage.write_text(args.markdown, tables.actions_markdown(table))
    storage.write_text(args.html, tables.actions_html(table))


def cmd_sweep_figure(args) -> None:
    from . import plotting

    _figure_paths(args.out)
    provenance.check(args.table, storage.read_provenance(args.table), table=f"sweep-{args.kind}")
    if args.exponents is not None:
        provenance.check(args.exponents, storage.read_provenance(args.exponents), table="sweep-exponents")
    table = storage.read_table(args.table, filters=[("scenario", "=", args.scenario)]).to_pandas()
    if table.empty:
        raise UsageError(f"{args.table} has no rows for scenario {args.scenario!r}")
    if args.kind == "horizon":
        if args.exponents is None:
            raise UsageError("sweep-figure horizon needs --exponents")
        exponents = storage.read_table(args.exponents, filters=[("scenario", "=", args.scenario)]).to_pandas()
        digest = manifest.data_digest(
            {"table": args.table, "exponents": args.exponents}, figure="sweep-horizon", scenario=args.scenario
        )
        plotting.horizon_sweep_figure(args.scenario, table, exponents, args.out, data_digest=digest)
    else:
        digest = manifest.data_digest({"table": args.table}, figure="sweep-actions", scenario=args.scenario)
        plotting.actions_sweep_figure(args.scenario, table, args.out, data_digest=digest)


def cmd_field_table(args) -> None:
    from . import field, tables

    points, sources, simulated = _read_points(args.points)
    seeds = sorted({prov["seed"] for prov in simulated})
    if len(seeds) > 1:
        raise UsageError(f"the point files were simulated with different base seeds {seeds}; the field compares "
                         "algorithms on the same run seeds")  # fmt: skip
    regrets, order = {}, []
    for path in args.scenario_file:
        record = storage.read_scenario(path)
        name = record["name"]
        digests = {prov["matrix_sha256"] for prov in simulated if prov["scenario"] == name}
        if not digests:
            raise UsageError(f"{path}: no point file of scenario {name} was given")
        if digests - {record["matrix_sha256"]}:
            raise UsageError(f"{path}: its matrix is not the one the point files of scenario {name} were simulated on")
        regrets[name] = field.field_regrets(name, record["winners"]["condorcet"])
        order.append(name)
    curves = field.curves_table(points, regrets)
    table = field.final_table(curves, order)
    prov = provenance.record(table="field-curves", points=sources, scenarios=order)
    markdown = tables.field_markdown(table)  # before any write: all or nothing
    storage.write_frame(curves, storage.FIELD_CURVES_SCHEMA, args.curves, prov)
    storage.write_frame(table, storage.FIELD_TABLE_SCHEMA, args.table, {**prov, "table": "field-table"})
    storage.write_text(args.markdown, markdown)


def cmd_field_figure(args) -> None:
    from . import plotting

    _figure_paths(args.out)
    provenance.check(args.curves, storage.read_provenance(args.curves), table="field-curves")
    curves = storage.read_table(args.curves, filters=[("scenario", "=", args.scenario)]).to_pandas()
    if curves.empty:
        raise UsageError(f"{args.curves} has no rows for scenario {args.scenario!r}")
    digest = manifest.data_digest({"curves": args.curves}, figure="field", scenario=args.scenario)
    plotting.field_figure(args.scenario, curves, args.out, data_digest=digest)


def _non_negative_float(text: str) -> float:
    """An argparse type: a finite number >= 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not 0 <= value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text!r}")
    return value


def _asymptotic_points(paths, c_alpha: float):
    """The long-horizon point files as one DataFrame and their provenance digests, checked to belong
    together: one base seed, one matrix per scenario, TS-Borda run with ``c_alpha`` (its bound uses it)."""
    import math

    points, sources, records = _read_points(paths)
    default_c = algorithms.ALGORITHMS["ts-borda"].defaults["c_alpha"]
    seeds, matrices = {}, {}
    for path, prov in zip(paths, records):
        seeds.setdefault(prov.get("seed"), path)
        matrices.setdefault(prov.get("scenario"), {}).setdefault(prov.get("matrix_sha256"), path)
        if prov.get("algorithm") == "ts-borda":
            used = float((prov.get("params") or {}).get("c_alpha", default_c))
            if not math.isclose(used, c_alpha, rel_tol=1e-12):
                raise UsageError(f"{path}: TS-Borda ran with c_alpha = {used:g}, but --c-alpha is {c_alpha:g}")
    if len(seeds) > 1:
        (a, first), (b, second) = list(seeds.items())[:2]
        raise UsageError(f"the points come from different seeds: {a} ({first}) and {b} ({second})")
    for scenario, digests in matrices.items():
        if len(digests) > 1:
            first, second = list(digests.values())[:2]
            raise UsageError(f"the points of scenario {scenario!r} hold different matrices: {first} and {second}")
    return points, sources


def cmd_asymptotics_table(args) -> None:
    from . import asymptotics

    if not 0 < args.confidence < 1:
        raise UsageError(f"--confidence must lie in (0, 1), got {args.confidence}")
    points, sources = _asymptotic_points(args.points, args.c_alpha)
    _check_bootstrap_memory(args.resamples, points)
    exponents, local = asymptotics.long_horizon_tables(
        points, args.resamples, args.confidence, args.seed, args.c_alpha, args.near
    )
    markdown = asymptotics.exponents_markdown(exponents, local)  # before any write: all or nothing
    fields = dict(
        points=sources,
        resamples=args.resamples,
        confidence=args.confidence,
        seed=args.seed,
        c_alpha=args.c_alpha,
        near=args.near,
    )
    storage.write_frame(
        local, storage.ASYMPTOTIC_LOCAL_SCHEMA, args.local, provenance.record(table="asymptotics-local", **fields)
    )
    storage.write_frame(
        exponents,
        storage.ASYMPTOTIC_EXPONENT_SCHEMA,
        args.exponents,
        provenance.record(table="asymptotics-exponents", **fields),
    )
    storage.write_text(args.markdown, markdown)


def cmd_asymptotics_figure(args) -> None:
    from .plotting.asymptotics import asymptotics_figure

    _figure_paths(args.out)
    local_prov = storage.read_provenance(args.local)
    provenance.check(args.local, local_prov, table="asymptotics-local")
    exponents_prov = storage.read_provenance(args.exponents)
    provenance.check(args.exponents, exponents_prov, table="asymptotics-exponents")
    made = ("points", "resamples", "confidence", "seed", "c_alpha", "near")
    if any(local_prov.get(key) != exponents_prov.get(key) for key in made):
        raise UsageError(f"{args.local} and {args.exponents} were not made by the same asymptotics-table call")
    local = storage.read_table(args.local, filters=[("scenario", "=", args.scenario)]).to_pandas()
    if local.empty:
        raise UsageError(f"{args.local} has no rows for scenario {args.scenario!r}")
    exponents = storage.read_table(args.exponents, filters=[("scenario", "=", args.scenario)]).to_pandas()
    digest = manifest.data_digest(
        {"local": args.local, "exponents": args.exponents}, figure="asymptotics", scenario=args.scenario
    )
    asymptotics_figure(args.scenario, local, exponents, args.out, data_digest=digest)


def cmd_table(args) -> None:
    from . import tables

    provenance.check(args.summary, storage.read_provenance(args.summary), table="summary")
    summary = storage.read_table(args.summary).to_pandas()
    table = tables.final_regret_table(summary)
    storage.write_text(args.markdown, tables.final_regret_markdown(table))
    if args.html:
        storage.write_text(args.html, tables.final_regret_html(table))
    if args.config_html:
        if args.config_json is None:
            raise UsageError("--config-html needs --config-json")
        config = _json_arg(args.config_json, "--config-json")
        storage.write_text(args.config_html, tables.config_html(config))


def _int_in(low: int, high: int):
    """An argparse type: an integer in ``[low, high]``."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"must be in [{low}, {high}], got {value}")
        return value

    return parse


def _positive_float(text: str) -> float:
    """An argparse type: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, got {text!r}") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"must be a finite number > 0, got {text!r}")
    return value


_positive_int = _int_in(1, limits.MAX_STEP)
_non_negative_int = _int_in(0, limits.MAX_STEP)
_actions = _int_in(2, limits.MAX_ACTIONS)
_seed = _int_in(0, 2**63 - 1)


def _add_scenario_args(p) -> None:
    p.add_argument("--scenario", required=True, help=f"scenario name: {', '.join(scenarios.SCENARIOS)}")
    p.add_argument(
        "--actions",
        type=_actions,
        default=None,
        help="number of actions A (default 10; the file scenario and the benchmark matrices "
        f"{', '.join(scenarios.BENCHMARKS)} take A from their matrix, and --actions must equal it)",
    )
    p.add_argument("--seed", type=_seed, default=0, help="base seed (default 0)")
    p.add_argument(
        "--scenario-param",
        action="append",
        metavar="NAME=VALUE",
        help=f"scenario parameter override; names: {', '.join(scenarios.DEFAULTS)}",
    )
    p.add_argument(
        "--matrix-file", metavar="CSV", help="the file scenario's preference matrix: one row per line, comma-separated"
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="duelbandits", description=__doc__.splitlines()[0])
    parser.add_argument(
        "--ledger",
        metavar="DIR",
        help="record the sha256 of every file written as DIR/<path>.sha256 (the workflow sets it, "
        "so that 'manifest write' refuses a file changed after its job)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("list", help="list algorithms, scenarios and regrets")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("matrix", help="print a scenario's preference matrix as CSV")
    _add_scenario_args(p)
    p.set_defaults(func=cmd_matrix)

    p = sub.add_parser("scenario", help="write a scenario (matrix, utilities, winners) as JSON")
    _add_scenario_args(p)
    p.add_argument("--out", required=True, help="output .json file")
    p.set_defaults(func=cmd_scenario, outputs=("out",))

    p = sub.add_parser("simulate", help="simulate runs of one algorithm into a Parquet file")
    _add_scenario_args(p)
    p.add_argument("--algorithm", required=True, help=f"algorithm slug: {', '.join(algorithms.ALGORITHMS)}")
    p.add_argument("--horizon", type=_positive_int, required=True, help="number of steps T")
    p.add_argument(
        "--run", type=_non_negative_int, help="run index R (its seed derives from seed, scenario, algorithm, R)"
    )
    p.add_argument("--runs", help="a range of runs FIRST-LAST, one file (each run as with --run)")
    p.add_argument(
        "--stride",
        type=_positive_int,
        default=DEFAULT_STRIDE,
        help=f"record strategies every STRIDE steps (default {DEFAULT_STRIDE})",
    )
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm hyper-parameter override")
    p.add_argument("--out", required=True, help="output .parquet file")
    p.set_defaults(func=cmd_simulate, outputs=("out",))

    p = sub.add_parser("aggregate", help="one scenario's run chunks -> traces, strategies, summary")
    p.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    p.add_argument("--chunk", action="append", required=True, metavar="ALGORITHM=PATH", help="a run chunk")
    p.add_argument("--horizon", type=_positive_int, required=True)
    p.add_argument("--runs", type=_positive_int, required=True, help="runs per algorithm (checked)")
    p.add_argument("--points", type=_positive_int, default=1000, help="summary steps (default 1000)")
    p.add_argument("--traces", required=True)
    p.add_argument("--strategies", required=True)
    p.add_argument("--summary", required=True)
    p.set_defaults(func=cmd_aggregate, outputs=("traces", "strategies", "summary"))

    p = sub.add_parser("bounds", help="theorem bound curves as Parquet")
    p.add_argument("--algorithms", nargs="+", required=True)
    p.add_argument("--actions", type=_actions, required=True)
    p.add_argument("--horizon", type=_positive_int, required=True)
    p.add_argument("--points", type=_positive_int, default=1000)
    p.add_argument("--c-alpha", type=_positive_float, default=1.0, help="TS-Borda's c (Theorem 4.2)")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_bounds, outputs=("out",))

    p = sub.add_parser("summary", help="join per-scenario summaries with the bounds")
    p.add_argument("summaries", nargs="+")
    p.add_argument("--bounds", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_summary, outputs=("out",))

    p = sub.add_parser("figure", help="render a figure (PDF and PNG): main or appendix")
    fsub = p.add_subparsers(dest="kind", required=True, metavar="KIND")
    f = fsub.add_parser("main", help="a main-text figure (Figures 1, 2): utilities, matrix, regrets, bounds")
    f.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    f.add_argument("--summary", required=True, help="results/summary.parquet")
    f.add_argument(
        "--c-alpha", type=_positive_float, default=1.0, help="TS-Borda's c (Theorem 4.2's requirement, for notes)"
    )
    f.add_argument("--panel", choices=list("abcd"), help="draw this panel alone, at its width in the paper")
    f.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    f.set_defaults(func=cmd_figure_main, outputs=("out",))
    f = fsub.add_parser("appendix", help="an appendix figure: every run, I_t, J_t, strategies")
    f.add_argument("--scenario", required=True, help="scenario name")
    f.add_argument("--algorithm", required=True, help="algorithm slug")
    f.add_argument("--traces", required=True, help="the scenario's traces Parquet")
    f.add_argument("--strategies", required=True, help="the scenario's strategies Parquet")
    f.add_argument("--scenario-file", help="scenario JSON (marks the winner)")
    f.add_argument(
        "--panel",
        choices=list("abcde"),
        help="draw this panel alone, at its width in the paper (a-c; d, e where the algorithm has strategies)",
    )
    f.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    f.set_defaults(func=cmd_figure_appendix, outputs=("out",))

    p = sub.add_parser("latex", help="the figures for a LaTeX paper: figures.tex, and its PDF")
    lsub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    x = lsub.add_parser(
        "figures", help="write the figure environments (one subfigure per panel of figures/panels/) with captions"
    )
    x.add_argument(
        "--scenario-file", action="append", required=True, help="a scenario JSON; once per scenario, in order"
    )
    x.add_argument("--summary", required=True, help="results/summary.parquet")
    x.add_argument(
        "--c-alpha", type=_positive_float, default=1.0, help="TS-Borda's c (Theorem 4.2's requirement, for notes)"
    )
    x.add_argument("--out", required=True, help="output .tex file")
    x.set_defaults(func=cmd_latex_figures, outputs=("out",))
    x = lsub.add_parser("build", help="compile a LaTeX document with latexmk into a PDF, from the current folder")
    x.add_argument("document", help="the .tex document (workflow/latex/figures.tex)")
    x.add_argument("--out", required=True, help="output .pdf file")
    x.set_defaults(func=cmd_latex_build, outputs=("out",))

    p = sub.add_parser("manifest", help="write or verify a checksum manifest of results and figures")
    msub = p.add_subparsers(dest="action", required=True, metavar="ACTION")
    w = msub.add_parser("write", help="hash FILES (relative to --root) into --out")
    w.add_argument("files", nargs="+")
    w.add_argument("--config-json", required=True, help="the config used, as JSON")
    w.add_argument("--root", default=".", help="folder the paths are relative to (default .)")
    w.add_argument("--out", required=True)
    w.set_defaults(func=cmd_manifest_write, outputs=("out",))
    v = msub.add_parser(
        "verify",
        help="check a tree against a manifest: identical bytes, same content, differs, "
        "missing; exit 1 if any file differs in content or is missing",
    )
    v.add_argument("manifest")
    v.add_argument("--root", default=".", help="folder the paths are relative to (default .)")
    v.set_defaults(func=cmd_manifest_verify)

    p = sub.add_parser("provenance", help="print what made a result (Parquet) or the data digest of a figure")
    p.add_argument("files", nargs="+", help="Parquet files, or PNG/PDF figures")
    p.set_defaults(func=cmd_provenance)

    p = sub.add_parser("sweep-point", help="simulate runs of one sweep point, keeping thin regret curves only")
    _add_scenario_args(p)
    p.add_argument("--algorithm", required=True, help=f"algorithm slug: {', '.join(algorithms.ALGORITHMS)}")
    p.add_argument(
        "--horizon", type=_positive_int, required=True, help="number of steps T (hyper-parameters tuned to it)"
    )
    p.add_argument("--runs", required=True, help="runs FIRST-LAST (run R has the seed of 'simulate --run R')")
    p.add_argument("--points", type=_positive_int, default=20, help="log-spaced steps kept per run (default 20)")
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm hyper-parameter override")
    p.add_argument("--out", required=True, help="output .parquet file")
    p.set_defaults(func=cmd_sweep_point, outputs=("out",))

    p = sub.add_parser("sweep-horizon", help="horizon-sweep points -> R_T table, fitted exponents with bootstrap CIs")
    p.add_argument("points", nargs="+", help="sweep point files")
    p.add_argument("--resamples", type=_positive_int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--confidence", type=float, default=0.95, help="CI level (default 0.95)")
    p.add_argument("--seed", type=_seed, default=0, help="base seed of the bootstrap")
    p.add_argument("--table", required=True, help="output: R_t mean/std per horizon (.parquet)")
    p.add_argument("--exponents", required=True, help="output: fitted exponents (.parquet)")
    p.add_argument("--markdown", required=True, help="output: exponents table (.md)")
    p.add_argument("--html", required=True, help="output: exponents table (.html)")
    p.set_defaults(func=cmd_sweep_horizon, outputs=("table", "exponents", "markdown", "html"))

    p = sub.add_parser("sweep-actions", help="action-count sweep points -> R_T and R_T / bound per A")
    p.add_argument("points", nargs="+", help="sweep point files")
    p.add_argument("--c-alpha", type=_positive_float, default=1.0, help="TS-Borda's c (Theorem 4.2)")
    p.add_argument("--table", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.add_argument("--html", required=True, help="output .html")
    p.set_defaults(func=cmd_sweep_actions, outputs=("table", "markdown", "html"))

    p = sub.add_parser("sweep-figure", help="render a sweep figure (PDF and PNG)")
    p.add_argument("kind", choices=["horizon", "actions"])
    p.add_argument("--scenario", required=True)
    p.add_argument("--table", required=True, help="results/sweeps/{horizon,actions}.parquet")
    p.add_argument("--exponents", help="horizon: results/sweeps/exponents.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_sweep_figure, outputs=("out",))

    p = sub.add_parser("field-table", help="field point files -> mean regret curves, final regret table with ranks")
    p.add_argument("points", nargs="+", help="point files (sweep-point) of every field scenario and algorithm")
    p.add_argument(
        "--scenario-file", action="append", required=True, help="scenario JSON file (duelbandits scenario), in order"
    )
    p.add_argument("--curves", required=True, help="output: mean and std of R_t per grid step (.parquet)")
    p.add_argument("--table", required=True, help="output: final regret and rank (.parquet)")
    p.add_argument("--markdown", required=True, help="output: the table (.md)")
    p.set_defaults(func=cmd_field_table, outputs=("curves", "table", "markdown"))

    p = sub.add_parser("field-figure", help="render a scenario's field figure (PDF and PNG)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--curves", required=True, help="results/field/curves.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_field_figure, outputs=("out",))

    p = sub.add_parser("table", help="final regret per scenario and algorithm with the bound at T (Markdown, HTML)")
    p.add_argument("--summary", required=True, help="results/summary.parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.add_argument("--html", help="output .html (the same table)")
    p.add_argument("--config-json", help="the effective config, as JSON (for --config-html)")
    p.add_argument("--config-html", help="output: the config as an HTML table")
    p.set_defaults(func=cmd_table, outputs=("markdown", "html", "config_html"))

    p = sub.add_parser(
        "asymptotics-table",
        help="long-horizon points -> local exponents with bootstrap CIs, verdicts, R_T / bound (Parquet, Markdown)",
    )
    p.add_argument("points", nargs="+", help="sweep point files (duelbandits sweep-point) at two or more horizons")
    p.add_argument("--resamples", type=_positive_int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--confidence", type=float, default=0.95, help="CI level (default 0.95)")
    p.add_argument("--seed", type=_seed, default=0, help="base seed of the bootstrap")
    p.add_argument("--c-alpha", type=_positive_float, default=1.0, help="TS-Borda's c (Theorem 4.2's bound)")
    p.add_argument(
        "--near",
        type=_non_negative_float,
        default=0.1,
        help="verdict 'converging': the last interval's low end at most NEAR above the theorem exponent (default 0.1)",
    )
    p.add_argument("--exponents", required=True, help="output: one row per (scenario, algorithm, regret) (.parquet)")
    p.add_argument("--local", required=True, help="output: R_T, R_T / bound and local exponent per horizon (.parquet)")
    p.add_argument("--markdown", required=True, help="output: the readable table (.md)")
    p.set_defaults(func=cmd_asymptotics_table, outputs=("exponents", "local", "markdown"))

    p = sub.add_parser("asymptotics-figure", help="render a long-horizon figure (local exponents against T)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--local", required=True, help="results/asymptotics/local.parquet")
    p.add_argument("--exponents", required=True, help="results/asymptotics/exponents.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_asymptotics_figure, outputs=("out",))
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    storage.LEDGER = Path(args.ledger) if args.ledger else None
    try:
        for name in getattr(args, "outputs", ()):
            value = getattr(args, name, None)
            for path in value if isinstance(value, list) else [value]:
                if path is not None:
                    storage.check_output(path)
        return args.func(args) or 0
    except (UsageError, *KNOWN_ERRORS) as err:
        print(f"duelbandits {args.command}: error: {err}", file=sys.stderr)
        return 2
    except OSError as err:  # the machine, not the code: a full disk, a file vanished mid-read
        print(f"duelbandits {args.command}: error: {err.filename or ''}: {err.strerror or err}", file=sys.stderr)
        return 2
