# Aggregation: per scenario, every run chunk -> traces (every step of every
# run with its paper regret), strategy means and the regret summary; then one
# summary table over scenarios with the theorem bounds joined in.


# results/traces/{scenario}.parquet, results/strategies/{scenario}.parquet,
# results/summary/{scenario}.parquet.
rule aggregate:
    input:
        unpack(scenario_chunks),
        scenario="results/scenarios/{scenario}.json",
    output:
        traces="results/traces/{scenario}.parquet",
        strategies="results/strategies/{scenario}.parquet",
        summary="results/summary/{scenario}.parquet",
    params:
        code=code("studies.paper:cmd_aggregate"),
        chunks=chunk_args,
        horizon=config["horizon"],
        runs=config["runs"],
        points=config["summary_points"],
    log:
        "logs/aggregate/{scenario}.log",
    benchmark:
        "benchmarks/aggregate/{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    shell:
        cli(
            "aggregate --scenario-file {input.scenario} {params.chunks}"
            " --horizon {params.horizon} --runs {params.runs} --points {params.points}"
            " --traces {output.traces} --strategies {output.strategies} --summary {output.summary}"
        )


# results/summary.parquet: scenario, algorithm, regret, paper, t, mean, std, runs, bound.
rule summary:
    input:
        summaries=expand("results/summary/{scenario}.parquet", scenario=SCENARIOS),
        bounds="results/bounds.parquet",
    output:
        "results/summary.parquet",
    params:
        code=code("studies.paper:cmd_summary"),
    log:
        "logs/summary.log",
    benchmark:
        "benchmarks/summary.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli("summary {input.summaries} --bounds {input.bounds} --out {output}")
