"""The README's budget-curve figure is drawn from its CSV, and a CSV it cannot read is one line
with exit 2."""

from __future__ import annotations

from pathlib import Path

from analysis.reports import budget_curve

CSV = ("budget,opponent,win_rate,lo,hi,ms_per_decision\n"
       "16 worlds,tuned,0.51,0.489,0.531,0.68\n"
       "64 worlds,tuned,0.655,0.627,0.682,2.07\n")


def test_the_curve_is_drawn_from_the_csv(tmp_path: Path, capsys):
    source = tmp_path / "curve.csv"
    source.write_text(CSV)
    target = tmp_path / "curve.png"
    assert budget_curve.main([str(source), str(target)]) == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert target.stat().st_size > 5_000


def test_a_missing_csv_is_one_line_and_exit_2(tmp_path: Path, capsys):
    assert budget_curve.main([str(tmp_path / "none.csv"), str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot read" in err[0]
