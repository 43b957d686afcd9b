# The scenario matrices, and the simulations: the paper's run chunks (`runs_per_job` runs of one
# scenario and algorithm) and the points of the targets beyond the paper (sweeps, field,
# asymptotics: thin regret curves only), both split into jobs by duelbandits.plan. Each run's seed
# derives from (seed, scenario, algorithm, run) alone, so a run's rows do not depend on the
# chunking and `duelbandits simulate --run R` rebuilds any run alone.


# results/scenarios/{scenario}.json: utilities, matrix, winners.
rule scenario:
    input:
        matrix_input,
    output:
        "results/scenarios/{scenario}.json",
    params:
        code=code("cli.simulation:cmd_scenario"),
        matrix=matrix_sha256,
        args=scenario_args,
    log:
        "logs/scenario/{scenario}.log",
    benchmark:
        "benchmarks/scenario/{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        "python -m duelbandits --ledger .duelbandits/written scenario --scenario {wildcards.scenario} {params.args} --out {output}"
        " > {log} 2>&1 || (cat {log} >&2; exit 1)"


# results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet: one row per (run, step).
rule simulate:
    input:
        matrix_input,
    output:
        RUN_CHUNK,
    params:
        code=algorithm_code("cli.simulation:cmd_simulate"),
        matrix=matrix_sha256,
        runs=job_runs,
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
        mem_mb=job_mem_mb,
        runtime=job_runtime,
    shell:
        "python -m duelbandits --ledger .duelbandits/written simulate --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
        " --horizon {params.horizon} --runs {params.runs} --stride {params.stride}"
        " {params.scenario} {params.algorithm} --out {output} > {log} 2>&1 || (cat {log} >&2; exit 1)"


# results/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.parquet: one job
# of a point of the sweeps, the field or the asymptotics; per run and regret kind, R_t on a thin
# log-spaced grid of steps ending at T, each run tuned to T; one line per finished run in the log.
rule point:
    input:
        matrix_input,
    output:
        POINT,
    params:
        code=algorithm_code("cli.simulation:cmd_sweep_point"),
        matrix=matrix_sha256,
        runs=job_runs,
        scenario=scenario_args,
        algorithm=algorithm_args,
        points=point_count,
    log:
        "logs/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.log",
    benchmark:
        "benchmarks/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.tsv"
    threads: 1
    resources:
        mem_mb=job_mem_mb,
        runtime=job_runtime,
    shell:
        "python -m duelbandits --ledger .duelbandits/written sweep-point --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
        " --horizon {wildcards.horizon} --runs {params.runs} --points {params.points}"
        " {params.scenario} {params.algorithm} --out {output} > {log} 2>&1 || (cat {log} >&2; exit 1)"
