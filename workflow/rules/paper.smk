# Beyond the default target: the figures as an author puts them into the paper
# (targets `panels` and `paper`). Every panel of the 14 figures alone, drawn at
# the width its subfigure has in the paper with text at the caption sizes, by
# the same drawing functions as the composite figures (duelbandits.studies.paper:
# main.main_panel and appendix.appendix_panel); figures/figures.tex with the paper's
# subfigure layout; and, with TeX Live, figures/figures.pdf to check them. The panels' letters come from
# duelbandits.plotting.style: the panel jobs' outputs are their letters, fixed when the workflow is parsed.

import duelbandits.plotting.style as style

MAIN_PANELS = "".join(style.MAIN_PANELS)  # (a) utilities to (d) the bounds
APPENDIX_LAYOUTS = {}  # {letters: [algorithm, ...]}: a-c, and d, e for the strategies p_t, q_t it has
for slug, entry in REGISTRY.items():
    APPENDIX_LAYOUTS.setdefault(style.appendix_panel_letters(entry.strategies), []).append(slug)


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
                "figure appendix --panel {params.panels} --scenario {wildcards.scenario} --algorithm {wildcards.algorithm}"
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
