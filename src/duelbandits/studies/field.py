"""The field (target ``field``; docs/beyond-the-paper.md, "The field"): the paper's algorithms and the
field's on the same scenarios and run seeds, as mean regret curves, final regrets with ranks and one figure
per scenario. Imports are inside the functions: the command line loads this module for every command."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import InputError

if TYPE_CHECKING:
    import pandas as pd

    from ..tables import Page

REGRET_COLUMN = {"condorcet": "maximin", "copeland": "copeland", "borda": "borda"}
"""The point files' regret column each field regret reads (Condorcet regret = maximin where a CW exists)."""

FIELD_REGRET_NAMES = {"condorcet": "Condorcet", "copeland": "Copeland", "borda": "Borda"}
"""How the field's tables and figures name each regret."""


class FieldError(InputError):
    """The field's point or scenario files are inconsistent."""


def field_regrets(scenario: str, condorcet_winner) -> list[str]:
    """The regrets reported on ``scenario``, each a panel and a column of ranks in which every algorithm is
    measured by it: Condorcet where a Condorcet winner exists, Copeland on every scenario (the Copeland
    algorithms' regret; the only one where no Condorcet winner exists), Borda as well on ``borda``."""
    kinds = ["condorcet", "copeland"] if condorcet_winner is not None else ["copeland"]
    if scenario == "borda":
        kinds.append("borda")
    return kinds


def scenario_regrets(records, simulated) -> dict:
    """Scenario -> the regrets the field reports on it (:func:`field_regrets`), in the order of
    ``records`` (``[(path, scenario record), ...]``), each checked against the point files' provenance, and
    every scenario of the point files given its file."""
    missing = sorted({prov["scenario"] for prov in simulated} - {record["name"] for _, record in records})
    if missing:
        raise FieldError(f"no scenario file for scenario(s) {', '.join(missing)} of the point files")
    regrets = {}
    for path, record in records:
        name = record["name"]
        digests = {prov["matrix_sha256"] for prov in simulated if prov["scenario"] == name}
        if not digests:
            raise FieldError(f"{path}: no point file of scenario {name} was given")
        if digests - {record["matrix_sha256"]}:
            raise FieldError(f"{path}: its matrix is not the one the point files of scenario {name} were simulated on")
        regrets[name] = field_regrets(name, record["winners"]["condorcet"])
    return regrets


def curves_table(points: pd.DataFrame, regrets: dict) -> pd.DataFrame:
    """Mean and std over runs of each field regret (``regrets``: scenario -> its :func:`field_regrets`)
    at every grid step of the point files' rows ``points``."""
    import pandas as pd

    from ..algorithms import ALGORITHMS
    from ..regret import sample_std
    from ..schemas import FIELD_CURVES_SCHEMA

    frames = []
    for scenario, kinds in regrets.items():
        part = points[points["scenario"] == scenario]
        for kind in kinds:
            rows = part[part["regret"] == REGRET_COLUMN[kind]]
            grouped = (
                rows.groupby(["algorithm", "actions", "horizon", "t"])["cumulative_regret"]
                .agg(mean="mean", std=sample_std, runs="size")
                .reset_index()
            )
            # mutmut equivalent: the column inserted at 1, not 0: the schema orders the columns
            grouped.insert(0, "scenario", scenario)  # pragma: no mutate
            # mutmut equivalent: the column inserted at 3, not 2: the schema orders the columns
            grouped.insert(2, "regret", kind)  # pragma: no mutate
            frames.append(grouped)
    table = pd.concat(frames, ignore_index=True)
    table["family"] = [ALGORITHMS[a].family if a in ALGORITHMS else "other" for a in table["algorithm"]]
    return table[FIELD_CURVES_SCHEMA.names]


