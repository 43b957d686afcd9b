"""Time, disk size and peak job memory of a full pipeline run (a benchmark, not a test).

Runs the workflow with the given config in a fresh folder, then prints the
wall time, the size of results/ and figures/, and per rule the summed CPU
seconds and the peak resident memory of its jobs (from Snakemake's
benchmark files). The targets of the paper run on a 2-core machine: at most
5 minutes, results/ at most 300 MB, no job above 2 GB.

    python bench/bench_pipeline.py [--cores 2] [--workdir DIR] [--config KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import csv
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--workdir", type=Path, help="run here (default: a new temporary folder)")
    parser.add_argument("--config", nargs="*", default=[], help="Snakemake --config overrides")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="duelbandits-bench-"))
    cmd = [
        sys.executable,
        "-m",
        "snakemake",
        "-s",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(REPO / "config.yaml"),
        "--cores",
        str(args.cores),
        "--quiet",
    ]
    if args.config:
        cmd += ["--config", *args.config]
    start = time.perf_counter()
    result = subprocess.run(cmd)
    wall = time.perf_counter() - start
    if result.returncode:
        print(f"snakemake failed with exit code {result.returncode}", file=sys.stderr)
        return result.returncode
    per_rule = defaultdict(lambda: [0, 0.0, 0.0])  # jobs, CPU-ish seconds, peak MB
    for tsv in (workdir / "benchmarks").rglob("*.tsv"):
        rule = tsv.relative_to(workdir / "benchmarks").parts[0]
        row = next(csv.DictReader(tsv.open(), delimiter="\t"))
        stats = per_rule[rule]
        stats[0] += 1
        stats[1] += float(row["s"])
        stats[2] = max(stats[2], float(row["max_rss"]))
    print(f"workdir: {workdir}")
    print(f"wall time with --cores {args.cores}: {wall:.0f} s")
    print(
        f"results/: {folder_size(workdir / 'results') / 1e6:.0f} MB, figures/: "
        f"{folder_size(workdir / 'figures') / 1e6:.1f} MB"
    )
    print(f"{'rule':20s} {'jobs':>5s} {'job seconds':>12s} {'peak MB':>8s}")
    for rule, (jobs, seconds, peak) in sorted(per_rule.items()):
        print(f"{rule:20s} {jobs:5d} {seconds:12.1f} {peak:8.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
