"""Commands that build scenarios and simulate runs: ``list``, ``matrix``, ``scenario``,
``simulate`` (the paper's run chunks) and ``sweep-point`` (a point of the targets beyond the
paper: thin regret curves only)."""

from __future__ import annotations

import sys

from .args import UsageError, actions, key_values, non_negative_int, parquet_out, positive_int, run_range, seed


def add_scenario_args(p) -> None:
    from .. import scenarios

    p.add_argument("--scenario", required=True, help=f"scenario name: {', '.join(scenarios.SCENARIOS)}")
    p.add_argument(
        "--actions",
        type=actions,
        help="number of actions A (default 10; the file scenario and the benchmark matrices "
        f"{', '.join(scenarios.BENCHMARKS)} take A from their matrix, and --actions must equal it)",
    )
    p.add_argument(
        "--seed", type=seed, required=True, help="base seed (config.yaml's `seed`; the paper run's is 20191114)"
    )
    p.add_argument(
        "--scenario-param",
        action="append",
        metavar="NAME=VALUE",
        help=f"scenario parameter override; names: {', '.join(scenarios.DEFAULTS)}, or a plugin scenario's own",
    )
    p.add_argument(
        "--matrix-file", metavar="CSV", help="the file scenario's preference matrix: one row per line, comma-separated"
    )


def scenario_of(args):
    """The scenario the scenario arguments name."""
    from .. import resources, scenarios

    if args.matrix_file is not None and args.scenario != "file":
        raise UsageError(f"--matrix-file applies only to --scenario file, not {args.scenario!r}")
    if args.scenario == "file" and args.matrix_file is None:
        raise UsageError("--scenario file needs --matrix-file PATH (a CSV preference matrix)")
    path = {"path": args.matrix_file} if args.scenario == "file" else {}
    if args.actions is not None:
        resources.check_memory(f"--actions {args.actions}", resources.matrix_bytes(args.actions))
    return scenarios.make_scenario(
        args.scenario,
        actions=args.actions,
        seed=args.seed,
        **path,
        **key_values(args.scenario_param, "--scenario-param"),
    )


def cmd_list(args) -> None:
    from .. import algorithms, regret, scenarios

    print("algorithms:")
    for a in algorithms.ALGORITHMS.values():
        origin = "built-in" if a.source is None else f"plugin {a.source.distribution} {a.source.version}"
        print(f"  {a.slug:20s} {a.label:20s} {a.family:7s} {origin}; {a.citation}")
        for name, param in a.params.items():
            print(f"  {'':20s} {name} = {param.default!r}: {param.range_text()}")
    print("scenarios:")
    for name, entry in scenarios.REGISTRY.items():
        if entry.kind == "benchmark":  # a published matrix: its size and where it comes from
            size = scenarios.benchmark_matrix(name).shape[0]
            print(f"  {name:12s} A = {size:<3d} {entry.citation}")
        elif entry.source is not None:
            print(f"  {name:12s} plugin {entry.source.distribution} {entry.source.version}; {entry.citation}")
            for key, param in entry.params.items():
                print(f"  {'':12s} {key} = {param.default!r}: {param.range_text()}")
        else:
            print(f"  {name}")
    print("  parameters: " + ", ".join(f"{k}={v}" for k, v in scenarios.DEFAULTS.items()))
    print("regrets:")
    for name, fn in regret.REGRETS.items():
        print(f"  {name:10s} {fn.__doc__.splitlines()[0]}")


def cmd_check_algorithm(args) -> int:
    """Run the contract (duelbandits.contract) on one algorithm: one line per problem, exit 1 if any."""
    from .. import algorithms
    from ..contract import check_algorithm

    spec = algorithms.get(args.slug)
    problems = check_algorithm(spec.slug)
    for problem in problems:
        print(f"{spec.slug}: {problem}", file=sys.stderr)
    if problems:
        return 1
    prefix = "regrets; prefix property not checked: horizon_tuned" if spec.horizon_tuned else "prefix property, regrets"
    print(f"{spec.slug}: keeps the contract (outputs, seeding, no shared state, {prefix})")
    return 0


def cmd_matrix(args) -> None:
    """The scenario's matrix as CSV (each entry's shortest exact repr), to stdout or ``--out``."""
    text = "".join(",".join(repr(float(v)) for v in row) + "\n" for row in scenario_of(args).matrix)
    if args.out is None:
        print(text, end="")
    else:
        from ..storage import write_text

        write_text(args.out, text)


def cmd_scenario(args) -> None:
    from .. import storage

    storage.write_scenario(args.out, scenario_of(args), args.seed)


def runs_provenance(table: str, args, sc, runs, params: dict, **extra) -> dict:
    """The provenance of a file of simulated runs (``simulate``, ``sweep-point``): with, for a plugin's
    algorithm or scenario, its distribution, version and package digest (``plugins``)."""
    from .. import algorithms, provenance, scenarios

    entries = {args.algorithm: algorithms.get(args.algorithm), args.scenario: scenarios.REGISTRY[args.scenario]}
    sources = {slug: entry.source.as_dict() for slug, entry in entries.items() if entry.source is not None}
    if sources:
        extra["plugins"] = sources
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
    from .. import algorithms, resources, storage
    from ..simulation import run_seed, simulate

    runs = range(args.run, args.run + 1) if args.run is not None else run_range(args.runs)
    parquet_out(args.out)
    sc = scenario_of(args)
    params = key_values(args.param, "--param")
    size, players = sc.matrix.shape[0], len(algorithms.get(args.algorithm).strategies)
    resources.check_memory(
        f"--horizon {args.horizon} x {len(runs)} run(s) at A = {size}",
        resources.simulate_bytes(len(runs), args.horizon, size, players),
    )
    results = []
    for run in runs:
        seeds = run_seed(args.seed, args.scenario, args.algorithm, run)
        results.append((run, simulate(sc.matrix, args.algorithm, args.horizon, seeds, stride=args.stride, **params)))
    prov = runs_provenance("runs", args, sc, runs, results[0][1].params, stride=args.stride)
    storage.write_runs(results, size, args.out, prov)


