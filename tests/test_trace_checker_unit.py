"""The independent trace referee accepts legal play and rejects illegal play, rule by rule.

Every trace here is hand-made with tests/trace_checker/builder.py from docs/rules.md alone (test
names and docstrings cite the rule ids). Traces stop mid-deal (allow_incomplete) unless the test
is about the end of a deal; expected scores are worked out by hand in the tests.
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests.trace_checker import check_file, check_trace
    from tests.trace_checker.assertions import assert_flags, assert_ok, check, n
    from tests.trace_checker.autoplay import Bot, generate_traces
    from tests.trace_checker.builder import TraceBuilder, make_deal
except ImportError:  # plain `pytest` puts tests/ (not the repo root) on sys.path
    from trace_checker import check_file, check_trace
    from trace_checker.assertions import assert_flags, assert_ok, check, n
    from trace_checker.autoplay import Bot, generate_traces
    from trace_checker.builder import TraceBuilder, make_deal

REPO = Path(__file__).resolve().parents[1]

# R-C3, written out here independently of the checker's profile table.
VALUES = {
    **dict.fromkeys(["4", "5", "6", "7"], 5),
    **dict.fromkeys(["8", "9", "10", "J", "Q", "K"], 10),
    "A": 20,
    "2": 20,
    "JK": 50,
    "B3": 5,
    "R3": 0,
}




def end_parts(
    b: TraceBuilder,
    melded: tuple[int, int] = (0, 0),
    books: tuple[int, int] = (0, 0),
    out: tuple[int, int] = (0, 0),
) -> tuple[list[int], list[dict]]:
    """R-S1..R-S5 from the builder's held cards: left and red threes counted here by hand."""
    breakdown = []
    for p in (0, 1):
        left = hidden = 0
        for seat in (p, p + 2):
            for cards in (b.hands[seat], b.feet[seat]):
                left -= sum(VALUES[k] * c for k, c in cards.items())
                hidden += cards["R3"]
        breakdown.append(
            {
                "melded": melded[p],
                "left": left,
                "red3": 100 * b.exposed[p] - 100 * hidden,
                "books": books[p],
                "out": out[p],
            }
        )
    return [sum(d.values()) for d in breakdown], breakdown


def idle_until_short(b: TraceBuilder, seat: int, keep: tuple[str, ...] = ()) -> int:
    """Draw-and-discard turns until the stock cannot serve a draw; returns the next seat."""
    while len(b.stock) >= 2:
        b.draw(seat)
        if b.stock_ran_out:
            return seat
        held = b.held(seat)
        card = next(
            k
            for k in ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "B3")
            if held[k] and k not in keep
        )
        b.discard(seat, card)
        seat = (seat + 1) % 4
    return seat


# -- the deal line: R-C1, R-D2, R-D3, R-D4, R-X16 ----------------------------------------------
def test_R_C1_R_D2_R_D3_builder_deal_is_accepted() -> None:
    assert_ok([make_deal()])


def test_R_D2_hand_of_twelve_rejected() -> None:
    d = make_deal()
    d["stock"].append(d["hands"][0].pop())
    assert_flags([d], "R-D2")


def test_R_D3_start_card_may_not_be_wild_or_red_three() -> None:
    assert_flags([make_deal(discard="2")], "R-D3")
    assert_flags([make_deal(discard="R3")], "R-D3")
    assert_flags([make_deal(discard="4 5")], "R-D3")


def test_R_D3_black_three_may_start_the_pile() -> None:
    assert_ok([make_deal(discard="B3")])


def test_R_D3_stock_holds_165() -> None:
    d = make_deal()
    d["feet"][0].append(d["stock"].pop())
    assert_flags([d], "R-D3")


def test_R_C1_deal_must_be_five_decks() -> None:
    d = make_deal()
    d["stock"][d["stock"].index("4")] = "JK"
    assert_flags([d], "R-C1")


def test_R_X16_dealer_rotates_and_R_D4_left_of_dealer_starts() -> None:
    """Deal 2: dealer seat 0, seat 1 plays first."""
    b = TraceBuilder(make_deal(deal=2))
    b.idle_turn(1).idle_turn(2)
    assert b.lines[0]["dealer"] == 0
    assert_ok(b.lines)
    wrong = TraceBuilder(make_deal(deal=2)).idle_turn(0)
    assert_flags(wrong.lines, "R-D4", first=True)
    d = make_deal(deal=2)
    d["dealer"] = 3
    assert_flags([d], "R-X16")


def test_unsupported_profile_is_one_violation() -> None:
    d = make_deal()
    d["profile"] = "eleven"
    found = check([d, {"type": "draw", "seat": 0, "cards": ["4", "5"]}])
    assert [v.rule for v in found] == ["PROFILE"]
    assert "unsupported profile" in found[0].message


def test_trace_must_end_its_deal() -> None:
    b = TraceBuilder(make_deal()).idle_turn(0)
    assert [v.rule for v in check_trace(b.lines)] == ["TRACE"]


