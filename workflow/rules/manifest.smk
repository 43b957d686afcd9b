# The manifest: sha256 of every result and figure of the paper experiment,
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
