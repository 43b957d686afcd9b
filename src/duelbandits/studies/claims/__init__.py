"""The claims ledger (target ``claims``): the command ``claims`` and its Markdown, results/claims.md; the
rules and the ledger are :mod:`.analysis`, the claims themselves data (src/duelbandits/data/claims.yaml)."""

from __future__ import annotations

import math

from ...cli.args import UsageError, check_confidence

OPTIONAL = {
    "local": ("asymptotics-local", "results/asymptotics/local.parquet"),
    "tail": ("tail-estimates", "results/maximin-tail/estimates.parquet"),
    "family": ("tail-family", "results/maximin-tail/family.parquet"),
    "bayes": ("bayes-estimates", "results/maximin-bayes/estimates.parquet"),
}
"""The ledger's optional inputs: argument -> (table, the file the workflow passes), read if given."""

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
    from ...regret import curve_problem

    keys, step = MEAN_REGRETS[table], "t" if "t" in frame else "horizon"
    frame = frame[frame["runs"] > 0]
    for key, part in frame.sort_values(step).groupby(keys, sort=True) if keys else [((), frame.sort_values(step))]:
        kind = part["regret"].iloc[0] if "regret" in part else "maximin"
        name = "/".join(map(str, key)) or "the estimate"
        problem = curve_problem(kind, part[step].to_numpy(), part["mean"].to_numpy(), [f"{name} (mean)"])
        if problem:
            return problem
    return None


def cmd_claims(args) -> None:
    from ... import provenance, schemas, storage
    from ..bayes_report import overall_verdict
    from ..tail.analysis import verdict
    from .analysis import ledger

    check_confidence(args.level, "--level")
    paths = {"summary": args.summary} | {k: getattr(args, k) for k in OPTIONAL if getattr(args, k)}
    tables = {"summary": "summary"} | {k: table for k, (table, _) in OPTIONAL.items()}
    read = {k: storage.read_frame(path, tables[k]) for k, path in paths.items()}
    for k, frame in read.items():
        problem = mean_regret_problem(frame, tables[k]) if tables[k] in MEAN_REGRETS else None
        if problem:
            raise UsageError(f"{paths[k]}: {problem}")
    verdicts = {"tail_verdict": verdict(read["tail"]) if "tail" in read else None}
    if "bayes" in read:  # the ledger's row is the longest horizon's (the config's T); the grid's are in bayes.md
        read["bayes"] = read["bayes"][read["bayes"]["horizon"] == read["bayes"]["horizon"].max()]
    verdicts["bayes_verdict"] = overall_verdict(read["bayes"]) if "bayes" in read else None
    table = ledger(read.pop("summary"), args.level, **read, **verdicts)
    sources = {path: k in paths for k, (_, path) in OPTIONAL.items()}
    markdown = claims_markdown(table, args.level, sources)  # before any write: all or nothing
    digests = {path: provenance.file_sha256(path) for path in paths.values()}
    prov = provenance.record(table="claims", inputs=digests, level=args.level)
    storage.write_frame(table, schemas.CLAIM_SCHEMA, args.table, prov)
    storage.write_text(args.markdown, markdown)


def add_commands(sub) -> None:
    p = sub.add_parser("claims", help="the paper's claims, each with its number, interval and verdict")
    p.add_argument("--summary", required=True, help="results/summary.parquet (the paper run)")
    p.add_argument("--local", help="results/asymptotics/local.parquet, read if given")
    p.add_argument("--tail", help="results/maximin-tail/estimates.parquet, read if given")
    p.add_argument("--family", help="results/maximin-tail/family.parquet, read if given")
    p.add_argument("--bayes", help="results/maximin-bayes/estimates.parquet, read if given")
    p.add_argument(
        "--level",
        type=float,
        required=True,
        help="level of the one-sided limits (the workflow passes 0.95: workflow/rules/claims.smk)",
    )
    p.add_argument("--table", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.set_defaults(func=cmd_claims, outputs=("table", "markdown"))


def _number(value: float) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.0f}"


def claims_markdown(table, level: float, sources: dict) -> str:
    """results/claims.md: one row per claim (the number, its interval or `[-]` without one, the threshold, the
    verdict), then each row's method."""
    from ...tables import markdown

    rows, methods = [], []
    for n, row in enumerate(table.itertuples(), start=1):
        if not math.isfinite(row.value):
            interval = "-"
        elif not (math.isfinite(row.low) or math.isfinite(row.high)):
            interval = f"{_number(row.value)} [-]"  # no interval: fewer than two runs (analysis.ONE_RUN)
        else:
            interval = f"{_number(row.value)} [{_number(row.low)}, {_number(row.high)}]"
        rows.append(
            [
                str(n),
                row.claim,
                row.where,
                row.statement,
                interval,
                _number(row.threshold),
                f"**{row.verdict}**" + (f" ({row.reason})" if row.reason else ""),
                row.figure,
            ]
        )
        methods.append(f"{n}. **{row.claim}**: {row.quantity}; {row.method}.")
    built = "; ".join(
        f"{name}: {'read' if used else 'not built, its rows not tested'}" for name, used in sources.items()
    )
    return "\n".join(
        [
            "# The paper's claims, each checked\n",
            f"Verdict rules and tolerances: docs/claims.md. Limits are one-sided at level {level:g} unless a "
            f"row says otherwise. Optional inputs: {built}.\n",
            markdown(
                ["#", "claim", "where", "statement (in short)", "number [interval]", "threshold", "verdict", "figure"],
                rows,
                "rllllrll",
            ),
            "\n## How each number was measured\n",
            "\n".join(methods),
            "",
        ]
    )