def test_unknown_fields_are_ignored() -> None:
    b = TraceBuilder(make_deal(stock_top="R3 9 K")).draw(0).discard(0, "K")
    for i, line in enumerate(b.lines):
        line["note"] = f"extra {i}"
    assert_ok(b.lines)


# -- a turn: R-T1, R-T2, R-D4 ------------------------------------------------------------------
def test_R_T2_draw_takes_the_top_two_stock_cards() -> None:
    b = TraceBuilder(make_deal(stock_top="K Q")).draw(0).discard(0, "K")
    assert b.lines[1]["cards"] == ["K", "Q"]
    assert_ok(b.lines)
    bad = copy.deepcopy(b.lines)
    bad[1]["cards"] = ["Q", "K"]
    assert_flags(bad, "R-T2", first=True)
    assert "[K Q]" in check(bad)[0].message  # expected vs found


def test_R_D4_turns_go_clockwise() -> None:
    b = TraceBuilder(make_deal())
    for seat in (0, 1, 2, 3, 0):
        b.idle_turn(seat)
    assert_ok(b.lines)
    skip = TraceBuilder(make_deal()).idle_turn(0).idle_turn(2)
    assert_flags(skip.lines, "R-D4", first=True)


def test_R_T1_draw_comes_first_and_only_once() -> None:
    hand = ["A A A"]
    b = TraceBuilder(make_deal(hands=hand)).meld(0, ("A", "A A A"))
    assert_flags(b.lines, "R-T1", first=True)
    b = TraceBuilder(make_deal(hands=hand)).discard(0, "A")
    assert_flags(b.lines, "R-T1", first=True)
    b = TraceBuilder(make_deal()).draw(0).draw(0)
    assert_flags(b.lines, "R-T1", first=True)


def test_discarding_a_card_not_held_is_rejected() -> None:
    b = TraceBuilder(make_deal(stock_top="4 5")).draw(0).discard(0, "JK")
    assert_flags(b.lines, "CARDS", first=True)


# -- red threes: R-T3, R-X1, R-X6, R-X8, R-X9 ---------------------------------------------------
def test_R_T3_drawn_red_three_is_exposed_and_replaced() -> None:
    b = TraceBuilder(make_deal(stock_top="R3 9 K")).draw(0).discard(0, "K")
    assert b.lines[2] == {"type": "red3", "seat": 0, "count": 1, "replaced_with": ["K"]}
    assert_ok(b.lines)


def test_R_T3_red_three_not_exposed_is_rejected() -> None:
    b = TraceBuilder(make_deal(stock_top="R3 9 K")).draw(0, red3=False).discard(0, "9")
    assert_flags(b.lines, "R-T3", first=True)


def test_R_T3_count_and_replacements_must_match() -> None:
    b = TraceBuilder(make_deal(stock_top="R3 9 K Q")).draw(0).discard(0, "K")
    bad = copy.deepcopy(b.lines)
    bad[2]["count"] = 2
    assert_flags(bad, "R-T3", first=True)
    bad = copy.deepcopy(b.lines)
    bad[2]["replaced_with"] = ["Q"]
    assert_flags(bad, "R-T3", first=True)


def test_R_T3_red3_line_without_a_red_three_is_rejected() -> None:
    b = TraceBuilder(make_deal(stock_top="9 K Q")).draw(0)
    b.add({"type": "red3", "seat": 0, "count": 1, "replaced_with": ["Q"]})
    assert_flags(b.lines, "R-T3", first=True)


def test_R_T3_replacement_red_three_is_replaced_too() -> None:
    b = TraceBuilder(make_deal(stock_top="R3 9 R3 K")).draw(0).discard(0, "K")
    assert [line["type"] for line in b.lines] == ["deal", "draw", "red3", "red3", "discard"]
    assert_ok(b.lines)


def test_R_X6_two_red_threes_in_one_draw() -> None:
    b = TraceBuilder(make_deal(stock_top="R3 R3 5 6")).draw(0).discard(0, "5")
    assert b.lines[2]["count"] == 2 and b.lines[2]["replaced_with"] == ["5", "6"]
    assert_ok(b.lines)


def test_R_X8_starting_hand_red_three_before_the_first_turn() -> None:
    d = make_deal(hands=[[], ["R3"], [], []], stock_top="4 5 6 7 K")
    b = TraceBuilder(d).idle_turn(0).expose_hand(1).idle_turn(1)
    assert b.lines[3] == {"type": "red3", "seat": 1, "count": 1, "replaced_with": ["6"]}
    assert_ok(b.lines)
    late = TraceBuilder(d).idle_turn(0).idle_turn(1)
    assert_flags(late.lines, "R-T3", first=True)
    early = TraceBuilder(d).expose_hand(1)  # seat 0 plays first
    assert_flags(early.lines, "R-D4", first=True)


