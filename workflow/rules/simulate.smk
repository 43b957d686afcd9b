# The scenario matrices, and the simulated runs: one job per chunk of
# `runs_per_job` runs of one (scenario, algorithm). Each run's seed derives
# from (seed, scenario, algorithm, run) alone, so a run's rows do not depend
# on the chunking and `duelbandits simulate --run R` rebuilds any run alone.


# results/scenarios/{scenario}.json: utilities, matrix, winners.
rule scenario:
    input:
        matrix_input,
    output:
        "results/scenarios/{scenario}.json",
    params:
        code=code_digest(),
        args=scenario_args,
    log:
        "logs/scenario/{scenario}.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        "python -m duelbandits --ledger .duelbandits/written"
        " scenario --scenario {wildcards.scenario} {params.args} --out {output}"
        " > {log} 2>&1 || (cat {log} >&2; exit 1)"


# results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet: one row per (run, step).
rule simulate:
    input:
        matrix_input,
    output:
        "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet",
    params:
        code=code_digest(),
        runs=chunk_runs,
        scenario=scenario_args,
        algorithm=algorithm_args,
        horizon=config["horizon"],
        stride=config["stride"],
    log:
        "logs/simulate/{scenario}/{algorithm}/chunk-{chunk}.log",
    benchmark:
        "benchmarks/simulate/{scenario}/{algorithm}/chunk-{chunk}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=30,
    shell:
        "python -m duelbandits --ledger .duelbandits/written"
        " simulate --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
        " --horizon {params.horizon} --runs {params.runs} --stride {params.stride}"
        " {params.scenario} {params.algorithm} --out {output} > {log} 2>&1 || (cat {log} >&2; exit 1)"
