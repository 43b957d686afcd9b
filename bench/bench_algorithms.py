"""Speed of the algorithm kernels, the paper's and the field's: seconds per run, us per step, Beta draws.

Not a test: it prints plain-text tables. For every slug of
``duelbandits.algorithms.ALGORITHMS`` it times ``duelbandits.simulate`` (the
call the pipeline makes, strategies recorded every 40 steps) after a warm-up
run that loads or compiles the numba kernels, and reports

1. seconds per run (median of ``--repeats``) at A = 10 on both scenarios, microseconds per step
   (the slower scenario; the field's algorithms against their 2 us target), Beta
   draws per step where the module exposes ``beta_draws(matrix, horizon,
   rng, **hyper)``, and the projected CPU time of the paper's
   2 scenarios x 6 algorithms x 100 runs against the 3-CPU-minute target;
2. seconds per run at A in {5, 10, 20} (condorcet) to show cost growth;
3. DTS against the plain-Python ``tests/dts_reference.py`` (run on a shorter
   horizon, compared per step);
4. with ``--ts-horizons``, microseconds and Beta variates per step of
   TS-Borda and TS-Maximin at the given horizons (their pruned samplers get
   cheaper as the posterior concentrates; the asymptotics runs go to 10^7);
5. with ``--compile``, only the CPU seconds numba takes to compile each built-in's kernels, a
   family at a time in one fresh process with an empty cache, in the registry's order (so each
   figure is the kernel's cost after the entries before it, as in a compile job), against the
   costs file's, and the compile jobs' groups these seconds balance (:func:`balanced_groups`) beside
   the workflow's frozen ones.

With ``--write``, the built-ins' measured costs replace theirs in the planner's costs file
(``src/duelbandits/data/costs.csv``, read by ``duelbandits.resources``): microseconds per step (the
slower scenario, plus :data:`BOOKKEEPING_US`) from section 1, or with ``--compile`` the compile seconds.

A module that is missing or fails to import is reported "not available".

    python bench/bench_algorithms.py [--horizon 40000] [--repeats 5] [--quick] [--ts-horizons 40000 1000000]
    python bench/bench_algorithms.py --compile
    python bench/bench_algorithms.py --write; python bench/bench_algorithms.py --compile --write
    python bench/bench_algorithms.py --algorithms SLUG... --write   # only these (new) built-ins' rows

``--algorithms`` times only the given slugs in sections 1 and 2 (the costs file's other rows are kept,
the paper's projection counts only those given, section 3 runs only with ``dts``); ``--compile``
always compiles whole families, as a compile job does.
"""

from __future__ import annotations

import argparse
import csv
import importlib
import io
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

import duelbandits
from duelbandits import algorithms, resources

# the literal DTS reference is test support code, kept in tests/
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import dts_reference  # noqa: E402

PAPER_T = 40_000
PAPER_RUNS = 100
TARGET_SECONDS = 180.0  # 3 CPU minutes for the whole sweep
FIELD_TARGET_US = 2.0  # the field's algorithms: at most 2 us a step at A = 10 (issue 13)
SIZES = (5, 10, 20)
COSTS = Path(__file__).resolve().parents[1] / "src" / "duelbandits" / "data" / resources.COSTS_FILE
BOOKKEEPING_US = 0.08
"""Microseconds per step a sweep-point run adds to the kernel at A = 10 (the thin curves of its four
regrets): the costs file holds a sweep-point run's cost."""


