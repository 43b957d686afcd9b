"""The borda scenario's files as the pipeline writes them, for a few algorithms (A = 5, T = 200, two runs
each): scenario JSON, run chunks, traces, strategies, per-scenario summary, bounds and summary. Built by
the figure batch tests and the checked-read tests."""

from duelbandits import cli

COMMON = ["--actions", "5", "--seed", "7"]


def run(*argv):
    assert cli.main([str(a) for a in argv]) == 0, argv


def paper_files(root, algorithms):
    """Write the files into ``root`` (borda.json, ALGORITHM.parquet chunks, traces-borda.parquet,
    strategies-borda.parquet, summary-borda.parquet, bounds.parquet, summary.parquet); return ``root``."""
    run("scenario", "--scenario", "borda", *COMMON, "--out", root / "borda.json")
    chunks = []
    for algorithm in algorithms:
        out = root / f"{algorithm}.parquet"
        args = ["--algorithm", algorithm, "--horizon", 200, "--runs", "0-1", "--stride", 10, "--out", out]
        run("simulate", "--scenario", "borda", *COMMON, *args)
        chunks += ["--chunk", f"{algorithm}={out}"]
    names = ("traces", "strategies", "summary")
    aggregate = [f"--{name}={root / f'{name}-borda.parquet'}" for name in names]
    sizes = ["--horizon", 200, "--runs", 2, "--points", 20]
    run("aggregate", "--scenario-file", root / "borda.json", *chunks, *sizes, *aggregate)
    bounds = ["--algorithms", *algorithms, "--actions", 5, "--horizon", 200, "--points", 20, "--c-alpha", 1.0]
    run("bounds", *bounds, "--out", root / "bounds.parquet")
    summary = [root / "summary-borda.parquet", "--bounds", root / "bounds.parquet"]
    run("summary", *summary, "--out", root / "summary.parquet")
    return root
