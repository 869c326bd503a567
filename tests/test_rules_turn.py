"""A turn (R-T), the Foot (R-F), going out (R-G), the end of a deal (R-E) and our decisions
R-X1..R-X17, played through ``sim.play.loop.play_turn`` on stacked positions."""

from __future__ import annotations

from sim.core.enums import Ending
from sim.engine.layout import S_ENDED, S_GRANTED, S_OUT_SEAT, S_PILE_N, S_STOCK_N
from sim.engine.legal import may_go_out
from sim.engine.reasons import (
    E_DISCARD_NEEDS_GRANT,
    E_DISCARD_NO_BOOKS,
    E_FOOT_NEEDS_TWO,
    E_NO_BOOKS,
    OK,
)
from strategies.judgement import going_out_wins_deal
from tests.position import entries, held, position

ENOUGH_BOOKS = {0: (2, 2, 1)}


def ended(arr) -> int:
    return int(arr[0]["sc"][S_ENDED])


def test_R_T1_R_T2_draw_two_meld_discard():
    arr = position(hands={0: ["K", "K", "4", "9"]}, stock=["K", "5", "6", "7"], pile=["B3"],
                   opened=(0,))
    arr.play_turn(0)
    assert arr[0]["sc"][S_STOCK_N] == 2  # exactly two drawn
    assert arr[0]["meld"][0, 9, 0] == 3  # melded K K K
    assert arr[0]["sc"][S_PILE_N] == 2  # one discard on the pile
    assert sum(held(arr, 0).values()) == 2


def test_R_T3_R_X6_red_threes_exposed_and_replaced_one_by_one():
    """R-T3, R-X6: a drawn red three is exposed; a replacement red three is too, in order."""
    arr = position(hands={0: ["4", "9", "Q"]}, stock=["R3", "R3", "R3", "A", "5", "6"],
                   pile=["B3"], opened=(0,), trace=True)
    arr.play_turn(0)
    assert arr[0]["red3"][0] == 3
    assert held(arr, 0)["R3"] == 0
    assert arr[0]["sc"][S_STOCK_N] == 1  # 2 drawn + 3 replacements
    from sim.core.rules import Rules
    from sim.runs.trace import decode

    lines = [x for x in decode(arr.t, Rules(), 0, 0) if x["type"] in ("draw", "red3")]
    assert lines[0] == {"type": "draw", "seat": 0, "cards": ["R3", "R3"]}
    assert lines[1] == {"type": "red3", "seat": 0, "count": 2, "replaced_with": ["R3", "A"]}
    assert lines[2] == {"type": "red3", "seat": 0, "count": 1, "replaced_with": ["5"]}


def test_R_X1_R_X9_red_three_without_replacement_ends_the_deal_and_still_scores():
    arr = position(hands={0: ["4", "9", "Q"]}, stock=["5", "R3"], pile=["B3"], opened=(0,))
    arr.play_turn(0)
    assert ended(arr) == Ending.STOCK
    assert arr[0]["red3"][0] == 1  # exposed: +100 at scoring (R-X9)
    import numpy as np

    from sim.engine.scoring import N_PARTS, score_parts

    parts = np.zeros(N_PARTS, dtype=np.int64)
    score_parts(arr.g, 0, parts)
    assert parts[2] == 100


def test_R_E1_R_X2_stock_short_ends_the_deal_without_out_bonus():
    arr = position(hands={0: ["4", "9", "Q"]}, stock=["5"], pile=["B3"], opened=(0,))
    arr.play_turn(0)
    assert ended(arr) == Ending.STOCK and arr[0]["sc"][S_OUT_SEAT] == -1
    assert held(arr, 0) == {"4": 1, "9": 1, "Q": 1}  # nothing was drawn


def test_R_E2_R_X17_picking_up_is_still_allowed_with_a_short_stock():
    arr = position(hands={0: ["K", "K", "4", "9"]}, stock=["5"], pile=["Q", "K"], opened=(0,))
    arr.play_turn(0)
    assert ended(arr) == Ending.NONE
    assert arr[0]["meld"][0, 9, 0] == 3


def test_R_F1_R_F3_R_X10_empty_hand_picks_up_the_foot_before_drawing():
    arr = position(hands={0: []}, feet={0: ["R3"] + ["9"] * 12}, stock=["5", "6", "7", "8"],
                   pile=["B3"], opened=(0,))
    arr.play_turn(0)
    assert arr[0]["on_foot"][0] == 1
    assert arr[0]["red3"][0] == 1  # the Foot's red three exposed and replaced (R-T3)
    assert arr[0]["sc"][S_STOCK_N] == 1  # replacement + the normal draw of two


def test_R_X10_foot_first_then_the_stock_rule():
    """R-X10: the Foot is picked up even when the stock is then too short to draw."""
    arr = position(hands={0: []}, feet={0: ["9"] * 13}, stock=["5"], pile=["B3"], opened=(0,))
    arr.play_turn(0)
    assert arr[0]["on_foot"][0] == 1 and ended(arr) == Ending.STOCK


