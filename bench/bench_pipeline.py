"""Wall time, CPU and memory of a whole pipeline run from a cold start (a benchmark, not a test).

Runs the workflow of this checkout (or of ``--repo``) with the given config and targets in a fresh
folder, with an empty numba cache (as on a fresh clone), then prints:

- the wall time, and the size of results/ and figures/;
- per rule: jobs, summed CPU seconds and wall seconds, peak resident memory (Snakemake's benchmark
  files; rules without a ``benchmark:`` directive are not counted);
- the bare simulation CPU: the same runs simulated in one process (every run of the targets'
  simulation jobs, as ``duelbandits.plan.jobs`` lists them: the paper run's 1,200 by default, or
  those of ``sweeps``, ``field``, ``asymptotics``), kernels compiled beforehand, nothing written;
  ``--no-bare`` skips it;
- the ratio of the pipeline's CPU (summed over the benchmark files) to that bare CPU;
- the jobs of the dry-run DAG per level (level 0: the jobs ready at once at the start, what
  ``--cores 16`` can run side by side), counted per rule;
- with ``--then TARGET ...``: those targets built next in the same folder (e.g. ``paper`` after the
  paper run), with their own wall time and per-rule CPU.

    python bench/bench_pipeline.py [--cores 2] [--repo DIR] [--targets all] [--config KEY=VALUE ...] [--then paper]

Issue 34's goals on 2 cores: the paper run's wall <= 40 s from a fresh clone and its ratio <= 2
(issue 20's, met: wall <= 60 s, ratio <= 3, the `paper` target <= 60 s after it).
"""

from __future__ import annotations

import argparse
import csv
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

BARE = """
import sys, time, yaml
from duelbandits import plan, run_seed, simulate
config = yaml.safe_load(open(sys.argv[1]))
targets, overrides = sys.argv[2].split(","), sys.argv[3:]

def merge(into, update):  # as Snakemake merges --config into the configfile's values
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = value

for key, value in (item.split("=", 1) for item in overrides):
    merge(config, {key: yaml.safe_load(value)})
jobs = [job for target in targets for job in plan.jobs(config, target)]
params = {job.algorithm: config.get("algorithm_params", {}).get(job.algorithm, {}) for job in jobs}
for algorithm in params:  # compile (or load) every kernel first: not counted
    simulate(plan.scenario(config, "borda").matrix, algorithm, 10, 0, **params[algorithm])
matrices, runs, steps = {}, 0, 0
start = time.process_time()
for job in jobs:
    key = (job.scenario, job.actions)
    if key not in matrices:
        matrices[key] = plan.scenario(config, job.scenario, job.actions).matrix
    stride = config["stride"] if job.target == "paper" else job.horizon  # points keep no strategies
    for run in range(job.first, job.last + 1):
        seed = run_seed(config["seed"], job.scenario, job.algorithm, run)
        simulate(matrices[key], job.algorithm, job.horizon, seed, stride=stride, **params[job.algorithm])
        runs, steps = runs + 1, steps + job.horizon
print(runs, steps, time.process_time() - start)
"""
"""The bare simulation of a target: every run of its simulation jobs (``duelbandits.plan.jobs``), with
the jobs' matrices, seeds and hyper-parameters, in one process, nothing written."""

BARE_TARGETS = {"all": "paper", "table": "paper", "sweeps": "sweeps", "field": "field", "asymptotics": "asymptotics"}
"""The Snakemake targets whose simulations the bare run knows: their job list in ``duelbandits.plan``."""


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file()) if path.exists() else 0


def per_rule(workdir: Path, exclude=frozenset()) -> dict:
    """``{rule: [jobs, cpu s, wall s, peak MB]}`` from the benchmark files but those in ``exclude`` (the
    figures by folder; the panels as figures/panels/main and figures/panels/appendix, by the figure their
    file is named after)."""
    rules = defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for tsv in set((workdir / "benchmarks").rglob("*.tsv")) - set(exclude):
        parts = tsv.relative_to(workdir / "benchmarks").with_suffix("").parts
        rule = parts[0] if parts[0] not in ("figures", "sweeps", "field", "asymptotics") else "/".join(parts[:2])
        if parts[:2] == ("figures", "panels") and len(parts) > 2:
            rule = f"figures/panels/{parts[2].split('-')[0]}"  # main-borda(.tsv or /a.tsv), appendix-borda-dts...
        row = next(csv.DictReader(tsv.open(), delimiter="\t"))
        stats = rules[rule]
        stats[0] += 1
        stats[1] += float(row.get("cpu_time") or 0)
        stats[2] += float(row["s"])
        stats[3] = max(stats[3], float(row["max_rss"] or 0))
    return rules


