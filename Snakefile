# Reproduction of "Simple Algorithms for Dueling Bandits" (Lekang & Lamperski).
# Table of contents: configuration, validation, the stages in pipeline order,
# and the default target (every figure of the paper).

from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config.yaml"


validate(config, "workflow/schemas/config.schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/aggregate.smk"
include: "workflow/rules/bounds.smk"
include: "workflow/rules/figures.smk"
include: "workflow/rules/manifest.smk"


rule all:
    input:
        all_figures(),
        "results/summary.parquet",
        "results/MANIFEST.sha256",
    default_target: True