def test_R_F2_R_X5_melding_the_last_hand_card_continues_from_the_foot():
    foot = ["Q"] * 3 + ["4", "5", "6", "7", "8", "9", "10", "J", "A", "B3"]
    arr = position(hands={0: ["K", "K"]}, feet={0: foot},
                   melds=[(0, "K", ["K"] * 3)], stock=["K", "K", "4"], pile=["B3"], opened=(0,))
    arr.play_turn(0)
    assert arr[0]["on_foot"][0] == 1
    assert arr[0]["books"][0, 0] == 1  # K K K + K K K K: a clean book
    assert arr[0]["meld"][0, 10 - 2, 0] == 3  # R-X5: Q Q Q melded from the Foot this turn
    assert arr[0]["sc"][S_PILE_N] == 2  # and the turn ended with a discard from the Foot


def test_R_G1_no_going_out_without_the_books():
    arr = position(hands={0: ["9", "9", "9", "4"]}, on_foot=(0, 2), opened=(0,),
                   books={0: (2, 2, 0)})
    arr[0]["sc"][S_GRANTED] = 1
    e, n = entries(("9", ["9"] * 3))
    assert arr.lay(0, e, n) == OK  # one card left: allowed with a grant
    assert arr.discard(0, 0) == E_DISCARD_NO_BOOKS  # but not the last one without a wild book
    arr = position(hands={0: ["9", "9", "9"]}, on_foot=(0, 2), opened=(0,),
                   books={0: (2, 2, 0)})
    arr[0]["sc"][S_GRANTED] = 1
    assert arr.lay(0, e, n) == E_NO_BOOKS


def test_R_G2_R_X15_partner_must_have_picked_up_the_foot():
    arr = position(hands={0: ["9", "9"]}, on_foot=(0,), opened=(0,), books=ENOUGH_BOOKS)
    assert not may_go_out(arr.g, 0)
    arr = position(hands={0: ["9", "9"]}, on_foot=(0, 2), opened=(0,), books=ENOUGH_BOOKS)
    assert may_go_out(arr.g, 0)
    arr = position(hands={0: ["9", "9"]}, opened=(0,), books=ENOUGH_BOOKS, on_foot=(2,))
    assert not may_go_out(arr.g, 0)  # R-G1: the asker must be on the Foot too


def test_R_G3_R_X3_ask_granted_when_going_out_wins_then_out():
    arr = position(hands={0: ["9", "9"], 2: ["5", "6"]}, on_foot=(0, 2), opened=(0,),
                   books=ENOUGH_BOOKS, melds=[(0, "9", ["9"] * 3)], stock=["9", "4", "8"],
                   pile=["B3"], trace=True)
    arr.play_turn(0)
    assert ended(arr) == Ending.OUT and arr[0]["sc"][S_OUT_SEAT] == 0
    assert sum(held(arr, 0).values()) == 0
    from sim.core.rules import Rules
    from sim.runs.trace import decode

    kinds = [x["type"] for x in decode(arr.t, Rules(), 0, 0)]
    assert kinds.index("ask") < kinds.index("out")


def test_R_X3_permission_refused_when_going_out_loses_the_deal():
    arr = position(hands={0: ["9", "9"], 2: ["5", "6"]}, on_foot=(0, 2), opened=(0, 1),
                   books={0: (2, 2, 1), 1: (5, 5, 2)}, melds=[(0, "9", ["9"] * 3)],
                   stock=["9", "4", "8"], pile=["B3"])
    assert not going_out_wins_deal(arr.g, 2)
    arr.play_turn(0)
    assert ended(arr) == Ending.NONE
    assert sum(held(arr, 0).values()) >= 1


def test_R_G4_R_X14_on_the_foot_keep_two_cards_without_permission():
    arr = position(hands={0: ["9", "9", "9", "4"]}, on_foot=(0,), opened=(0,))
    e, n = entries(("9", ["9"] * 3))
    assert arr.lay(0, e, n) == E_FOOT_NEEDS_TWO
    arr = position(hands={0: ["9", "9", "9", "4", "5"]}, on_foot=(0,), opened=(0,))
    assert arr.lay(0, e, n) == OK  # two left
    assert arr.discard(0, 0) == OK  # down to one card: ordinary play
    assert arr.discard(0, 1) == E_DISCARD_NEEDS_GRANT  # the last card only when going out


def test_R_G4_hand_phase_may_meld_everything():
    arr = position(hands={0: ["9", "9", "9"]}, opened=(0,))
    e, n = entries(("9", ["9"] * 3))
    assert arr.lay(0, e, n) == OK


def test_R_T1_turns_end_with_a_discard_or_going_out(engine_traces):
    """R-T1: every turn is one draw or pick-up, melds, then a discard unless going out."""
    for game in engine_traces:
        current = None
        started = False
        for line in game:
            t = line["type"]
            if t in ("draw", "pickup"):
                assert not started, "two draws in a turn"
                started = True
                current = line["seat"]
            elif t in ("meld", "ask", "discard"):
                assert line["seat"] == current and started
                if t == "discard":
                    started = False
            elif t == "out":  # after the last meld, or after the final discard
                assert line["seat"] == current
                started = False
            elif t == "end":
                assert not started or line["reason"] == "stock"
                started = False
