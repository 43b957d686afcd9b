"""Commands of the paper run's results: ``aggregate`` (one scenario's run chunks into traces,
strategies and summary), ``bounds`` (the theorem curves), ``summary`` (both joined) and
``table`` (the final regrets)."""

from __future__ import annotations

import sys

from .args import UsageError, actions, add_c_alpha, positive_int


def cmd_aggregate(args) -> None:
    import numpy as np

    from .. import algorithms, provenance, resources, storage
    from ..aggregate import aggregate_scenario

    record = storage.read_scenario(args.scenario_file)
    chunks: dict[str, list[str]] = {}
    for item in args.chunk:
        slug, sep, path = item.partition("=")
        if not sep:
            raise UsageError(f"--chunk must look like ALGORITHM=PATH, got {item!r}")
        algorithms.get(slug)
        chunks.setdefault(slug, []).append(path)
    size = len(record["matrix"])
    resources.check_memory(
        f"--horizon {args.horizon} x --runs {args.runs} at A = {size}",
        resources.aggregate_bytes(args.runs, args.horizon, size),
    )
    matrix_sha = provenance.matrix_sha256(record["matrix"])
    sources = {}
    for slug, paths in chunks.items():
        for path in paths:
            prov = storage.read_provenance(
                path,
                table="runs",
                scenario=record["name"],
                algorithm=slug,
                horizon=args.horizon,
                matrix_sha256=matrix_sha,
                seed=record.get("seed"),
                fields={"config_sha256": str},
            )
            sources.setdefault(slug, []).append(prov["config_sha256"])
    outputs = {"traces": args.traces, "strategies": args.strategies, "summary": args.summary}
    fields = dict(
        actions=size,
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
        record["name"], np.array(record["matrix"]), chunks, args.horizon, args.runs, outputs, points=args.points,
        provenance=prov,
    )  # fmt: skip


def cmd_bounds(args) -> None:
    import warnings

    from .. import algorithms, provenance, schemas, storage
    from ..aggregate import bounds_table

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
    storage.write_frame(df, schemas.BOUND_SCHEMA, args.out, prov)


def cmd_summary(args) -> None:
    from .. import provenance, schemas, storage
    from ..aggregate import join_summary

    needed = {"horizon": int, "actions": int, "algorithms": list, "config_sha256": str}
    bounds_prov = storage.read_provenance(args.bounds, table="bounds", fields=needed)
    matrices, slugs = {}, []
    for path in args.summaries:
        prov = storage.read_provenance(
            path,
            table="scenario-summary",
            horizon=bounds_prov["horizon"],
            actions=bounds_prov["actions"],
            fields={"algorithms": list, "scenario": str, "matrix_sha256": str},
        )
        missing = sorted(set(prov["algorithms"]) - set(bounds_prov["algorithms"]))
        if missing:
            raise UsageError(f"{args.bounds}: has no bounds for algorithm(s) {', '.join(missing)} of {path}")
        if prov["scenario"] in matrices:
            raise UsageError(f"{path}: a second summary of scenario {prov['scenario']!r}")
        matrices[prov["scenario"]] = prov["matrix_sha256"]
        slugs += [a for a in prov["algorithms"] if a not in slugs]
    summaries = [storage.read_frame(p, "scenario-summary") for p in args.summaries]
    bounds = storage.read_frame(args.bounds, "bounds")
    df = join_summary(summaries, bounds)
    prov = provenance.record(
        table="summary",
        scenarios=list(matrices),
        algorithms=slugs,
        horizon=bounds_prov["horizon"],
        matrix_sha256=matrices,
        bounds=bounds_prov["config_sha256"],
    )
    storage.write_frame(df, schemas.SUMMARY_SCHEMA, args.out, prov)


def cmd_table(args) -> None:
    from .. import storage
    from ..tables import paper as tables

    table = tables.final_regret_table(storage.read_frame(args.summary, "summary"))
    storage.write_text(args.markdown, tables.final_regret_markdown(table))
    if args.html:
        storage.write_text(args.html, tables.final_regret_html(table))


def add_commands(sub) -> None:
    p = sub.add_parser("aggregate", help="one scenario's run chunks -> traces, strategies, summary")
    p.add_argument("--scenario-file", required=True, help="scenario JSON from 'duelbandits scenario'")
    p.add_argument("--chunk", action="append", required=True, metavar="ALGORITHM=PATH", help="a run chunk")
    p.add_argument("--horizon", type=positive_int, required=True)
    p.add_argument("--runs", type=positive_int, required=True, help="runs per algorithm (checked)")
    p.add_argument("--points", type=positive_int, required=True, help="summary steps (config `summary_points`)")
    p.add_argument("--traces", required=True)
    p.add_argument("--strategies", required=True)
    p.add_argument("--summary", required=True)
    p.set_defaults(func=cmd_aggregate, outputs=("traces", "strategies", "summary"))

    p = sub.add_parser("bounds", help="theorem bound curves as Parquet")
    p.add_argument("--algorithms", nargs="+", required=True)
    p.add_argument("--actions", type=actions, required=True)
    p.add_argument("--horizon", type=positive_int, required=True)
    p.add_argument("--points", type=positive_int, required=True, help="bound steps (config `summary_points`)")
    add_c_alpha(p, "Theorem 4.2")
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_bounds, outputs=("out",))

    p = sub.add_parser("summary", help="join per-scenario summaries with the bounds")
    p.add_argument("summaries", nargs="+")
    p.add_argument("--bounds", required=True)
    p.add_argument("--out", required=True)
    p.set_defaults(func=cmd_summary, outputs=("out",))

    p = sub.add_parser("table", help="final regret per scenario and algorithm with the bound at T (Markdown, HTML)")
    p.add_argument("--summary", required=True, help="results/summary.parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.add_argument("--html", help="output .html (the same table)")
    p.set_defaults(func=cmd_table, outputs=("markdown", "html"))