def print_rules(rules: dict) -> float:
    """Print the per-rule table; return the summed CPU seconds."""
    print(f"{'rule':28s} {'jobs':>5s} {'CPU s':>8s} {'wall s':>8s} {'peak MB':>8s}")
    for rule, (jobs, cpu, seconds, peak) in sorted(rules.items()):
        print(f"{rule:28s} {jobs:5d} {cpu:8.1f} {seconds:8.1f} {peak:8.0f}")
    total = sum(stats[1] for stats in rules.values())
    print(f"{'total':28s} {sum(s[0] for s in rules.values()):5d} {total:8.1f}")
    return total


def dag_levels(cmd: list, env: dict, skip: set) -> list[dict]:
    """The jobs of the DAG that ``cmd`` (a Snakemake call with ``--dag``) prints, by level (level 0:
    no input made by another job), each as ``{rule: jobs}``; the target rules ``skip`` left out."""
    dot = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    rules = {n: label.split("\\n")[0] for n, label in re.findall(r"^\s*(\d+)\[label = \"([^\"]*)\"", dot, re.M)}
    parents = defaultdict(set)
    for source, target in re.findall(r"^\s*(\d+) -> (\d+)", dot, re.M):
        parents[target].add(source)
    level: dict[str, int] = {}

    def depth(node: str) -> int:
        if node not in level:
            level[node] = 1 + max((depth(p) for p in parents[node]), default=-1)
        return level[node]

    levels = defaultdict(lambda: defaultdict(int))
    for node, rule in rules.items():
        if rule not in skip:
            levels[depth(node)][rule] += 1
    return [dict(levels[k]) for k in sorted(levels)]


def run_target(cmd: list, env: dict, workdir: Path) -> tuple[float, dict]:
    """Run ``cmd`` (a Snakemake call); return its wall time and the per-rule stats of the jobs it ran."""
    before = set((workdir / "benchmarks").rglob("*.tsv")) if (workdir / "benchmarks").exists() else set()
    start = time.perf_counter()
    result = subprocess.run(cmd, env=env)
    wall = time.perf_counter() - start
    if result.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed with exit code {result.returncode}")
    return wall, per_rule(workdir, exclude=before)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--repo", type=Path, default=REPO, help="the checkout whose workflow runs (default: this one)")
    parser.add_argument("--workdir", type=Path, help="run here (default: a new temporary folder)")
    parser.add_argument("--targets", nargs="*", default=[], help="Snakemake targets (default: the default target)")
    parser.add_argument("--config", nargs="*", default=[], help="Snakemake --config overrides")
    parser.add_argument("--no-bare", action="store_true", help="skip the bare simulation")
    parser.add_argument("--then", nargs="*", default=[], help="targets built next in the same folder (e.g. paper)")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="duelbandits-bench-"))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(workdir / ".numba-cache"), "PYTHONPATH": str(args.repo / "src")}
    cmd = [sys.executable, "-m", "snakemake", "-s", str(args.repo / "Snakefile"), "--directory", str(workdir),
           "--configfile", str(args.repo / "config.yaml"), "--cores", str(args.cores), "--quiet"]  # fmt: skip

    def snakemake(*options, targets=()) -> list[str]:
        # "--" ends the options: --config and --quiet take several values, which would eat the targets
        return [*cmd, *options, *(["--config", *args.config] if args.config else []), "--", *targets]

    levels = dag_levels(snakemake("--dag", targets=args.targets), env, skip={"all", *args.targets})
    wall, rules = run_target(snakemake(targets=args.targets), env, workdir)
    print(f"workdir: {workdir}")
    print(f"wall time with --cores {args.cores} (cold numba cache): {wall:.1f} s")
    results, figures = folder_size(workdir / "results") / 1e6, folder_size(workdir / "figures") / 1e6
    print(f"results/: {results:.0f} MB, figures/: {figures:.1f} MB")
    total = print_rules(rules)
    print("jobs of the DAG by level (level 0: ready at once at the start):")
    for k, jobs in enumerate(levels):
        print(f"  level {k}: {sum(jobs.values())} ({', '.join(f'{r} {n}' for r, n in sorted(jobs.items()))})")
    unknown = [t for t in args.targets or ["all"] if t not in BARE_TARGETS]
    if unknown:
        print(f"bare simulation: not defined for {', '.join(unknown)} (only {', '.join(BARE_TARGETS)})")
    elif not args.no_bare:
        targets = ",".join(dict.fromkeys(BARE_TARGETS[t] for t in args.targets or ["all"]))
        bare = subprocess.run(
            [sys.executable, "-c", BARE, str(args.repo / "config.yaml"), targets, *args.config],
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        runs, steps, seconds = bare.stdout.split()[-3:]
        seconds = float(seconds)
        print(
            f"bare simulation CPU of {targets}, {int(runs):,} runs, {int(steps):,} steps "
            f"(one process, compiled kernels, nothing written): {seconds:.3f} s"
        )
        print(f"pipeline CPU / bare simulation CPU: {total / seconds:.2f}")
    if args.then:
        wall, rules = run_target(snakemake(targets=args.then), env, workdir)
        print(f"then {' '.join(args.then)}: wall time with --cores {args.cores}: {wall:.1f} s")
        print_rules(rules)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
