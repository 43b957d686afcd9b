# Beyond the paper (target `sweeps`, not in the default target): every algorithm at several
# horizons T, each tuned to its T, and at several numbers of actions A. The points come from the
# shared `point` rule (simulate.smk) with target=sweeps.

SWEEPS = config["sweeps"]


# results/sweeps/horizon.parquet (R_t per horizon), results/sweeps/exponents.{parquet,md,html}:
# rho in E[R_T] ~ T^rho per (scenario, algorithm, regret) with a bootstrap CI.
rule sweep_horizon:
    input:
        target_points(  # A = the config's `actions`, T over sweeps/horizon/horizons
            "sweeps",
            lambda job: job.scenario in SWEEPS["horizon"]["scenarios"]
            and job.actions == config["actions"]
            and job.horizon in SWEEPS["horizon"]["horizons"],
        ),
    output:
        table="results/sweeps/horizon.parquet",
        exponents="results/sweeps/exponents.parquet",
        markdown="results/sweeps/exponents.md",
        html=report(
            "results/sweeps/exponents.html",
            caption="../report/exponents.rst",
            category="Beyond the paper",
            subcategory="tables",
            labels={"table": "regret exponents"},
        ),
    params:
        code=code("studies.sweeps:cmd_sweep_horizon"),
        resamples=config["sweeps"]["bootstrap"],
        confidence=config["sweeps"]["confidence"],
        seed=config["seed"],
    log:
        "logs/sweeps/horizon.log",
    benchmark:
        "benchmarks/sweeps/horizon.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "sweep-horizon {input} --resamples {params.resamples} --confidence {params.confidence}"
            " --seed {params.seed} --table {output.table} --exponents {output.exponents}"
            " --markdown {output.markdown} --html {output.html}"
        )


# results/sweeps/actions.{parquet,md,html}: R_T per A, and R_T / theorem bound.
rule sweep_actions:
    input:
        target_points(  # A over sweeps/actions/actions at T = sweeps/actions/horizon
            "sweeps",
            lambda job: job.scenario in SWEEPS["actions"]["scenarios"]
            and job.horizon == SWEEPS["actions"]["horizon"]
            and job.actions in SWEEPS["actions"]["actions"],
        ),
    output:
        table="results/sweeps/actions.parquet",
        markdown="results/sweeps/actions.md",
        html=report(
            "results/sweeps/actions.html",
            caption="../report/actions_table.rst",
            category="Beyond the paper",
            subcategory="tables",
            labels={"table": "scaling in A"},
        ),
    params:
        code=code("studies.sweeps:cmd_sweep_actions"),
        c_alpha=C_ALPHA,
    log:
        "logs/sweeps/actions.log",
    benchmark:
        "benchmarks/sweeps/actions.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "sweep-actions {input} --c-alpha {params.c_alpha} --table {output.table}"
            " --markdown {output.markdown} --html {output.html}"
        )


# figures/sweeps/horizon-{scenario}.{pdf,png}: R_T against T with the fit, and the exponents.
# Plotting code: duelbandits.studies.sweeps.figure.horizon_sweep_figure.
rule figure_sweep_horizon:
    input:
        table="results/sweeps/horizon.parquet",
        exponents="results/sweeps/exponents.parquet",
    output:
        pdf="figures/sweeps/horizon-{scenario}.pdf",
        png=report(
            "figures/sweeps/horizon-{scenario}.png",
            caption="../report/horizon_sweep.rst",
            category="Beyond the paper",
            subcategory="figures",
            labels={"figure": "regret exponents", "scenario": "{scenario}"},
        ),
    params:
        code=code("studies.sweeps:cmd_sweep_figure"),
    log:
        "logs/figures/sweeps/horizon-{scenario}.log",
    benchmark:
        "benchmarks/figures/sweeps/horizon-{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "sweep-figure horizon --scenario {wildcards.scenario} --table {input.table}"
            " --exponents {input.exponents} --out {output.pdf} {output.png}"
        )


# figures/sweeps/actions-{scenario}.{pdf,png}: R_T and R_T / bound against A.
# Plotting code: duelbandits.studies.sweeps.figure.actions_sweep_figure.
rule figure_sweep_actions:
    input:
        table="results/sweeps/actions.parquet",
    output:
        pdf="figures/sweeps/actions-{scenario}.pdf",
        png=report(
            "figures/sweeps/actions-{scenario}.png",
            caption="../report/actions_sweep.rst",
            category="Beyond the paper",
            subcategory="figures",
            labels={"figure": "scaling in A", "scenario": "{scenario}"},
        ),
    params:
        code=code("studies.sweeps:cmd_sweep_figure"),
    log:
        "logs/figures/sweeps/actions-{scenario}.log",
    benchmark:
        "benchmarks/figures/sweeps/actions-{scenario}.tsv"
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    shell:
        cli(
            "sweep-figure actions --scenario {wildcards.scenario} --table {input.table}"
            " --out {output.pdf} {output.png}"
        )
