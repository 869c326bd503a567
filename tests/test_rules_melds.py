"""Melds and books (R-M), the opening (R-O), through ``sim.engine.actions.lay_line``."""

from __future__ import annotations

import pytest

from sim.core.cards import BLACK3_RANK, CARD_VALUE, KIND_INDEX
from sim.core.enums import Book
from sim.core.profiles import PROFILES
from sim.core.rules import Rules, replace
from sim.engine.legal import check_line
from sim.engine.legal import entry_legal as _entry_legal
from sim.engine.meldrules import place_entry
from sim.engine.reasons import (
    E_RATIO,
    E_SHAPE,
    E_THREES,
    E_TOO_BIG,
    E_TOO_SMALL,
    E_UNDER_MINIMUM,
    E_WILD_MELD,
    OK,
)
from tests.position import entries, position

K, W = 9, 11  # rank index of kings; the wild meld


def entry_legal(pos, team, rank, nat, twos, jokers):
    return _entry_legal(pos.g, pos.w, team, rank, nat, twos, jokers)


def entry_reason(pos, team, rank, nat, twos, jokers):
    """The refusal code of one entry on scratch copies of the partnership's table."""
    g = pos.g
    return place_entry(g, g["meld"][team].copy(), g["books"][team].copy(),
                       g["rank_books"][team].copy(), g["booked"][team].copy(), rank, nat,
                       twos, jokers, 0)


def check(pos, seat, e, n):
    return check_line(pos.g, pos.w, seat, e, n)


def lay(arr, seat, *melds):
    e, n = entries(*melds)
    return arr.lay(seat, e, n)


def test_R_M1_melds_belong_to_the_partnership():
    arr = position(hands={0: ["K"] * 3 + ["4"] * 3, 2: ["K", "5"] * 2}, opened=(0,))
    assert lay(arr, 0, ("K", ["K", "K", "K"])) == OK
    assert lay(arr, 2, ("K", ["K"])) == OK  # the partner extends the same meld
    assert arr[0]["meld"][0, K, 0] == 4
    assert arr[0]["meld"][1, K].sum() == 0


@pytest.mark.parametrize(
    "cards, reason",
    [
        (["K", "K", "K"], OK),
        (["K", "K", "2"], OK),
        (["K", "K"], E_TOO_SMALL),
        (["K"] * 7, OK),
        (["K", "K", "2", "2"], E_RATIO),
        (["K", "K", "K", "K", "2", "2"], OK),
    ],
)
def test_R_M2_R_M3_natural_melds_and_the_wild_ratio(cards, reason):
    arr = position(hands={0: cards + ["4", "4"]}, opened=(0,))
    assert lay(arr, 0, ("K", cards)) == reason


def test_R_M3_R_X13_ratio_holds_after_each_entry_not_only_at_the_end():
    """R-X13: adding 2 wilds to 4 naturals then naturals is illegal even if the end is fine."""
    arr = position(hands={0: ["2", "2", "K", "K", "4", "4"]},
                   melds=[(0, "K", ["K"] * 3)], opened=(0,))
    assert lay(arr, 0, ("K", ["2", "2"]), ("K", ["K", "K"])) == E_RATIO
    assert lay(arr, 0, ("K", ["K", "K", "2", "2"])) == OK  # one entry: 5 naturals, 2 wilds


def test_R_M3_at_most_one_wild_in_a_meld_of_5_and_two_in_6_or_7():
    def table(cards):
        return position(hands={0: ["2", "4", "4"]}, melds=[(0, "K", cards)], opened=(0,))

    assert entry_legal(table(["K"] * 4), 0, K, 0, 1, 0)  # 4 + 1 wild
    assert not entry_legal(table(["K"] * 3 + ["2"]), 0, K, 0, 1, 0)  # 3 naturals, 2 wilds
    assert entry_legal(table(["K"] * 4 + ["2"]), 0, K, 0, 1, 0)  # 4 naturals, 2 wilds (6)
    assert not entry_legal(table(["K"] * 4 + ["2", "2"]), 0, K, 0, 1, 0)  # a third wild
    assert entry_reason(table(["K"] * 3 + ["2"]), 0, K, 0, 1, 0) == E_RATIO
    assert entry_reason(table(["K"] * 4 + ["2", "2"]), 0, K, 0, 1, 0) == E_RATIO


