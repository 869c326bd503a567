"""Picking up the pile (R-PU, R-T4, R-T5, R-X12, R-O3, R-X11) and worked examples W1-W3."""

from __future__ import annotations

from sim.core.enums import Book
from sim.engine.layout import S_PILE_N
from sim.engine.reasons import (
    E_COMPLETE_FIRST,
    E_NO_PAIR,
    E_PICKUP_NOT_HELD,
    E_PILE_BLOCKED,
    E_TOO_SMALL,
    E_UNDER_MINIMUM,
    OK,
)
from strategies.plans import ENTRIES, plan_pickup
from tests.position import entries, held, position

K, E = 9, 4  # rank indices of kings and eights


def pick(arr, seat, *melds):
    e, n = entries(*melds)
    return arr.pickup(seat, e, n)


def test_R_PU1_empty_pile_or_three_on_top_blocks():
    arr = position(hands={0: ["K", "K", "4"]}, pile=[])
    e, n = entries(("K", ["K"] * 3))
    assert arr.check_pickup(0, e, n) == E_PILE_BLOCKED
    for three in ("B3", "R3"):
        arr = position(hands={0: ["K", "K", three, three]}, pile=["K", three])
        assert arr.check_pickup(0, e, n) == E_PILE_BLOCKED


def test_R_T4_black_three_blocks_the_next_player():
    arr = position(hands={1: ["B3", "B3", "4", "4"]}, pile=["K", "B3"], opened=(1,))
    e, n = entries(("K", ["K"] * 3))
    assert arr.check_pickup(1, e, n) == E_PILE_BLOCKED
    assert plan_pickup(arr.g, arr.w, 1, ENTRIES) == -1


def test_R_PU2_needs_a_held_natural_pair():
    arr = position(hands={0: ["K", "2", "4", "4"]}, pile=["Q", "K"], opened=(0,))
    assert pick(arr, 0, ("K", ["K", "K", "2"])) == E_NO_PAIR  # one king held + top
    arr = position(hands={0: ["K", "K", "4", "4"]}, pile=["Q", "K"], opened=(0,))
    assert pick(arr, 0, ("K", ["K", "K", "K"])) == OK
    assert held(arr, 0) == {"4": 2, "Q": 1}


def test_R_PU2_R_T5_a_wild_on_top_needs_a_pair_of_the_same_wild():
    arr = position(hands={0: ["2", "JK", "4", "4"]}, pile=["Q", "2"], opened=(0,))
    assert pick(arr, 0, ("W", ["2", "2", "JK"])) == E_NO_PAIR
    arr = position(hands={0: ["2", "2", "4", "4"]}, pile=["Q", "2"], opened=(0,))
    assert pick(arr, 0, ("W", ["2", "2", "2"])) == OK
    arr = position(hands={0: ["2", "2", "4", "4"]}, pile=["Q", "JK"], opened=(0,))
    assert pick(arr, 0, ("W", ["JK", "2", "2"])) == E_NO_PAIR


def test_R_PU3_W1_only_top_and_held_cards_qualify():
    """W1: hold K K 2, top K: K K K 2 = 50 opens deal 1. A two buried in the pile can't help."""
    pile = ["5", "6", "7", "8", "9", "10", "K"]
    arr = position(hands={0: ["K", "K", "2", "4"]}, pile=pile)
    assert pick(arr, 0, ("K", ["K", "K", "K", "2"])) == OK
    assert arr[0]["opened"][0] == 1
    assert held(arr, 0) == {"4": 1, "5": 1, "6": 1, "7": 1, "8": 1, "9": 1, "10": 1}
    assert arr[0]["melded_value"][0] == 50
    pile = ["5", "6", "7", "8", "9", "2", "K"]
    arr = position(hands={0: ["K", "K", "4"]}, pile=pile)
    assert pick(arr, 0, ("K", ["K", "K", "K", "2"])) == E_PICKUP_NOT_HELD  # the two is in the pile


