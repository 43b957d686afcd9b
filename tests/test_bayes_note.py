"""docs/theorem-4.1.md's table of the Bayesian reading past 10^5 is the archive's: each row is rebuilt
here from archive/maximin-bayes/*.parquet (its file's longest horizon and T = 10^5), so the note cannot
drift from the tables the ledger reads (the archive's bytes are checked by manifest verify)."""

from pathlib import Path

import pandas as pd

from duelbandits.studies.bayes_report import crossing_text, decide_text

REPO = Path(__file__).resolve().parents[1]


def note_rows(archive: Path = REPO / "archive" / "maximin-bayes") -> list[str]:
    """The note's rows: prior, A, t, E[R_t] / bound [95%], verdict, matrices to decide, exponent [95%],
    predicted crossing [95%], the last two columns' cells as bayes.md writes them."""
    rows = []
    for path in sorted(archive.glob("*-T*.parquet")):
        table = pd.read_parquet(path)
        prior = path.name.split("-T")[0]
        longest = table["horizon"].max()
        for _, r in table[table["horizon"] == longest].iterrows():
            decide = decide_text(r) if r["verdict"] == "inconclusive" else "-"
            crossing = "undefined" if pd.isna(r["crossing"]) else crossing_text(r["crossing"], longest)
            exponent = "undefined" if pd.isna(r["exponent"]) else f"{r['exponent']:.2f}"
            rows.append(
                f"| {prior} | {r['actions']} | {r['horizon']:,} | {r['ratio']:.3f} [{r['low']:.3f}, {r['high']:.3f}] "
                f"| {r['verdict']} | {decide} | {exponent} [{r['exponent_low']:.2f}, {r['exponent_high']:.2f}] "
                f"({r['exponent_undefined']:,}) | {crossing} "
                f"[{crossing_text(r['crossing_low'], longest)}, {crossing_text(r['crossing_high'], longest)}] |"
            )
    return rows


def test_the_notes_bayesian_rows_are_the_archives():
    note = (REPO / "docs" / "theorem-4.1.md").read_text(encoding="utf-8")
    rows = note_rows()
    assert len(rows) == 18 and [row for row in rows if row not in note] == []  # 8 + 8 at 10^6, 2 at 10^7


if __name__ == "__main__":  # prints the rows to paste into the note
    print("\n".join(note_rows()))
