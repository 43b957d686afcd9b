# Reproduction of "Simple Algorithms for Dueling Bandits" (Lekang & Lamperski).
# Table of contents: configuration, validation, the stages in pipeline order, and
# the targets, the rules of this file: each one's docstring is its row of the README's table of
# targets (written by `python bench/docgen.py`); the default `all` is every result and figure of the paper.

from snakemake.utils import min_version

import duelbandits.configcheck
import duelbandits.errors

min_version("9.0")


configfile: "config.yaml"


# The config door (duelbandits.configcheck): the config files' names, one walk over the config (NaN, infinities, int32, a float
# for an integer, the registries' names, plugins' hyper-parameters), then Snakemake's validate against
# the schema file; each problem in one line naming the key. A key given twice in one YAML file: YAML's
# (and Snakemake's) rule, the last wins.
try:
    duelbandits.configcheck.validate(
        config,
        workflow.source_path("workflow/schemas/config.schema.yaml"),
        workflow.configfiles,
        workflow.config_settings.config,
    )
except duelbandits.errors.InputError as err:  # an unusable plugin stops here too, in one line
    raise ValueError(str(err)) from None


report: "workflow/report/workflow.rst"


include: "workflow/rules/common.smk"
include: "workflow/rules/simulate.smk"
include: "workflow/rules/paper.smk"
include: "workflow/rules/manifest.smk"
include: "workflow/rules/sweeps.smk"
include: "workflow/rules/field.smk"
include: "workflow/rules/asymptotics.smk"
include: "workflow/rules/tail.smk"
include: "workflow/rules/bayes.smk"
include: "workflow/rules/claims.smk"


# Every result is a target, not only the figures: Snakemake does not rebuild a
# missing intermediate file whose consumers are up to date, and a tree with a
# hole is not the paper's results.
rule all:
    """Every result and figure of the paper, `results/MANIFEST.sha256`."""
    default_target: True
    input:
        PAPER_FIGURES,
        PAPER_RESULTS,
        "results/MANIFEST.sha256",
        "results/report/config.html",


rule table:
    """`results/table.md` (also made by the default)."""
    input:
        "results/table.md",


rule sweeps:
    """Regret exponents over horizons and the scaling in `A`."""
    input:
        checked_target(
            "sweeps",
            [
                "results/sweeps/exponents.md",
                "results/sweeps/actions.md",
                *expand("figures/sweeps/horizon-{s}.{ext}", s=config["sweeps"]["horizon"]["scenarios"], ext=FORMATS),
                *expand("figures/sweeps/actions-{s}.{ext}", s=config["sweeps"]["actions"]["scenarios"], ext=FORMATS),
            ],
        ),


rule field:
    """The paper's algorithms against every other built-in from the literature, on five scenarios."""
    input:
        checked_target(
            "field",
            [
                "results/field/table.md",
                *expand("figures/field/{s}.{ext}", s=config["field"]["scenarios"], ext=FORMATS),
            ],
        ),


rule asymptotics:
    """Local regret exponents at horizons up to `10^7`."""
    input:
        checked_target(
            "asymptotics",
            [
                "results/asymptotics/exponents.md",
                *expand("figures/asymptotics/{s}.{ext}", s=config["asymptotics"]["scenarios"], ext=FORMATS),
            ],
        ),


# Theorem 4.1 far past the paper's horizon (docs/claims.md); Snakemake rule names take no hyphen.
rule maximin_tail:
    """Theorem 4.1 on the borda matrix up to `10^7`: stratified `E[R_T]` / bound, trapped runs
    ([docs/claims.md](docs/claims.md#theorem-41-past-the-papers-horizon))."""
    input:
        "results/maximin-tail/tail.md",
        "results/maximin-tail/family.md",
        "figures/maximin-tail/tail.png",


# Theorem 4.1 as a Bayesian bound, over matrices drawn from a prior (docs/claims.md).
rule maximin_bayes:
    """Theorem 4.1 as a Bayesian bound: TS-Maximin's `E[R_T]` / bound at `T = 10^5` over matrices
    drawn from a prior, `A = 3..10` ([docs/claims.md](docs/claims.md#theorem-41-as-a-bayesian-bound))."""
    input:
        checked_target("maximin-bayes", ["results/maximin-bayes/bayes.md", "figures/maximin-bayes/ratios.png"]),


# The paper's claims, each with its verdict (docs/claims.md).
rule claims:
    """`results/claims.md`: each claim of the paper with its number, interval and verdict
    ([docs/claims.md](docs/claims.md))."""
    input:
        "results/claims.md",


rule panels:
    """One file per panel and `figures/figures.tex`, for a paper."""
    input:
        paper_panels,
        "figures/figures.tex",


rule paper:
    """And `figures/figures.pdf` (needs TeX Live)."""
    input:
        "figures/figures.pdf",
