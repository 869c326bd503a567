"""Cards (R-C) and the deal (R-D, R-X4, R-X8, R-X16) through the engine's own functions."""

from __future__ import annotations

import numpy as np

from sim.core import cards
from sim.core.rules import Rules
from sim.engine.deal import dealer_of, setup_deal
from sim.engine.layout import S_PILE_N, S_STOCK_N
from sim.play.api import Table, make_table

RULES = Rules()


def dealt(seed: int, game: int = 0, deal: int = 1) -> Table:
    table = make_table(RULES, ["greedy"] * 4)
    setup_deal(table.g, table.t, seed, game, deal)
    return table


def test_R_C1_five_decks_of_54_make_270_cards():
    assert cards.deck_counts(1).sum() == 54
    assert cards.deck_counts(5).sum() == 270
    assert RULES.total_cards == 270


def test_R_C2_kind_counts_in_five_decks():
    deck = cards.deck_counts(5)
    for rank in cards.NATURAL_NAMES:
        assert deck[cards.KIND_INDEX[rank]] == 20
    assert deck[cards.TWO] == 20
    assert deck[cards.JOKER] == 10
    assert deck[cards.RED3] == 10
    assert deck[cards.BLACK3] == 10


def test_R_C3_card_values():
    value = {name: int(cards.CARD_VALUE[i]) for i, name in enumerate(cards.KIND_NAMES)}
    assert value["JK"] == 50
    assert value["2"] == value["A"] == 20
    assert all(value[r] == 10 for r in ("8", "9", "10", "J", "Q", "K"))
    assert all(value[r] == 5 for r in ("4", "5", "6", "7"))
    assert value["B3"] == 5
    assert value["R3"] == 0  # R-S3: a red three scores only as a red three


def test_R_D1_partners_sit_opposite():
    from sim.engine.legal import team_of

    table = dealt(1)
    assert [team_of(table.g, s) for s in range(4)] == [0, 1, 0, 1]


def test_R_D2_hands_and_feet_of_13():
    for seed in range(20):
        st = dealt(seed).game[0]
        assert list(st["hand"][:4].sum(axis=1)) == [13] * 4
        assert list(st["foot"][:4].sum(axis=1)) == [13] * 4


def test_R_D3_pile_starts_with_an_ordinary_card_and_165_in_stock():
    """R-D3: never a red three or a wild on the pile; a black three may start it."""
    tops = set()
    for seed in range(300):
        st = dealt(seed).game[0]
        assert st["sc"][S_PILE_N] == 1
        assert st["sc"][S_STOCK_N] == 165
        top = int(st["pile"][0])
        assert top not in (cards.RED3, cards.TWO, cards.JOKER)
        tops.add(top)
        total = st["hand"][:4].sum(axis=0) + st["foot"][:4].sum(axis=0)
        total = total + np.bincount(st["stock"][:165], minlength=15)
        total[top] += 1
        assert (total == st["deck"]).all()
    assert cards.BLACK3 in tops


def test_R_X4_buried_starting_cards_go_to_uniform_positions():
    """R-X4: a turned red three or wild lands at a uniformly random stock position.

    We recreate the deal's shuffle to know the first turned card, check that the engine put it
    where the deal stream's next number says, and that those positions spread evenly: the mean
    relative position of a uniform placement is 0.5, with standard deviation 0.289/sqrt(n)."""
    from sim.engine import rng

    table = make_table(RULES, ["greedy"] * 4)
    st = table.game[0]
    shoe0 = np.repeat(np.arange(15, dtype=np.int8), st["deck"])
    positions = []
    for seed in range(3000):
        shoe = shoe0.copy()
        r = np.array([rng.key(seed, 0, 1, rng.STREAM_DEAL), 0], dtype=np.uint64)
        rng.shuffle(r, rng.STREAM_DEAL, shoe, len(shoe))
        first, second = int(shoe[165]), int(shoe[164])
        if first not in (cards.RED3, cards.TWO, cards.JOKER):
            continue
        if second in (cards.RED3, cards.TWO, cards.JOKER):
            continue  # a second burial would shift the first card's position
        pos = rng.below(r, rng.STREAM_DEAL, 166)
        if pos == 165:
            continue  # buried on top: turned again at once
        setup_deal(st, table.t, seed, 0, 1)
        assert st["stock"][pos] == first
        positions.append(pos / 164)
    n = len(positions)
    assert n > 300
    assert abs(float(np.mean(positions)) - 0.5) < 4 * 0.2887 / np.sqrt(n)


def test_R_D4_R_D5_R_X16_dealer_rotates_and_left_of_dealer_starts():
    assert [dealer_of(4, d) for d in (1, 2, 3, 4)] == [3, 0, 1, 2]
    from sim.play.api import play

    rec = play(RULES, ["greedy"] * 4, seed=3, first_game=0, n_games=2)
    assert list(rec["dealer"]) == [3, 0, 1, 2, 3, 0, 1, 2]
    assert list(rec["deal"]) == [1, 2, 3, 4, 1, 2, 3, 4]


def test_R_D4_first_turn_is_left_of_dealer_in_traces(engine_traces):
    for game in engine_traces:
        dealer = None
        expect_first = False
        for line in game:
            if line["type"] == "deal":
                dealer = line["dealer"]
                expect_first = True
            elif expect_first and "seat" in line:
                assert line["seat"] == (dealer + 1) % 4
                expect_first = False


def test_R_X8_starting_hand_red_threes_exposed_before_that_players_first_turn(engine_traces):
    """R-X8: a red3 line for a starting Hand comes in that seat's first turn, not at the deal."""
    seen = 0
    for game in engine_traces:
        for i, line in enumerate(game):
            if line["type"] != "deal":
                continue
            for seat, hand in enumerate(line["hands"]):
                if "R3" not in hand:
                    continue
                first = next(x for x in game[i + 1 :] if x.get("seat") == seat)
                assert first["type"] == "red3" and first["count"] == hand.count("R3")
                seen += 1
    assert seen > 0
