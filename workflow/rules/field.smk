# Beyond the paper (target `field`, not in the default target): the paper's algorithms
# and the field's (RUCB, RCS, RMED1, CCB, Winner Stays, Dueling-EXP3) on the same
# scenarios, with the same run seeds, at one horizon. A point file keeps per run only a
# thin regret curve; run R has the seed of `duelbandits simulate --run R`.


# results/field/scenarios/{scenario}.json: the matrix and its winners (which regret the table reports).
rule field_scenario:
    input:
        matrix_input,
    output:
        "results/field/scenarios/{scenario}.json",
    params:
        code=code_digest(),
        args=field_scenario_args,
    log:
        "logs/field/scenarios/{scenario}.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        "python -m duelbandits --ledger .duelbandits/written"
        " scenario --scenario {wildcards.scenario} {params.args} --out {output}"
        " > {log} 2>&1 || (cat {log} >&2; exit 1)"


# results/field/points/{scenario}/{algorithm}/chunk-{chunk}.parquet: per run and regret kind,
# R_t on a thin log-spaced grid of steps.
rule field_point:
    input:
        matrix_input,
    output:
        "results/field/points/{scenario}/{algorithm}/chunk-{chunk}.parquet",
    params:
        code=code_digest("sweeps"),
        runs=field_chunk_runs,
        scenario=field_scenario_args,
        algorithm=algorithm_args,
        horizon=FIELD["horizon"],
        points=FIELD["points"],
    log:
        "logs/field/points/{scenario}/{algorithm}/chunk-{chunk}.log",
    benchmark:
        "benchmarks/field/points/{scenario}/{algorithm}/chunk-{chunk}.tsv"
    threads: 1
    resources:
        mem_mb=field_mem_mb,
        runtime=field_runtime,
    shell:
        "python -m duelbandits --ledger .duelbandits/written"
        " sweep-point --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
        " --horizon {params.horizon} --runs {params.runs} --points {params.points}"
        " {params.scenario} {params.algorithm} --out {output} > {log} 2>&1 || (cat {log} >&2; exit 1)"


# results/field/{curves,table}.parquet and table.md: mean regret curves; final regret and rank.
rule field_table:
    input:
        points=field_points(),
        scenarios=expand("results/field/scenarios/{scenario}.json", scenario=FIELD["scenarios"]),
    output:
        curves="results/field/curves.parquet",
        table="results/field/table.parquet",
        markdown="results/field/table.md",
    params:
        code=code_digest("field", "tables"),
        scenarios=scenario_file_args,
    log:
        "logs/field/table.log",
    benchmark:
        "benchmarks/field/table.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    shell:
        "python -m duelbandits --ledger .duelbandits/written"
        " field-table {input.points} {params.scenarios} --curves {output.curves} --table {output.table}"
        " --markdown {output.markdown} > {log} 2>&1 || (cat {log} >&2; exit 1)"


# figures/field/{scenario}.{pdf,png}: mean cumulative regret, log-log, paper solid, field dashed.
# Plotting code: duelbandits.plotting.field_figure.
rule figure_field:
    input:
        curves="results/field/curves.parquet",
    output:
        pdf="figures/field/{scenario}.pdf",
        png=report(
            "figures/field/{scenario}.png",
            caption="../report/field.rst",
            category="Beyond the paper",
            subcategory="figures",
            labels={"figure": "the field", "scenario": "{scenario}"},
        ),
    params:
        code=code_digest("plotting"),
    log:
        "logs/figures/field/{scenario}.log",
    benchmark:
        "benchmarks/figures/field/{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        "python -m duelbandits --ledger .duelbandits/written"
        " field-figure --scenario {wildcards.scenario} --curves {input.curves}"
        " --out {output.pdf} {output.png} > {log} 2>&1 || (cat {log} >&2; exit 1)"
