"""The read boundary: is a file the one the pipeline's job wrote, for the run that reads it?

One interface, :func:`planned_input_problems`, run by the workflow before any job (its
``onstart``): every input of the planned jobs that no planned job rebuilds must be

- recorded in the ledger with its sha256, if it lies under the pipeline's folders (every job runs
  with ``--ledger DIR`` and records there what it wrote: :mod:`duelbandits.files`);
- for a Parquet result, a file whose provenance footer agrees with its path and the config
  (:func:`provenance_contradiction`, which ``manifest verify`` uses too).

Otherwise the run stops before Snakemake removes any output. A command that draws from the traces
checks their rows against their own provenance as it reads them (:func:`trace_runs_problem`): a
footer kept over rows cut or filtered out is refused, whoever edited the ledger. A job itself checks, when it starts,
that its recorded inputs still have their sha256 (``files.check_recorded_inputs``, kept in
``files`` so that every command does not load this module). The cost is one sha256 of each input
(about 1 GB/s) and one footer read per Parquet input (docs/performance.md#the-read-boundary).
"""

from __future__ import annotations

import re
from pathlib import Path

from .files import ledger_problem

PIPELINE_FOLDERS = ("results", "figures", ".duelbandits/kernels")
"""The folders whose files the pipeline's jobs write: an input there must be in the ledger."""


def planned_input_problems(paths, ledger, config: dict) -> list[str]:
    """``"PATH: problem"`` for each file of ``paths`` under :data:`PIPELINE_FOLDERS` that the ledger
    does not record as written by the pipeline, unchanged (files outside them, such as the LaTeX
    document of the ``paper`` target, are the repository's, not results), then for each Parquet file
    whose footer is damaged or contradicts its path or ``config`` (:func:`damaged_inputs`)."""
    problems = []
    for path in paths:
        rel = Path(path)
        under = not rel.is_absolute() and any(rel.as_posix().startswith(f"{top}/") for top in PIPELINE_FOLDERS)
        if under and rel.is_file():
            problem = ledger_problem(rel, ledger)
            if problem:
                problems.append(f"{rel.as_posix()}: {problem}")
    return problems + damaged_inputs(paths, config)


def _chunk_runs(chunk: int, runs: int, per_job: int) -> str:
    """The run range ``FIRST-LAST`` of run chunk ``chunk`` (as duelbandits.points.chunk_ranges splits)."""
    first = chunk * per_job
    return f"{first}-{min(first + per_job, runs) - 1}"


def expected_provenance(rel: str, config: dict) -> dict:
    """The provenance fields that a paper result's path and the manifest's config determine (empty for
    a path the paper run does not write): a trace of scenario S says scenario S, the config's seed, ..."""
    parts = rel.split("/")
    keys = {"seed": "seed", "horizon": "horizon"}
    if re.fullmatch(r"results/runs/[^/]+/[^/]+/chunk-\d+\.parquet", rel):
        expected = {"table": "runs", "scenario": parts[2], "algorithm": parts[3]}
        keys["stride"] = "stride"
        if isinstance(config.get("runs"), int) and isinstance(config.get("runs_per_job"), int):
            chunk = int(parts[4][len("chunk-") : -len(".parquet")])
            expected["runs"] = _chunk_runs(chunk, config["runs"], min(config["runs_per_job"], config["runs"]))
    elif re.fullmatch(r"results/(traces|strategies|summary)/[^/]+\.parquet", rel):
        table = {"summary": "scenario-summary"}.get(parts[1], parts[1])
        expected = {"table": table, "scenario": parts[2][: -len(".parquet")]}
        keys.update(runs="runs", algorithms="algorithms", points="summary_points")
    elif rel == "results/summary.parquet":
        expected = {"table": "summary"}
        keys = {"horizon": "horizon", "algorithms": "algorithms", "scenarios": "scenarios"}
    elif rel == "results/bounds.parquet":
        expected = {"table": "bounds"}
        keys = {"horizon": "horizon", "algorithms": "algorithms", "points": "summary_points"}
    else:
        return {}
    return {**expected, **{field: config[key] for field, key in keys.items() if key in config}}


def provenance_contradiction(path, rel: str, config: dict) -> str | None:
    """Why the provenance of the Parquet file ``path`` (listed as ``rel``) contradicts its path or the
    manifest's ``config``, or None if it does not."""
    from .files import StorageError
    from .storage import read_provenance

    expected = expected_provenance(rel, config)
    if not expected:
        return None  # not a path of the paper run's results: nothing to compare
    try:
        prov = read_provenance(path)
    except StorageError as err:
        return str(err)
    for key, want in expected.items():
        if prov.get(key) != want:
            return f"{rel}: its provenance says {key} {prov.get(key)!r}, but its path and the config say {want!r}"
    return _rows_contradiction(path, rel, prov)


