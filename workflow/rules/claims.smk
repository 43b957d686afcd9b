# The paper's claims, each checked (target `claims`, not in the default target; docs/claims.md):
# results/claims.{md,parquet} from the paper run's summary and, when those targets were built or are
# named beside it, the long horizons (asymptotics), the Theorem 4.1 tail (maximin_tail) and its
# Bayesian reading (maximin_bayes). Those are optional inputs (common.smk claims_optional): read if
# present or built in the same invocation, never built by this target alone; for those that are not,
# the archive's tables (archive/, docs/claims.md#the-archive) when it is there. Each row names its
# source (this run, archive, - for not built).

import duelbandits.studies.claims.analysis as ledger

CLAIMS_OPTIONAL = {
    "local": ("asymptotics", "results/asymptotics/local.parquet"),
    "tail": ("maximin_tail", "results/maximin-tail/estimates.parquet"),
    "family": ("maximin_tail", "results/maximin-tail/family.parquet"),
    "bayes": ("maximin_bayes", "results/maximin-bayes/estimates.parquet"),
}
"""The ledger's optional inputs, by its option: the target that builds each, and the file."""

CLAIMS_ARCHIVE = "archive"
"""The archive of the long targets' tables, in the folder snakemake runs in (the repository's root in a clone)."""


# results/claims.{parquet,md}: one row per claim, its number, interval, threshold and verdict.
rule claims_table:
    input:
        unpack(claims_optional),
        summary="results/summary.parquet",
    output:
        table="results/claims.parquet",
        markdown=report(
            "results/claims.md",
            caption="../report/claims.rst",
            category="Claims",
            labels={"table": "the paper's claims"},
        ),
    params:
        code=code("studies.claims:cmd_claims"),
        rows=triggers.file_sha256(ledger.DATA_FILE),  # the claims as data: an edit reruns the ledger
        optional=claims_optional_args,
        level=ledger.LEVEL,
    log:
        "logs/claims.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    shell:
        cli(
            "claims --summary {input.summary} {params.optional}"
            " --level {params.level} --table {output.table} --markdown {output.markdown}"
        )
