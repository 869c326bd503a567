"""Holding a wild, decision by decision (analysis.experiments.holding plays the positions,
analysis.statistics.holding measures them, analysis.reports.hold_wild words them): constructed
positions where holding clearly pays and clearly costs are ranked the right way by the
analysis, and the words of the decision-level verdict and of the curve's explanation are
generated from the numbers."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from analysis.experiments import holding as experiment
from analysis.reports import hold_wild
from analysis.statistics import holding
from analysis.statistics.intervals import clustered_mean
from sim.core.cards import deck_counts
from sim.core.rules import Rules
from sim.play import branching as br
from sim.play.positions import FORMAT, PositionError, position_from_dict

CLEAN = ("K", "A", "10", "J", "6")  # ranks of the closed books a team is given
DIRTY = ("Q", "8", "4")


def _team(clean: int, dirty: int, wild: int, melds: list[tuple[str, list[str]]]) -> dict:
    cards, by_rank = [], {}
    for rank in CLEAN[:clean]:
        cards += [rank] * 7
        by_rank[rank] = 1
    for rank in DIRTY[:dirty]:
        cards += [rank] * 6 + ["2"]
        by_rank[rank] = 1
    cards += ["2"] * 7 * wild
    if wild:
        by_rank["W"] = wild
    return {"opened": True, "open_turn": 3, "pickups": 2,
            "melds": [{"rank": r, "cards": c} for r, c in melds],
            "books": {"clean": clean, "dirty": dirty, "wild": wild, "black3": 0},
            "closed_books_by_rank": by_rank, "cards_in_books": cards, "red3": 0}


PILE = ["B3", "B3", "9", "A", "B3", "8", "6", "8", "B3", "9", "7", "6", "4", "K", "4", "B3",
        "A", "6", "4", "8", "4", "8", "5", "A", "6", "8", "4", "B3", "B3", "4", "5", "B3", "7",
        "Q", "7", "B3", "6", "10", "B3"]


def late_in_deal(hand: list[str]):
    """Seat 1 to meld, late in a standard deal (a long pile, about 40 cards left in the stock):
    seat 1 is on its Hand and its partner (seat 3) on the Foot; its partnership has 5 clean
    books, 1 dirty and 1 wild and needs one more dirty book to go out; a meld of six 5s waits
    for a seventh card. Seat 1 sees only its own ``hand``; the other hands, the Feet and the
    stock are imagined anew in every world."""
    rules = Rules()
    teams = [_team(5, 2, 1, [("8", ["8"] * 4), ("9", ["9"] * 6)]),
             _team(5, 1, 1, [("9", ["9"] * 3), ("5", ["5"] * 6), ("J", ["J"] * 6)])]
    hand_counts = [9, len(hand), 3, 9]
    feet = [13, 13, 13, None]
    visible = Counter(hand) + Counter(PILE)
    for team in teams:
        visible.update(team["cards_in_books"])
        for meld in team["melds"]:
            visible.update(meld["cards"])
    unseen = int(deck_counts(rules.decks, rules.jokers_per_deck).sum()) - sum(visible.values())
    stock = unseen - (hand_counts[0] + hand_counts[2] + hand_counts[3]) - 39
    data = {"format": FORMAT, "kind": "view", "seat": 1, "profile": "standard",
            "rules": rules.to_dict(), "seed": 1, "game": 0, "deal": 1, "dealer": 0,
            "turn": 70, "to_play": 1, "decision": "meld", "decider": 1, "asked": False,
            "granted": False, "picked_up": False, "want_out": False, "game_scores": [0, 0],
            "on_foot": [False, False, False, True], "first_turn_done": [True] * 4,
            "foot_turn": [-1, -1, -1, 40],
            "hands": [list(hand) if s == 1 else {"count": n}
                      for s, n in enumerate(hand_counts)],
            "feet": [None if n is None else {"count": n} for n in feet],
            "stock": {"count": stock}, "pile": PILE, "set_aside": [],
            "taken": [[], [], [], []], "known": [[], [], [], []], "teams": teams,
            "lines_laid": 30}
    return position_from_dict(data)


def test_holding_ranks_a_position_where_it_pays_above_one_where_it_costs():
    """The same table, two hands. Both times cautious melds its 9 and puts its 2 on the six
    5s, closing the dirty book its partnership still needs.

    - 7 7 9 2: afterwards it holds 7 7 and must break the pair; holding the 2 keeps one natural
      pair and a wild (a meld ready to take the Hand down into the Foot), and the partner on
      the Foot cannot yet go out and leave seat 1's Hand and Foot to count against them.
      Holding clearly pays.
    - 9 2 K: melding takes the Hand down to one card, discarded, and seat 1 picks up its Foot
      next turn with every book made; holding the 2 keeps it on the Hand. Holding clearly
      costs.
    """
    pays = experiment.position_value(late_in_deal(["7", "7", "9", "2"]), "cautious", worlds=400)
    costs = experiment.position_value(late_in_deal(["9", "2", "K"]), "cautious", worlds=400)
    assert pays.positions == costs.positions == 400
    assert pays.low > 0, pays
    assert costs.high < 0, costs
    assert pays.mean > costs.mean


def test_a_position_without_a_wild_to_meld_is_refused():
    with pytest.raises(PositionError, match="melds no wild"):
        experiment.position_value(late_in_deal(["7", "7", "9", "K"]), "cautious", worlds=8)


def _rows(n: int, rng: np.random.Generator, **fixed: float) -> np.ndarray:
    rows = np.zeros((n, br.N_FEATURES))
    rows[:, br.F_DEAL] = rng.integers(1, 5, n)
    rows[:, br.F_HELD] = rng.integers(2, 14, n)
    rows[:, br.F_WILDS_HELD] = 1
    rows[:, br.F_WILD_BOOKS] = 1
    rows[:, br.F_FEWEST_OPPONENT] = rng.integers(1, 30, n)
    rows[:, br.F_GAME] = rng.integers(0, 400, n)
    rows[:, br.F_MELD] = rng.normal(0, 200, n)
    for name, value in fixed.items():
        rows[:, getattr(br, name)] = value
    return rows


def test_the_verdict_says_where_holding_pays_and_where_it_costs():
    rng = np.random.default_rng(4)
    foot = _rows(3000, rng, F_ON_FOOT=1, F_PARTNER_ON_FOOT=0)
    foot[:, br.F_HOLD] = foot[:, br.F_MELD] + rng.normal(150, 100, len(foot))
    hand = _rows(3000, rng, F_ON_FOOT=0, F_PARTNER_ON_FOOT=1)
    hand[:, br.F_HOLD] = hand[:, br.F_MELD] + rng.normal(-80, 100, len(hand))
    found = holding.effects(np.concatenate([foot, hand]))
    by = {e.group: e for e in found}
    assert by["on the Foot"].low > 100 and by["on the Hand"].high < -50
    assert by["all"].positions == 6000
    text = hold_wild.decisions_verdict(found, "cautious", "standard")[0]
    assert text.startswith("Decision by decision under standard (cautious): ")
    pays = text.split("Holding pays in these situations: ")[1].split(". It costs")[0]
    costs = text.split("It costs most in these: ")[1]
    assert "on the Foot, +" in pays and "partner on the Hand, +" in pays
    assert "on the Hand, -" in costs and "partner on the Foot, -" in costs
    e = by["on the Foot"]
    assert f"{e.mean:+,.0f} points per decision (95% CI {e.low:+,.0f} to {e.high:+,.0f}, " \
           f"{e.positions:,} decisions)" in pays


def test_intervals_are_clustered_by_game():
    """Positions of one game move together: the interval is wider than if they did not."""
    rng = np.random.default_rng(2)
    games = np.repeat(np.arange(200), 20)
    values = np.repeat(rng.normal(0, 100, 200), 20) + rng.normal(0, 10, len(games))
    mean, low, high = clustered_mean(values, games)
    naive = 1.96 * values.std(ddof=1) / np.sqrt(len(values))
    assert high - low > 3 * 2 * naive
    assert low < mean < high


def test_the_curve_is_explained_from_the_numbers():
    """Holding with 2 or more wilds in hand clearly costs less than with 1: the settings that
    hold more should cost less, and the words say whether the curve shows it."""
    rng = np.random.default_rng(9)
    one = _rows(4000, rng, F_ON_FOOT=0, F_WILDS_HELD=1)
    one[:, br.F_HOLD] = one[:, br.F_MELD] + rng.normal(-60, 50, len(one))
    two = _rows(2000, rng, F_ON_FOOT=0, F_WILDS_HELD=2)
    two[:, br.F_HOLD] = two[:, br.F_MELD] + rng.normal(10, 50, len(two))
    c = holding.Collected("standard", "cautious", Rules(), np.concatenate([one, two]), 1000)

    def game(*diffs: float) -> list[dict]:
        return [{"value": str(v), "diff_deal": d} for v, d in zip((1, 2, 3), diffs,
                                                                  strict=True)]

    agrees = hold_wild.curve(c, game(-120, -100, -90))
    assert "holding 1 -120, holding 2 -100, holding 3 -90" in agrees
    assert "holding more wilds back costs less, not more" in agrees
    assert "6,000 decisions" in agrees and "1.50 decisions per deal" in agrees
    assert "So holding more should cost less than holding 1, as the curve shows." in agrees
    opposite = hold_wild.curve(c, game(-90, -100, -120))
    assert "each wild more held back costs more" in opposite
    assert "the curve shows the opposite (holding 3 minus holding 1: -30 points" in opposite
