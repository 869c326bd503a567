"""The hold-wild verdict is generated from the numbers: constructed results where holding
wins, where it loses, where it depends, and where nothing is clear."""

from __future__ import annotations

import polars as pl

from analysis.reports.fmt import pct, pts
from analysis.reports.verdict import call, verdict


def _results(effects: dict[tuple[str, int], float], games: int = 5000,
             half_width: float = 5.0) -> pl.DataFrame:
    """Rows as results_table makes them, for a given mean difference per deal; p is tiny
    when the interval excludes 0 and large when it does not."""
    rows = []
    for (group, value), diff in effects.items():
        clear = abs(diff) > half_width
        win = 0.5 + diff / 1000
        rows.append({"group": group, "value": str(value), "a": f"hold {value}", "b": "hold 0",
                     "games": games, "win_rate": win, "win_low": win - 0.01,
                     "win_high": win + 0.01, "diff_deal": diff,
                     "diff_deal_low": diff - half_width, "diff_deal_high": diff + half_width,
                     "p_value": 1e-6 if clear else 0.4, "p_holm": 1e-5 if clear else 0.8})
    return pl.DataFrame(rows)


PROFILES = ("standard", "eleven", "saskatchewan")


def test_holding_wins_says_yes_with_its_numbers():
    table = _results({(p, v): 40.0 + v for p in PROFILES for v in (1, 2, 3)})
    text = verdict(table)
    assert text[0].startswith("Yes.")
    assert "all 9 comparisons" in text[0] and "all 3 rule sets" in text[0]
    row = table.row(0, named=True)
    assert pct(row["win_rate"]) in text[1] and pts(row["diff_deal"], signed=True) in text[1]
    assert "Best under standard: holding 3 wilds back." in text[1]
    assert "5,000" in text[-1] and "Holm" in text[-1] and "5.0 points per deal" in text[-1]


def test_holding_loses_says_no():
    table = _results({(p, v): -30.0 * v for p in PROFILES for v in (1, 2, 3)})
    text = verdict(table)
    assert text[0].startswith("No.")
    assert "lost points to holding none in all 9" in text[0]
    assert all(f"Best under {p}: holding none." in t for p, t in zip(PROFILES, text[1:4],
                                                                     strict=True))


def test_mostly_losing_names_the_exception():
    effects = {(p, v): -30.0 for p in PROFILES for v in (1, 2, 3)}
    effects[("saskatchewan", 3)] = -1.0  # inside the noise
    text = verdict(_results(effects))
    assert text[0].startswith("No.") and "8 of 9" in text[0]
    assert "holding 3 wilds back under saskatchewan" in text[0]
    assert "no option is clearly better" in text[3]


def test_mixed_results_say_it_depends_and_noise_says_cannot_tell():
    effects = {("standard", 1): 20.0, ("eleven", 1): -20.0}
    assert verdict(_results(effects))[0].startswith("It depends on the rules.")
    quiet = {("standard", 1): 1.0, ("eleven", 1): -2.0}
    assert verdict(_results(quiet))[0].startswith("Cannot tell yet.")


def test_calls_use_the_corrected_p_value():
    row = {"p_value": 0.01, "p_holm": 0.2, "diff_deal": 12.0}
    assert call(row) == "unclear"
    assert call({**row, "p_holm": 0.01}) == "better"
    assert call({"p_value": 0.001, "diff_deal": -3.0}) == "worse"