def write_costs(column: str, measured: dict, path: Path = COSTS) -> None:
    """Rewrite ``column`` (``step_us`` or ``compile_s``) of the costs file at ``path`` with the ``measured``
    built-ins' figures (two significant digits), keeping its comments and the other figures; its rows
    are the built-ins, in the registry's order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    comments = [line for line in lines if line.startswith("#")]
    old = {row["algorithm"]: row for row in csv.DictReader(line for line in lines if not line.startswith("#"))}
    out = io.StringIO()
    writer = csv.DictWriter(out, ["algorithm", "step_us", "compile_s"], lineterminator="\n")
    writer.writeheader()
    for slug in algorithms.BUILTINS:
        row = old.get(slug, {"algorithm": slug, "step_us": "", "compile_s": ""})
        writer.writerow({**row, column: f"{measured[slug]:.2g}"} if slug in measured else row)
    path.write_text("\n".join(comments) + "\n" + out.getvalue(), encoding="utf-8")


def balanced_groups(seconds: dict, jobs: int = 2) -> dict[str, tuple[str, ...]]:
    """``{"paper-1": slugs, ...}``: each family's built-ins, in the registry's order, cut into ``jobs``
    runs of consecutive entries whose summed compile ``seconds`` has the smallest maximum (among equal
    maxima, the first cut): the advice for ``duelbandits.algorithms.KERNEL_GROUPS``."""
    groups = {}
    for family in dict.fromkeys(a.family for a in algorithms.BUILTINS.values()):
        slugs = [slug for slug, a in algorithms.BUILTINS.items() if a.family == family]
        total = [0.0, *itertools.accumulate(seconds[slug] for slug in slugs)]
        count = min(jobs, len(slugs))
        cuts = min(
            ((0, *inner, len(slugs)) for inner in itertools.combinations(range(1, len(slugs)), count - 1)),
            key=lambda cut: max(total[b] - total[a] for a, b in zip(cut, cut[1:])),
        )
        groups |= {f"{family}-{i + 1}": tuple(slugs[cuts[i] : cuts[i + 1]]) for i in range(count)}
    return groups


def load(slug):
    """``(Algorithm, module)`` or ``(Algorithm, None)`` when the module is not available."""
    spec = algorithms.ALGORITHMS[slug]
    try:
        return spec, importlib.import_module(spec.module)
    except ImportError:
        return spec, None


def seconds_per_run(matrix, slug, horizon, repeats):
    """Median wall time of ``repeats`` runs (distinct seeds) after one warm-up run."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # short warm-up horizons clip gamma, on purpose
        duelbandits.simulate(matrix, slug, 200, 0)
    times = []
    for r in range(repeats):
        start = time.perf_counter()
        duelbandits.simulate(matrix, slug, horizon, r + 1)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def draws_per_step(module, spec, matrix, horizon):
    """Beta variates per step via the module's ``beta_draws`` helper, or None."""
    count = getattr(module, "beta_draws", None)
    if count is None:
        return None
    return count(matrix, horizon, np.random.default_rng(0), **spec.defaults) / horizon


def fmt(x, spec="{:.4f}"):
    return "n/a" if x is None else spec.format(x)


def table(header, rows):
    widths = [max(len(str(c)) for c in col) for col in zip(header, *rows)]

    def line(cells):
        return "  ".join(str(c).rjust(w) if k else str(c).ljust(w) for k, (c, w) in enumerate(zip(cells, widths)))

    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))
    print()


def ts_horizons(scenarios, loaded, horizons, repeats):
    """Section 4: us per step and Beta variates per step of the Thompson-sampling kernels by horizon."""
    print(f"Thompson sampling by horizon, A = 10: us/step (median of {repeats}) and Beta variates/step\n")
    rows = []
    for slug in [s for s in ("ts-borda", "ts-maximin") if s in loaded]:
        spec, module = loaded[slug]
        if module is None:
            rows.append([slug, "not available"] + [""] * (2 * len(scenarios)))
            continue
        for T in horizons:
            cells = []
            for X in scenarios.values():
                cells.append(f"{seconds_per_run(X, slug, T, repeats) / T * 1e6:.2f}")
                cells.append(fmt(draws_per_step(module, spec, X, T), "{:.1f}"))
            rows.append([slug, f"{T:,}"] + cells)
    header = ["algorithm", "horizon"]
    for name in scenarios:
        header += [f"{name} us/step", f"{name} Beta/step"]
    table(header, rows)


COMPILE = """
import json, sys, time
from duelbandits.simulation import compile_kernels
times = {}
for slug in sys.argv[1:]:  # the compile job's own call
    start = time.process_time()
    compile_kernels(slug)
    times[slug] = time.process_time() - start
print(json.dumps(times))
"""


