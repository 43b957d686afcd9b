"""The studies' tables as Markdown and HTML, by plain string building (no tabulate, no jinja2), so the
same input gives the same bytes on every machine."""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

import numpy as np


def fmt(value, digits: int = 1) -> str:
    """A number with thousands separators, or ``-`` for NaN/None."""
    if value is None or (isinstance(value, float) and not np.isfinite(value)):
        return "-"
    return f"{value:,.{digits}f}"


def interval(point, low, high, digits: int = 3, percent: bool = False) -> str:
    """A value and its interval, ``point [low, high]`` (each by :func:`fmt` to ``digits`` decimals); with
    ``percent``, shares as percentages: ``point% [low, high]``."""
    if percent:
        point, low, high = 100 * point, 100 * low, 100 * high
    return f"{fmt(point, digits)}{'%' if percent else ''} [{fmt(low, digits)}, {fmt(high, digits)}]"


def mean_std(mean, std, digits: int = 1, runs: int | None = None) -> str:
    """``mean ± std``; the std as ``-`` over fewer than two ``runs``: one run has no spread to show (its
    stored std is 0), and ``± 0.0`` would say the result is exact."""
    return f"{fmt(mean, digits)} ± {fmt(None if runs is not None and runs < 2 else std, digits)}"


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


@dataclass(frozen=True)
class Table:
    """A table of cells: its header, rows, alignment (``l``/``r`` per column), the heading of its section
    (None: it opens the page) and the note below it."""

    header: list[str]
    rows: list[list[str]]
    align: str
    heading: str | None = None
    note: str = ""


def _html_table(table: Table, caption: str) -> str:
    """One captioned HTML table and its note."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in table.header)
    body = "".join(
        "<tr>" + "".join(f'<td class="{a}">{html.escape(str(c))}</td>' for a, c in zip(table.align, row)) + "</tr>"
        for row in table.rows
    )
    note_html = f"<p>{html.escape(table.note)}</p>" if table.note else ""
    return (
        f"<table><caption>{html.escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>{note_html}"
    )


@dataclass(frozen=True)
class Page:
    """A study's readable tables, written as Markdown (``# title``, each table under its ``## heading``
    and above its note) and as a self-contained HTML page for the Snakemake report, from the same cells."""

    title: str
    tables: list[Table]

    def markdown(self) -> str:
        sections = [
            (f"## {t.heading}\n\n" if t.heading else "")
            + markdown(t.header, t.rows, t.align)
            + (f"\n{t.note}\n" if t.note else "")
            for t in self.tables
        ]
        return f"# {self.title}\n\n" + "\n".join(sections)

    def html(self) -> str:
        tables = "".join(_html_table(t, t.heading or self.title) for t in self.tables)
        return (
            f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(self.title)}</title>'
            f"<style>{HTML_STYLE}</style></head><body>{tables}</body></html>\n"
        )


def fraction(x: float, digits: int = 3) -> str:
    """An exponent as the fraction the theorems name (1/2, 2/3, 3/4, 1), else with ``digits`` decimals."""
    for value, name in {0.5: "1/2", 2 / 3: "2/3", 0.75: "3/4", 1.0: "1"}.items():
        if np.isfinite(x) and abs(x - value) < 1e-9:
            return name
    return fmt(x, digits)


def config_html(config: dict) -> str:
    """The effective configuration (config files and --config overrides merged) as an HTML page."""

    def flatten(value, prefix=""):
        if isinstance(value, dict):
            for key, sub in value.items():
                yield from flatten(sub, f"{prefix}{key}/" if isinstance(sub, dict) else f"{prefix}{key}")
        else:
            yield prefix.rstrip("/"), json.dumps(value)

    rows = [[key, value] for key, value in flatten(config)]
    note = "Every key is documented in workflow/schemas/config.schema.yaml."
    return Page("Effective configuration", [Table(["key", "value"], rows, "ll", note=note)]).html()
