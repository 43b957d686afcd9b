"""The claims ledger (target ``claims``): the command ``claims`` and its Markdown, results/claims.md; the
rules and the ledger are :mod:`.analysis`, the claims themselves data (src/duelbandits/data/claims.yaml)."""

from __future__ import annotations

import math

from ...cli.args import UsageError, check_confidence
from .archive import OPTIONAL

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


BAYES_VALUES = ["matrices", "runs_per_matrix", "ratio", "low", "high", "share_above"]
"""The numbers of a Bayesian row that two files giving the same (prior, A, horizon) must agree on."""


def bayes_rows(frames, paths):
    """The Bayesian estimates the ledger reads from several files (``frames`` read from ``paths``): each file's
    longest horizon per (prior, A). A (prior, A, horizon) given twice is kept once if its numbers are equal (the
    same matrices and runs give the same R_t at a shared horizon: the prefix property), refused naming both
    files if not (to 1e-9 relative: sums in another order)."""
    import numpy as np
    import pandas as pd

    parts = [
        f[f["horizon"] == f.groupby("actions")["horizon"].transform("max")].assign(file=str(p))
        for f, p in zip(frames, paths)
    ]
    table = pd.concat(parts, ignore_index=True)
    key = ["prior", "actions", "horizon"]
    for (prior, A, T), same in table.groupby(key, sort=True):
        first = same.iloc[0]
        for _, other in same.iloc[1:].iterrows():
            values = (row[BAYES_VALUES].astype(float) for row in (first, other))
            if not np.allclose(*values, rtol=1e-9, atol=0, equal_nan=True):
                raise UsageError(
                    f"{first['file']} and {other['file']} give prior {prior}, A = {A}, T = {T:,} with different "
                    f"estimates (E[R_T] / bound {first['ratio']:.6g} and {other['ratio']:.6g}): give one of them"
                )
    return table.drop_duplicates(key, keep="first")


def cmd_claims(args) -> None:
    from ... import provenance, schemas, storage
    from ..tail.analysis import verdict
    from .analysis import ARCHIVE, THIS_RUN, ledger
    from .archive import archived

    check_confidence(args.level, "--level")
    given = {k: getattr(args, k) for k in OPTIONAL if getattr(args, k)}
    files = {k: [(p, THIS_RUN) for p in (paths if k == "bayes" else [paths])] for k, paths in given.items()}
    if args.archive:  # the archive's tables for the inputs not given: the fresh ones win
        found = archived(args.archive, set(OPTIONAL) - set(given))
        files |= {k: [(p, ARCHIVE) for p in paths] for k, paths in found.items()}
    paths = [("summary", args.summary)] + [(OPTIONAL[k][0], p) for k, pairs in files.items() for p, _ in pairs]
    frames = [storage.read_frame(path, table) for table, path in paths]  # every file readable, then each checked
    for (table, path), frame in zip(paths, frames):
        problem = mean_regret_problem(frame, table) if table in MEAN_REGRETS else None
        if problem:
            raise UsageError(f"{path}: {problem}")
    read, frames = {"summary": [frames[0]]}, iter(frames[1:])
    read |= {k: [next(frames) for _ in pairs] for k, pairs in files.items()}
    read = {k: bayes_rows(f, [p for p, _ in files[k]]) if k == "bayes" else f[0] for k, f in read.items()}
    sources = {k: pairs[0][1] for k, pairs in files.items()}
    tail_verdict = verdict(read["tail"]) if "tail" in read else None
    table = ledger(read.pop("summary"), args.level, sources, **read, tail_verdict=tail_verdict)
    markdown = claims_markdown(table, args.level, files)  # before any write: all or nothing
    digests = {str(path): provenance.file_sha256(path) for _, path in paths}
    prov = provenance.record(table="claims", inputs=digests, level=args.level)
    storage.write_frame(table, schemas.CLAIM_SCHEMA, args.table, prov)
    storage.write_text(args.markdown, markdown)


def cmd_archive(args) -> None:
    from .archive import refresh

    for rel in refresh(args.folders, args.archive):
        print(f"archived {rel}")
    manifest = f"{args.archive}/MANIFEST.sha256"
    print(f"wrote {manifest}: check it with duelbandits manifest verify {manifest}")


def add_commands(sub) -> None:
    p = sub.add_parser("claims", help="the paper's claims, each with its number, interval and verdict")
    p.add_argument("--summary", required=True, help="results/summary.parquet (the paper run)")
    p.add_argument("--local", help="results/asymptotics/local.parquet, read if given")
    p.add_argument("--tail", help="results/maximin-tail/estimates.parquet, read if given")
    p.add_argument("--family", help="results/maximin-tail/family.parquet, read if given")
    several = "or several (other priors, horizons): each file's longest horizon is a row per prior and A"
    p.add_argument("--bayes", nargs="+", help=f"results/maximin-bayes/estimates.parquet, {several}")
    p.add_argument("--archive", help="the archive folder (archive/): its tables for the optional inputs not given")
    p.add_argument("--level", type=float, required=True, help="level of the one-sided limits (the workflow's: 0.95)")
    p.add_argument("--table", required=True, help="output .parquet")
    p.add_argument("--markdown", required=True, help="output .md")
    p.set_defaults(func=cmd_claims, outputs=("table", "markdown"))

    p = sub.add_parser(
        "archive",
        help="copy the long targets' tables built in FOLDERS into the archive and rewrite its manifest "
        "(docs/claims.md#the-archive)",
    )
    p.add_argument("folders", nargs="+", help="folders snakemake built asymptotics, maximin_tail or maximin_bayes in")
    p.add_argument("--archive", default="archive", help="the archive folder (default archive)")
    p.set_defaults(func=cmd_archive)


def _number(value: float) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.0f}"


HEADER = ["#", "claim", "where", "statement (in short)", "number [interval]", "threshold", "verdict", "figure"]
HEADER += ["source"]


def claims_markdown(table, level: float, files: dict) -> str:
    """results/claims.md: one row per claim (the number, its interval or `[-]` without one, the threshold, the
    verdict, the source of its table), then each row's method; ``files``: {optional input: [(path, source)]}."""
    from ...tables import markdown

    rows, methods = [], []
    for n, row in enumerate(table.itertuples(), start=1):
        if not math.isfinite(row.value):
            interval = "-"
        elif not (math.isfinite(row.low) or math.isfinite(row.high)):
            interval = f"{_number(row.value)} [-]"  # no interval: fewer than two runs (analysis.ONE_RUN)
        else:
            interval = f"{_number(row.value)} [{_number(row.low)}, {_number(row.high)}]"
        verdict = f"**{row.verdict}**" + (f" ({row.reason})" if row.reason else "")
        cells = [row.claim, row.where, row.statement, interval, _number(row.threshold), verdict]
        rows.append([str(n), *cells, row.figure, row.source])
        methods.append(f"{n}. **{row.claim}**: {row.quantity}; {row.method}.")
    built = "; ".join(
        f"{key}: " + (", ".join(f"{p} ({source})" for p, source in files[key]) if key in files else "not built")
        for key in OPTIONAL
    )
    return "\n".join(
        [
            "# The paper's claims, each checked\n",
            f"Verdict rules and tolerances: docs/claims.md. Limits are one-sided at level {level:g} unless a "
            f"row says otherwise. Optional inputs: {built}.\n",
            markdown(HEADER, rows, "rllllrlll"),
            "\n## How each number was measured\n",
            "\n".join(methods),
            "",
        ]
    )
