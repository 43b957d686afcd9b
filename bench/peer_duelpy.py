"""The peer comparison: each built-in's final regret beside duelpy 1.0.0's implementation of it.

duelpy (the field's Python library) is not a dependency: it needs numpy < 1.24, so it lives in a venv
of its own, outside the repository, whose interpreter this script is given. It runs duelpy's
algorithms there (this file again, with ``--worker``: one subprocess for every job, fed as JSON) and
this project's built-ins here, on the field's scenarios (``field.scenarios`` of the config, each
matrix built as the workflow builds it), at one horizon and run count. duelpy's runs duel through a
feedback object of ours that records every pair played, and both sides' regrets are computed here
from the pairs, with :mod:`duelbandits.regret` and the field's choice of regret per scenario
(:func:`duelbandits.studies.field.analysis.field_regrets`), never from duelpy's counters. Every built-in that has a
duelpy counterpart in :data:`PEERS` is run, with the same hyper-parameters (this project's defaults).
Results and the reasons for the differences: docs/beyond-the-paper.md ("The peer comparison").

    python3 -m venv ../duelpy-venv
    ../duelpy-venv/bin/pip install duelpy==1.0.0 "numpy<1.24"
    nice -n 10 python bench/peer_duelpy.py ../duelpy-venv/bin/python [--horizon 2000] [--runs 10]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

PEERS = {
    "dts": ("DoubleThompsonSampling", {"exploratory_constant": "alpha"}),
    "rucb": ("RelativeUCB", {"exploratory_constant": "alpha"}),
    "rcs": ("RelativeConfidenceSampling", {"exploratory_constant": "alpha"}),
    "rmed1": ("Rmed1", {"divergence_tolerance": ("f_coefficient", "f_exponent")}),
    "rmed2": ("Rmed2", {"divergence_tolerance": ("f_coefficient", "f_exponent"), "exploratory_constant": "alpha"}),
    "rmed2fh": ("Rmed2FH", {"divergence_tolerance": ("f_coefficient", "f_exponent"), "exploratory_constant": "alpha"}),
    "ccb": ("CopelandConfidenceBound", {"exploratory_constant": "alpha"}),
    "winner-stays": ("WinnerStaysWeakRegret", {}),
    "ws-s": ("WinnerStaysStrongRegret", {"exploitation_factor": "beta"}),
    "btm": ("BeatTheMeanBandit", {"gamma": "gamma"}),
    "if2": ("InterleavedFiltering", {}),
    "dts-plus": ("DoubleThompsonSamplingPlus", {"exploratory_constant": "alpha"}),
    "ecw-rmed": ("CwRmed", {}),
    "scb": ("ScalableCopelandBandits", {}),
}
"""Built-in slug -> (duelpy 1.0.0 class, {duelpy keyword: our parameter}); a pair of our parameters
``(c, e)`` is duelpy's ``f(K) = c K^e`` (RMED's ``divergence_tolerance``). A slug that is not (yet) a
built-in is skipped, a parameter we do not have is left at duelpy's default."""


# --- duelpy's side: runs in the duelpy venv, imports nothing of this project ----------------------


def worker() -> None:
    """Read the jobs (JSON on stdin), run each duelpy algorithm, print one JSON line of pairs per job."""
    import duelpy.algorithms
    from duelpy.feedback import FeedbackMechanism

    class Recorder(FeedbackMechanism):
        """Duels on the matrix with its own stream, and records every pair played."""

        def __init__(self, matrix, random_state):
            super().__init__(list(range(len(matrix))))
            self.matrix, self.random_state, self.I, self.J = matrix, random_state, [], []

        def duel(self, i, j):
            self.I.append(int(i))
            self.J.append(int(j))
            return bool(self.random_state.uniform() < self.matrix[i][j])

    for job in json.loads(sys.stdin.read()):
        kwargs = {}
        for key, value in job["kwargs"].items():
            kwargs[key] = (lambda K, c=value[0], e=value[1]: c * K**e) if isinstance(value, list) else value
        pairs = []
        for algorithm_seed, feedback_seed, global_seed in job["seeds"]:
            np.random.seed(global_seed)  # duelpy draws from the global state in places: seeded too
            feedback = Recorder(np.asarray(job["matrix"]), np.random.RandomState(feedback_seed))
            cls = getattr(duelpy.algorithms, job["class"])
            algorithm = cls(
                feedback, time_horizon=job["horizon"], random_state=np.random.RandomState(algorithm_seed), **kwargs
            )
            algorithm.run()
            pairs.append([feedback.I, feedback.J])
        print(json.dumps(pairs), flush=True)
        print(f"duelpy {job['class']} on {job['key'][1]}: {len(pairs)} runs done", file=sys.stderr, flush=True)


# --- this project's side -------------------------------------------------------------------------


def peers(registry) -> dict:
    """The slugs of :data:`PEERS` that are built-ins of ``registry``, in the registry's order."""
    return {slug: PEERS[slug] for slug, entry in registry.items() if slug in PEERS and entry.family != "plugin"}


def duelpy_kwargs(mapping: dict, hyper: dict) -> dict:
    """duelpy's keyword arguments from our hyper-parameters ``hyper`` (:data:`PEERS`' mapping)."""
    out = {}
    for key, ours in mapping.items():
        names = ours if isinstance(ours, tuple) else (ours,)
        if all(name in hyper for name in names):
            values = [float(hyper[name]) for name in names]
            out[key] = values if isinstance(ours, tuple) else values[0]
    return out


