"""The rule for when holding pays: found where it is planted, checked on held-out games, and
not claimed from noise (analysis.statistics.hold_rule, analysis.reports.hold_rule)."""

from __future__ import annotations

import numpy as np

from analysis.reports import hold_rule as words_of
from analysis.statistics.hold_rule import Leaf, _range, find_rule
from analysis.statistics.holding import (
    F_DEAL,
    F_FEWEST_OPPONENT,
    F_GAME,
    F_HELD,
    F_HOLD,
    F_MELD,
    F_ON_FOOT,
    F_PARTNER_ON_FOOT,
    F_WILDS_HELD,
    N_FEATURES,
    hold_effect,
)


def _rows(effect, n: int = 8_000, games: int = 400, seed: int = 5) -> np.ndarray:
    """Branched positions with random situations and holding minus melding of
    ``effect(rows)`` plus noise of sd 300 (a position's deal margin is that noisy)."""
    rng = np.random.default_rng(seed)
    rows = np.zeros((n, N_FEATURES))
    rows[:, F_GAME] = rng.integers(0, games, n)
    rows[:, F_DEAL] = rng.integers(1, 5, n)
    rows[:, F_ON_FOOT] = rng.integers(0, 2, n)
    rows[:, F_HELD] = rng.integers(1, 20, n)
    rows[:, F_WILDS_HELD] = rng.integers(1, 5, n)
    rows[:, F_PARTNER_ON_FOOT] = rng.integers(0, 2, n)
    rows[:, F_FEWEST_OPPONENT] = rng.integers(1, 30, n)
    rows[:, F_MELD] = rng.normal(0, 500, n)
    rows[:, F_HOLD] = rows[:, F_MELD] + effect(rows) + rng.normal(0, 300, n)
    return rows


def test_a_planted_rule_is_found_and_holds_out_of_sample():
    # holding pays 150 on the Foot and costs 150 on the Hand
    leaves = find_rule(_rows(lambda r: np.where(r[:, F_ON_FOOT] == 1, 150.0, -150.0)))
    pays = [leaf for leaf in leaves if leaf.verdict == "pays"]
    costs = [leaf for leaf in leaves if leaf.verdict == "costs"]
    assert pays and all("on the Foot" in leaf.words for leaf in pays)
    assert costs and all("on the Hand" in leaf.words for leaf in costs)
    # the held-out figure is measured on the odd games alone: 150 within its interval
    for leaf in pays:
        assert leaf.held_out.low < 150 < leaf.held_out.high
    text = words_of.words(leaves, "standard, learned")
    assert "Holding pays on the Foot" in text and "It costs most" in text


def test_no_rule_is_claimed_from_noise():
    leaves = find_rule(_rows(lambda r: np.zeros(len(r))))
    assert leaves
    assert all(leaf.verdict == "no rule" for leaf in leaves)
    text = words_of.words(leaves, "simpson, tuned")
    assert "No situation where holding pays held out of sample." in text
    assert "costs most" not in text


def test_a_fitted_split_the_held_out_games_do_not_repeat_is_no_rule():
    d = np.array([-100.0, 100.0] * 50)
    games = np.arange(100)
    fitted = hold_effect("rule", "x", d - 200, games)  # clearly costs where fitted
    held_out = hold_effect("rule", "x", d, games)  # straddles zero held out
    assert Leaf("x", fitted, held_out).verdict == "no rule"
    assert Leaf("x", fitted, hold_effect("rule", "x", d - 200, games)).verdict == "costs"


def test_too_few_positions_give_no_rule_and_say_so():
    rows = _rows(lambda r: np.zeros(len(r)), n=40)
    assert find_rule(rows) == []
    assert "Too few branched positions" in words_of.words([], "standard, learned")


def test_splits_read_as_words():
    assert _range(F_HELD, None, 3) == "with at most 3 cards held"
    assert _range(F_HELD, 4, None) == "with 4 or more cards held"
    assert _range(F_ON_FOOT, 1, None) == "on the Foot"
    assert _range(F_DEAL, None, 1) == "in deal 1"
    assert _range(F_DEAL, 3, None) == "from deal 3 on"
    assert _range(F_PARTNER_ON_FOOT, None, -1) == "in individual play"
    assert _range(F_FEWEST_OPPONENT, None, 4) == "when an opponent holds at most 4 cards"


def test_two_splits_on_one_feature_read_as_a_range():
    # holding pays only with 6 to 10 cards held: the tree cuts cards held twice
    leaves = find_rule(_rows(lambda r: np.where((r[:, F_HELD] >= 6) & (r[:, F_HELD] <= 10),
                                                200.0, -100.0)))
    assert "with 6 to 10 cards held" in [leaf.words for leaf in leaves if leaf.verdict == "pays"]