def final_table(curves: pd.DataFrame, order=None) -> pd.DataFrame:
    """Final regret R_T (mean, std over runs) per (scenario, regret, algorithm) and its rank (1: the
    smallest mean; equal means share the smaller rank), in ``order`` then the registry's order."""
    import numpy as np

    from ..algorithms import ALGORITHMS
    from ..schemas import FIELD_TABLE_SCHEMA

    last = curves[curves["t"] == curves["horizon"]].copy()
    last["rank"] = last.groupby(["scenario", "regret"])["mean"].rank(method="min").astype(np.int16)
    scenarios = list(order) if order is not None else list(dict.fromkeys(curves["scenario"]))
    scenarios += [s for s in dict.fromkeys(last["scenario"]) if s not in scenarios]
    slugs = list(ALGORITHMS)
    last["_s"] = [scenarios.index(s) for s in last["scenario"]]
    last["_r"] = [list(REGRET_COLUMN).index(r) for r in last["regret"]]
    last["_a"] = [slugs.index(a) if a in slugs else len(slugs) for a in last["algorithm"]]
    last = last.sort_values(["_s", "_r", "_a", "algorithm"], ignore_index=True)
    return last[FIELD_TABLE_SCHEMA.names]


FIELD_HEADER = ["scenario", "A", "regret", "rank", "algorithm", "family", "R_T mean ± std"]
FIELD_ALIGN = "lrlrllr"
FIELD_NOTE = (
    "R_T: cumulative regret at the horizon T, mean ± std (ddof = 1) over runs, every algorithm with "
    "the same run seeds. Regret: Condorcet where a Condorcet winner exists, Copeland on every scenario, "
    "and Borda as well on the borda scenario; every algorithm is measured by each. Rank 1: the lowest "
    "mean within a scenario and regret (equal means share a rank). Family: paper (the paper's four "
    "algorithms and its baselines ISS and DTS), field (the field's algorithms beyond the paper), plugin "
    "(an installed plugin's) or other (a slug no installed package registers)."
)


def field_page(table: pd.DataFrame) -> Page:
    """results/field/table.md: ranks at a glance (algorithm x scenario/regret), then every final regret."""
    import numpy as np

    from ..algorithms import ALGORITHMS
    from ..tables import Page, Table, mean_std

    def label(slug):
        return ALGORITHMS[slug].label if slug in ALGORITHMS else slug

    columns = list(dict.fromkeys(zip(table["scenario"], table["regret"])))
    ranks = {(r.scenario, r.regret, r.algorithm): int(r.rank) for r in table.itertuples()}
    glance = []
    for slug in dict.fromkeys(table["algorithm"]):
        mine = [ranks.get((s, k, slug)) for s, k in columns]
        known = [x for x in mine if x is not None]
        mean = f"{np.mean(known):.1f}" if known else "-"
        glance.append([label(slug), *("-" if x is None else str(x) for x in mine), mean])
    glance_header = ["algorithm", *(f"{s} ({FIELD_REGRET_NAMES.get(k, k)})" for s, k in columns), "mean rank"]
    rows = []
    for r in table.itertuples():
        final = mean_std(r.mean, r.std, runs=r.runs)
        kind = FIELD_REGRET_NAMES.get(r.regret, r.regret)
        cells = [r.scenario, str(int(r.actions)), kind, str(int(r.rank)), label(r.algorithm), r.family]
        rows.append([*cells, final])
    horizons = ", ".join(f"{T:,}" for T in sorted(set(table["horizon"])))
    runs = ", ".join(map(str, sorted(set(table["runs"]))))
    tables = [
        Table(glance_header, glance, "l" + "r" * (len(glance_header) - 1), heading="Ranks"),
        Table(FIELD_HEADER, rows, FIELD_ALIGN, heading="Final regret", note=FIELD_NOTE),
    ]
    return Page(f"The field: final regret at T = {horizons} ({runs} runs)", tables)


FIELD_PANEL_SIZE = (6.2, 4.6)
"""Size in inches of one panel (the figure is one panel wide per regret)."""

FAMILY_LINES = {"paper": ("-", "solid"), "field": ("--", "dashed"), "plugin": (":", "dotted"), "other": (":", "dotted")}
"""Line style by algorithm family, and its name in the legend's title."""


