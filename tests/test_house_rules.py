"""Every knob of docs/rules.md section 11: its effect in a constructed situation, beside the same
situation under the standard value behaving differently (R-V1..R-V11)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core import cards
from sim.core.enums import Book, Ending
from sim.core.profiles import STANDARD
from sim.core.rules import replace
from sim.engine.deal import setup_deal
from sim.engine.layout import (
    S_DEAL,
    S_ENDED,
    S_FROZEN_N,
    S_GRANTED,
    S_OUT_SEAT,
    S_PILE_N,
    S_STOCK_N,
)
from sim.engine.legal import books_allow_out, entry_legal, may_go_out, taken_count, team_of
from sim.engine.meldrules import place_entry
from sim.engine.reasons import (
    E_BLACK3_WILD,
    E_COMPLETE_FIRST,
    E_NEEDS_FINAL_DISCARD,
    E_NO_CONCEALED_BOOK,
    E_ONTO_BOOK,
    E_PILE_BLOCKED,
    E_RATIO,
    E_RED3_FIRST,
    E_THREES,
    E_TOO_BIG,
    E_TOO_SMALL,
    E_UNDER_MINIMUM,
    E_WILD_MELD,
    E_WILD_TOP,
    OK,
)
from sim.engine.scoring import N_PARTS, P_BOOKS, P_GRAB22, P_OUT, P_RED3, score_parts
from sim.play.api import Table, make_table
from tests.position import entries, held, position

K, W, B3 = 9, 11, 12


def lay(arr, seat, *melds):
    e, n = entries(*melds)
    return arr.lay(seat, e, n)


def pick(arr, seat, *melds):
    e, n = entries(*melds)
    return arr.pickup(seat, e, n)


def parts(arr, team):
    out = np.zeros(N_PARTS, dtype=np.int64)
    score_parts(arr.g, team, out)
    return out


def dealt(rules, seed: int) -> Table:
    """A table with deal 1 of game 0 dealt from ``seed``."""
    table = make_table(rules, ["greedy"] * rules.players)
    setup_deal(table.g, table.t, seed, 0, 1)
    return table


def entry_reason(arr, team, rank, nat, twos, jokers):
    """The refusal code of one entry on scratch copies of the partnership's table."""
    g = arr.g
    return place_entry(g, g["meld"][team].copy(), g["books"][team].copy(),
                       g["rank_books"][team].copy(), g["booked"][team].copy(), rank, nat,
                       twos, jokers, 0)


def both(**knobs):
    """The standard rules and the same rules with the knobs changed."""
    return STANDARD, replace(STANDARD, **knobs)


def test_knob_players_and_partnerships_R_V2():
    six = replace(STANDARD, players=6, partnerships=2, decks=7)
    arr = position(rules=six, strategies=("greedy",) * 6)
    assert [team_of(arr.g, s) for s in range(6)] == [0, 1, 0, 1, 0, 1]
    arr = position(rules=six, strategies=("greedy",) * 6, on_foot=(0, 2),
                   hands={0: ["9", "9"]})
    assert not may_go_out(arr.g, 0)  # R-V9: the third partner (seat 4) is not on the Foot
    arr = position(rules=six, strategies=("greedy",) * 6, on_foot=(0, 2, 4),
                   hands={0: ["9", "9"]})
    assert may_go_out(arr.g, 0)
    solo = replace(STANDARD, partnerships=4)
    arr = position(rules=solo, on_foot=(0,), hands={0: ["9", "9"]})
    assert may_go_out(arr.g, 0)  # individual play: nobody to wait for or ask
    arr = position(on_foot=(0,), hands={0: ["9", "9"]})
    assert not may_go_out(arr.g, 0)


@pytest.mark.parametrize("knob, value", [("decks", 4), ("jokers_per_deck", 0),
                                         ("hand_size", 11), ("foot_size", 15)])
def test_knob_shoe_and_deal_sizes_R_V1(knob, value):
    for rules in both(**{knob: value}):
        st = dealt(rules, 3).game[0]
        assert st["deck"].sum() == rules.total_cards
        assert st["deck"][cards.JOKER] == rules.decks * rules.jokers_per_deck
        assert list(st["hand"][:4].sum(axis=1)) == [rules.hand_size] * 4
        assert list(st["foot"][:4].sum(axis=1)) == [rules.foot_size] * 4
        expected = rules.total_cards - 4 * (rules.hand_size + rules.foot_size) - 1
        assert st["sc"][S_STOCK_N] == expected


def test_knob_opening_minimums():
    standard, low = both(opening_minimums=(30, 30, 30, 30))
    assert lay(position(hands={0: ["K"] * 3 + ["4"]}, rules=standard), 0,
               ("K", ["K"] * 3)) == E_UNDER_MINIMUM
    assert lay(position(hands={0: ["K"] * 3 + ["4"]}, rules=low), 0, ("K", ["K"] * 3)) == OK