def _rows_contradiction(path, rel: str, prov: dict) -> str | None:
    """Why the number of rows of a run chunk or a traces file (one row per run and step, and per
    algorithm in the traces) is not the one its own footer implies, or None: rows cut from a file
    whose footer was kept, even with its ledger record edited to match. Reads the Parquet footer's
    row count only."""
    import pyarrow.parquet as pq

    horizon, runs = prov.get("horizon"), prov.get("runs")
    if prov.get("table") == "runs" and isinstance(runs, str) and re.fullmatch(r"\d+-\d+", runs):
        first, last = map(int, runs.split("-"))
        count, what = last - first + 1, f"runs {runs}"
    elif prov.get("table") == "traces" and isinstance(runs, int) and isinstance(prov.get("algorithms"), list):
        count, what = runs * len(prov["algorithms"]), f"{runs} run(s) of {len(prov['algorithms'])} algorithm(s)"
    else:
        return None
    if not isinstance(horizon, int):
        return None
    rows = pq.read_metadata(path).num_rows
    if rows != count * horizon:
        return f"{rel}: has {rows} rows, but its provenance lists {what} of {horizon} steps ({count * horizon} rows)"
    return None


def damaged_inputs(paths, config: dict) -> list[str]:
    """Why each Parquet file of ``paths`` (inputs that a run will read without rebuilding them) is not
    what the pipeline wrote for it: unreadable footer, no provenance, or provenance that contradicts its
    path or ``config``. Reads footers only: cheap enough for every input of a planned run."""
    problems = []
    for path in paths:
        rel = Path(path).as_posix()
        if rel.endswith(".parquet") and Path(path).is_file():
            expected = expected_provenance(rel, config)
            problem = provenance_contradiction(path, rel, config) if expected else _unreadable(path)
            if problem:
                problems.append(problem)
    return problems


def _unreadable(path) -> str | None:
    from .files import StorageError
    from .storage import read_provenance

    try:
        read_provenance(path)
    except StorageError as err:
        return str(err)
    return None


def trace_runs_problem(frame, provenance: dict, algorithm: str) -> str | None:
    """Why the rows of ``algorithm`` in a traces table ``frame`` (columns ``run`` and ``t``) are not the
    runs its ``provenance`` lists: runs 0 to ``runs`` - 1, each with one row per step 1 to ``horizon``;
    None if they are. One pass over two integer columns the reader loads anyway."""
    import numpy as np

    runs, horizon = provenance.get("runs"), provenance.get("horizon")
    if not isinstance(runs, int) or not isinstance(horizon, int):
        return "its provenance lists no runs and horizon"
    run = np.asarray(frame["run"], dtype=np.int64)
    step = np.asarray(frame["t"], dtype=np.int64)
    if run.size != runs * horizon:
        return (
            f"{algorithm} has {run.size} rows, but its provenance lists {runs} run(s) of {horizon} steps "
            f"({runs * horizon} rows)"
        )
    if run.size and (run.min() < 0 or run.max() >= runs or step.min() < 1 or step.max() > horizon):
        return f"{algorithm} has rows outside runs 0..{runs - 1} or steps 1..{horizon}, which its provenance lists"
    cells = np.zeros(runs * horizon, dtype=bool)
    cells[run * horizon + step - 1] = True
    if not cells.all():
        return f"{algorithm} lacks some (run, step) rows of the {runs} run(s) its provenance lists, repeating others"
    return None


def _repeated(frame, keys: list[str], what: str) -> str | None:
    """``holds N repeated row(s) of one WHAT`` if rows of ``frame`` share their ``keys``, else None."""
    count = int(frame.duplicated(keys).sum())
    return f"holds {count} repeated row(s) of one {what}" if count else None


def _outside_actions(values, actions: int) -> bool:
    """Whether some of ``values`` is no action of [0, ``actions``)."""
    import numpy as np

    values = np.asarray(values)
    return bool(values.size and (values.min() < 0 or values.max() >= actions))


