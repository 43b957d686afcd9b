"""The command ``claims``: the ledger of the paper's claims."""

from __future__ import annotations

from .args import UsageError, check_confidence

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
    from ..regret import curve_problem

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
    from .. import claims, provenance, schemas, storage
    from ..studies import bayes
    from ..studies.tail.analysis import verdict
    from ..tables.claims import claims_markdown

    check_confidence(args.level, "--level")
    paths = {"summary": args.summary} | {k: getattr(args, k) for k in OPTIONAL if getattr(args, k)}
    tables = {"summary": "summary"} | {k: table for k, (table, _) in OPTIONAL.items()}
    read = {k: storage.read_frame(path, tables[k]) for k, path in paths.items()}
    for k, frame in read.items():
        problem = mean_regret_problem(frame, tables[k]) if tables[k] in MEAN_REGRETS else None
        if problem:
            raise UsageError(f"{paths[k]}: {problem}")
    verdicts = {"tail_verdict": verdict(read["tail"]) if "tail" in read else None}
    verdicts["bayes_verdict"] = bayes.overall_verdict(read["bayes"]) if "bayes" in read else None
    table = claims.ledger(read.pop("summary"), args.level, **read, **verdicts)
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
