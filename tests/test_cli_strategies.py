"""``handfoot strategies`` and strategy specs (names or files) on the command line: each run's
manifest names every seat's strategy and the parameters it played, and its records are the
games those strategies play (tests/runhelpers.py: ``check_played``)."""

from __future__ import annotations

import json

import pytest

from sim.core.profiles import PROFILES, load_rules
from sim.core.rules import Rules
from sim.runs.trace import trace_games
from strategies.per_profile import PER_PROFILE
from strategies.registry import REGISTRY, load
from tests.runhelpers import check_played, cli


def test_strategies_list(capsys):
    code, out, err = cli(capsys, "strategies", "list")
    assert code == 0, err
    names = [line.split()[0] for line in out.strip().splitlines()]
    assert names == list(REGISTRY) + list(PER_PROFILE)


def test_strategies_show_is_a_strategy_file(tmp_path, capsys):
    """What ``strategies show`` prints loads as a strategy file with the parameters the name
    plays (for ``pimc``, its profile's measured defaults: the test above)."""
    from strategies.per_profile import search_default

    for name in ("tactician", "cautious", "greedy", "pimc"):
        code, out, err = cli(capsys, "strategies", "show", name, "--rules", "eleven")
        assert code == 0, err
        path = tmp_path / f"{name}.toml"
        path.write_text(out)
        played = (search_default(load_rules("eleven")) if name == "pimc" else REGISTRY[name])
        assert load(str(path)).params == played.params
        assert load(str(path)).base_policy == REGISTRY[name].base_policy


def test_pimc_shows_what_its_name_plays_in_each_profile(tmp_path, capsys):
    """``pimc`` by name plays its profile's shipped defaults (strategies/search_defaults.toml):
    under standard a value model at the leaves, shown with its model file, and the output
    loads as a strategy file that plays the same; under a profile with no entry the registry's
    parameters (rollouts to the end)."""
    from sim.core.profiles import load_rules
    from strategies.per_profile import search_default, value_file
    from strategies.search_defaults import profile_search, search_profiles

    assert "standard" in search_profiles()
    for profile in PROFILES:
        code, out, err = cli(capsys, "strategies", "show", "pimc", "--rules", profile)
        assert code == 0, err
        path = tmp_path / f"pimc-{profile}.toml"
        path.write_text(out)
        shown = load(str(path))
        played = search_default(load_rules(profile))
        assert shown.params == played.params and shown.model == played.model
        shipped = profile_search(profile)
        if shipped is None:
            assert shown.params == REGISTRY["pimc"].params and not shown.model
        else:
            assert {k: shown.params[k] for k in shipped.params} == shipped.params
            assert shown.params["leaf"] == 1 and shown.model == str(value_file(profile))
            assert shipped.curve and all(p.ms_per_decision > 0 for p in shipped.curve)


def test_strategies_show_names_the_search_base_policy(tmp_path, capsys):
    """pimc's help names its base policy, what it may be, and what it resolves to under the
    rules asked for."""
    code, out, err = cli(capsys, "strategies", "show", "pimc")
    assert code == 0, err
    assert f'base_policy = "{REGISTRY["pimc"].base_policy}"' in out
    assert "tactician, cautious, tuned" in out and "rollout = 3" in out
    path = tmp_path / "search.toml"
    path.write_text('base = "pimc"\nbase_policy = "tuned"\n')
    code, out, err = cli(capsys, "strategies", "show", str(path), "--rules", "eleven")
    assert code == 0, err
    assert "# base_policy under eleven: the tactician with" in out
    custom = tmp_path / "custom.toml"
    custom.write_text('base = "standard"\ndecks = 6\n')
    code, out, err = cli(capsys, "strategies", "show", str(path), "--rules", str(custom))
    assert code == 0, err
    assert "has none for these rules" in out  # said, not failed: showing is not playing


def _search_file(tmp_path, body: str) -> str:
    (tmp_path / "search-base.toml").write_text('base = "pimc"\nworlds = 2\n')
    path = tmp_path / "bad-search.toml"
    path.write_text(f'base = "pimc"\n{body}\n')
    return str(path)


