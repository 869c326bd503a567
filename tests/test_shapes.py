"""Comparisons in every game shape: individual play (simpson, brouillette, 3 and 5 players),
2 partnerships of 3 and 3 partnerships of 2 (6 players). compare, sweep, ask hold-wild and
rules-compare all run, play one run per seating with A moved through every partnership or
seat, and report the individual-play statistics; rule files that change the players get the
profile's deck rule (R-V1)."""

from __future__ import annotations

import json

import polars as pl
import pytest

from sim.core.profiles import load_rules
from sim.runs.storage import Run
from tests.runhelpers import cli

SHAPES = {  # rule file text (or a profile) -> (seatings, individual)
    "simpson": (4, True),
    "brouillette": (4, True),
    "three.toml": (3, True),
    "five.toml": (5, True),
    "six-two.toml": (2, False),
    "six-three.toml": (3, False),
}
FILES = {
    "three.toml": "players = 3\npartnerships = 3\n",
    "five.toml": "base = \"saskatchewan\"\nplayers = 5\npartnerships = 5\n",
    "six-two.toml": "players = 6\n",
    "six-three.toml": "base = \"brouillette-partners\"\nplayers = 6\npartnerships = 3\n",
}


@pytest.fixture
def here(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for name, text in FILES.items():
        (tmp_path / name).write_text(text)
    return tmp_path


def handfoot(capsys, *args: str) -> str:
    code, out, err = cli(capsys, *args, "--jobs", "1")
    assert code == 0, err
    return out


def test_R_V1_rule_files_that_change_players_get_the_profiles_decks(here, capsys):
    assert load_rules("three.toml").decks == 4  # standard: players + 1
    assert load_rules("six-two.toml").decks == 7
    assert load_rules("five.toml").decks == 6  # saskatchewan: players + 1
    (here / "eleven6.toml").write_text('base = "eleven"\nplayers = 6\n')
    assert load_rules("eleven6.toml").decks == 6  # eleven: one per player
    (here / "named.toml").write_text("players = 6\ndecks = 8\n")
    assert load_rules("named.toml").decks == 8  # a file that names decks keeps them
    code, out, _ = cli(capsys, "rules", "show", "six-two.toml")
    assert code == 0
    assert "# decks = 7: players + 1 for 6 players, the standard deck rule (R-V1)" in out
    assert "\ndecks = 7 " in out
    code, out, _ = cli(capsys, "rules", "show", "named.toml")
    assert "deck rule" not in out and "\ndecks = 8 " in out


@pytest.mark.parametrize("rules", SHAPES)
def test_compare_plays_every_seating_of_every_shape(here, capsys, rules):
    seatings, individual = SHAPES[rules]
    out = handfoot(capsys, "compare", "cautious", "greedy", "--rules", rules, "--games", "4",
                   "--report", "c")
    table = pl.read_csv(here / "reports" / "c" / "results.csv").row(0, named=True)
    assert table["teams"] == seatings and table["games_played"] == 4 * seatings
    assert table["even"] == pytest.approx(1 / seatings)
    assert table["win_low"] <= table["win_rate"] <= table["win_high"]
    assert 1 <= table["rank_low"] <= table["rank"] <= table["rank_high"] <= seatings
    assert table["diff_game_low"] <= table["diff_game"] <= table["diff_game_high"]
    assert f"{seatings} run folders" in out
    manifest = json.loads((here / "reports" / "c" / "manifest.json").read_text())
    assert [r["seating"] for r in manifest["runs"]] == list(range(seatings))
    a_spec = Run.open(here / manifest["runs"][0]["path"]).spec.team_strategies[0]
    assert a_spec.endswith(".toml") and "cautious" in a_spec  # written out in full
    for r in manifest["runs"]:  # A in partnership r, B (greedy) in every other one
        teams = Run.open(here / r["path"]).spec.team_strategies
        assert list(teams) == [a_spec if t == r["seating"] else "greedy"
                               for t in range(seatings)]
    if seatings > 2:
        assert "mean rank" in out and f"{100 / seatings:.1f}% is even" in out
    word = "seat" if individual else "partnership"
    assert f"cautious in each {word} in turn" in out or seatings == 2


@pytest.mark.parametrize("rules", ["simpson", "five.toml"])
def test_a_strategy_against_itself_is_exactly_even_in_individual_play(here, capsys, rules):
    handfoot(capsys, "compare", "greedy", "greedy", "--rules", rules, "--games", "3",
             "--report", "self")
    row = pl.read_csv(here / "reports" / "self" / "results.csv").row(0, named=True)
    seats = SHAPES[rules][0]
    assert row["win_rate"] == row["win_low"] == row["win_high"] == pytest.approx(1 / seats)
    assert row["rank"] == (seats + 1) / 2 and row["diff_game"] == 0 and row["p_value"] == 1


@pytest.mark.parametrize("rules", ["brouillette", "three.toml", "six-three.toml"])
def test_sweep_ask_and_rules_compare_run_in_every_shape(here, capsys, rules):
    seatings = SHAPES[rules][0]
    handfoot(capsys, "sweep", "--strategy", "tactician", "--param", "keep_pairs=0,1",
             "--against", "greedy", "--rules", rules, "--games", "3", "--report", "sw")
    sweep = pl.read_csv(here / "reports" / "sw" / "results.csv")
    assert sweep.height == 2 and (sweep["teams"] == seatings).all()
    # One named player (a rule file's default players are built first, which takes minutes)
    # and no search choices (tests/test_search_choices.py: pimc has no base policy for a rule
    # file); the strong side of rules-compare named for the same reason.
    handfoot(capsys, "ask", "hold-wild", "--rules", rules, "--player", "cautious", "--games",
             "3", "--positions", "40", "--search-positions", "0", "--report", "hw")
    hold = pl.read_csv(here / "reports" / "hw" / "results.csv")
    assert hold.height == 3 and (hold["teams"] == seatings).all()
    out = handfoot(capsys, "rules-compare", "standard", rules, "--strong", "tactician",
                   "--games", "3")
    assert "Skill matters most" in out and "ranked by the win rate over even play" in out
