"""docs/theorem-4.1.md quotes the family's crossing, growth exponent and reach in prose; each sentence is
rebuilt here from a fresh run of duelbandits.studies.tail.family.family_search at the default config (the numbers have
one source: the target's code and config; about 2 x 10^8 steps, a minute or two of CPU)."""

from pathlib import Path

import pytest
import yaml

from duelbandits.studies.tail import family as tail_family

REPO = Path(__file__).resolve().parents[1]
NOTE = (REPO / "docs" / "theorem-4.1.md").read_text()
CONFIG = yaml.safe_load((REPO / "config.yaml").read_text())

pytestmark = pytest.mark.slow


def squeeze(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def family():
    section, family = CONFIG["maximin-tail"], CONFIG["maximin-tail"]["family"]
    return tail_family.family_search(
        family["actions"], family["gaps"], family["others_gap"], family["strength"], family["runs"], family["horizon"],
        CONFIG["seed"], family["points"], section["confidence"], family["bootstrap"],
    )  # fmt: skip


def test_the_notes_crossing_and_exponent_are_the_targets(family):
    row = family[(family["actions"] == 5) & (family["gap"] == 0.1)].iloc[-1]
    sentence = (
        f"On the member `A = 5, gap = 0.1` the mean regret crosses the bound at t = {row['crossing']:,.0f} "
        f"[{row['crossing_low']:,.0f}, {row['crossing_high']:,.0f}] and grows like t^{row['exponent']:.2f} "
        f"[{row['exponent_low']:.2f}, {row['exponent_high']:.2f}] past it"
    )
    assert sentence in squeeze(NOTE)


def test_the_notes_first_break_and_reach_are_the_targets(family):
    A, gap, t, _ = tail_family.first_break(family)
    assert (
        f"The bound breaks first on A = {A}, gap = {gap:g} "
        f"(the first grid step whose interval lies above it: t = {t:,})" in squeeze(NOTE)
    )
    (small, gaps), (large, actions) = tail_family.family_extremes(family)
    reach = (
        f"the smallest A that fails is {small} (gap {', '.join(f'{g:g}' for g in gaps)}) and the largest gap "
        f"that fails is {large:g} (A = {', '.join(map(str, actions))})"
    )
    assert reach in squeeze(NOTE)
