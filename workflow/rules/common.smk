# Helpers that turn the validated config into file lists and rule params.
# Rules use these by name; no algorithm or plotting logic lives here.

import json
import shlex
import sys

import duelbandits

# The package's CLI, run by the interpreter that runs Snakemake, so jobs use the
# same environment whether or not it is activated.
DUELBANDITS = f"{shlex.quote(sys.executable)} -m duelbandits"


def check_config_values():
    """Checks the schema cannot express; fail before any job, naming the key."""
    for scenario in config["scenarios"]:
        try:
            duelbandits.make_scenario(
                scenario, actions=config["actions"], seed=config["seed"], **config["scenario_params"]
            )
        except duelbandits.ScenarioError as err:
            raise ValueError(f"config: scenarios/scenario_params/actions: {err}") from None
    c_alpha = config["algorithm_params"].get("ts-borda", {}).get("c_alpha", 1.0)
    alpha = c_alpha * config["horizon"] ** (-1 / 3)
    if "ts-borda" in config["algorithms"] and alpha >= 0.5:
        raise ValueError(
            f"config: algorithm_params/ts-borda/c_alpha: alpha = c_alpha * horizon^(-1/3) = {alpha:.3f} "
            "must be < 1/2; lower c_alpha or raise horizon"
        )


check_config_values()

SCENARIOS = config["scenarios"]
ALGORITHMS = config["algorithms"]
CHUNKS = list(range(-(-config["runs"] // config["runs_per_job"])))


wildcard_constraints:
    scenario="|".join(SCENARIOS),
    algorithm="|".join(ALGORITHMS),
    chunk=r"\d+",


def chunk_runs(wildcards):
    """Run range FIRST-LAST simulated by one chunk job."""
    first = int(wildcards.chunk) * config["runs_per_job"]
    last = min(first + config["runs_per_job"], config["runs"]) - 1
    return f"{first}-{last}"


def scenario_args():
    """CLI arguments that pin a scenario matrix."""
    params = " ".join(f"--scenario-param {k}={v}" for k, v in config["scenario_params"].items())
    return f"--actions {config['actions']} --seed {config['seed']} {params}"


def algorithm_args(wildcards):
    """CLI hyper-parameter overrides of one algorithm."""
    params = config["algorithm_params"].get(wildcards.algorithm, {})
    return " ".join(f"--param {k}={v}" for k, v in params.items())


def scenario_chunks(wildcards):
    """Every run chunk of one scenario, algorithm by algorithm."""
    return {
        algorithm: expand(
            "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet",
            scenario=wildcards.scenario,
            algorithm=algorithm,
            chunk=CHUNKS,
        )
        for algorithm in ALGORITHMS
    }


def chunk_args(wildcards, input):
    """``--chunk ALGORITHM=PATH`` for every chunk of the scenario."""
    return " ".join(
        f"--chunk {algorithm}={path}"
        for algorithm, paths in scenario_chunks(wildcards).items()
        for path in paths
    )


def paper_results():
    """Every result file of the paper experiment (what the manifest lists besides figures)."""
    per_scenario = [
        "results/scenarios/{scenario}.json",
        "results/traces/{scenario}.parquet",
        "results/strategies/{scenario}.parquet",
        "results/summary/{scenario}.parquet",
    ]
    runs = expand(
        "results/runs/{scenario}/{algorithm}/chunk-{chunk}.parquet",
        scenario=SCENARIOS,
        algorithm=ALGORITHMS,
        chunk=CHUNKS,
    )
    return expand(per_scenario, scenario=SCENARIOS) + runs + ["results/bounds.parquet", "results/summary.parquet"]


def all_figures():
    """The 14 figures of SPEC.md (at the paper config), PDF and PNG."""
    return expand("figures/main/{scenario}.{ext}", scenario=SCENARIOS, ext=["pdf", "png"]) + expand(
        "figures/appendix/{scenario}-{algorithm}.{ext}",
        scenario=SCENARIOS,
        algorithm=ALGORITHMS,
        ext=["pdf", "png"],
    )
