"""Readable tables: the final-regret table (results/table.md), the sweep tables, as Markdown and HTML.

Plain string building (no tabulate, no jinja2), so the output is the same
bytes for the same input on every machine.
"""

from __future__ import annotations

import html
import json

import numpy as np
import pandas as pd

from .regret import REGRET_NAMES


def _fmt(value, digits: int = 1) -> str:
    """A number with thousands separators, or ``-`` for NaN/None."""
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "-"
    return f"{value:,.{digits}f}"


def mean_std(mean, std, digits: int = 1) -> str:
    return f"{_fmt(mean, digits)} ± {_fmt(std, digits)}"


def final_regret_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per (scenario, algorithm): the figure's regret at T (mean, std), the bound at T, below it or not.

    ``summary`` is results/summary.parquet. The Copeland regret at T is added
    for every row (the extra regret reported beyond the paper). ``below`` is
    "yes"/"no" where a bound applies and "-" where none does.
    """
    last = summary[summary["t"] == summary.groupby("scenario")["t"].transform("max")]
    paper = last[last["paper"].astype(bool)].set_index(["scenario", "algorithm"])
    copeland = last[last["regret"] == "copeland"].set_index(["scenario", "algorithm"])
    scenarios = list(dict.fromkeys(summary["scenario"]))
    algorithms = list(dict.fromkeys(summary["algorithm"]))
    rows = []
    for scenario in scenarios:
        for algorithm in algorithms:
            if (scenario, algorithm) not in paper.index:
                continue
            row = paper.loc[(scenario, algorithm)]
            bound = float(row["bound"]) if pd.notna(row["bound"]) else np.nan
            below = "-" if not np.isfinite(bound) else ("yes" if row["mean"] < bound else "no")
            cop = copeland.loc[(scenario, algorithm)] if (scenario, algorithm) in copeland.index else None
            rows.append(
                {
                    "scenario": scenario,
                    "algorithm": algorithm,
                    "regret": row["regret"],
                    "horizon": int(row["t"]),
                    "runs": int(row["runs"]),
                    "mean": float(row["mean"]),
                    "std": float(row["std"]),
                    "bound": bound,
                    "below": below,
                    "copeland_mean": float(cop["mean"]) if cop is not None else np.nan,
                    "copeland_std": float(cop["std"]) if cop is not None else np.nan,
                }
            )
    return pd.DataFrame(rows)


def markdown(header: list[str], rows: list[list[str]], align: str | None = None) -> str:
    """A GitHub-flavoured Markdown table; ``align`` is one of ``l``/``r`` per column."""
    align = align or "l" * len(header)
    rule = ["---:" if a == "r" else "---" for a in align]
    lines = ["| " + " | ".join(header) + " |", "| " + " | ".join(rule) + " |"]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


HTML_STYLE = (
    "body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;font-size:13px;margin:1em}"
    "table{border-collapse:collapse}th,td{padding:3px 9px;border-bottom:1px solid #ddd}"
    "th{background:#f3f3f3;text-align:left}td.r{text-align:right}caption{text-align:left;"
    "font-weight:bold;margin-bottom:.5em}p{max-width:60em}"
)


def html_page(title: str, header: list[str], rows: list[list[str]], align: str | None = None, note: str = "") -> str:
    """A self-contained HTML page holding one table (for the Snakemake report)."""
    align = align or "l" * len(header)
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join(
        "<tr>" + "".join(f'<td class="{a}">{html.escape(str(c))}</td>' for a, c in zip(align, row)) + "</tr>"
        for row in rows
    )
    note_html = f"<p>{html.escape(note)}</p>" if note else ""
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}</title>'
        f"<style>{HTML_STYLE}</style></head><body><table><caption>{html.escape(title)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note_html}</body></html>\n"
    )


FINAL_HEADER = [
    "scenario",
    "algorithm",
    "regret",
    "R_T mean ± std",
    "bound at T",
    "below bound",
    "Copeland R_T mean ± std",
]
FINAL_ALIGN = "lllrrlr"
FINAL_NOTE = (
    "R_T: cumulative regret at the horizon T, mean ± std (ddof = 1) over runs, of the regret "
    "the scenario's figures show. Bound: the algorithm's theorem bound at T, where the theorem "
    "bounds that regret and T meets its requirement; '-' elsewhere."
)


def final_regret_rows(table: pd.DataFrame) -> list[list[str]]:
    return [
        [
            r.scenario,
            r.algorithm,
            REGRET_NAMES.get(r.regret, r.regret),
            mean_std(r.mean, r.std),
            _fmt(r.bound),
            r.below,
            mean_std(r.copeland_mean, r.copeland_std),
        ]
        for r in table.itertuples()
    ]


def final_regret_markdown(table: pd.DataFrame) -> str:
    """results/table.md: a title line, the horizon and runs, the table and a note."""
    horizons = sorted(set(table["horizon"]))
    runs = sorted(set(table["runs"]))
    head = f"# Final regret at T = {', '.join(f'{T:,}' for T in horizons)} ({', '.join(map(str, runs))} runs)\n\n"
    return head + markdown(FINAL_HEADER, final_regret_rows(table), FINAL_ALIGN) + "\n" + FINAL_NOTE + "\n"


def final_regret_html(table: pd.DataFrame) -> str:
    return html_page(
        "Final regret per scenario and algorithm", FINAL_HEADER, final_regret_rows(table), FINAL_ALIGN, FINAL_NOTE
    )


def _fraction(x: float) -> str:
    names = {0.5: "1/2", 2 / 3: "2/3", 0.75: "3/4", 1.0: "1"}
    for value, name in names.items():
        if np.isfinite(x) and abs(x - value) < 1e-9:
            return name
    return _fmt(x, 3)


EXPONENT_HEADER = [
    "scenario",
    "algorithm",
    "regret",
    "rho",
    "CI",
    "theorem exponent",
    "rho at or below it (CI)",
    "sublinear (CI below 1)",
]
EXPONENT_ALIGN = "lllrrrll"


def _has(value) -> bool:
    """Whether a table cell holds a value (not None, not NaN)."""
    return value is not None and not (isinstance(value, float) and np.isnan(value))


def exponent_rows(exponents: pd.DataFrame) -> list[list[str]]:
    """Rows of the figure's regret, plus the theorem's own regret where it differs."""
    shown = exponents[exponents["paper"].astype(bool) | exponents["theorem"].notna()]
    rows = []
    for r in shown.itertuples():
        fitted = np.isfinite(r.rho)
        if _has(r.theorem):
            theorem = f"{_fraction(r.theorem_exponent)} (Thm {r.theorem})"
            at_or_below = ("yes" if r.ci_low <= r.theorem_exponent else "no") if fitted else "-"
        else:
            theorem, at_or_below = "-", "-"
        sublinear = ("yes" if r.ci_high < 1 else "no") if fitted else "-"
        label = REGRET_NAMES.get(r.regret, r.regret) + ("" if r.paper else " (theorem's)")
        rows.append(
            [
                r.scenario,
                r.algorithm,
                label,
                _fmt(r.rho, 3),
                f"[{_fmt(r.ci_low, 3)}, {_fmt(r.ci_high, 3)}]",
                theorem,
                at_or_below,
                sublinear,
            ]
        )
    return rows


def exponent_note(exponents: pd.DataFrame) -> str:
    conf = float(exponents["confidence"].iloc[0]) if len(exponents) else 0.95
    res = int(exponents["resamples"].iloc[0]) if len(exponents) else 0
    hs = int(exponents["horizons"].max()) if len(exponents) else 0
    runs = int(exponents["runs"].min()) if len(exponents) else 0
    return (
        f"rho: least-squares slope of log mean R_T on log T over {hs} horizons, {runs} runs each, every "
        f"run tuned to its own T. CI: {conf:.0%} percentile bootstrap ({res:,} resamples of the runs "
        "within each horizon). Rows: the regret the figures show, plus the regret the algorithm's theorem "
        "bounds where that differs."
    )


def exponent_markdown(exponents: pd.DataFrame) -> str:
    return (
        "# Regret exponents: E[R_T] ~ T^rho\n\n"
        + markdown(EXPONENT_HEADER, exponent_rows(exponents), EXPONENT_ALIGN)
        + "\n"
        + exponent_note(exponents)
        + "\n"
    )


def exponent_html(exponents: pd.DataFrame) -> str:
    return html_page(
        "Regret exponents: E[R_T] ~ T^rho",
        EXPONENT_HEADER,
        exponent_rows(exponents),
        EXPONENT_ALIGN,
        exponent_note(exponents),
    )


ACTIONS_HEADER = ["scenario", "algorithm", "regret", "A", "T", "R_T mean ± std", "bound at T", "R_T / bound"]
ACTIONS_ALIGN = "lllrrrrr"


def actions_rows(table: pd.DataFrame) -> list[list[str]]:
    shown = table[table["paper"].astype(bool) | table["theorem"].notna()]
    return [
        [
            r.scenario,
            r.algorithm,
            REGRET_NAMES.get(r.regret, r.regret) + ("" if r.paper else " (theorem's)"),
            str(r.actions),
            f"{r.horizon:,}",
            mean_std(r.mean, r.std),
            _fmt(r.bound),
            _fmt(r.ratio, 4),
        ]
        for r in shown.itertuples()
    ]


ACTIONS_NOTE = (
    "R_T / bound: mean final regret over the theorem bound at (A, T), for the regret the "
    "theorem bounds; '-' where no theorem applies or T misses its requirement."
)


def actions_markdown(table: pd.DataFrame) -> str:
    return (
        "# Scaling in the number of actions A\n\n"
        + markdown(ACTIONS_HEADER, actions_rows(table), ACTIONS_ALIGN)
        + "\n"
        + ACTIONS_NOTE
        + "\n"
    )


def actions_html(table: pd.DataFrame) -> str:
    return html_page(
        "Scaling in the number of actions A", ACTIONS_HEADER, actions_rows(table), ACTIONS_ALIGN, ACTIONS_NOTE
    )


def config_html(config: dict) -> str:
    """The effective configuration (config files and --config overrides merged) as an HTML page."""

    def flatten(value, prefix=""):
        if isinstance(value, dict):
            for key, sub in value.items():
                yield from flatten(sub, f"{prefix}{key}/" if isinstance(sub, dict) else f"{prefix}{key}")
        else:
            yield prefix.rstrip("/"), json.dumps(value)

    rows = [[key, value] for key, value in flatten(config)]
    return html_page(
        "Effective configuration",
        ["key", "value"],
        rows,
        "ll",
        "Every key is documented in workflow/schemas/config.schema.yaml.",
    )


FIELD_HEADER = ["scenario", "A", "regret", "rank", "algorithm", "family", "R_T mean ± std"]
FIELD_ALIGN = "lrlrllr"
FIELD_NOTE = (
    "R_T: cumulative regret at the horizon T, mean ± std (ddof = 1) over runs, every algorithm with "
    "the same run seeds. Regret: Condorcet where a Condorcet winner exists, Copeland where none does, "
    "and Borda as well on the borda scenario. Rank 1: the lowest mean within a scenario and regret "
    "(equal means share a rank). Family: paper (the paper's four algorithms and its baselines ISS and "
    "DTS) or field (the field's algorithms beyond the paper)."
)


def field_markdown(table: pd.DataFrame) -> str:
    """results/field/table.md: ranks at a glance (algorithm x scenario/regret), then every final regret."""
    from .algorithms import ALGORITHMS
    from .field import FIELD_REGRET_NAMES

    def label(slug):
        return ALGORITHMS[slug].label if slug in ALGORITHMS else slug

    columns = list(dict.fromkeys(zip(table["scenario"], table["regret"])))
    slugs = list(dict.fromkeys(table["algorithm"]))
    ranks = {(r.scenario, r.regret, r.algorithm): int(r.rank) for r in table.itertuples()}
    glance = []
    for slug in slugs:
        mine = [ranks.get((s, k, slug)) for s, k in columns]
        known = [x for x in mine if x is not None]
        mean = f"{np.mean(known):.1f}" if known else "-"
        glance.append([label(slug), *("-" if x is None else str(x) for x in mine), mean])
    glance_header = ["algorithm", *(f"{s} ({FIELD_REGRET_NAMES.get(k, k)})" for s, k in columns), "mean rank"]
    rows = [
        [
            r.scenario,
            str(int(r.actions)),
            FIELD_REGRET_NAMES.get(r.regret, r.regret),
            str(int(r.rank)),
            label(r.algorithm),
            r.family,
            mean_std(r.mean, r.std),
        ]
        for r in table.itertuples()
    ]
    horizons = ", ".join(f"{T:,}" for T in sorted(set(table["horizon"])))
    runs = ", ".join(map(str, sorted(set(table["runs"]))))
    return (
        f"# The field: final regret at T = {horizons} ({runs} runs)\n\n"
        "## Ranks\n\n"
        + markdown(glance_header, glance, "l" + "r" * (len(glance_header) - 1))
        + "\n## Final regret\n\n"
        + markdown(FIELD_HEADER, rows, FIELD_ALIGN)
        + "\n"
        + FIELD_NOTE
        + "\n"
    )
