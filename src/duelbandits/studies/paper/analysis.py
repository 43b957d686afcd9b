"""From run chunks to the tables the figures read: traces, strategies, summaries, bounds."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pyarrow as pa

from ... import regret, schemas, storage
from ...algorithms import paper_regret
from ...regret import sample_std
from ...theorems import THEOREMS

SUMMARY_POINTS = 1000
"""Steps at which the summary table reports the cumulative regret."""


def summary_grid(horizon: int, points: int = SUMMARY_POINTS) -> np.ndarray:
    """``points`` steps evenly spread over ``1..horizon`` (1 and ``horizon`` included), plus ``points // 5``
    log-spaced ones, so that log-log plots show the early steps."""
    even = np.linspace(1, horizon, min(points, horizon))
    log = np.geomspace(1, horizon, max(points // 5, 2))
    return np.unique(np.r_[even, log].round().astype(np.int64))


def load_algorithm_runs(paths) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """All chunks of one (scenario, algorithm) as :func:`storage.read_runs` reads one, sorted by run (the
    workflow gives the chunks of runs 0..runs-1 and each holds its runs whole: Snakemake's inputs)."""
    read = [storage.read_runs(path) for path in paths]
    df = pd.concat([frame for frame, _ in read], ignore_index=True)
    if not _in_run_order(df):  # chunks given out of order (the workflow gives them in order)
        df = df.sort_values(["run", "t"], ignore_index=True)
    strategies = [strat for _, strat in read if strat is not None]
    return df, pd.concat(strategies).sort_values(["run", "t"], ignore_index=True) if strategies else None


def _in_run_order(df: pd.DataFrame) -> bool:
    """Whether the rows are sorted by (run, t), as sorting them would leave them (then it is skipped)."""
    run, t = df["run"].to_numpy(), df["t"].to_numpy()
    return bool(np.all((run[1:] > run[:-1]) | ((run[1:] == run[:-1]) & (t[1:] > t[:-1]))))


def _strategy_rows(algorithm: str, recorded: pd.DataFrame, actions: int, runs: int) -> list[pd.DataFrame]:
    """Mean and std over runs of each player's recorded strategy, per (step, action)."""
    rows = []
    steps = np.unique(recorded["t"].to_numpy())
    for player in ("p", "q"):
        cols = schemas.strategy_columns(player, actions)
        # mutmut equivalent: cols[1] for cols[0]: a recorded player has a column for each of A >= 2 actions
        if cols[0] not in recorded.columns:  # pragma: no mutate
            continue
        probs = recorded[cols].to_numpy().reshape(runs, len(steps), actions)
        rows.append(
            pd.DataFrame(
                {
                    "algorithm": algorithm,
                    "player": player,
                    # the frame's dtypes reach the file's bytes: its pandas metadata records them (not the schema's)
                    "t": np.repeat(steps, actions).astype(np.int32),  # pragma: no mutate -- the chunk's t is int32
                    "action": np.tile(np.arange(actions), len(steps)).astype(np.int16),
                    "mean": probs.mean(axis=0).ravel(),
                    "std": sample_std(probs).ravel(),
                    "runs": np.int32(runs),
                }
            )
        )
    return rows


def _repeated(text: str, n: int) -> pa.Array:
    """``n`` copies of ``text`` as an Arrow string array, built from its buffers (no Python list)."""
    data = text.encode()
    # mutmut equivalent: n + 2 offsets: an array of n strings reads only the first n + 1
    offsets = np.arange(n + 1, dtype=np.int32) * len(data)  # pragma: no mutate
    return pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets), pa.py_buffer(data * n)])