def test_knob_deal4_concealed_book_R_V5():
    standard, sask = both(deal4_concealed_book=True)
    hand = ["K"] * 7 + ["A"] * 7 + ["4"]
    assert lay(position(hands={0: hand}, deal=4, rules=standard), 0, ("K", ["K"] * 7)) \
        == E_UNDER_MINIMUM  # 70 points < 150
    assert lay(position(hands={0: hand}, deal=4, rules=sask), 0, ("K", ["K"] * 7)) == OK
    # points alone do not open: 140 + 30 without a 7-card entry starting a meld
    arr = position(hands={0: hand}, deal=4, rules=sask)
    assert lay(arr, 0, ("A", ["A"] * 6), ("K", ["K"] * 3)) == E_NO_CONCEALED_BOOK
    # and never by a pick-up
    arr = position(hands={0: ["K"] * 6 + ["4"]}, pile=["K"], deal=4, rules=sask)
    assert pick(arr, 0, ("K", ["K"] * 7)) == E_NO_CONCEALED_BOOK


def test_knob_starting_card_R_D3_R_V10():
    tops = {}
    for mode in ("bury", "keep", "none"):
        rules = replace(STANDARD, starting_card=mode)
        arr = make_table(rules, ["greedy"] * 4)
        seen = set()
        for seed in range(300):
            setup_deal(arr.g, arr.t, seed, 0, 1)
            n = int(arr.g["sc"][S_PILE_N])
            seen.add(int(arr.g["pile"][0]) if n else -1)
        tops[mode] = seen
    assert not tops["bury"] & {cards.RED3, cards.TWO, cards.JOKER, -1}
    assert tops["keep"] & {cards.RED3, cards.TWO, cards.JOKER}
    assert tops["none"] == {-1}


def test_knob_pickup_size_and_rule():
    pile = ["5"] * 9 + ["K"]
    for rules, taken in ((STANDARD, 7), (replace(STANDARD, pickup_size=5), 5),
                         (replace(STANDARD, pickup_rule="whole"), 10),
                         (replace(STANDARD, pickup_rule="exact"), 7)):
        arr = position(hands={0: ["K", "K", "4"]}, pile=pile, opened=(0,), rules=rules)
        assert taken_count(arr.g) == taken
        assert pick(arr, 0, ("K", ["K"] * 3)) == OK
        assert held(arr, 0)["5"] == taken - 1
    exact = replace(STANDARD, pickup_rule="exact")
    short = ["5"] * 5 + ["K"]
    assert pick(position(hands={0: ["K", "K", "4"]}, pile=short, opened=(0,), rules=exact),
                0, ("K", ["K"] * 3)) == E_PILE_BLOCKED  # fewer than 7 in the pile
    assert pick(position(hands={0: ["K", "K", "4"]}, pile=short, opened=(0,)),
                0, ("K", ["K"] * 3)) == OK


def test_knob_wild_top_pickup():
    standard, simpson = both(wild_top_pickup=False)
    for rules, expected in ((standard, OK), (simpson, E_WILD_TOP)):
        arr = position(hands={0: ["2", "2", "4"]}, pile=["5", "2"], opened=(0,), rules=rules)
        assert pick(arr, 0, ("W", ["2"] * 3)) == expected


def test_knob_wild_ratio_and_max_wilds():
    standard, more = both(wild_ratio="more")
    capped = replace(more, max_wilds_per_meld=2)
    hand = ["K"] * 5 + ["2"] * 3 + ["4"]
    assert lay(position(hands={0: hand}, opened=(0,), rules=standard), 0,
               ("K", ["K"] * 4 + ["2"] * 3)) == E_RATIO  # 4 < 2 x 3
    assert lay(position(hands={0: hand}, opened=(0,), rules=more), 0,
               ("K", ["K"] * 4 + ["2"] * 3)) == OK  # 4 > 3
    assert lay(position(hands={0: hand}, opened=(0,), rules=replace(more, books="grow")), 0,
               ("K", ["K"] * 5 + ["2"] * 3)) == OK
    assert lay(position(hands={0: hand}, opened=(0,), rules=replace(capped, books="grow")), 0,
               ("K", ["K"] * 5 + ["2"] * 3)) == E_RATIO  # a third wild over the cap


