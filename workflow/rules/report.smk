# The readable tables and the report's extra pages. `snakemake --report report.html`
# then gathers every figure (with its caption from workflow/report/), these
# tables and the configuration into one self-contained HTML file.


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


# results/report/config.html: the whole effective config (the targets beyond the paper included) as
# a report page; the one job a change of those sections plans in the default target.
rule report_config:
    output:
        report(
            "results/report/config.html",
            caption="../report/config.rst",
            category="Configuration",
            labels={"table": "effective configuration"},
        ),
    params:
        code=code("cli.reproducibility:cmd_config_page"),
        config=json.dumps(plan.keyed_by_content(config), sort_keys=True),
    log:
        "logs/report-config.log",
    benchmark:
        "benchmarks/report-config.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    shell:
        cli("config-page --config-json {params.config:q} --out {output}")