def test_R_T3_red_three_in_the_foot() -> None:
    d = make_deal(hands=["K K K K K K K Q Q Q J J J"], feet=[["R3"]], stock_top="J J A")
    b = TraceBuilder(d).draw(0)
    b.meld(0, ("K", n("K", 7)), ("Q", "Q Q Q"), ("J", n("J", 5))).foot(0)
    assert b.lines[-1] == {"type": "red3", "seat": 0, "count": 1, "replaced_with": ["A"]}
    b.discard(0, "A")
    assert_ok(b.lines)
    missing = TraceBuilder(d).draw(0)
    missing.meld(0, ("K", n("K", 7)), ("Q", "Q Q Q"), ("J", n("J", 5))).foot(0, red3=False)
    missing.discard(0, "4")
    assert_flags(missing.lines, "R-T3", first=True)


def test_R_X1_R_X9_red_three_replacement_from_empty_stock_ends_the_deal() -> None:
    """The last draw shows a red three, its replacement is the last card, another red three."""
    d = make_deal(feet=[[], n("R3", 4), [], n("R3", 4)], stock_bottom="R3 R3")
    b = TraceBuilder(d)
    idle_until_short(b, 0)
    assert b.stock_ran_out and b.lines[-1]["replaced_with"] == []
    scores, breakdown = end_parts(b)
    assert sum(b.exposed) == 2  # R-X9: both still score +100
    good = copy.deepcopy(b.lines)
    good.append({"type": "end", "reason": "stock", "scores": scores, "breakdown": breakdown})
    assert_ok(good, complete=True)
    bad = copy.deepcopy(b.lines)
    bad.append({"type": "discard", "seat": b.lines[-1]["seat"], "card": "4"})
    assert_flags(bad, "R-X1", first=True)


def test_R_X1_R_X9_short_replacement_holding_a_red_three() -> None:
    """Last draw R3 R3, one card left, itself a red three: its own `red3` line (nothing left to
    replace it) then `end`, or `end` at once; either way all three score +100."""
    d = make_deal(feet=[[], n("R3", 4), [], n("R3", 3)], stock_bottom="R3 R3 R3")
    b = TraceBuilder(d)
    idle_until_short(b, 0)
    assert [line.get("replaced_with") for line in b.lines[-2:]] == [["R3"], []]
    scores, breakdown = end_parts(b)
    assert sum(b.exposed) == 3
    end = {"type": "end", "reason": "stock", "scores": scores, "breakdown": breakdown}
    assert_ok(b.lines + [end], complete=True)
    assert_ok(b.lines[:-1] + [end], complete=True)


@pytest.mark.rule("R-O1", "R-M3")
def test_non_fatal_violations_do_not_stop_the_checking() -> None:
    """R-O1 is reported and play goes on, so a later R-M3 is reported too."""
    b = TraceBuilder(make_deal(hands=[n("6", 7) + " 9 9 2 2"])).draw(0)
    b.meld(0, ("6", n("6", 7))).meld(0, ("9", "9 9 2 2"))
    assert [v.rule for v in check(b.lines)] == ["R-O1", "R-M3"]


# -- the end of a deal by the stock: R-E1, R-E2, R-X2, R-X17 ------------------------------------
def test_R_E1_R_X2_deal_ends_when_the_stock_cannot_serve_a_draw() -> None:
    d = make_deal(feet=[[], n("R3", 5), [], n("R3", 5)])  # no red three in the stock
    b = TraceBuilder(d)
    seat = idle_until_short(b, 0)
    assert len(b.stock) == 1
    scores, breakdown = end_parts(b)
    assert breakdown[1]["red3"] == -1000
    good = copy.deepcopy(b.lines)
    good.append({"type": "end", "reason": "stock", "scores": scores, "breakdown": breakdown})
    assert_ok(good, complete=True)
    b.draw(seat)
    assert_flags(b.lines, "R-E1", first=True)


def test_R_E1_no_stock_end_while_the_stock_can_serve() -> None:
    b = TraceBuilder(make_deal())
    scores, breakdown = end_parts(b)
    b.end("stock", scores, breakdown)
    assert [v.rule for v in check_trace(b.lines)] == ["R-E1"]


def test_R_E2_R_X17_pickup_allowed_while_the_stock_is_short() -> None:
    d = make_deal(hands=["A A A"] * 4, feet=[[], n("R3", 5), [], n("R3", 5)])
    b = TraceBuilder(d)
    seat = 0
    for _ in range(81):
        b.idle_turn(seat, keep=("A",))
        seat = (seat + 1) % 4
    b.draw(seat).discard(seat, "A")
    seat = (seat + 1) % 4
    assert len(b.stock) == 1 and seat == 2
    b.pickup(2, ("A", "A A A"))  # R-E2: legal although nobody could draw
    b.discard(2, next(k for k in ("4", "5", "6", "7", "8", "9") if b.held(2)[k]))
    scores, breakdown = end_parts(b, melded=(60, 0))
    done = copy.deepcopy(b.lines)
    done.append({"type": "end", "reason": "stock", "scores": scores, "breakdown": breakdown})
    assert_ok(done, complete=True)
    b.draw(3)
    assert_flags(b.lines, "R-E1", first=True)