def test_R_M4_wild_melds_only_wilds():
    arr = position(hands={0: ["2", "2", "JK", "K", "4", "4"]}, opened=(0,))
    e, n = entries(("W", ["2", "2", "JK"]))
    assert check(arr, 0, e, n) == OK
    e[0, 1] = 1  # a natural in a wild meld
    assert check(arr, 0, e, n) == E_WILD_MELD
    assert entry_reason(arr, 0, W, 1, 2, 1) == E_WILD_MELD
    assert not entry_legal(arr, 0, W, 0, 2, 0)  # fewer than 3
    assert entry_reason(arr, 0, W, 0, 2, 0) == E_TOO_SMALL


def test_R_M5_threes_are_never_melded():
    for three in ("R3", "B3"):
        arr = position(hands={0: [three] * 3 + ["4", "4"]}, opened=(0,))
        e, n = entries(("K", ["K"] * 3))
        e[0, 0] = 13 if three == "R3" else 14  # a meld rank of threes does not exist
        assert check(arr, 0, e, n) == E_SHAPE
    # the black-three meld rank exists but is closed where R-V7 is off (the default)
    arr = position(hands={0: ["B3"] * 3 + ["4", "4"]}, opened=(0,))
    e, n = entries(("K", ["K"] * 3))
    e[0, 0] = BLACK3_RANK
    assert check(arr, 0, e, n) == E_THREES


def test_R_M6_a_meld_of_7_is_a_book_of_its_type_and_never_grows():
    arr = position(hands={0: ["K"] * 7 + ["Q"] * 5 + ["2", "2"] + ["JK"] * 7 + ["4"] * 3},
                   opened=(0,))
    assert lay(arr, 0, ("K", ["K"] * 7)) == OK
    assert lay(arr, 0, ("Q", ["Q"] * 5 + ["2", "2"])) == OK
    assert lay(arr, 0, ("W", ["JK"] * 7)) == OK
    books = arr[0]["books"][0]
    assert (books[Book.CLEAN], books[Book.DIRTY], books[Book.WILD]) == (1, 1, 1)
    assert arr[0]["meld"][0].sum() == 0
    assert not entry_legal(arr, 0, K, 8, 0, 0)  # never beyond 7
    assert entry_reason(arr, 0, K, 8, 0, 0) == E_TOO_BIG
    table = position(hands={0: ["K", "4", "4"]}, melds=[(0, "K", ["K"] * 6)], opened=(0,))
    assert entry_legal(table, 0, K, 1, 0, 0) and not entry_legal(table, 0, K, 2, 0, 0)
    assert entry_reason(table, 0, K, 2, 0, 0) == E_TOO_BIG


def test_R_M7_one_unfinished_meld_per_rank_new_one_after_a_book():
    arr = position(hands={0: ["K"] * 10 + ["4", "4"]}, opened=(0,))
    assert lay(arr, 0, ("K", ["K"] * 3)) == OK
    assert lay(arr, 0, ("K", ["K"] * 3)) == OK  # this entry adds to the same meld (6)
    assert arr[0]["meld"][0, K, 0] == 6
    assert lay(arr, 0, ("K", ["K"]), ("K", ["K", "K", "K"])) == OK  # book, then a new meld
    assert arr[0]["books"][0, Book.CLEAN] == 1 and arr[0]["meld"][0, K, 0] == 3


# R-O1 for every profile's minimums, and a house set unlike any profile's (odd multiples of 5).
HOUSE_MINIMUMS = replace(Rules(), opening_minimums=(55, 95, 135, 175))
OPENING_RULES = {**{name: rules for name, (rules, _) in PROFILES.items()},
                 "house": HOUSE_MINIMUMS}
