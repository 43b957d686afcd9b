# Beyond the paper (target `field`, not in the default target): the paper's algorithms
# and the field's (every other built-in, `duelbandits list`) on the same
# scenarios, with the same run seeds, at one horizon. The points come from the shared `point` rule (simulate.smk) with
# target=field, the scenario files from the `scenario` rule (benchmarks at their own A).


# results/field/{curves,table}.parquet and table.md: mean regret curves; final regret and rank.
rule field_table:
    input:
        points=target_points("field"),
        scenarios=expand("results/scenarios/{scenario}.json", scenario=config["field"]["scenarios"]),
    output:
        curves="results/field/curves.parquet",
        table="results/field/table.parquet",
        markdown="results/field/table.md",
    params:
        code=code("studies.field:cmd_field_table"),
        scenarios=scenario_file_args,
    log:
        "logs/field/table.log",
    benchmark:
        "benchmarks/field/table.tsv"
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    shell:
        cli(
            "field-table {input.points} {params.scenarios} --curves {output.curves} --table {output.table}"
            " --markdown {output.markdown}"
        )


# figures/field/{scenario}.{pdf,png}: mean cumulative regret, log-log, paper solid, field dashed, plugins dotted.
# Plotting code: duelbandits.studies.field.figure.field_figure.
rule figure_field:
    input:
        curves="results/field/curves.parquet",
    output:
        pdf="figures/field/{scenario}.pdf",
        png=report(
            "figures/field/{scenario}.png",
            caption="../report/field.rst",
            category="Beyond the paper",
            subcategory="figures",
            labels={"figure": "the field", "scenario": "{scenario}"},
        ),
    params:
        code=code("studies.field:cmd_field_figure"),
    log:
        "logs/figures/field/{scenario}.log",
    benchmark:
        "benchmarks/figures/field/{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli("field-figure --scenario {wildcards.scenario} --curves {input.curves}" " --out {output.pdf} {output.png}")
