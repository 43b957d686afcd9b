"""The maximin-tail table: results/maximin-tail/tail.md."""

from __future__ import annotations

import math

import numpy as np

from . import fmt, markdown


def _estimate_rows(table) -> list[list[str]]:
    rows = []
    for row in table.sort_values("t").itertuples():
        rows.append(
            [
                f"{int(row.t):,}",
                row.source,
                f"{fmt(row.mean, 0)} [{fmt(row.low, 0)}, {fmt(row.high, 0)}]",
                fmt(row.bound, 0),
                f"{fmt(row.ratio, 3)} [{fmt(row.ratio_low, 3)}, {fmt(row.ratio_high, 3)}]",
                f"{fmt(100 * row.trapped, 2)}% [{fmt(100 * row.trapped_low, 2)}, {fmt(100 * row.trapped_high, 2)}]",
                row.verdict,
            ]
        )
    return rows


def _state_rows(states) -> list[list[str]]:
    rows = []
    if states is None or states.empty:
        return rows
    for (t, stratum), part in states.groupby(["t", "stratum"], sort=True):
        rows.append(
            [
                f"{int(t):,}",
                stratum,
                str(len(part)),
                fmt(float(np.median(part["duels_star_borda"])), 0),
                f"{int((part['duels_star_borda'] == 0).sum())}",
                fmt(float(np.median(part["never_observed"])), 0),
                fmt(float(np.median(part["never_observed_star"])), 0),
                fmt(float(np.median(part["fewest_duels_star"])), 0),
                f"{float(np.median(part['p_star'])):.2e}",
                f"{float(np.median(part['p_duel_borda'])):.2e}",
                f"{float(np.median(part['p_escape'])):.2e}",
                fmt(float(np.median(part["cumulative_regret"])), 0),
            ]
        )
    return rows


def tail_markdown(table, states, trap, verdict: str, confidence: float) -> str:
    """The estimates (survival curve and E[R_t] / bound per step), the continued runs' states, the verdict."""
    level = f"{100 * confidence:g}%"
    first = table[table["source"].str.startswith("phase 1")]
    runs = int(first["runs"].iloc[0]) if len(first) else 0
    trapped_runs = int(first["trapped_runs"].iloc[0]) if len(first) else 0
    text = [
        "# Theorem 4.1 on trial: TS-Maximin's Maximin regret far past the paper's horizon\n",
        f"Maximin winner i* = {trap.maximin_winner}, Borda winner i2 = {trap.borda_winner}; the trap's regret "
        f"per step delta = X[i*, i2] - 1/2 = {trap.delta:.4f}. Phase 1: {runs:,} runs; "
        f"{trapped_runs} trapped at the first horizon. Intervals: two-sided {level}, normal; phase 2 "
        "stratified (duelbandits.tail.stratified_mean).\n",
        f"**Verdict: {verdict}.**\n",
        "## E[R_t] against Theorem 4.1's bound, and the trapped fraction (survival curve)\n",
        markdown(
            ["t", "from", f"E[R_t] [{level}]", "bound", "R_t / bound", "trapped", "verdict"],
            _estimate_rows(table),
            "rlrrrrl",
        ),
    ]
    rows = _state_rows(states)
    if rows:
        text += [
            "\n## The continued runs' posterior state (medians over runs)\n",
            "`duels i*-i2`: duels of the Maximin winner against the Borda winner so far; `none`: runs "
            "that never dueled them; `never observed`: ordered pairs never dueled "
            "(`of i*'s row`: entries X[i*, j] among them); "
            "`p(i*)`: probability "
            "that one posterior draw picks i* under the frozen posterior; `fewest i* duels`: the fewest duels "
            "of i* against one action j_min; `p(i*-i2)`, `p(escape)`: probability that a step duels i* against "
            "i2, against j_min (2 p(i*) p(j)): the only duel that corrects the entry X[i*, j_min].\n",
            markdown(
                [
                    "t",
                    "stratum",
                    "runs",
                    "duels i*-i2",
                    "none",
                    "never observed",
                    "of i*'s row",
                    "fewest i* duels",
                    "p(i*)",
                    "p(i*-i2)",
                    "p(escape)",
                    "R_t",
                ],
                rows,
                "rlrrrrrrrrrr",
            ),
        ]
    return "\n".join(text)


