"""One unit per study: its analysis, table, figure and commands (docs/architecture.md)."""


def scenario_figure(args, figure: str, draw, **tables) -> None:
    """The figure command of a study drawn per scenario: ``draw(scenario, *frames, outputs, data_digest=...)``
    from ``args.scenario``'s rows of each table ``{argument: table name}`` (refused without any), to the
    paths of ``args.out``, its data digest (:func:`duelbandits.digests.data_digest`) that of ``figure``."""
    from .. import digests
    from ..cli.args import scenario_rows
    from ..plotting import style

    style.check_figure_paths(args.out)
    frames = [scenario_rows(getattr(args, arg), args.scenario, table) for arg, table in tables.items()]
    inputs = {arg: getattr(args, arg) for arg in tables}
    draw(
        args.scenario, *frames, args.out, data_digest=digests.data_digest(inputs, figure=figure, scenario=args.scenario)
    )
