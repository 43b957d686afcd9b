# The 14 figures of docs/paper.md, each as PDF and PNG. Plotting code:
# duelbandits.studies.paper.main and duelbandits.studies.paper.appendix.


# figures/main/{scenario}.{pdf,png}: utilities, matrix, mean regrets, bounds.
rule figure_main:
    input:
        scenario="results/scenarios/{scenario}.json",
        summary="results/summary.parquet",
    output:
        pdf="figures/main/{scenario}.pdf",
        png=report(
            "figures/main/{scenario}.png",
            caption="../report/main.rst",
            category="Figures of the paper",
            subcategory="main text",
            labels={"figure": "main", "scenario": "{scenario}"},
        ),
    params:
        code=code("studies.paper:cmd_figure_main"),
        c_alpha=C_ALPHA,
    log:
        "logs/figures/main/{scenario}.log",
    benchmark:
        "benchmarks/figures/main/{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "figure main --scenario-file {input.scenario} --summary {input.summary} --c-alpha {params.c_alpha}"
            " --out {output.pdf} {output.png}"
        )


# figures/appendix/{scenario}-{algorithm}.{pdf,png}: runs, I_t, J_t (and p_t, q_t). One job per
# scenario draws the figure of every algorithm of the config: one Python start and one import for
# the six, each algorithm's rows of the traces read once; --out gets templates ({algorithm}).
rule figure_appendix:
    input:
        scenario="results/scenarios/{scenario}.json",
        traces="results/traces/{scenario}.parquet",
        strategies="results/strategies/{scenario}.parquet",
    output:
        pdf=expand("figures/appendix/{{scenario}}-{algorithm}.pdf", algorithm=ALGORITHMS),
        png=[
            report(
                f"figures/appendix/{{scenario}}-{algorithm}.png",
                caption="../report/appendix.rst",
                category="Figures of the paper",
                subcategory="appendix",
                labels={"figure": "appendix", "scenario": "{scenario}", "algorithm": algorithm},
            )
            for algorithm in ALGORITHMS
        ],
    params:
        code=code("studies.paper:cmd_figure_appendix"),
        algorithms=" ".join(ALGORITHMS),
    log:
        "logs/figures/appendix/{scenario}.log",
    benchmark:
        "benchmarks/figures/appendix/{scenario}.tsv"
    threads: 1
    # One algorithm's rows of the traces at a time: 0.56 GB peak at the paper config (/usr/bin/time -v).
    resources:
        mem_mb=2000,
        runtime=10,
    shell:
        cli(
            "figure appendix --scenario {wildcards.scenario} --algorithm {params.algorithms}"
            " --scenario-file {input.scenario} --traces {input.traces} --strategies {input.strategies}"
            " --out 'figures/appendix/{wildcards.scenario}-{{algorithm}}.pdf' 'figures/appendix/{wildcards.scenario}-{{algorithm}}.png'"
        )
