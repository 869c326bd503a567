"""The learned player's games pass the independent trace checker (tests/trace_checker) in every
profile and with 3 and 6 players, with its model's choices among them; a rule shape with no
shipped model is refused in one line, and plays a model fitted for it, named in a strategy
file.

A profile plays its shipped model (strategies/learned/models/<profile>.json) where there is
one, else (while the models are being made) a model with random weights for its rules: the
checker checks the rules, not the model. The 3- and 6-player tables are rule files, with
other rules ids and no tuned player: they play a random model for their rules and cautious as
the base policy.
"""

from __future__ import annotations

import pytest

from sim.core.enums import SearchStat
from sim.core.profiles import PROFILES
from sim.core.rules import replace
from sim.play.api import make_table, play
from sim.runs.trace import trace_games
from strategies.per_profile import learned_profiles
from strategies.registry import REGISTRY, load
from tests.learned_models import learned_file
from tests.runhelpers import cli
from tests.trace_checker import check_trace

SHAPES = {name: rules for name, (rules, _) in PROFILES.items()}
SHAPES["3 players"] = replace(PROFILES["standard"][0], players=3, partnerships=3, decks=4)
SHAPES["6 players"] = replace(PROFILES["standard"][0], players=6, partnerships=3, decks=7)


def learned_for(shape: str, folder):
    """The learned player of a shape: the shipped model of a profile that has one, else a
    random model for the rules (base policy tuned in a profile, cautious in a rule file)."""
    if shape in learned_profiles():
        return REGISTRY["learned"]
    custom = shape not in PROFILES
    return load(str(learned_file(folder, SHAPES[shape], name=shape.replace(" ", "-"),
                                 base_policy="cautious" if custom else "tuned")))


@pytest.mark.parametrize("shape", list(SHAPES))
def test_learned_games_pass_the_checker(shape, tmp_path):
    rules = SHAPES[shape]
    learned = learned_for(shape, tmp_path)
    seats = [learned if s % 2 == 0 else "greedy" for s in range(rules.players)]
    lines = list(trace_games(rules, seats, 17, 0, 2))
    assert check_trace(lines) == []
    assert sum(line["type"] == "deal" for line in lines) == 2 * rules.deals_per_game
    # The same games, untraced: the model's choices were among the moves checked.
    table = make_table(rules, seats)
    play(rules, seats, 17, 0, 2, table=table)
    tallies = table.w["search_stats"]
    assert tallies[:, SearchStat.SEARCHED].sum() > 100, tallies
    assert tallies[:, SearchStat.LEFT_BASE].sum() > 0, tallies


def test_a_rule_file_without_a_shipped_model_is_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "three.toml").write_text("players = 3\npartnerships = 3\n")
    code, _, err = cli(capsys, "compare", "learned", "greedy", "--rules",
                       str(tmp_path / "three.toml"), "--games", "2", "--jobs", "1",
                       "--runs-dir", str(tmp_path / "runs"), "--reports-dir",
                       str(tmp_path / "reports"))
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error: learned:"), err
    assert "not a named profile" in lines[0] and "handfoot learn" in lines[0], lines[0]


def test_a_strategy_file_plays_its_own_model_under_a_rule_file(tmp_path, capsys):
    (tmp_path / "three.toml").write_text("players = 3\npartnerships = 3\n")
    rules = SHAPES["3 players"]
    strategy = learned_file(tmp_path, rules, name="mine", base_policy="cautious")
    code, out, err = cli(capsys, "compare", str(strategy), "greedy", "--rules",
                         str(tmp_path / "three.toml"), "--games", "3", "--jobs", "1",
                         "--runs-dir", str(tmp_path / "runs"), "--reports-dir",
                         str(tmp_path / "reports"))
    assert code == 0, err
    assert "win" in out
    info = load(str(strategy))
    assert info.model == str((tmp_path / "mine-model.json").resolve())
