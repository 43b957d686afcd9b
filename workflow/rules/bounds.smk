# Theorem 4.1-4.4 bound curves on the summary grid. A theorem whose horizon
# requirement fails at T is logged as a warning and gets no curve.


# results/bounds.parquet: algorithm, theorem, regret, horizon, holds, t, bound.
rule bounds:
    output:
        "results/bounds.parquet",
    params:
        code=code("studies.paper:cmd_bounds"),
        algorithms=" ".join(ALGORITHMS),
        actions=config["actions"],
        horizon=config["horizon"],
        points=config["summary_points"],
        c_alpha=C_ALPHA,
    log:
        "logs/bounds.log",
    benchmark:
        "benchmarks/bounds.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        cli(
            "bounds --algorithms {params.algorithms} --actions {params.actions}"
            " --horizon {params.horizon} --points {params.points} --c-alpha {params.c_alpha}"
            " --out {output}"
        )