def field_figure(scenario: str, curves, outputs, *, data_digest=None):
    """Render ``scenario``'s field figure from its curves to every path of ``outputs``: mean R_t of every
    algorithm, log-log, one panel per regret, the line style by family, R_T in the legend."""
    import numpy as np

    from ..plotting import style

    kinds = list(dict.fromkeys(curves["regret"]))
    horizon = int(curves["horizon"].max())
    actions = int(curves["actions"].iloc[0])
    runs = sorted(set(curves["runs"]))
    with style.figure((FIELD_PANEL_SIZE[0] * len(kinds), FIELD_PANEL_SIZE[1]), outputs, data_digest) as fig:
        axes = np.atleast_1d(fig.subplots(1, len(kinds)))
        for letter, ax, kind in zip("abc", axes, kinds):
            rows = curves[curves["regret"] == kind]
            final = rows[rows["t"] == rows["horizon"]].set_index("algorithm")["mean"]
            for slug in sorted(final.index, key=lambda s: final[s], reverse=True):  # legend: worst first
                curve = rows[rows["algorithm"] == slug].sort_values("t")
                t = curve["t"].to_numpy(float)
                mean = curve["mean"].to_numpy(float)
                shown = mean > 0  # log axis: R_t = 0 before the first regretful step
                family = curve["family"].iloc[0]
                width = style.LINE_WIDTH["mean"] * (1.0 if family == "paper" else 0.9)
                line = dict(color=style.algorithm_color(slug), ls=FAMILY_LINES[family][0], lw=width)
                label = f"{style.algorithm_label(slug)}: {final[slug]:,.0f}"
                ax.plot(t[shown], mean[shown], **line, label=label, gid=f"field:{kind}:{slug}")
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_xlim(1, horizon)
            ax.set_xlabel("step t")
            ax.set_ylabel(f"mean cumulative {FIELD_REGRET_NAMES.get(kind, kind)} regret")
            ax.set_title(f"({letter}) {FIELD_REGRET_NAMES.get(kind, kind)} regret; legend: R_T")
            drawn = [f for f in FAMILY_LINES if f in set(rows["family"])]
            styles = ", ".join(f"{FAMILY_LINES[f][1]}: {f}" for f in drawn)
            ax.legend(loc="upper left", fontsize=6.8, ncols=2, title=styles, title_fontsize=6.8)
        what = f"the field: A = {actions}, T = {horizon:,}, {style.runs_text(runs)}"
        fig.suptitle(f"{style.scenario_label(scenario)} scenario, {what}")
    return fig


def cmd_field_table(args) -> None:
    from .. import points, provenance, schemas, storage

    frame, sources, simulated = points.read_points(args.points)
    points.check_together(args.points, simulated)  # one base seed: the same run seeds for every algorithm
    records = [(path, storage.read_scenario(path)) for path in args.scenario_file]
    regrets = scenario_regrets(records, simulated)
    curves = curves_table(frame, regrets)
    table = final_table(curves, list(regrets))
    prov = provenance.record(table="field-curves", points=sources, scenarios=list(regrets))
    markdown = field_page(table).markdown()  # before any write: all or nothing
    storage.write_frame(curves, schemas.FIELD_CURVES_SCHEMA, args.curves, prov)
    storage.write_frame(table, schemas.FIELD_TABLE_SCHEMA, args.table, {**prov, "table": "field-table"})
    storage.write_text(args.markdown, markdown)


def cmd_field_figure(args) -> None:
    from . import scenario_figure

    scenario_figure(args, "field", field_figure, curves="field-curves")


def add_commands(sub) -> None:
    p = sub.add_parser("field-table", help="field point files -> mean regret curves, final regret table with ranks")
    p.add_argument("points", nargs="+", help="point files (sweep-point) of every field scenario and algorithm")
    scenario_help = "scenario JSON file (duelbandits scenario), in order"
    p.add_argument("--scenario-file", action="append", required=True, help=scenario_help)
    p.add_argument("--curves", required=True, help="output: mean and std of R_t per grid step (.parquet)")
    p.add_argument("--table", required=True, help="output: final regret and rank (.parquet)")
    p.add_argument("--markdown", required=True, help="output: the table (.md)")
    p.set_defaults(func=cmd_field_table, outputs=("curves", "table", "markdown"))

    p = sub.add_parser("field-figure", help="render a scenario's field figure (PDF and PNG)")
    p.add_argument("--scenario", required=True)
    p.add_argument("--curves", required=True, help="results/field/curves.parquet")
    p.add_argument("--out", nargs="+", required=True, help="output files (.pdf, .png)")
    p.set_defaults(func=cmd_field_figure, outputs=("out",))
