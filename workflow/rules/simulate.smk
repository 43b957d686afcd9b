# The scenario matrices, and the simulations: the paper's run chunks (`runs_per_job` runs of one
# scenario and algorithm) and the points of the targets beyond the paper (sweeps, field,
# asymptotics: thin regret curves only), both split into jobs by duelbandits.plan. Each run's seed
# derives from (seed, scenario, algorithm, run) alone, so a run's rows do not depend on the
# chunking and `duelbandits simulate --run R` rebuilds any run alone.


# results/scenarios/file.csv: the file scenario's matrix (config `matrix_file`), validated and copied
# under one name that every job reads: its trigger is the file's content, so moving or renaming
# the file with the same content reruns nothing (the path is in the command, not a param).
rule matrix_file:
    output:
        "results/scenarios/file.csv",
    params:
        matrix=matrix_sha256,
        code=code("cli.simulation:cmd_matrix"),
    log:
        "logs/scenario/file-csv.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        cli("matrix --scenario file --seed {config[seed]}" " --matrix-file {config[matrix_file]:q} --out {output}")


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
        cli("scenario --scenario {wildcards.scenario} {params.args} --out {output}")


# .duelbandits/kernels/{group}.done: the numba kernels of a group of algorithms (paper-1: the two
# TS kernels, ...: duelbandits.algorithms.KERNEL_GROUPS, frozen, balanced by compile time) compiled in one
# process into numba's cache before their simulations, which then load them (less CPU than when each
# simulation's first job compiles its own: docs/performance.md). It has no code trigger: made once, it
# reruns (and its group's simulations with it) only when its file is gone or the rule or
# algorithms.KERNEL_GROUPS change (a re-measure of the compile costs does not); an edited kernel is compiled
# by the simulations the edit reruns.
rule compile_kernels:
    output:
        ".duelbandits/kernels/{group}.done",
    params:
        algorithms=lambda wildcards: " ".join(KERNEL_GROUPS[wildcards.group]),
    log:
        "logs/compile/{group}.log",
    benchmark:
        "benchmarks/compile/{group}.tsv"
    wildcard_constraints:
        group="|".join(KERNEL_GROUPS),
    threads: 1
    resources:
        mem_mb=resources.COMPILE_MEM_MB,
        runtime=10,
    shell:
        cli("compile --algorithm {params.algorithms} --out {output}")


# results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet: one row per (run, step).
rule simulate:
    input:
        matrix_input,
        kernels,
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
        cli(
            "simulate --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
            " --horizon {params.horizon} --runs {params.runs} --stride {params.stride}"
            " {params.scenario} {params.algorithm} --out {output}"
        )


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
        points=lambda wildcards: config[wildcards.target]["points"],
    log:
        "logs/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.log",
    benchmark:
        "benchmarks/{target}/points/{scenario}/A{actions}-T{horizon}/{algorithm}/chunk-{chunk}.tsv"
    threads: 1
    resources:
        mem_mb=job_mem_mb,
        runtime=job_runtime,
    shell:
        cli(
            "sweep-point --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
            " --horizon {wildcards.horizon} --runs {params.runs} --points {params.points}"
            " {params.scenario} {params.algorithm} --out {output}"
        )
