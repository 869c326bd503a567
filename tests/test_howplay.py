"""The how-they-play panel: every report carries it, and its numbers are the runs' numbers,
recomputed here deal by deal from the records the run folders hold."""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from sim.cli.analysis import cli
from sim.runs.storage import Run


@pytest.fixture(scope="module")
def report(tmp_path_factory) -> Path:
    """A small paired comparison in individual play (4 seatings) and its report."""
    root = tmp_path_factory.mktemp("howplay")
    result = CliRunner().invoke(cli, [
        "compare", "tactician", "greedy", "--rules", "simpson", "--games", "12", "--jobs",
        "1", "--report", "hp", "--runs-dir", str(root / "runs"), "--reports-dir",
        str(root / "reports")], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return root / "reports" / "hp"


def _expected(manifest: dict) -> dict[str, dict[str, float]]:
    """The panel's numbers from the records, one partnership-deal at a time."""
    sums: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    opens: dict[str, list[int]] = defaultdict(list)
    feet: dict[str, list[int]] = defaultdict(list)
    for entry in manifest["runs"]:
        run = Run.open(Path(entry["path"]))
        rules = run.spec.rules
        teams, players = rules.partnerships, rules.players
        seat = entry["seating"]
        labels = [entry["a"] if t == seat else entry["b"] for t in range(teams)]
        for r in run.scan().collect().iter_rows(named=True):
            for t, label in enumerate(labels):
                s = sums[label]
                s["deals"] += 1
                s["turns"] += r["turns"]
                s["out"] += r["end_reason"] == 1
                s["went_out"] += r["end_reason"] == 1 and r["out_seat"] % teams == t
                s["stock"] += r["end_reason"] == 2
                s["pickups"] += r[f"pickups_{t}"]
                s["team_turns"] += sum(1 for k in range(1, r["turns"] + 1)
                                       if (r["dealer"] + k) % players % teams == t)
                s["score"] += r[f"score_{t}"]
                for part in ("melded", "left", "red3", "books", "out"):
                    s[f"part_{part}"] += r[f"{part}_{t}"]
                for kind in ("clean", "dirty", "wild", "black3"):
                    s[kind] += r[f"books_{kind}_{t}"]
                if r[f"open_turn_{t}"] >= 0:
                    opens[label].append(r[f"open_turn_{t}"])
                for p in range(t, players, teams):
                    s["player_deals"] += 1
                    if r[f"foot_turn_{p}"] >= 0:
                        feet[label].append(r[f"foot_turn_{p}"])
    out = {}
    for label, s in sums.items():
        n = s["deals"]
        o, f = sorted(opens[label]), sorted(feet[label])
        out[label] = {
            "deals": n, "share_out": s["out"] / n, "share_went_out": s["went_out"] / n,
            "share_stock": s["stock"] / n, "turns_deal": s["turns"] / n,
            "pickups_turn": s["pickups"] / s["team_turns"], "pickups_deal": s["pickups"] / n,
            "score_deal": s["score"] / n,
            **{f"{p}_deal": s[f"part_{p}"] / n for p in ("melded", "left", "red3", "books",
                                                         "out")},
            **{f"books_{k}_deal": s[k] / n for k in ("clean", "dirty", "wild", "black3")},
            "open_share": len(o) / n, "open_mean": sum(o) / len(o),
            "open_median": o[(len(o) - 1) // 2],
            "foot_share": len(f) / s["player_deals"], "foot_mean": sum(f) / len(f),
            "foot_median": f[(len(f) - 1) // 2]}
    return out


def test_the_panel_is_the_runs_numbers(report):
    manifest = json.loads((report / "manifest.json").read_text())
    table = pl.read_csv(report / "howplay.csv")
    assert table["group"].to_list() == ["simpson", "simpson"]
    expected = _expected(manifest)
    assert sorted(table["strategy"]) == sorted(expected) == ["greedy", "tactician"]
    for row in table.iter_rows(named=True):
        want = expected[row["strategy"]]
        for key, value in want.items():
            assert math.isclose(row[key], value, rel_tol=1e-9, abs_tol=1e-9), (key, row[key],
                                                                                 value)
    # greedy plays three seats of every deal, the tactician one
    deals = dict(zip(table["strategy"], table["deals"], strict=True))
    assert deals["greedy"] == 3 * deals["tactician"] == 3 * 4 * 12 * 4


def test_the_panel_is_in_the_page_and_the_summary(report):
    html = (report / "index.html").read_text()
    summary = (report / "summary.md").read_text()
    assert "<h2>How they play</h2>" in html and "## How they play" in summary
    assert "howplay.csv" in json.loads((report / "manifest.json").read_text())["tables"]
    assert "pick-ups per turn" in summary and "Foot turn (median)" in html