def trace_values_problem(frame, actions: int, algorithm: str) -> str | None:
    """Why the rows of ``algorithm`` in a traces table ``frame`` (columns ``I``, ``J``,
    ``cumulative_regret``) cannot be drawn: actions outside [0, ``actions``) (the A its provenance
    lists), a regret that is missing or infinite; None if they can."""
    import numpy as np

    if not isinstance(actions, int) or isinstance(actions, bool):
        return "its provenance lists no number of actions"
    for column in ("I", "J"):
        if _outside_actions(frame[column], actions):
            return f"{algorithm} has actions {column} outside [0, {actions})"
    if not np.isfinite(np.asarray(frame["cumulative_regret"], dtype=np.float64)).all():
        return f"{algorithm} has a missing or infinite cumulative regret"
    return None


def strategy_values_problem(frame, actions: int, players, algorithm: str) -> str | None:
    """Why the rows of ``algorithm`` in a strategies table ``frame`` cannot be drawn: a player it does not
    have, an action outside [0, ``actions``), a repeated row, a mean probability that is missing or
    outside [0, 1]; None if they can."""
    import numpy as np

    others = sorted(set(frame["player"]) - set(players))
    if others:
        return f"{algorithm} has strategies of player(s) {', '.join(map(str, others))}, not of its {', '.join(players)}"
    if _outside_actions(frame["action"], actions):
        return f"{algorithm} has strategies of actions outside [0, {actions})"
    repeated = _repeated(frame, ["player", "t", "action"], "player, step and action")
    if repeated:
        return f"{algorithm} {repeated}"
    mean = np.asarray(frame["mean"], dtype=np.float64)
    if not (np.isfinite(mean).all() and (mean >= 0).all() and (mean <= 1).all()):
        return f"{algorithm} has a mean probability that is missing or outside [0, 1]"
    return None


def summary_problem(frame) -> str | None:
    """Why a summary table ``frame`` (:data:`duelbandits.schemas.SUMMARY_SCHEMA`) is not one the pipeline
    wrote, as its readers use it: one row per scenario, algorithm, regret and step, every curve ending at
    the same step, exactly one regret marked ``paper`` per scenario and algorithm, steps and run counts
    of at least 1, means finite and standard deviations not negative; None if it is."""
    import numpy as np

    if frame.empty:
        return "holds no rows"
    curve = ["scenario", "algorithm", "regret"]
    repeated = _repeated(frame, [*curve, "t"], "scenario, algorithm, regret and step")
    if repeated:
        return repeated
    for column, what in (("t", "steps"), ("runs", "run counts")):
        if (frame[column] < 1).any():
            return f"column {column} holds {what} below 1"
    if not np.isfinite(frame["mean"].to_numpy(np.float64)).all():
        return "column mean holds a missing or infinite value"
    if (frame["std"].to_numpy(np.float64) < 0).any():
        return "column std holds a negative value"
    ends = sorted(frame.groupby(curve)["t"].max().unique())
    if len(ends) > 1:
        return f"its curves end at different steps ({', '.join(map(str, ends))})"
    if (frame.groupby(curve)["paper"].nunique() > 1).any():
        return "a regret is marked paper at some steps and not at others"
    marked = frame[frame["paper"]].groupby(["scenario", "algorithm"])["regret"].nunique()
    for (scenario, algorithm), _ in frame.groupby(["scenario", "algorithm"]):
        count = int(marked.get((scenario, algorithm), 0))
        if count != 1:
            return f"{algorithm} on {scenario} has {count} regrets marked paper, not one"
    return None


def bounds_problem(frame, bounded) -> str | None:
    """Why a bounds table ``frame`` (:data:`duelbandits.schemas.BOUND_SCHEMA`) cannot be joined to the
    summaries: a repeated row, or no row of an algorithm of ``bounded`` (those with a theorem that its
    provenance lists); None if it can."""
    missing = sorted(set(bounded) - set(frame["algorithm"]))
    if missing:
        return f"holds no rows of {', '.join(missing)}, whose theorem its provenance lists"
    return _repeated(frame, ["algorithm", "regret", "t"], "algorithm, regret and step")


def read_summary(path, scenario: str | None = None, **expected):
    """A summary table (``results/summary.parquet``) as a DataFrame, checked (``storage.read_frame``, then
    :func:`summary_problem`), with only ``scenario``'s rows if given."""
    from .files import DamagedFile
    from .storage import read_frame

    filters = None if scenario is None else [("scenario", "=", scenario)]
    frame = read_frame(path, filters=filters, **{"table": "summary", **expected})
    problem = summary_problem(frame)
    if problem:
        raise DamagedFile(path, problem if scenario is None else f"{problem} (rows of scenario {scenario})")
    return frame