def _t_or(value: float, missing: str) -> str:
    return missing if math.isnan(value) else f"{value:,.0f}"


def family_markdown(table, first, extremes, confidence: float) -> str:
    """Per member of the family: R_t / bound at the horizon, the first grid t exceeded, where E[R_t] crosses
    the bound (with its interval) and its growth exponent past the crossing; the first break, the smallest
    A and the largest gap that fail (within the grid searched)."""
    level = f"{100 * confidence:g}%"
    rows = []
    horizon = int(table["t"].max())
    for (A, gap), part in table.groupby(["actions", "gap"], sort=True):
        if (part["verdict"] == "no trap").all():
            rows.append([str(A), f"{gap:g}", "-", "-", "no trap (the Borda winner is the Condorcet winner)", "-", "-"])
            continue
        last = part.sort_values("t").iloc[-1]
        over = part[part["verdict"] == "exceeded"].sort_values("t")
        if math.isnan(last["crossing"]):
            cross = f"not within t <= {horizon:,}"
        else:
            cross = (
                f"{last['crossing']:,.0f} [{_t_or(last['crossing_low'], '-')}, "
                f"{_t_or(last['crossing_high'], f'> {horizon:,}')}]"
            )
        if math.isnan(last["exponent"]):
            slope = "-" if math.isnan(last["crossing"]) else "fewer than 2 grid steps past the crossing"
        else:
            slope = f"{last['exponent']:.2f} [{last['exponent_low']:.2f}, {last['exponent_high']:.2f}]"
        rows.append(
            [
                str(A),
                f"{gap:g}",
                f"{int(last['t']):,}",
                f"{last['ratio']:.3f} [{last['low'] / last['bound']:.3f}, {last['high'] / last['bound']:.3f}]",
                f"{int(over['t'].iloc[0]):,}" if len(over) else "not exceeded",
                cross,
                slope,
            ]
        )
    if first is None:
        verdict = f"No member's interval lies above Theorem 4.1's bound up to t = {horizon:,}."
    else:
        A, gap, t, row = first
        verdict = (
            f"Theorem 4.1's bound breaks first on A = {A}, gap = {gap:g}: at t = {t:,}, E[R_t] = {row['mean']:,.0f} "
            f"[{row['low']:,.0f}, {row['high']:,.0f}] ({level}) against the bound {row['bound']:,.0f}."
        )
    searched = (
        f"A in {{{', '.join(str(a) for a in sorted(table['actions'].unique()))}}}, "
        f"gap in {{{', '.join(f'{g:g}' for g in sorted(table['gap'].unique()))}}}"
    )
    if extremes is None:
        reach = f"Within the grid searched ({searched}), no member fails."
    else:
        (small, gaps), (large, actions) = extremes
        reach = (
            f"Within the grid searched ({searched}): the smallest A that fails is {small} "
            f"(gap {', '.join(f'{g:g}' for g in gaps)}), the largest gap that fails is {large:g} "
            f"(A = {', '.join(map(str, actions))})."
        )
    one = table[table["verdict"] != "no trap"]
    others_gap, strength = float(table["others_gap"].iloc[0]), float(table["strength"].iloc[0])
    runs = int(one["runs"].iloc[0]) if len(one) else 0
    return "\n".join(
        [
            "# Where Theorem 4.1's bound breaks first\n",
            f"Family (duelbandits.tail_family.family_matrix): action 0 the Condorcet winner, X[0, 1] = 1/2 + gap, "
            f"X[0, j] = {0.5 + others_gap:g}; action 1 beats every j >= 2 with {strength:g}; other pairs 1/2. "
            f"TS-Maximin, {runs} runs per member; two-sided {level} normal intervals. A member fails when its "
            "interval lies above the bound at some t of the grid. Crossing: where the mean first reaches the bound, "
            "from where the interval's upper end first does (before it, every interval lies below the bound) to "
            "where its lower end does (log-linear between grid steps). Exponent: least-squares slope of log E[R_t] "
            f"on log t over the grid steps past the crossing, {level} percentile bootstrap interval over the runs.\n",
            f"**{verdict}**\n",
            f"**{reach}**\n",
            markdown(
                ["A", "gap", "t", "R_t / bound at t", "first t exceeded", "crossing t [interval]", "exponent past it"],
                rows,
                "rrrrlll",
            ),
        ]
    )