def progress_line(label: str):
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


def cmd_sweep_point(args) -> None:
    from .. import points, resources, storage

    parquet_out(args.out)
    sc = scenario_of(args)
    params = key_values(args.param, "--param")  # checked by the first run's simulate, before any step
    runs = run_range(args.runs)
    resources.check_memory(
        f"--horizon {args.horizon} at A = {sc.matrix.shape[0]}",
        resources.sweep_point_bytes(args.horizon, sc.matrix.shape[0]),
    )
    report = progress_line(f"sweep-point {args.scenario}/{args.algorithm} T={args.horizon} runs {runs[0]}-{runs[-1]}")
    table = points.simulate_point(
        sc.matrix, args.scenario, args.algorithm, args.horizon, runs, args.seed, args.points, progress=report, **params
    )
    prov = runs_provenance("sweep-point", args, sc, runs, params, points=args.points)
    storage.write_table(table, args.out, prov)


def cmd_compile(args) -> None:
    """Compile the kernels of ``--algorithm``s in this one process into numba's on-disk cache (or load
    them from it), so that their simulation jobs load them instead of each compiling its own
    (:data:`duelbandits.algorithms.KERNEL_GROUPS`); ``--out`` lists the algorithms once they are ready."""
    from .. import algorithms
    from ..simulation import compile_kernels
    from ..storage import write_text

    specs = [algorithms.get(slug) for slug in args.algorithm]  # an unknown name stops before any compiling
    for spec in specs:
        compile_kernels(spec.slug)
    write_text(args.out, "".join(f"{spec.slug}: kernels compiled or loaded from numba's cache\n" for spec in specs))


def add_commands(sub) -> None:
    from ..algorithms import ALGORITHMS

    slugs = f"algorithm slug: {', '.join(ALGORITHMS)}"

    p = sub.add_parser("list", help="list algorithms (with their hyper-parameters), scenarios and regrets")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("check-algorithm", help="check that an algorithm keeps the contract every algorithm keeps")
    p.add_argument("slug", help=slugs)
    p.set_defaults(func=cmd_check_algorithm)

    p = sub.add_parser("matrix", help="print a scenario's preference matrix as CSV (or write it to --out)")
    add_scenario_args(p)
    p.add_argument("--out", help="write the CSV here instead of printing it")
    p.set_defaults(func=cmd_matrix, outputs=("out",))

    p = sub.add_parser("scenario", help="write a scenario (matrix, utilities, winners) as JSON")
    add_scenario_args(p)
    p.add_argument("--out", required=True, help="output .json file")
    p.set_defaults(func=cmd_scenario, outputs=("out",))

    p = sub.add_parser("simulate", help="simulate runs of one algorithm into a Parquet file")
    add_scenario_args(p)
    p.add_argument("--algorithm", required=True, help=slugs)
    p.add_argument("--horizon", type=positive_int, required=True, help="number of steps T")
    one = p.add_mutually_exclusive_group(required=True)
    one.add_argument(
        "--run", type=non_negative_int, help="run index R (its seed derives from seed, scenario, algorithm, R)"
    )
    one.add_argument("--runs", help="a range of runs FIRST-LAST, one file (each run as with --run)")
    p.add_argument(
        "--stride", type=positive_int, required=True, help="record strategies every STRIDE steps (config `stride`)"
    )
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm hyper-parameter override")
    p.add_argument("--out", required=True, help="output .parquet file")
    p.set_defaults(func=cmd_simulate, outputs=("out",))

    p = sub.add_parser("compile", help="compile the kernels of algorithms in one process, before their simulations")
    p.add_argument("--algorithm", nargs="+", required=True, help=slugs)
    p.add_argument("--out", required=True, help="a text file listing them once they are compiled")
    p.set_defaults(func=cmd_compile, outputs=("out",))

    p = sub.add_parser("sweep-point", help="simulate runs of one point (sweeps, field, asymptotics): thin curves only")
    add_scenario_args(p)
    p.add_argument("--algorithm", required=True, help=slugs)
    p.add_argument(
        "--horizon", type=positive_int, required=True, help="number of steps T (hyper-parameters tuned to it)"
    )
    p.add_argument("--runs", required=True, help="runs FIRST-LAST (run R has the seed of 'simulate --run R')")
    p.add_argument(
        "--points", type=positive_int, required=True, help="log-spaced steps kept per run (the target's `points`)"
    )
    p.add_argument("--param", action="append", metavar="NAME=VALUE", help="algorithm hyper-parameter override")
    p.add_argument("--out", required=True, help="output .parquet file")
    p.set_defaults(func=cmd_sweep_point, outputs=("out",))
