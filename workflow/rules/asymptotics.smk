# Beyond the paper (target `asymptotics`, not in the default target): do the theorems'
# exponents appear at long horizons? Each scenario's `asymptotics/algorithms` at every
# horizon of `asymptotics/horizons`, each run tuned to its T, at A = `actions`; a point
# keeps per run only a thin regret curve (`duelbandits sweep-point`: run R has the seed
# of `duelbandits simulate --run R` at that T). The points come from the shared `point` rule
# (simulate.smk) with target=asymptotics; a point of horizon T is split into jobs of
# max(1, steps_per_job // T) runs (duelbandits.plan), so every job does about the same work.


# results/asymptotics/{exponents,local}.parquet and exponents.md: local exponents with bootstrap
# intervals, the global fit, R_T / bound per horizon and the verdicts.
rule asymptotics_table:
    input:
        target_points("asymptotics"),
    output:
        exponents="results/asymptotics/exponents.parquet",
        local="results/asymptotics/local.parquet",
        markdown="results/asymptotics/exponents.md",
    params:
        code=code("studies.asymptotics:cmd_asymptotics_table"),
        resamples=config["asymptotics"]["bootstrap"],
        confidence=config["asymptotics"]["confidence"],
        near=config["asymptotics"]["near"],
        seed=config["seed"],
        c_alpha=C_ALPHA,
    log:
        "logs/asymptotics/table.log",
    benchmark:
        "benchmarks/asymptotics/table.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "asymptotics-table {input} --resamples {params.resamples} --confidence {params.confidence}"
            " --near {params.near} --seed {params.seed} --c-alpha {params.c_alpha} --exponents {output.exponents}"
            " --local {output.local} --markdown {output.markdown}"
        )


# figures/asymptotics/{scenario}.{pdf,png}: local exponent against T, one panel per algorithm.
# Plotting code: duelbandits.studies.asymptotics.figure.asymptotics_figure.
rule figure_asymptotics:
    input:
        local="results/asymptotics/local.parquet",
        exponents="results/asymptotics/exponents.parquet",
    output:
        pdf="figures/asymptotics/{scenario}.pdf",
        png=report(
            "figures/asymptotics/{scenario}.png",
            caption="../report/asymptotics.rst",
            category="Beyond the paper",
            subcategory="figures",
            labels={"figure": "long horizons", "scenario": "{scenario}"},
        ),
    params:
        code=code("studies.asymptotics:cmd_asymptotics_figure"),
    log:
        "logs/figures/asymptotics/{scenario}.log",
    benchmark:
        "benchmarks/figures/asymptotics/{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "asymptotics-figure --scenario {wildcards.scenario} --local {input.local}"
            " --exponents {input.exponents} --out {output.pdf} {output.png}"
        )
