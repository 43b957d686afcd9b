# The 14 figures of docs/paper.md, each as PDF and PNG. Plotting code:
# duelbandits.plotting.main_figure and duelbandits.plotting.appendix_figure.


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
        code=code("cli.figures:cmd_figure_main"),
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
        "python -m duelbandits --ledger .duelbandits/written figure main --scenario-file {input.scenario} --summary {input.summary} --c-alpha {params.c_alpha}"
        " --out {output.pdf} {output.png} > {log} 2>&1 || (cat {log} >&2; exit 1)"


# figures/appendix/{scenario}-{algorithm}.{pdf,png}: runs, I_t, J_t (and p_t, q_t).
rule figure_appendix:
    input:
        scenario="results/scenarios/{scenario}.json",
        traces="results/traces/{scenario}.parquet",
        strategies="results/strategies/{scenario}.parquet",
    output:
        pdf="figures/appendix/{scenario}-{algorithm}.pdf",
        png=report(
            "figures/appendix/{scenario}-{algorithm}.png",
            caption="../report/appendix.rst",
            category="Figures of the paper",
            subcategory="appendix",
            labels={"figure": "appendix", "scenario": "{scenario}", "algorithm": "{algorithm}"},
        ),
    params:
        code=code("cli.figures:cmd_figure_appendix"),
    log:
        "logs/figures/appendix/{scenario}-{algorithm}.log",
    benchmark:
        "benchmarks/figures/appendix/{scenario}-{algorithm}.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    shell:
        "python -m duelbandits --ledger .duelbandits/written figure appendix --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
        " --scenario-file {input.scenario} --traces {input.traces} --strategies {input.strategies}"
        " --out {output.pdf} {output.png} > {log} 2>&1 || (cat {log} >&2; exit 1)"