def summary(values) -> tuple[float, float]:
    """Mean and sample standard deviation (0 for one value)."""
    values = np.asarray(values, dtype=float)
    return float(values.mean()), float(values.std(ddof=1)) if values.size > 1 else 0.0


def differs(ours, theirs, z: float = 3.0) -> bool:
    """Whether two samples' means differ by more than ``z`` standard errors of their difference."""
    (m1, s1), (m2, s2) = summary(ours), summary(theirs)
    se = math.sqrt(s1**2 / len(ours) + s2**2 / len(theirs))
    return abs(m1 - m2) > z * se if se > 0 else m1 != m2


def exploit_share(I, J, winner) -> float:
    """Share of the last half of the steps spent on the duel (winner, winner)."""
    I, J = np.asarray(I), np.asarray(J)
    half = slice(I.size // 2, None)
    return float(np.mean((I[half] == winner) & (J[half] == winner)))


def table(rows) -> str:
    """The Markdown table of ``rows`` (dicts: label, scenario, regret, ours and duelpy (final regrets
    per run), exploit (ours, duelpy) or None, horizon)."""
    lines = [
        "| algorithm | scenario | regret | ours, mean ± sd | duelpy 1.0.0, mean ± sd | beyond noise | "
        "(i*, i*) in last half, ours / duelpy | runs | horizon |",
        "| --- | --- | --- | ---: | ---: | --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        cells = []
        for side in ("ours", "duelpy"):
            mean, sd = summary(row[side])
            cells.append(f"{mean:,.1f} ± {sd:,.1f}")
        flag = "**yes**" if differs(row["ours"], row["duelpy"]) else "no"
        share = "-" if row["exploit"] is None else "{:.2f} / {:.2f}".format(*row["exploit"])
        lines.append(
            f"| {row['label']} | {row['scenario']} | {row['regret']} | {cells[0]} | {cells[1]} | {flag} | "
            f"{share} | {len(row['ours'])} | {row['horizon']:,} |"
        )
    return "\n".join(lines)


def compare(python: str, config: dict, horizon: int, runs: int, only=None) -> list[dict]:
    """Run every built-in with a duelpy peer on the field's scenarios; one row per (algorithm,
    scenario, field regret)."""
    from duelbandits import algorithms, plan, regret, simulation, winners
    from duelbandits.studies.field import analysis as field

    chosen = {s: p for s, p in peers(algorithms.registry()).items() if only is None or s in only}
    scenarios = {name: plan.scenario(config, name, own_size=True) for name in config["field"]["scenarios"]}
    jobs, ours = [], {}
    for slug, (cls, mapping) in chosen.items():
        spec = algorithms.get(slug)
        hyper = spec.hyperparameters()
        for name, sc in scenarios.items():
            X = sc.matrix
            seeds = [
                simulation.name_seed(config["seed"], "duelpy", name, slug, r).generate_state(3).tolist()
                for r in range(runs)
            ]
            jobs.append({"class": cls, "kwargs": duelpy_kwargs(mapping, hyper), "matrix": X.tolist(),
                         "horizon": horizon, "seeds": seeds, "key": [slug, name]})  # fmt: skip
            results = [simulation.simulate(X, slug, horizon, simulation.run_seed(config["seed"], name, slug, r),
                                           stride=horizon) for r in range(runs)]  # fmt: skip
            ours[slug, name] = [(res.I, res.J) for res in results]
    done = subprocess.run([python, __file__, "--worker"], input=json.dumps(jobs), stdout=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"duelpy's worker in {python} failed (its error above)")
    rows = []
    for job, line in zip(jobs, done.stdout.splitlines(), strict=True):
        slug, name = job["key"]
        X = scenarios[name].matrix
        theirs = [(np.asarray(I), np.asarray(J)) for I, J in json.loads(line)]
        short = [len(I) for I, _ in theirs if len(I) != horizon]
        if short:
            sys.exit(f"duelpy's {job['class']} on {name} played {short[0]} duels, not {horizon}")
        sides, cw = (ours[slug, name], theirs), winners.condorcet_winner(X)
        exploit = None if cw is None else tuple(np.mean([exploit_share(I, J, cw) for I, J in s]) for s in sides)
        for kind in field.field_regrets(name, cw):
            column = field.REGRET_COLUMN[kind]
            finals = [[regret.cumulative(column, X, I, J)[-1] for I, J in side] for side in sides]
            rows.append({"label": algorithms.get(slug).label, "scenario": name, "horizon": horizon, "exploit": exploit,
                         "regret": field.FIELD_REGRET_NAMES[kind], "ours": finals[0], "duelpy": finals[1]})  # fmt: skip
    return rows


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("python", help="the interpreter of a venv with duelpy 1.0.0 (and numpy < 1.24)")
    parser.add_argument("--horizon", type=int, default=2000, help="T of every run (default 2000)")
    parser.add_argument("--runs", type=int, default=10, help="runs per (algorithm, scenario), each side (default 10)")
    parser.add_argument("--configfile", default=str(REPO / "config.yaml"), help="the config: seed, field scenarios")
    parser.add_argument("--only", nargs="*", help="only these slugs (default: every built-in with a duelpy peer)")
    args = parser.parse_args(argv)
    import yaml

    config = yaml.safe_load(Path(args.configfile).read_text(encoding="utf-8"))
    print(table(compare(args.python, config, args.horizon, args.runs, args.only)))


if __name__ == "__main__":
    worker() if sys.argv[1:] == ["--worker"] else main()
