# Beyond the paper (target `maximin_tail`, not in the default target): Theorem 4.1 on trial, TS-Maximin's
# mean Maximin regret on the `maximin-tail` scenario far past the paper's horizon (duelbandits.studies.tail).
# Phase 1: `runs` runs to `first_horizon`, from the shared `point` rule (target=maximin-tail, planned by
# duelbandits.plan). Phase 2: every run trapped at `first_horizon` and a seeded subsample of `others`
# free runs, rerun from the start to `horizon` (TS-Maximin has no horizon tuning: a run's prefix is
# the same at every horizon), split over `jobs` jobs; each job reads phase 1 and selects the same runs.

import duelbandits.studies.tail.analysis as tail

TAIL = config["maximin-tail"]
tail_points = target_points("maximin-tail")  # phase 1's point files, checked when planned
tail_scenario = f"results/scenarios/{TAIL['scenario']}.json"  # the tail's matrix


# results/maximin-tail/continued/{curves,states}-{job}.parquet: one phase-2 job's runs, written atomically.
rule tail_continue:
    input:
        points=tail_points,
        scenario=tail_scenario,
    output:
        curves="results/maximin-tail/continued/curves-{job}.parquet",
        states="results/maximin-tail/continued/states-{job}.parquet",
    params:
        code=code("studies.tail:cmd_tail_continue", "algorithms.ts_maximin"),
        seed=config["seed"],
        share=TAIL["share"],
        horizon=TAIL["horizon"],
        others=TAIL["others"],
        jobs=TAIL["jobs"],
        points=TAIL["points"],
        samples=TAIL["escape_samples"],
    log:
        "logs/maximin-tail/continue-{job}.log",
    benchmark:
        "benchmarks/maximin-tail/continue-{job}.tsv"
    wildcard_constraints:
        job=r"\d+",
    threads: 1
    resources:
        mem_mb=resources.tail_continue_mem_mb(config),
        runtime=lambda wildcards, attempt: resources.tail_continue_runtime(config, tail.ALGORITHM, attempt),
    shell:
        cli(
            "tail-continue {input.points} --scenario-file {input.scenario}"
            " --seed {params.seed} --share {params.share} --horizon {params.horizon} --others {params.others}"
            " --jobs {params.jobs} --job {wildcards.job} --grid-points {params.points} --escape-samples {params.samples}"
            " --curves {output.curves} --states {output.states}"
        )


# results/maximin-tail/estimates.parquet and tail.md: E[R_t] / Theorem 4.1's bound with intervals,
# the trapped fraction (survival curve), the continued runs' states and the verdict.
rule tail_table:
    input:
        points=tail_points,
        scenario=tail_scenario,
        curves=expand("results/maximin-tail/continued/curves-{job}.parquet", job=range(TAIL["jobs"])),
        states=expand("results/maximin-tail/continued/states-{job}.parquet", job=range(TAIL["jobs"])),
    output:
        estimates="results/maximin-tail/estimates.parquet",
        markdown=report(
            "results/maximin-tail/tail.md",
            caption="../report/claims.rst",
            category="Claims",
            labels={"table": "Theorem 4.1 past 10^7"},
        ),
    params:
        code=code("studies.tail:cmd_tail_table"),
        seed=config["seed"],
        share=TAIL["share"],
        confidence=TAIL["confidence"],
    log:
        "logs/maximin-tail/table.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "tail-table {input.points} --scenario-file {input.scenario}"
            " --seed {params.seed} --share {params.share} --curves {input.curves} --states {input.states}"
            " --confidence {params.confidence} --estimates {output.estimates} --markdown {output.markdown}"
        )


# results/maximin-tail/family.{parquet,md}: where Theorem 4.1's bound breaks first, on a small family.
rule tail_family:
    output:
        table="results/maximin-tail/family.parquet",
        markdown=report(
            "results/maximin-tail/family.md",
            caption="../report/claims.rst",
            category="Claims",
            labels={"table": "Theorem 4.1: where the bound breaks first"},
        ),
    params:
        code=code("studies.tail:cmd_tail_family", "algorithms.ts_maximin"),
        actions=" ".join(map(str, TAIL["family"]["actions"])),
        gaps=" ".join(map(str, TAIL["family"]["gaps"])),
        others_gap=TAIL["family"]["others_gap"],
        strength=TAIL["family"]["strength"],
        runs=TAIL["family"]["runs"],
        horizon=TAIL["family"]["horizon"],
        points=TAIL["family"]["points"],
        bootstrap=TAIL["family"]["bootstrap"],
        seed=config["seed"],
        confidence=TAIL["confidence"],
    log:
        "logs/maximin-tail/family.log",
    benchmark:
        "benchmarks/maximin-tail/family.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=lambda wildcards, attempt: attempt
        * resources.runtime_minutes(
            "ts-maximin",
            TAIL["family"]["runs"] * len(TAIL["family"]["actions"]) * len(TAIL["family"]["gaps"]),
            TAIL["family"]["horizon"],
            max(TAIL["family"]["actions"]),
        ),
    shell:
        cli(
            "tail-family --actions {params.actions} --gaps {params.gaps}"
            " --others-gap {params.others_gap} --strength {params.strength} --runs {params.runs} --horizon {params.horizon}"
            " --seed {params.seed} --grid-points {params.points} --confidence {params.confidence} --bootstrap {params.bootstrap}"
            " --table {output.table} --markdown {output.markdown}"
        )


# figures/maximin-tail/tail.{pdf,png}: (a) the survival curve, (b) E[R_t] / Theorem 4.1's bound on the
# borda matrix and on the family members that exceed it. Plotting code: duelbandits.studies.tail.figure.
rule tail_figure:
    input:
        estimates="results/maximin-tail/estimates.parquet",
        family="results/maximin-tail/family.parquet",
    output:
        pdf="figures/maximin-tail/tail.pdf",
        png=report(
            "figures/maximin-tail/tail.png",
            caption="../report/claims.rst",
            category="Claims",
            labels={"figure": "Theorem 4.1 on trial"},
        ),
    params:
        code=code("studies.tail:cmd_tail_figure"),
    log:
        "logs/maximin-tail/figure.log",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli("tail-figure --estimates {input.estimates} --family {input.family}" " --out {output.pdf} {output.png}")
