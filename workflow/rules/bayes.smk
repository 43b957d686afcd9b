# Beyond the paper (target `maximin_bayes`, not in the default target): Theorem 4.1 as a Bayesian bound,
# TS-Maximin's Maximin regret at `horizon` on matrices drawn from the prior of duelbandits.studies.bayes. Each
# A's `matrices` are split over `jobs` jobs (matrix k in job k mod jobs); each matrix and run has its own seed.

import duelbandits.studies.bayes

BAYES = config["maximin-bayes"]
BAYES_RUNS = checked_target(
    "maximin-bayes",
    lambda: expand("results/maximin-bayes/runs/A{a}-{job}.parquet", a=BAYES["actions"], job=range(BAYES["jobs"])),
)


# results/maximin-bayes/runs/A{actions}-{job}.parquet: one job's matrices at A, `runs` runs each, R_t at the
# `grid_points` log-spaced horizons from `grid_from` to `horizon` (one run each: the prefix property).
rule bayes_runs:
    output:
        "results/maximin-bayes/runs/A{actions}-{job}.parquet",
    params:
        code=code("studies.bayes:cmd_bayes_runs", "algorithms.ts_maximin"),
        seed=config["seed"],
        matrices=BAYES["matrices"],
        runs=BAYES["runs"],
        horizon=BAYES["horizon"],
        grid_from=BAYES["grid_from"],
        grid_points=BAYES["grid_points"],
        jobs=BAYES["jobs"],
        prior=BAYES["prior"],
    log:
        "logs/maximin-bayes/runs-A{actions}-{job}.log",
    benchmark:
        "benchmarks/maximin-bayes/runs-A{actions}-{job}.tsv"
    wildcard_constraints:
        actions=r"\d+",
        job=r"\d+",
    threads: 1
    resources:
        mem_mb=lambda wildcards: resources.bayes_mem_mb(BAYES, wildcards.actions),
        runtime=lambda wildcards, attempt: resources.bayes_runtime(
            BAYES, wildcards.actions, duelbandits.studies.bayes.ALGORITHM, attempt
        ),
    shell:
        cli(
            "bayes-runs --actions {wildcards.actions}"
            " --matrices {params.matrices} --runs {params.runs} --horizon {params.horizon} --seed {params.seed}"
            " --grid-from {params.grid_from} --grid-points {params.grid_points}"
            " --jobs {params.jobs} --job {wildcards.job} --prior {params.prior} --out {output}"
        )


# results/maximin-bayes/estimates.parquet and bayes.md: per A and grid horizon, E[R_t] / Theorem 4.1's bound
# over the prior (stratified by a Condorcet winner) with its interval, the share of drawn matrices above the
# bound, the verdict, the local growth exponent and the predicted crossing of the bound.
rule bayes_table:
    input:
        BAYES_RUNS,
    output:
        estimates="results/maximin-bayes/estimates.parquet",
        markdown=report(
            "results/maximin-bayes/bayes.md",
            caption="../report/claims.rst",
            category="Claims",
            labels={"table": "Theorem 4.1 as a Bayesian bound"},
        ),
    params:
        code=code("studies.bayes:cmd_bayes_table"),
        confidence=BAYES["confidence"],
        strata_draws=BAYES["strata_draws"],
        bootstrap=BAYES["bootstrap"],
    log:
        "logs/maximin-bayes/table.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "bayes-table {input} --confidence {params.confidence} --strata-draws {params.strata_draws}"
            " --bootstrap {params.bootstrap}"
            " --estimates {output.estimates} --markdown {output.markdown}"
        )


# figures/maximin-bayes/ratios.{pdf,png}: per A, the histogram of the drawn matrices' mean R_T / bound,
# with the bound and the share of matrices above it. Plotting code: duelbandits.studies.bayes_report.ratios_figure.
rule bayes_figure:
    input:
        runs=BAYES_RUNS,
        estimates="results/maximin-bayes/estimates.parquet",
    output:
        pdf="figures/maximin-bayes/ratios.pdf",
        png=report(
            "figures/maximin-bayes/ratios.png",
            caption="../report/claims.rst",
            category="Claims",
            labels={"figure": "Theorem 4.1 over the prior, matrix by matrix"},
        ),
    params:
        code=code("studies.bayes:cmd_bayes_figure"),
        bins=BAYES["bins"],
    log:
        "logs/maximin-bayes/figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "bayes-figure {input.runs} --estimates {input.estimates} --bins {params.bins} --out {output.pdf} {output.png}"
        )
