"""The field (target ``field``; docs/beyond-the-paper.md, "The field"): the paper's algorithms and the
field's on the same scenarios and run seeds, as mean regret curves, final regrets with ranks and one figure
per scenario. The commands are here, the tables in :mod:`.analysis`, the figure in :mod:`.figure`, each
loaded by the command that uses it: the command line loads this module for every command."""

from __future__ import annotations


def cmd_field_table(args) -> None:
    from ... import points, provenance, schemas, storage
    from .analysis import curves_table, field_page, final_table, scenario_regrets

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
    from .. import scenario_figure
    from .figure import field_figure

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