def test_knob_books_grow_R_V3():
    standard, grow = both(books="grow")
    table = [(0, "K", ["K"] * 7)]
    arr = position(hands={0: ["K", "2", "4", "4"]}, melds=table, opened=(0,), rules=standard)
    assert not entry_legal(arr.g, arr.w, 0, K, 1, 0, 0)  # a closed book takes nothing
    assert entry_reason(arr, 0, K, 1, 0, 0) == E_TOO_BIG
    arr = position(hands={0: ["K", "2", "4", "4"]}, opened=(0,), rules=grow)
    assert lay(arr, 0, ("K", ["K"])) == E_TOO_SMALL  # a new meld still needs 3 cards
    arr = position(hands={0: ["K"] * 8 + ["2", "4", "4"]}, opened=(0,), rules=grow)
    assert lay(arr, 0, ("K", ["K"] * 7)) == OK
    assert arr[0]["books"][0, Book.CLEAN] == 1
    assert lay(arr, 0, ("K", ["K"])) == OK  # the book grows to 8
    assert lay(arr, 0, ("K", ["2"])) == OK  # a wild within the ratio: now dirty
    assert arr[0]["books"][0, Book.CLEAN] == 0 and arr[0]["books"][0, Book.DIRTY] == 1
    assert arr[0]["meld"][0, K].sum() == 9  # still one meld of the rank (R-V3)
    # R-PU4 does not apply: top + pair join the unfinished meld
    arr = position(hands={0: ["8", "8", "4"]}, pile=["8"], melds=[(0, "8", ["8"] * 5)],
                   opened=(0,), rules=grow)
    assert pick(arr, 0, ("8", ["8"] * 3)) == OK
    arr = position(hands={0: ["8", "8", "4"]}, pile=["8"], melds=[(0, "8", ["8"] * 5)],
                   opened=(0,), rules=standard)
    assert pick(arr, 0, ("8", ["8"] * 3)) == E_COMPLETE_FIRST


def test_knob_books_naturals_R_V4():
    standard, eleven = both(books="naturals")
    for rules, expected in ((standard, E_ONTO_BOOK), (eleven, OK)):
        arr = position(hands={0: ["K"] * 9 + ["4"]}, opened=(0,), rules=rules)
        assert lay(arr, 0, ("K", ["K"] * 7)) == OK
        e, n = entries(("K", ["K", "K"]))
        e[0, 4] = 1  # onto the closed book
        assert arr.lay(0, e, n) == expected
    arr = position(hands={0: ["K"] * 7 + ["2", "4"]}, opened=(0,), rules=eleven)
    assert lay(arr, 0, ("K", ["K"] * 7)) == OK
    e, n = entries(("K", ["2"]))
    e[0, 4] = 1
    assert arr.lay(0, e, n) == E_ONTO_BOOK  # never a wild onto a closed book
    # naturals taking an unfinished meld past 7 close the book and join it
    arr = position(hands={0: ["K"] * 4 + ["4"]}, melds=[(0, "K", ["K"] * 5)], opened=(0,),
                   rules=eleven)
    assert lay(arr, 0, ("K", ["K"] * 4)) == OK
    assert arr[0]["books"][0, Book.CLEAN] == 1 and arr[0]["booked"][0, K] == 9


def test_knob_wild_melds():
    standard, none = both(wild_melds=False, out_wild_books=(0, 0, 0, 0))
    for rules, expected in ((standard, OK), (none, E_WILD_MELD)):
        arr = position(hands={0: ["2", "2", "JK", "4"]}, opened=(0,), rules=rules)
        assert lay(arr, 0, ("W", ["2", "2", "JK"])) == expected


def test_knob_black3_melds_R_V7():
    standard, brouillette = both(black3_melds=True)
    for rules, expected in ((standard, E_THREES), (brouillette, OK)):
        arr = position(hands={0: ["B3"] * 7 + ["4"]}, opened=(0,), rules=rules)
        assert lay(arr, 0, ("B3", ["B3"] * 7)) == expected
    assert arr[0]["melded_value"][0] == -35  # -5 each even when melded
    assert arr[0]["books"][0, Book.BLACK3] == 1
    assert parts(arr, 0)[P_BOOKS] == brouillette.dirty_book_bonus
    books = arr[0]["books"][0].copy()
    books[Book.CLEAN] = 1
    books[Book.DIRTY] = 2
    books[2] = 1
    assert books_allow_out(arr.g, books)  # a black-three book counts as clean (R-G1)
    arr = position(hands={0: ["B3"] * 3 + ["2", "4"]}, opened=(0,), rules=brouillette)
    assert lay(arr, 0, ("B3", ["B3"] * 3 + ["2"])) == E_BLACK3_WILD  # never with wilds


