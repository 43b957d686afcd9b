# The paper's study (duelbandits.studies.paper): the default target's results and figures, and the
# figures as an author puts them into the paper (targets `panels` and `paper`).
# - aggregate, summary, bounds: per scenario, every run chunk -> traces (every step of every run with
#   its paper regret), strategy means and the regret summary; the Theorem 4.1-4.4 bound curves on the
#   summary grid (a theorem whose horizon requirement fails at T is logged and gets no curve); one
#   summary table over scenarios with the bounds joined in; final_table, the readable table.
# - figure_main, figure_appendix: the 14 figures of docs/paper.md, each as PDF and PNG
#   (duelbandits.studies.paper.main and .appendix).
# - panel_main, panel_appendix_*, figures_tex, figures_pdf: every panel of the 14 figures alone, drawn at
#   the width its subfigure has in the paper with text at the caption sizes, by the same drawing
#   functions as the composite figures (main.main_panel and appendix.appendix_panel); figures/figures.tex
#   with the paper's subfigure layout; and, with TeX Live, figures/figures.pdf to check them. The panels'
#   letters come from duelbandits.plotting.style: the panel jobs' outputs are their letters, fixed when
#   the workflow is parsed.

import duelbandits.plotting.style as style

MAIN_PANELS = "".join(style.MAIN_PANELS)  # (a) utilities to (d) the bounds
APPENDIX_LAYOUTS = {}  # {letters: [algorithm, ...]}: a-c, and d, e for the strategies p_t, q_t it has
for slug, entry in REGISTRY.items():
    APPENDIX_LAYOUTS.setdefault(style.appendix_panel_letters(entry.strategies), []).append(slug)


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


# results/table.md: final regret mean +- std per (scenario, algorithm), the bound
# at T, below it or not; the same table as a report page.
rule final_table:
    input:
        "results/summary.parquet",
    output:
        markdown="results/table.md",
        html=report(
            "results/report/table.html",
            caption="../report/table.rst",
            category="Tables",
            labels={"table": "final regret"},
        ),
    params:
        code=code("studies.paper:cmd_table"),
    log:
        "logs/table.log",
    benchmark:
        "benchmarks/table.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        cli("table --summary {input} --markdown {output.markdown} --html {output.html}")


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
            "figure appendix --algorithm {params.algorithms}"
            " --scenario-file {input.scenario} --traces {input.traces} --strategies {input.strategies}"
            " --out 'figures/appendix/{wildcards.scenario}-{{algorithm}}.pdf' 'figures/appendix/{wildcards.scenario}-{{algorithm}}.png'"
        )


# figures/panels/main-{scenario}/{panel}.{pdf,png}: panels (a)-(d) of a main figure, one job per
# figure (one Python start for its panels; --out gets templates with {panel}).
rule panel_main:
    input:
        scenario="results/scenarios/{scenario}.json",
        summary="results/summary.parquet",
    output:
        pdf=expand("figures/panels/main-{{scenario}}/{panel}.pdf", panel=list(MAIN_PANELS)),
        png=expand("figures/panels/main-{{scenario}}/{panel}.png", panel=list(MAIN_PANELS)),
    params:
        code=code("studies.paper:cmd_figure_main"),
        c_alpha=C_ALPHA,
        panels=" ".join(MAIN_PANELS),
    log:
        "logs/figures/panels/main-{scenario}.log",
    benchmark:
        "benchmarks/figures/panels/main-{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "figure main --panel {params.panels} --scenario-file {input.scenario} --summary {input.summary}"
            " --c-alpha {params.c_alpha} --out 'figures/panels/main-{wildcards.scenario}/{{panel}}.pdf' 'figures/panels/main-{wildcards.scenario}/{{panel}}.png'"
        )


# figures/panels/appendix-{scenario}-{algorithm}/{panel}.{pdf,png}: every panel of an appendix figure,
# one job per figure. A rule's outputs cannot depend on its wildcards, and the panels of a figure
# depend on its algorithm ((d) p_t, (e) q_t where it has them): one rule per set of panels,
# panel_appendix_abc, panel_appendix_abcd and panel_appendix_abcde, each for the algorithms with
# those panels (APPENDIX_LAYOUTS).
for letters, members in APPENDIX_LAYOUTS.items():

    rule:
        name:
            f"panel_appendix_{letters}"
        input:
            scenario="results/scenarios/{scenario}.json",
            traces="results/traces/{scenario}.parquet",
            strategies="results/strategies/{scenario}.parquet",
        output:
            pdf=expand("figures/panels/appendix-{{scenario}}-{{algorithm}}/{panel}.pdf", panel=list(letters)),
            png=expand("figures/panels/appendix-{{scenario}}-{{algorithm}}/{panel}.png", panel=list(letters)),
        params:
            code=code("studies.paper:cmd_figure_appendix"),
            panels=" ".join(letters),
        log:
            "logs/figures/panels/appendix-{scenario}-{algorithm}.log",
        benchmark:
            "benchmarks/figures/panels/appendix-{scenario}-{algorithm}.tsv"
        wildcard_constraints:
            algorithm="|".join(members),
        threads: 1
        resources:
            mem_mb=2000,
            runtime=10,
        shell:
            cli(
                "figure appendix --panel {params.panels} --algorithm {wildcards.algorithm}"
                " --scenario-file {input.scenario} --traces {input.traces} --strategies {input.strategies}"
                " --out 'figures/panels/appendix-{wildcards.scenario}-{wildcards.algorithm}/{{panel}}.pdf'"
                " 'figures/panels/appendix-{wildcards.scenario}-{wildcards.algorithm}/{{panel}}.png'"
            )


# figures/figures.tex: the 14 figure environments, one subfigure per panel, captions with the run's numbers.
rule figures_tex:
    input:
        scenarios=expand("results/scenarios/{scenario}.json", scenario=SCENARIOS),
        summary="results/summary.parquet",
    output:
        "figures/figures.tex",
    params:
        code=code("studies.paper:cmd_latex_figures"),
        scenarios=scenario_file_args,
        c_alpha=C_ALPHA,
    log:
        "logs/figures/figures-tex.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        cli("latex figures {params.scenarios} --summary {input.summary} --c-alpha {params.c_alpha}" " --out {output}")


# figures/figures.pdf: workflow/latex/figures.tex (pages of the paper's size that input
# figures/figures.tex) through latexmk; planning stops, naming the packages, without latexmk.
rule figures_pdf:
    input:
        document=checked_latex_document,
        figures="figures/figures.tex",
        panels=lambda wildcards: paper_panels(formats=["pdf"]),
    output:
        "figures/figures.pdf",
    params:
        code=code("studies.paper:cmd_latex_build"),
    log:
        "logs/figures/figures-pdf.log",
    benchmark:
        "benchmarks/figures/figures-pdf.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli("latex build {input.document:q} --out {output}")