def compile_times(write: bool) -> None:
    """Print each built-in's compile CPU seconds, measured a family at a time, against the costs file's;
    with ``write``, write them into it."""
    families = {}
    for slug, spec in algorithms.BUILTINS.items():
        families.setdefault(spec.family, []).append(slug)
    rows, measured = [], {}
    for family, slugs in families.items():
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "NUMBA_CACHE_DIR": cache}
            out = subprocess.run([sys.executable, "-c", COMPILE, *slugs], env=env, capture_output=True, text=True)
        if out.returncode:
            sys.exit(f"compiling the {family} family failed: {out.stderr.strip().splitlines()[-1]}")
        measured |= json.loads(out.stdout)
        rows += [
            [slug, family, f"{measured[slug]:.2f}", f"{resources.measured_costs().get(slug, (0, 0))[1] or '-'}"]
            for slug in slugs
        ]
    print("CPU seconds to compile each built-in's kernels after its family's entries before it (empty cache)\n")
    table(["algorithm", "family", "measured s", "costs file's s"], rows)
    print("The compile jobs' groups balanced by these seconds (algorithms.KERNEL_GROUPS is frozen: moving an algorithm")
    print("there reruns its simulations, so do it when the gain is worth it)\n")
    cut = balanced_groups(measured)
    table(
        ["group", "balanced", "algorithms.KERNEL_GROUPS"],
        [[g, " ".join(cut[g]), " ".join(algorithms.KERNEL_GROUPS.get(g, ()))] for g in cut],
    )
    if write:
        write_costs("compile_s", measured)
        print(f"written: {COSTS}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--horizon", type=int, default=PAPER_T, help="steps per run (default 40000)")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per cell; the median is shown (default 5)")
    parser.add_argument(
        "--reference-horizon", type=int, default=2000, help="steps of the plain-Python DTS run (default 2000)"
    )
    parser.add_argument("--quick", action="store_true", help="smoke run: horizon 2000, 2 repeats, reference 200 steps")
    parser.add_argument("--compile", action="store_true", help="only the compile time of each built-in's kernels")
    parser.add_argument("--write", action="store_true", help=f"write the built-ins' measured costs into {COSTS.name}")
    parser.add_argument(
        "--ts-horizons", type=int, nargs="*", default=[], help="also time TS-Borda and TS-Maximin at these horizons"
    )
    parser.add_argument("--algorithms", nargs="+", metavar="SLUG", help="time only these algorithms (default: all)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.algorithms or ()) - set(algorithms.ALGORITHMS))
    if unknown:
        parser.error(f"--algorithms: unknown algorithm(s) {', '.join(unknown)}; see duelbandits list")
    if args.write and (args.quick or args.horizon != PAPER_T):
        parser.error(f"--write: the costs are measured at --horizon {PAPER_T}, not with --quick or another horizon")
    if args.compile:
        return compile_times(args.write)
    if args.quick:
        args.horizon, args.repeats, args.reference_horizon = 2000, 2, 200
    T = args.horizon
    scale = PAPER_T / T  # per-step cost is roughly constant: project linearly to the paper's T

    slugs = [slug for slug in algorithms.ALGORITHMS if slug in (args.algorithms or algorithms.ALGORITHMS)]
    loaded = {slug: load(slug) for slug in slugs}
    # the paper's two scenarios (SCENARIOS also holds cyclic and file, the latter needs a CSV path)
    scenarios = {name: duelbandits.make_scenario(name, actions=10, seed=0).matrix for name in ("condorcet", "borda")}

    print(f"Seconds per run at A = 10, T = {T:,} (median of {args.repeats}, after warm-up)\n")
    rows, total, missing, over, measured = [], 0.0, [], [], {}
    for slug in slugs:
        spec, module = loaded[slug]
        if module is None:
            missing.append(slug)
            rows.append([slug, spec.family, "not available", "not available", "n/a", "n/a", "n/a", "n/a"])
            continue
        secs = {name: seconds_per_run(X, slug, T, args.repeats) for name, X in scenarios.items()}
        draws = {name: draws_per_step(module, spec, X, T) for name, X in scenarios.items()}
        projected = PAPER_RUNS * scale * sum(secs.values())
        if spec.family == "paper":
            total += projected
        us_per_step = 1e6 * max(secs.values()) / T
        if slug in algorithms.BUILTINS:
            measured[slug] = us_per_step + BOOKKEEPING_US
        if spec.family == "field" and us_per_step > FIELD_TARGET_US:
            over.append(slug)
        rows.append(
            [
                slug,
                spec.family,
                fmt(secs["condorcet"]),
                fmt(secs["borda"]),
                fmt(us_per_step, "{:.2f}"),
                fmt(draws["condorcet"], "{:.1f}"),
                fmt(draws["borda"], "{:.1f}"),
                fmt(projected, "{:.1f}"),
            ]
        )
    header = ["algorithm", "family", "condorcet s/run", "borda s/run", "us/step (worse)", "Beta/step cond."]
    table(header + ["Beta/step borda", "200 runs, s"], rows)
    verdict = "all within" if not over else f"OVER: {', '.join(over)}"
    print(f"The field's algorithms against the {FIELD_TARGET_US:g} us/step target at A = 10: {verdict}\n")
    note = "" if T == PAPER_T else f" (scaled linearly from T = {T:,} to {PAPER_T:,})"
    verdict = "within" if total <= TARGET_SECONDS else "OVER"
    sweep = f"2 scenarios x the paper's 6 algorithms x {PAPER_RUNS} runs at T = {PAPER_T:,}"
    print(f"Projected CPU time of the paper's sweep ({sweep}){note}:")
    print(f"  {total:.1f} s = {total / 60:.2f} CPU minutes, {verdict} the {TARGET_SECONDS / 60:.0f}-CPU-minute target")
    if missing:
        print(f"  (not available, not counted: {', '.join(missing)})")
    print()
    if args.write:
        write_costs("step_us", measured)
        print(f"written: {COSTS} (us per step plus {BOOKKEEPING_US} of bookkeeping)\n")

    print(f"Cost growth with the number of actions: seconds per run, condorcet, T = {T:,}\n")
    matrices = {A: duelbandits.make_scenario("condorcet", actions=A, seed=0).matrix for A in SIZES}
    rows = []
    for slug in slugs:
        if loaded[slug][1] is None:
            rows.append([slug] + ["not available"] * len(SIZES))
            continue
        rows.append([slug] + [fmt(seconds_per_run(matrices[A], slug, T, args.repeats)) for A in SIZES])
    table(["algorithm"] + [f"A = {A}" for A in SIZES], rows)

    if args.ts_horizons:
        ts_horizons(scenarios, loaded, args.ts_horizons, args.repeats)

    if "dts" not in loaded:
        return
    print("DTS: numba kernel vs plain-Python reference (tests/dts_reference.py), A = 10, condorcet\n")
    if loaded["dts"][1] is None:
        print("  dts: not available\n")
        return
    X = scenarios["condorcet"]
    kernel_step = seconds_per_run(X, "dts", T, args.repeats) / T
    H = args.reference_horizon
    times = []
    for r in range(max(1, min(args.repeats, 3))):
        start = time.perf_counter()
        dts_reference.run(X, H, np.random.default_rng(r))
        times.append(time.perf_counter() - start)
    reference_step = statistics.median(times) / H
    table(
        ["implementation", "horizon", "us/step", "s per run at T = 40,000"],
        [
            ["numba kernel", f"{T:,}", f"{kernel_step * 1e6:.2f}", f"{kernel_step * PAPER_T:.3f}"],
            ["plain Python", f"{H:,}", f"{reference_step * 1e6:.2f}", f"{reference_step * PAPER_T:.1f} (projected)"],
        ],
    )
    print(f"  speed-up: {reference_step / kernel_step:.0f}x per step (target: >= 50x)")
    print("  (the reference forms U, L and draws all A(A-1)/2 + A Beta samples every step, so its")
    print("   cost per step does not depend on t and scaling it to T = 40,000 is fair)\n")


if __name__ == "__main__":
    main()