_RANKS = ("A", "K", "Q", "10", "9", "8", "7", "6", "5", "4")  # not jacks: kept in hand


def line_worth(points: int) -> list[tuple[str, list[str]]]:
    """Natural melds of distinct ranks, 3 to 6 cards each (no book, so no bonus), whose card
    values (R-C3) add up to exactly ``points``."""

    def search(i: int, left: int) -> list[tuple[str, list[str]]] | None:
        if left == 0:
            return []
        if i == len(_RANKS) or left < 0:
            return None
        rank = _RANKS[i]
        for size in (6, 5, 4, 3, 0):
            rest = search(i + 1, left - size * int(CARD_VALUE[KIND_INDEX[rank]]))
            if rest is not None:
                return ([(rank, [rank] * size)] if size else []) + rest
        return None

    found = search(0, points)
    assert found is not None and sum(
        len(cards) * int(CARD_VALUE[KIND_INDEX[rank]]) for rank, cards in found) == points
    return found


# Every deal that opens by points (R-V5: saskatchewan's deal 4 opens with a concealed book
# instead, tested by its own rule id).
POINT_OPENINGS = [pytest.param(name, deal, id=f"{name}-deal{deal}")
                  for name, rules in OPENING_RULES.items() for deal in range(1, 5)
                  if not (deal == 4 and rules.deal4_concealed_book)]


@pytest.mark.parametrize("name, deal", POINT_OPENINGS)
def test_R_O1_opening_minimum_by_deal(name, deal):
    """Each deal's exact minimum opens; 5 points less is refused (E_UNDER_MINIMUM)."""
    rules = OPENING_RULES[name]
    minimum = rules.opening_minimums[deal - 1]
    for points, expected in ((minimum - 5, E_UNDER_MINIMUM), (minimum, OK)):
        line = line_worth(points)
        hand = [card for _, cards in line for card in cards] + ["J", "J"]
        arr = position(hands={0: hand}, deal=deal, rules=rules)
        assert lay(arr, 0, *line) == expected, (minimum, points, line)
        assert arr[0]["opened"][0] == (expected == OK)


def test_R_O1_R_O2_several_melds_in_one_line_add_up():
    arr = position(hands={0: ["K"] * 3 + ["Q"] * 3 + ["4", "4"]})
    assert lay(arr, 0, ("K", ["K"] * 3)) == E_UNDER_MINIMUM  # 30 < 50
    assert lay(arr, 0, ("K", ["K"] * 3), ("Q", ["Q"] * 3)) == OK  # 60 >= 50
    assert arr[0]["opened"][0] == 1


@pytest.mark.rule("W4")
def test_R_O2_bonuses_do_not_count_toward_the_opening():
    """R-O2 (W4 below): a book's bonus and red threes do not help; only card values."""
    arr = position(hands={0: ["6"] * 7 + ["4", "4"]})
    arr[0]["red3"][0] = 3
    assert lay(arr, 0, ("6", ["6"] * 7)) == E_UNDER_MINIMUM


def test_R_O4_after_opening_both_partners_meld_freely():
    arr = position(hands={0: ["A"] * 3 + ["4", "4"], 2: ["5"] * 3 + ["4", "4"]})
    assert lay(arr, 2, ("5", ["5"] * 3)) == E_UNDER_MINIMUM
    assert lay(arr, 0, ("A", ["A"] * 3)) == OK  # 60: opens for the partnership
    assert lay(arr, 2, ("5", ["5"] * 3)) == OK  # 15 points, now free


@pytest.mark.rule("R-O2")
def test_R_X11_R_O3_opening_counted_per_line_not_per_turn():
    """Our reading of R-O2/R-X11: the opening line itself must reach the minimum."""
    arr = position(hands={0: ["K"] * 3 + ["Q"] * 3 + ["4", "4"]})
    assert lay(arr, 0, ("K", ["K"] * 3)) == E_UNDER_MINIMUM
    assert lay(arr, 0, ("Q", ["Q"] * 3)) == E_UNDER_MINIMUM
