"""``handfoot strategies`` and strategy specs (names or files) on the command line: each run's
manifest names every seat's strategy and the parameters it played, and its records are the
games those strategies play (tests/runhelpers.py: ``check_played``)."""

from __future__ import annotations

import json

from sim.core.profiles import load_rules
from sim.core.rules import Rules
from sim.runs.lineup import PER_PROFILE
from sim.runs.trace import trace_games
from strategies.registry import REGISTRY, load
from tests.runhelpers import check_played, cli


def test_strategies_list(capsys):
    code, out, err = cli(capsys, "strategies", "list")
    assert code == 0, err
    names = [line.split()[0] for line in out.strip().splitlines()]
    assert names == list(REGISTRY) + list(PER_PROFILE)


def test_strategies_show_is_a_strategy_file(tmp_path, capsys):
    for name in ("tactician", "cautious", "greedy"):
        code, out, err = cli(capsys, "strategies", "show", name)
        assert code == 0, err
        path = tmp_path / f"{name}.toml"
        path.write_text(out)
        assert load(str(path)).params == REGISTRY[name].params


def test_a_strategy_file_plays_for_a_partnership(tmp_path, capsys):
    path = tmp_path / "hoarder.toml"
    path.write_text('base = "tactician"\nhold_wilds = 2\nkeep_pairs = 1\n')
    code, _, err = cli(capsys, "simulate", "--games", "20", "--jobs", "1", "--team0", str(path),
                       "--team1", "greedy", "--out-dir", str(tmp_path), "--name", "run")
    assert code == 0, err
    m = check_played(tmp_path / "run", [str(path), "greedy"] * 2, Rules(), 20)
    assert m["strategies"]["played"][0]["params"]["hold_wilds"] == 2
    assert m["strategies"]["played"][2]["params"]["keep_pairs"] == 1
    assert m["strategies"]["teams"] == [str(path), "greedy"]
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "tactician"\nhold_wilds = 7\n')
    code, _, err = cli(capsys, "simulate", "--games", "20", "--team0", str(bad), "--out-dir",
                       str(tmp_path), "--name", "bad")
    assert code == 2 and "outside 0..3" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "bad").exists()


def test_one_strategy_per_seat(tmp_path, capsys):
    seats = ["greedy", "random", "cautious", "random"]
    code, _, err = cli(capsys, "simulate", "--games", "20", "--jobs", "1", "--strategy",
                       ",".join(seats), "--out-dir", str(tmp_path), "--name", "run")
    assert code == 0, err
    check_played(tmp_path / "run", seats, Rules(), 20)
    code, _, err = cli(capsys, "simulate", "--games", "20", "--strategy", "greedy,random,cautious",
                       "--out-dir", str(tmp_path), "--name", "three")
    assert code == 2 and "3 strategies for 4 seats" in err
    out = tmp_path / "t.jsonl"
    seats = ["cautious", "greedy", "random", "tactician"]
    code, _, err = cli(capsys, "trace", "--games", "1", "--strategy", ",".join(seats), "--out",
                       str(out))
    assert code == 0, err
    lines = [json.loads(text) for text in out.read_text().splitlines()]
    assert lines == list(trace_games(Rules(), seats, lines[0]["seed"], 0, 1))  # these seats


def test_individual_play_with_three_players(tmp_path, capsys):
    path = tmp_path / "three.toml"
    path.write_text('base = "simpson"\nplayers = 3\npartnerships = 3\ndecks = 4\n')
    rules = load_rules(str(path))
    assert (rules.players, rules.partnerships, rules.decks, rules.hand_size) == (3, 3, 4, 11)
    for name, extra, seats in (("default", [], ["greedy"] * 3),
                               ("one", ["--strategy", "cautious"], ["cautious"] * 3),
                               ("each", ["--strategy", "greedy,random,tactician"],
                                ["greedy", "random", "tactician"])):
        code, out, err = cli(capsys, "simulate", "--games", "30", "--jobs", "1", "--rules",
                             str(path), "--out-dir", str(tmp_path), "--name", name, *extra)
        assert code == 0, err
        assert "   2  " in out  # a line for the third player
        check_played(tmp_path / name, seats, rules, 30)
