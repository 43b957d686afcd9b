"""The claims ledger: results/claims.md."""

from __future__ import annotations

import math

from . import markdown


def _number(value: float) -> str:
    if value is None or not math.isfinite(value):
        return "-"
    return f"{value:,.3f}" if abs(value) < 10 else f"{value:,.0f}"


def claims_markdown(table, level: float, sources: dict) -> str:
    """One row per claim (the number, its interval or `[-]` without one, the threshold, the verdict), then each
    row's method."""
    rows, methods = [], []
    for n, row in enumerate(table.itertuples(), start=1):
        if not math.isfinite(row.value):
            interval = "-"
        elif not (math.isfinite(row.low) or math.isfinite(row.high)):
            interval = f"{_number(row.value)} [-]"  # no interval: fewer than two runs (duelbandits.claims.ONE_RUN)
        else:
            interval = f"{_number(row.value)} [{_number(row.low)}, {_number(row.high)}]"
        rows.append(
            [
                str(n),
                row.claim,
                row.where,
                row.statement,
                interval,
                _number(row.threshold),
                f"**{row.verdict}**" + (f" ({row.reason})" if row.reason else ""),
                row.figure,
            ]
        )
        methods.append(f"{n}. **{row.claim}**: {row.quantity}; {row.method}.")
    built = "; ".join(
        f"{name}: {'read' if used else 'not built, its rows not tested'}" for name, used in sources.items()
    )
    return "\n".join(
        [
            "# The paper's claims, each checked\n",
            f"Verdict rules and tolerances: docs/claims.md. Limits are one-sided at level {level:g} unless a "
            f"row says otherwise. Optional inputs: {built}.\n",
            markdown(
                ["#", "claim", "where", "statement (in short)", "number [interval]", "threshold", "verdict", "figure"],
                rows,
                "rllllrll",
            ),
            "\n## How each number was measured\n",
            "\n".join(methods),
            "",
        ]
    )