def test_knob_red3_rule_R_V6():
    standard, discard_rule = both(red3_rule="discard", red3_penalty=300)
    for rules in (standard, discard_rule):
        arr = position(hands={0: ["4", "9", "Q"]}, stock=["R3", "5", "6", "7"], pile=["B3"],
                       opened=(0,), rules=rules)
        arr.play_turn(0)
        if rules is standard:
            assert arr[0]["red3"][0] == 1 and held(arr, 0)["R3"] == 0
        else:
            assert arr[0]["red3"][0] == 0
            assert arr[0]["pile"][arr[0]["sc"][S_PILE_N] - 1] == cards.RED3  # discarded at once
    arr = position(hands={0: ["R3", "4", "9"]}, rules=discard_rule)
    assert arr.discard(0, 0) == E_RED3_FIRST
    arr = position(hands={0: ["R3", "4"]}, feet={0: ["R3"] + ["4"] * 10}, rules=discard_rule)
    assert parts(arr, 0)[P_RED3] == -600  # caught in Hand and Foot


@pytest.mark.parametrize("knob, part, value", [
    ("red3_bonus", P_RED3, 250), ("clean_book_bonus", P_BOOKS, 123),
    ("dirty_book_bonus", P_BOOKS, 77), ("wild_book_bonus", P_BOOKS, 999),
    ("going_out_bonus", P_OUT, 42), ("red3_penalty", P_RED3, 55)])
def test_knob_bonuses_R_S(knob, part, value):
    books = {0: (1, 0, 0)} if knob == "clean_book_bonus" else \
        {0: (0, 1, 0)} if knob == "dirty_book_bonus" else {0: (0, 0, 1)}
    results = []
    for rules in both(**{knob: value}):
        feet = {0: ["R3"] + ["4"] * 12} if knob == "red3_penalty" else None
        arr = position(hands={0: ["4"]}, books=books, rules=rules, feet=feet)
        arr[0]["red3"][0] = 1 if knob == "red3_bonus" else 0
        arr[0]["sc"][S_OUT_SEAT] = 0 if knob == "going_out_bonus" else -1
        results.append(int(parts(arr, 0)[part]))
    standard_value = getattr(STANDARD, knob)
    sign = -1 if knob == "red3_penalty" else 1
    assert results[1] - results[0] == sign * (value - standard_value)


def test_knob_books_to_go_out_by_deal():
    _, rules = both(out_clean_books=(2, 2, 2, 4), out_dirty_books=(2, 2, 2, 4))
    arr = position(rules=rules)
    books = np.array([2, 2, 1, 0], dtype=np.int32)
    assert books_allow_out(arr.g, books)
    arr[0]["sc"][S_DEAL] = 4
    assert not books_allow_out(arr.g, books)  # deal 4 needs 4 + 4
    assert books_allow_out(position(deal=4).g, books)


def test_knob_final_discard_required():
    standard, simpson = both(final_discard_required=True)
    for rules, expected in ((standard, OK), (simpson, E_NEEDS_FINAL_DISCARD)):
        arr = position(hands={0: ["9", "9", "9"]}, on_foot=(0, 2), opened=(0,),
                       books={0: (2, 2, 1)}, rules=rules)
        arr[0]["sc"][S_GRANTED] = 1
        assert lay(arr, 0, ("9", ["9"] * 3)) == expected


def test_knob_partner_foot_required():
    standard, partners = both(partner_foot_required=False)
    assert not may_go_out(position(on_foot=(0,), rules=standard).g, 0)
    assert may_go_out(position(on_foot=(0,), rules=partners).g, 0)


def test_knob_wild_discard_freeze_R_V8():
    standard, freeze = both(wild_discard="freeze")
    for rules in (standard, freeze):
        arr = position(hands={0: ["2", "4"]}, pile=["5", "6"], on_foot=(), rules=rules)
        assert arr.discard(0, cards.TWO) == OK
        if rules is standard:
            assert arr[0]["sc"][S_PILE_N] == 3
        else:
            assert arr[0]["sc"][S_PILE_N] == 0 and arr[0]["sc"][S_FROZEN_N] == 3
    # a short stock takes the set-aside cards back under it before the draw
    arr = position(hands={0: ["4", "9", "Q"]}, stock=["5"], pile=["B3"], opened=(0,),
                   rules=freeze)
    arr[0]["frozen"][:3] = [cards.KIND_INDEX[c] for c in ("6", "7", "8")]
    arr[0]["sc"][S_FROZEN_N] = 3
    arr[0]["deck"][[2, 3, 4]] += 1
    arr.play_turn(0)
    assert arr[0]["sc"][S_ENDED] == Ending.NONE and arr[0]["sc"][S_FROZEN_N] == 0
    arr = position(hands={0: ["4", "9", "Q"]}, stock=["5"], pile=["B3"], opened=(0,),
                   rules=standard)
    arr.play_turn(0)
    assert arr[0]["sc"][S_ENDED] == Ending.STOCK


def test_knob_grab22_R_V11():
    standard, grab = both(grab22_bonus=300, grab22_chance=1.0)
    for rules, expected in ((standard, 0), (grab, 600)):
        arr = dealt(rules, 1)
        assert parts(arr, 0)[P_GRAB22] == expected  # both partners grabbed 22