# -- the Foot: R-F1, R-F2, R-F3, R-X5, R-X10 -----------------------------------------------------
F2_HAND = "K K K K K K K Q Q Q J J J"


def test_R_F2_R_X5_last_hand_card_melded_then_play_on_from_the_foot() -> None:
    d = make_deal(hands=[F2_HAND], feet=["9 9 9"], stock_top="J J")
    b = TraceBuilder(d).draw(0)
    b.meld(0, ("K", n("K", 7)), ("Q", "Q Q Q"), ("J", n("J", 5))).foot(0)
    b.meld(0, ("9", "9 9 9")).discard(0, "4")
    assert_ok(b.lines)


def test_R_F1_missing_foot_after_the_hand_is_melded() -> None:
    d = make_deal(hands=[F2_HAND], feet=["9 9 9"], stock_top="J J")
    b = TraceBuilder(d).draw(0)
    b.meld(0, ("K", n("K", 7)), ("Q", "Q Q Q"), ("J", n("J", 5))).discard(0, "9")
    assert_flags(b.lines, "R-F1", first=True)


def f3_builder() -> TraceBuilder:
    """Seat 0 melds 14 cards and discards its last Hand card (R-F3)."""
    d = make_deal(hands=["K K K K K K K Q Q Q Q Q Q"], feet=["9 9 9"], stock_top="Q 5")
    b = TraceBuilder(d).draw(0)
    b.meld(0, ("K", n("K", 7)), ("Q", n("Q", 7))).discard(0, "5")
    for seat in (1, 2, 3):
        b.idle_turn(seat)
    return b


def test_R_F3_R_X10_foot_picked_up_at_the_start_of_the_next_turn() -> None:
    b = f3_builder().foot(0).draw(0)
    b.meld(0, ("9", "9 9 9")).discard(0, "4")
    assert_ok(b.lines)


def test_R_F3_draw_without_picking_up_the_foot_is_rejected() -> None:
    b = f3_builder().draw(0)
    assert_flags(b.lines, "R-F1", first=True)


def test_R_F1_foot_while_the_hand_is_not_empty_is_rejected() -> None:
    b = TraceBuilder(make_deal()).foot(0)
    assert_flags(b.lines, "R-F1", first=True)


# -- melds: R-M1..R-M7, R-X13 -----------------------------------------------------------------
def opened(hand: str, stock_top: str = "4 5", **kw: object) -> TraceBuilder:
    """Seat 0 has drawn and opened with A A A (60 >= 50, deal 1); its turn goes on."""
    d = make_deal(hands=["A A A " + hand], stock_top=stock_top, **kw)
    return TraceBuilder(d).draw(0).meld(0, ("A", "A A A"))


def test_R_M2_new_meld_needs_three_cards_of_its_rank() -> None:
    assert_ok(opened("9 9 9").meld(0, ("9", "9 9 9")).lines)
    assert_flags(opened("9 9 9").meld(0, ("9", "9 9")).lines, "R-M2", first=True)
    assert_flags(opened("9 9 K").meld(0, ("9", "9 9 K")).lines, "R-M2", first=True)


def test_R_M3_wild_ratio() -> None:
    assert_ok(opened("9 9 9 9 2 2").meld(0, ("9", "9 9 9 9 2 2")).lines)  # 4 >= 2 x 2
    assert_ok(opened("9 9 2").meld(0, ("9", "9 9 2")).lines)  # 2 >= 2 x 1
    assert_flags(opened("9 9 9 2 2").meld(0, ("9", "9 9 9 2 2")).lines, "R-M3", first=True)


def test_R_M3_R_X13_ratio_holds_after_each_entry() -> None:
    """9 9 9 2, then + 2 alone (3 < 4) breaks; + 9 2 as one entry (4 >= 4) is fine."""
    b = opened("9 9 9 9 2 2").meld(0, ("9", "9 9 9 2"), ("9", "2"))
    assert_flags(b.lines, "R-M3", first=True)
    b = opened("9 9 9 9 2 2").meld(0, ("9", "9 9 9 2"), ("9", "2 9"))
    assert_ok(b.lines)


def test_R_M4_wild_meld_only_wilds() -> None:
    assert_ok(opened("2 2 JK").meld(0, ("W", "2 2 JK")).lines)
    assert_flags(opened("2 2 9").meld(0, ("W", "2 2 9")).lines, "R-M4", first=True)
    assert_flags(opened("2 2").meld(0, ("W", "2 2")).lines, "R-M4", first=True)


def test_R_M5_threes_never_melded() -> None:
    b = opened("B3 B3 B3").meld(0, ("B3", "B3 B3 B3"))
    assert_flags(b.lines, "R-M5", first=True)
    b = opened("9 9 B3").meld(0, ("9", "9 9 B3"))
    assert_flags(b.lines, "R-M5", first=True)