BAD_SEARCH = {
    "not a strategy": ('base_policy = "bogus"', "base_policy 'bogus' is not a strategy"),
    "greedy": ('base_policy = "greedy"', "'greedy' is not tactician-family"),
    "a search player": ('base_policy = "pimc"', "'pimc' is not tactician-family"),
    "the oracle": ('base_policy = "oracle"', "'oracle' is not tactician-family"),
    "a search player's file": ('base_policy = "search-base.toml"',
                               "builds on 'pimc', which is not tactician-family"),
    "no such file": ('base_policy = "missing.toml"', "missing.toml does not exist"),
    "not a name": ("base_policy = 3", "base_policy must be a strategy name or file"),
    "a bad base file": ('base_policy = "bad-search.toml"', "builds on 'pimc'"),
    "no worlds": ("worlds = 0", "parameter 'worlds' = 0 is outside 1..256"),
    "negative worlds": ("worlds = -4", "parameter 'worlds' = -4 is outside 1..256"),
    "fractional worlds": ("worlds = 0.5", "parameter 'worlds' must be a whole number"),
    "negative race": ("race = -1", "parameter 'race' = -1 is outside 0..256"),
    "negative prune": ("prune = -0.5", "parameter 'prune' = -0.5 is outside 0..10"),
    "no such inference": ("infer = 3", "parameter 'infer' = 3 is outside 0..2"),
    "no soft draws": ("infer_draws = 0", "parameter 'infer_draws' = 0 is outside 1..64"),
    "negative slack": ("infer_slack = -1", "parameter 'infer_slack' = -1 is outside 0..1"),
}


@pytest.mark.parametrize("case", list(BAD_SEARCH))
def test_bad_search_input_is_one_line_and_exit_2(case, tmp_path, capsys):
    """A base policy that is not a (tactician-family) strategy, or a budget of 0 or below: one
    line naming the file and the mistake, exit 2, before any game is played, from every
    command that takes a strategy."""
    body, says = BAD_SEARCH[case]
    path = _search_file(tmp_path, body)
    for command in (["strategies", "show", path],
                    ["simulate", "--games", "2", "--team0", path, "--out-dir", str(tmp_path),
                     "--name", "run"],
                    ["compare", path, "cautious", "--games", "2", "--runs-dir",
                     str(tmp_path / "runs")]):
        code, _, err = cli(capsys, *command)
        assert code == 2, (command, err)
        assert err.startswith("handfoot: error: ") and says in err, err
        assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "run").exists()


def test_a_base_policy_only_for_search_players(tmp_path, capsys):
    path = tmp_path / "t.toml"
    path.write_text('base = "tactician"\nbase_policy = "cautious"\n')
    code, _, err = cli(capsys, "strategies", "show", str(path))
    assert code == 2 and "strategy 'tactician' takes no base_policy" in err
    assert len(err.strip().splitlines()) == 1


def test_a_rule_file_without_a_tuned_player_needs_a_named_base(tmp_path, capsys):
    """``tuned`` as the base (pimc's default, or named) under a rule file that is no profile:
    no tuned player exists, so the search is refused in one line (exit 2) that names the
    default and says how to name a base; a named base plays."""
    custom = tmp_path / "custom.toml"
    custom.write_text('base = "standard"\ndecks = 6\n')
    path = tmp_path / "search.toml"
    path.write_text('base = "pimc"\nbase_policy = "tuned"\nworlds = 2\n')
    for spec in ("pimc", str(path)):
        for command in (["simulate", "--games", "2", "--team0", spec, "--rules", str(custom),
                         "--out-dir", str(tmp_path), "--name", "run"],
                        ["compare", spec, "cautious", "--games", "2", "--rules", str(custom),
                         "--runs-dir", str(tmp_path / "runs")]):
            code, _, err = cli(capsys, *command)
            assert code == 2, err
            assert "base policy 'tuned'" in err and 'base_policy = "cautious"' in err, err
            assert "(pimc's default, the tactician tuned for the rules being played" in err
            assert len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "run").exists()
    path.write_text('base = "pimc"\nbase_policy = "cautious"\nworlds = 2\n')
    code, _, err = cli(capsys, "simulate", "--games", "2", "--jobs", "1", "--team0", str(path),
                       "--rules", str(custom), "--out-dir", str(tmp_path), "--name", "named")
    assert code == 0, err


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
