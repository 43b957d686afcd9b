# The readable tables and the report's extra pages. `snakemake --report report.html`
# then gathers every figure (with its caption from workflow/report/), these
# tables and the configuration into one self-contained HTML file.


# results/table.md: final regret mean +- std per (scenario, algorithm), the bound
# at T, below it or not; the same table and the effective config as report pages.
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
        config=report(
            "results/report/config.html",
            caption="../report/config.rst",
            category="Configuration",
            labels={"table": "effective configuration"},
        ),
    params:
        code=code("cli.paper:cmd_table"),
        config=PAPER_CONFIG,
    log:
        "logs/table.log",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        "{DUELBANDITS} table --summary {input} --markdown {output.markdown} --html {output.html}"
        " --config-json {params.config:q} --config-html {output.config} > {log} 2>&1 || (cat {log} >&2; exit 1)"