def test_R_PU_takes_the_top_7_or_all():
    arr = position(hands={0: ["K", "K", "4"]}, pile=["A"] * 3 + ["5"] * 7 + ["K"],
                   opened=(0,))
    assert pick(arr, 0, ("K", ["K"] * 3)) == OK
    assert arr[0]["sc"][S_PILE_N] == 4  # 11 - 7 left in the pile
    assert held(arr, 0)["5"] == 6
    arr = position(hands={0: ["K", "K", "4"]}, pile=["5", "K"], opened=(0,))
    assert pick(arr, 0, ("K", ["K"] * 3)) == OK
    assert arr[0]["sc"][S_PILE_N] == 0


def test_R_PU4_W3_eights_on_the_table():
    """W3: 5 eights on the table, top an eight. 8 8 2 is not enough; 8 8 8 2 is."""
    pile = ["4", "8", "5", "6", "7", "8"]  # an eight also buried 3 deep
    arr = position(hands={0: ["8", "8", "2", "4"]}, pile=pile, melds=[(0, "8", ["8"] * 5)],
                   opened=(0,))
    assert pick(arr, 0, ("8", ["8", "8"]), ("8", ["8", "2"])) == E_TOO_SMALL
    assert pick(arr, 0, ("8", ["8"])) == E_COMPLETE_FIRST  # merely adding the top card
    assert plan_pickup(arr.g, arr.w, 0, ENTRIES) == -1
    arr = position(hands={0: ["8", "8", "8", "2", "4"]}, pile=pile,
                   melds=[(0, "8", ["8"] * 5)], opened=(0,))
    assert pick(arr, 0, ("8", ["8", "8"]), ("8", ["8", "8", "2"])) == OK
    assert arr[0]["books"][0, Book.CLEAN] == 1
    assert arr[0]["meld"][0, E, 0] == 2 and arr[0]["meld"][0, E, 1] == 1
    # afterwards the buried eight may join the new meld
    e, n = entries(("8", ["8"]))
    assert arr.lay(0, e, n) == OK
    assert arr[0]["meld"][0, E, 0] == 3


def test_R_X12_completion_and_new_meld_use_the_top_and_two_held_naturals():
    """R-X12: a wild completing the book with the top in a new meld of top + 8 + 2 uses only
    one held natural: not allowed."""
    arr = position(hands={0: ["8", "2", "2", "4", "4"]}, pile=["8"],
                   melds=[(0, "8", ["8"] * 5 + ["2"])], opened=(0,))
    assert pick(arr, 0, ("8", ["2"]), ("8", ["8", "8", "2"])) == E_NO_PAIR
    assert arr[0]["books"][0, Book.DIRTY] == 0


def test_R_PU5_rest_of_the_pile_joins_the_hand_and_play_goes_on():
    arr = position(hands={0: ["K", "K", "4"]}, pile=["Q", "Q", "Q", "K"], opened=(0,))
    assert pick(arr, 0, ("K", ["K"] * 3)) == OK
    assert held(arr, 0) == {"4": 1, "Q": 3}
    e, n = entries(("Q", ["Q"] * 3))
    assert arr.lay(0, e, n) == OK


def test_R_O3_R_X11_pickup_opening_counts_only_the_qualifying_melds():
    """Top K with K K held (30) in deal 1: not an opening, though the pile holds aces."""
    arr = position(hands={0: ["K", "K", "4"]}, pile=["A", "A", "A", "K"])
    assert pick(arr, 0, ("K", ["K"] * 3)) == E_UNDER_MINIMUM
    # held aces laid in the same pick-up line do count
    arr = position(hands={0: ["K", "K", "A", "A", "A", "4"]}, pile=["5", "K"])
    assert pick(arr, 0, ("K", ["K"] * 3), ("A", ["A"] * 3)) == OK


def test_W2_pick_up_a_nine_with_9_9_2():
    arr = position(hands={0: ["9", "9", "2", "4"]}, pile=["5", "9"])
    n = plan_pickup(arr.g, arr.w, 0, ENTRIES)
    e = arr.w["entries"].copy()
    assert n > 0
    assert e[:n, 1].sum() == 3 and e[:n, 2].sum() == 1 and set(e[:n, 0]) == {5}  # 9 9 9 2
    assert arr.pickup(0, e, n) == OK
    assert arr[0]["melded_value"][0] == 50 and arr[0]["opened"][0] == 1