def test_R_M6_R_M7_book_at_seven_then_a_new_meld_of_the_rank() -> None:
    b = opened(n("9", 10)).meld(0, ("9", n("9", 7)), ("9", "9 9 9"))
    assert_ok(b.lines)
    b = opened(n("9", 5), stock_top="9 9").meld(0, ("9", n("9", 5)), ("9", "9 9"))
    assert_ok(b.lines)  # 5 + 2 = a book


def test_R_M6_meld_never_exceeds_seven() -> None:
    b = opened(n("9", 8)).meld(0, ("9", n("9", 8)))
    assert_flags(b.lines, "R-M6", first=True)
    b = opened(n("9", 7) + " 2").meld(0, ("9", n("9", 6) + " 2"), ("9", "9"))
    assert_flags(b.lines, "R-M2", first=True)  # nothing joins a book: "9" starts a new meld


def test_R_M1_R_O4_partner_extends_and_melds_freely_after_the_opening() -> None:
    d = make_deal(hands=["A A A 9 9 9", "", "9 5 5 5"], stock_top="4 5 6 7 8 8")
    b = TraceBuilder(d).draw(0).meld(0, ("A", "A A A"), ("9", "9 9 9")).discard(0, "4")
    b.idle_turn(1).draw(2).meld(2, ("9", "9"), ("5", "5 5 5")).discard(2, "8")
    assert_ok(b.lines)


# -- opening: R-O1, R-O2, R-O3, R-X11, W4 ------------------------------------------------------
def test_W4_seven_sixes_do_not_open_deal_1() -> None:
    b = TraceBuilder(make_deal(hands=[n("6", 7)])).draw(0).meld(0, ("6", n("6", 7)))
    assert_flags(b.lines, "R-O1", first=True)
    assert "35 < 50" in check(b.lines)[0].message


@pytest.mark.parametrize(
    ("deal", "good", "bad"),
    [
        (1, [("K", "K K K 2")], [("K", "K K K"), ("5", "5 5 5")]),
        (2, [("A", "A A A"), ("K", "K K K")], [("A", "A A A"), ("5", "5 5 5")]),
        (3, [("A", n("A", 6))], [("A", n("A", 5))]),
        (4, [("W", "JK JK JK")], [("W", "JK JK 2")]),
    ],
)
def test_R_O1_R_O2_opening_minimum_per_deal(deal: int, good: list, bad: list) -> None:
    """50 / 90 / 120 / 150; several melds of one line add up (R-O2)."""
    seat = (deal + 3) % 4  # left of dealer (R-X16)
    hand = "A A A A A A K K K 5 5 5 2" if deal < 4 else "JK JK JK 2"
    hands = [[] for _ in range(4)]
    hands[seat] = hand.split()
    d = make_deal(hands=hands, deal=deal, stock_top="4 4")
    assert_ok(TraceBuilder(d).draw(seat).meld(seat, *good).lines)
    assert_flags(TraceBuilder(d).draw(seat).meld(seat, *bad).lines, "R-O1", first=True)


def test_R_O1_the_first_meld_line_must_reach_the_minimum_alone() -> None:
    b = TraceBuilder(make_deal(hands=["Q Q Q K K K"])).draw(0)
    b.meld(0, ("Q", "Q Q Q")).meld(0, ("K", "K K K"))
    assert_flags(b.lines, "R-O1", first=True)
    b = TraceBuilder(make_deal(hands=["Q Q Q K K K"])).draw(0)
    assert_ok(b.meld(0, ("Q", "Q Q Q"), ("K", "K K K")).lines)


def test_R_O3_R_X11_pickup_opening_counts_only_the_pickup_melds() -> None:
    d = make_deal(hands=["K", "K K A A A"], stock_top="4 5")
    b = TraceBuilder(d).draw(0).discard(0, "K")
    b.pickup(1, ("K", "K K K")).meld(1, ("A", "A A A"))
    assert_flags(b.lines, "R-O1", first=True)
    b = TraceBuilder(d).draw(0).discard(0, "K")
    assert_ok(b.pickup(1, ("K", "K K K"), ("A", "A A A")).lines)


# -- picking up the pile: R-PU1..R-PU5, R-X12, W1, W2, W3 --------------------------------------
def w1_builder(seat3: str, seat1_second: str = "J") -> TraceBuilder:
    """Pile of 8 with K on top when seat 3 plays (W1)."""
    d = make_deal(
        hands=["6 10", "7 " + seat1_second, "8 K", seat3],
        discard="5",
        stock_top="Q Q Q Q Q Q Q Q Q Q Q Q Q Q",
    )
    b = TraceBuilder(d)
    for seat, card in [(0, "6"), (1, "7"), (2, "8"), (3, "9"), (0, "10"), (1, seat1_second)]:
        b.draw(seat).discard(seat, card)
    return b.draw(2).discard(2, "K")


