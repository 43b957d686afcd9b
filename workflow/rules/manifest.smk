# Reproducibility: the report's config page, and the manifest. `snakemake --report report.html` gathers
# every figure (with its caption from workflow/report/), the tables and the configuration into one
# self-contained HTML file. The manifest: sha256 of every result and figure of the paper experiment,
# with the Python and dependency versions and the config (without the sections beyond
# the paper: sweeps, field, asymptotics). Check a tree with
# `duelbandits manifest verify results/MANIFEST.sha256`.


# results/MANIFEST.sha256
rule manifest:
    input:
        PAPER_RESULTS,
        PAPER_FIGURES,
    output:
        "results/MANIFEST.sha256",
    params:
        code=code("cli.reproducibility:cmd_manifest_write"),
        config=json.dumps(plan.paper_config(config), sort_keys=True),
        plugins=json.dumps(plan.plugins_used(config), sort_keys=True),
    log:
        "logs/manifest.log",
    benchmark:
        "benchmarks/manifest.tsv"
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    shell:
        cli(
            "manifest write {input} --config-json {params.config:q}"
            " --plugins-json {params.plugins:q} --out {output}"
        )


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