def aggregate_scenario(
    scenario: str,
    matrix,
    chunks: dict,
    horizon: int,
    runs: int,
    outputs: dict,
    points: int = SUMMARY_POINTS,
    provenance: dict | None = None,
) -> None:
    """Write one scenario's traces, strategies and (bound-less) summary to ``outputs[name]`` with the
    provenance ``provenance[name]``, from ``chunks`` (slug -> its chunk files); each algorithm is read,
    reduced and written before the next, so memory holds one algorithm's runs."""
    X = np.asarray(matrix)
    actions = X.shape[0]  # pragma: no mutate -- shape[1] for shape[0]: a preference matrix is square
    grid = summary_grid(horizon, points)
    summary, strategies = [], []
    prov = provenance or {}
    with storage.parquet_writer(outputs["traces"], schemas.TRACE_SCHEMA, prov.get("traces")) as writer:
        for algorithm, paths in chunks.items():
            df, recorded = load_algorithm_runs(paths)
            if len(df) != runs * horizon:  # the command line's --runs and --horizon against its chunks
                raise storage.StorageError(
                    f"the chunks of {algorithm} hold {len(df)} steps, not {runs} runs of {horizon}"
                )
            I, J = df["I"].to_numpy(), df["J"].to_numpy()
            paper_kind = paper_regret(scenario, algorithm)
            for kind in regret.REGRETS:
                r = regret.per_step(kind, X, I, J)
                cum = np.cumsum(r.reshape(runs, horizon), axis=1)
                at = cum[:, grid - 1]
                summary.append(
                    pd.DataFrame(
                        {
                            "scenario": scenario,
                            "algorithm": algorithm,
                            "regret": kind,
                            "paper": kind == paper_kind,
                            # the frame's dtypes reach the file's bytes: its pandas metadata records them
                            "t": grid.astype(np.int32),
                            "mean": at.mean(axis=0),
                            "std": sample_std(at),
                            "runs": np.int32(runs),
                            "bound": np.nan,
                        }
                    )
                )
                if kind == paper_kind:
                    trace = pa.table(
                        {
                            "algorithm": _repeated(algorithm, len(df)),
                            "regret_kind": _repeated(kind, len(df)),
                            "run": df["run"].to_numpy(),  # the schema gives each column its type
                            "t": df["t"].to_numpy(),
                            "I": I,
                            "J": J,
                            "outcome": df["outcome"].to_numpy(),
                            "regret": r,
                            # mutmut equivalent: the schema casts the column to its type
                            "cumulative_regret": cum.ravel().astype(np.float32),  # pragma: no mutate
                        },
                        schema=schemas.TRACE_SCHEMA,
                    )
                    # mutmut equivalent: row_group_size None: pyarrow's default is storage.ROW_GROUP_ROWS
                    writer.write_table(trace, row_group_size=storage.ROW_GROUP_ROWS)  # pragma: no mutate
            if recorded is not None:
                strategies.extend(_strategy_rows(algorithm, recorded, actions, runs))
    summary_df = pd.concat(summary)  # its index is not written
    storage.write_table(
        # mutmut equivalent: preserve_index None/True: the columns written are the schema's
        pa.Table.from_pandas(summary_df, schema=schemas.SUMMARY_SCHEMA, preserve_index=False),  # pragma: no mutate
        outputs["summary"],
        prov.get("summary"),
    )
    strategy_df = (
        pd.concat(strategies)  # its index is not written
        if strategies
        else pd.DataFrame({f.name: [] for f in schemas.STRATEGY_SCHEMA})
    )
    storage.write_table(
        # mutmut equivalent: preserve_index None/True: the columns written are the schema's
        pa.Table.from_pandas(strategy_df, schema=schemas.STRATEGY_SCHEMA, preserve_index=False),  # pragma: no mutate
        outputs["strategies"],
        prov.get("strategies"),
    )


def bounds_table(
    algorithms, actions: int, horizon: int, points: int = SUMMARY_POINTS, c_alpha: float = 1.0
) -> pd.DataFrame:
    """Theorem bound curves for the given algorithms on the summary grid; a theorem whose horizon
    requirement fails at ``horizon`` gets a warning, ``holds = False`` and null bounds."""
    grid = summary_grid(horizon, points)
    frames = []
    for algorithm in algorithms:
        theorem = THEOREMS.get(algorithm)
        if theorem is None:
            continue
        holds = bool(theorem.holds(actions, horizon, c_alpha))
        if not holds:
            T_min, strict = theorem.requirement(actions, c_alpha)
            warnings.warn(
                f"Theorem {theorem.name} ({algorithm}) needs T {'>' if strict else '>='} {T_min:.1f} "
                f"at A = {actions}; T = {horizon} does not meet it, so its bound curve is left out",
                # mutmut equivalent: the stacklevel: mutmut's trampolines add frames (see docs/testing.md)
                stacklevel=2,  # pragma: no mutate
            )
        # mutmut equivalent: grid.astype(None): int64 steps in, the same float bounds out
        values = theorem.bound(actions, grid.astype(float), c_alpha=c_alpha)  # pragma: no mutate
        key = dict(algorithm=algorithm, theorem=theorem.name, regret=theorem.regret, horizon=np.int32(horizon))
        frames.append(
            pd.DataFrame(dict(**key, holds=holds, t=grid.astype(np.int32), bound=values if holds else np.nan))
        )
    columns = [f.name for f in schemas.BOUND_SCHEMA]
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame({c: [] for c in columns})


def join_summary(summaries: list[pd.DataFrame], bounds_df: pd.DataFrame) -> pd.DataFrame:
    """Concatenate per-scenario summaries and fill ``bound`` where a theorem applies."""
    df = pd.concat(summaries).drop(columns="bound")  # merge gives a new index
    keyed = bounds_df[["algorithm", "regret", "t", "bound"]]
    # mutmut equivalent: merge on the common columns: after dropping bound they are algorithm, regret and t
    df = df.merge(keyed, on=["algorithm", "regret", "t"], how="left", validate="many_to_one")  # pragma: no mutate
    return df[[f.name for f in schemas.SUMMARY_SCHEMA]]