def test_W1_pickup_with_held_pair_and_wild_opens_deal_1() -> None:
    """K K 2 held, K on top of 8: meld K K K 2 = 50, take the other 6, discard one of them."""
    b = w1_builder("9 K K 2")
    b.pickup(3, ("K", "K K K 2"))
    assert b.lines[-1]["taken"] == ["K", "J", "10", "9", "8", "7", "6"]
    b.discard(3, "J")  # R-PU5: a taken card is now held
    assert_ok(b.lines)


def test_W1_R_PU3_buried_wild_cannot_qualify_the_pickup() -> None:
    b = w1_builder("9 K K", seat1_second="2")
    b.pickup(3, ("K", "K K K 2"))
    assert b.lines[-1]["taken"][1] == "2"
    assert_flags(b.lines, "R-PU3", first=True)


def test_R_PU_taken_is_the_top_seven_top_first() -> None:
    b = w1_builder("9 K K 2").pickup(3, ("K", "K K K 2"))
    bad = copy.deepcopy(b.lines)
    bad[-1]["taken"] = ["K", "J", "10"]
    assert_flags(bad, "R-PU", first=True)


def test_W2_nine_discarded_hold_9_9_2() -> None:
    d = make_deal(hands=["9", "9 9 2"], stock_top="4 5 6 7")
    b = TraceBuilder(d).draw(0).discard(0, "9").pickup(1, ("9", "9 9 9 2")).discard(1, "4")
    assert_ok(b.lines)


def test_R_PU2_pickup_needs_a_held_natural_pair() -> None:
    d = make_deal(hands=["9", "9 2 2 Q Q"], stock_top="4 5 6 7")
    b = TraceBuilder(d).draw(0).discard(0, "9").pickup(1, ("9", "9 9 2"), ("Q", "Q Q 2"))
    assert_flags(b.lines, "R-PU2")


@pytest.mark.parametrize(
    ("top", "held", "meld", "rule"),
    [
        ("2", "2 2", "2 2 2", None),
        ("JK", "JK JK", "JK JK JK", None),
        ("2", "JK JK", "2 JK JK", "R-PU2"),
        ("JK", "2 2 JK", "JK 2 2", "R-PU2"),
    ],
)
def test_R_PU2_R_T5_wild_on_top_needs_a_pair_of_that_wild(
    top: str, held: str, meld: str, rule: str | None
) -> None:
    d = make_deal(hands=[top, held + " A A A"], stock_top="4 5 6 7")
    b = TraceBuilder(d).draw(0).discard(0, top)
    b.pickup(1, ("W", meld), ("A", "A A A"))
    if rule is None:
        assert_ok(b.lines)
    else:
        assert_flags(b.lines, rule)


def test_R_PU1_R_T4_black_three_on_top_blocks_the_pile() -> None:
    d = make_deal(hands=["B3", "B3 B3 A A A"], stock_top="4 5 6 7")
    b = TraceBuilder(d).draw(0).discard(0, "B3")
    b.pickup(1, ("B3", "B3 B3 B3"), ("A", "A A A"))
    assert_flags(b.lines, "R-PU1", first=True)


def w3_builder(eights: int) -> TraceBuilder:
    """W3: seat 0 melds 5 eights; top of the pile an 8, another 8 buried 3 below it."""
    d = make_deal(hands=[n("8", eights + 6) + " 2", "Q", "J", "8"], stock_top="4 5 6 7 9 9 10 10")
    b = TraceBuilder(d).draw(0).meld(0, ("8", n("8", 5))).discard(0, "8")
    b.draw(1).discard(1, "Q").draw(2).discard(2, "J").draw(3).discard(3, "8")
    assert b.pile[-4:] == ["8", "Q", "J", "8"]
    return b


def test_W3_R_PU4_X12_hold_8_8_8_2_complete_the_book_and_start_a_new_meld() -> None:
    b = w3_builder(3).pickup(0, ("8", "8 8"), ("8", "8 8 2"))
    b.meld(0, ("8", "8"))  # the buried eight joins the new meld afterwards
    b.discard(0, "J")
    assert_ok(b.lines)


def test_W3_R_PU4_hold_8_8_2_is_not_enough() -> None:
    b = w3_builder(2).pickup(0, ("8", "8 8"), ("8", "8 2"))
    assert_flags(b.lines, "R-PU4")


def test_R_PU4_merely_adding_the_top_card_is_not_enough() -> None:
    b = w3_builder(3).pickup(0, ("8", "8"))
    assert_flags(b.lines, "R-PU4", first=True)
    b = w3_builder(3).pickup(0, ("8", "8 8 8"))  # 5 + 3: no book, no new meld
    assert_flags(b.lines, "R-PU4")


# -- going out: R-G1..R-G4, R-X14, R-X15, R-S, W5, W6 ------------------------------------------
def out_deal(
    *,
    ask: bool = True,
    granted: bool = True,
    wild_book: bool = True,
    partner_on_foot: bool = True,
) -> TraceBuilder:
    """Seats 0 and 2 go out in seat 0's second turn; seats 1 and 3 never reach the Foot.

    Partnership 0 books: clean 9x7 (seat 0) and 10x7 (seat 2); dirty 9x5+2+2 (seat 0) and
    K K K (seat 2) + K K K 2 (seat 0); wild JK JK JK 2 2 2 2 (seat 0). Seat 1's Foot holds a
    red three (W6).
    """
    d = make_deal(
        hands=[n("9", 12) + " 2", n("5", 13), n("10", 7) + " K K K J J J", n("7", 13)],
        feet=["JK JK JK 2 2 2 2 2 K K K A A", "R3 " + n("Q", 12), n("8", 13), n("6", 13)],
        discard="J",
        stock_top="2 4 6 6 J J 4 4 A 4",
    )
    b = TraceBuilder(d).draw(0)
    b.meld(0, ("9", n("9", 7)), ("9", "9 9 9 9 9 2 2")).discard(0, "4")
    b.draw(1).discard(1, "6").draw(2)
    if partner_on_foot:
        b.meld(2, ("10", n("10", 7)), ("K", "K K K"), ("J", n("J", 5))).foot(2).discard(2, "8")
    else:
        b.meld(2, ("10", n("10", 7)), ("K", "K K K"), ("J", n("J", 4))).discard(2, "J")
    b.draw(3).discard(3, "4").foot(0).draw(0)
    if ask:
        b.ask(0, granted)
    if wild_book:
        b.meld(0, ("W", "JK JK JK 2 2 2 2"), ("K", "K K K 2"), ("A", "A A A"))
    else:
        b.meld(0, ("W", "JK JK JK 2 2 2"), ("K", "K K K 2"), ("A", "A A A 2"))
    return b.discard(0, "4").out(0)


# Worked out by hand: melded 70 + 90 + 70 + 80 + 50 + 230 + 60 = 650; left: seat 2's Foot 8 x 12
# = -120; books 2 x 500 + 2 x 300 + 1500 = 3100; out 100. Partnership 1: Hands 5x13+6 and 7x13+4
# (70 + 70), Feet Q x 12 + R3 and 6 x 13 (120 + 65): left -325, red three hidden -100 (W6).
OUT_BREAKDOWN = [
    {"melded": 650, "left": -120, "red3": 0, "books": 3100, "out": 100},
    {"melded": 0, "left": -325, "red3": -100, "books": 0, "out": 0},
]
OUT_SCORES = [3730, -425]


def test_R_G1_R_G3_R_S_legal_going_out_and_its_scores() -> None:
    b = out_deal().end("out", OUT_SCORES, OUT_BREAKDOWN)
    assert_ok(b.lines, complete=True)


def test_W6_red_three_in_an_unpicked_foot_scores_minus_100() -> None:
    good = out_deal().end("out", OUT_SCORES, OUT_BREAKDOWN)
    assert_ok(good.lines, complete=True)
    bad = copy.deepcopy(good.lines)
    bad[-1]["breakdown"][1]["red3"] = 0
    bad[-1]["breakdown"][1]["left"] = -325
    bad[-1]["scores"][1] = -325
    found = check_trace(bad)
    assert {v.rule for v in found} == {"R-S3", "R-S"}


def test_W5_book_values_570_and_390() -> None:
    """Partnership 0 lays a clean book of nines (70 + 500), partnership 1 five nines and two twos
    (90 + 300); the deal then ends by the stock."""
    d = make_deal(hands=[n("9", 7), n("9", 5) + " 2 2"], feet=[[], n("R3", 5), [], n("R3", 5)])
    b = TraceBuilder(d).draw(0).meld(0, ("9", n("9", 7))).discard(0, "4")
    b.draw(1).meld(1, ("9", "9 9 9 9 9 2 2")).discard(1, "4")
    idle_until_short(b, 2)
    scores, breakdown = end_parts(b, melded=(70, 90), books=(500, 300))
    assert [p["melded"] + p["books"] for p in breakdown] == [570, 390]
    good = copy.deepcopy(b.lines)
    good.append({"type": "end", "reason": "stock", "scores": scores, "breakdown": breakdown})
    assert_ok(good, complete=True)
    for p, wrong in ((0, 300), (1, 500)):  # clean and dirty bonuses swapped
        bad = copy.deepcopy(good)
        bad[-1]["breakdown"][p]["books"] = wrong
        bad[-1]["scores"][p] += wrong - breakdown[p]["books"]
        assert {v.rule for v in check_trace(bad)} == {"R-S4", "R-S"}


def test_R_S_each_breakdown_part_is_checked() -> None:
    for key, rule in [("melded", "R-S1"), ("left", "R-S2"), ("out", "R-S5")]:
        b = out_deal().end("out", OUT_SCORES, copy.deepcopy(OUT_BREAKDOWN))
        b.lines[-1]["breakdown"][0][key] += 5
        assert {v.rule for v in check_trace(b.lines)} == {rule}
    b = out_deal().end("out", [3735, -425], OUT_BREAKDOWN)
    assert {v.rule for v in check_trace(b.lines)} == {"R-S"}


def test_R_G4_R_X14_going_out_without_asking_is_rejected() -> None:
    assert_flags(out_deal(ask=False).lines, "R-G4", first=True)


def test_R_G3_R_X3_refused_permission_forbids_going_below_two_cards() -> None:
    assert_flags(out_deal(granted=False).lines, "R-G4", first=True)


def test_R_G1_going_out_needs_the_books() -> None:
    """No wild book: 2 clean and 2 dirty are not enough."""
    assert_flags(out_deal(wild_book=False).lines, "R-G1", first=True)


def test_R_G2_R_X15_partner_must_be_on_the_foot() -> None:
    assert_flags(out_deal(partner_on_foot=False).lines, "R-G2", first=True)


def test_R_G1_ask_from_the_hand_is_rejected() -> None:
    b = TraceBuilder(make_deal()).draw(0).ask(0, True)
    assert_flags(b.lines, "R-G1", first=True)


def test_R_G4_discard_down_to_one_foot_card_is_ordinary_play() -> None:
    b = out_deal()
    cut = next(i for i, line in enumerate(b.lines) if line.get("type") == "ask")
    lines = b.lines[:cut]
    lines.append(
        {
            "type": "meld",
            "seat": 0,
            "melds": [
                {"rank": "W", "cards": "JK JK JK 2 2 2 2".split()},
                {"rank": "K", "cards": ["K", "K", "K"]},
                {"rank": "A", "cards": ["A", "A", "A"]},
            ],
        }
    )
    lines.append({"type": "discard", "seat": 0, "card": "4"})  # keeps one 2
    assert_ok(lines)


def test_R_G3_out_needs_an_empty_hand_and_R_E1_end_out_needs_out() -> None:
    b = out_deal()
    lines = b.lines[:-2] + [{"type": "out", "seat": 0}]  # out before the last discard
    assert_flags(lines, "R-G3", first=True)
    lines = b.lines[:-1] + [{"type": "end", "reason": "out", "scores": [], "breakdown": []}]
    assert_flags(lines, "R-G3", first=True)  # `out` missing after the last card
    b = TraceBuilder(make_deal())
    b.end("out", *end_parts(b))
    assert_flags(b.lines, "R-E1", first=True)


# -- games: R-D5, R-X7 ---------------------------------------------------------------------------
@pytest.fixture(scope="module")
def bot_game() -> list[dict]:
    return Bot(random.Random(11)).play_game(game=3)


def test_R_D5_R_X7_game_line_totals_and_winner(bot_game: list[dict]) -> None:
    assert_ok(bot_game, complete=True)
    bad = copy.deepcopy(bot_game)
    bad[-1]["winner"] = 1 - bad[-1]["winner"] if bad[-1]["winner"] is not None else 0
    assert {v.rule for v in check_trace(bad)} == {"R-X7"}
    bad = copy.deepcopy(bot_game)
    bad[-1]["totals"][0] += 10
    assert "R-S" in {v.rule for v in check_trace(bad)}


def test_R_D5_deals_of_a_game_in_order(bot_game: list[dict]) -> None:
    starts = [i for i, line in enumerate(bot_game) if line["type"] == "deal"]
    without_deal_2 = bot_game[: starts[1]] + bot_game[starts[2] :]
    assert "R-D5" in {v.rule for v in check_trace(without_deal_2)}
    assert "TRACE" in {v.rule for v in check_trace(bot_game[:-1])}  # no `game` line


def test_autoplayed_deals_pass() -> None:
    """Smoke test: long legal deals (red threes, pick-ups, Feet, going out, stock ends)."""
    for trace in generate_traces(6, seed=5):
        assert_ok(trace, complete=True)


# -- file and command line --------------------------------------------------------------------
def test_check_file_and_command_line(tmp_path: Path) -> None:
    good = out_deal().end("out", OUT_SCORES, OUT_BREAKDOWN).lines
    path = tmp_path / "good.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in good) + "\n")
    assert check_file(path) == []
    run = subprocess.run(
        [sys.executable, "-m", "tests.trace_checker", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0 and run.stdout.strip() == f"OK: 1 deals, {len(good)} lines"
    bad = copy.deepcopy(good)
    bad[1]["cards"] = ["4", "4"]
    path.write_text("\n".join(json.dumps(line) for line in bad) + "\n{oops\n")
    found = check_file(path)
    assert [v.rule for v in found] == ["R-T2", "TRACE"] and found[0].line == 2
    run = subprocess.run(
        [sys.executable, "-m", "tests.trace_checker", str(path)],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 1 and "line 2: [R-T2]" in run.stdout
