"""Strategies: no cheating, each tactician knob changes the decision it names, files."""

from __future__ import annotations

import numpy as np
import pytest

from sim.play.api import make_state
from sim.core.cards import KIND_INDEX, N_KINDS
from sim.deal import setup_deal
from sim.engine import play_turn
from sim.core.profiles import STANDARD
from sim.state import S_ENDED, S_PILE_N, S_STOCK_N, S_TURN
from strategies import dispatch
from strategies.registry import REGISTRY, StrategyError, load, resolve_seats
from tests.position import position

STRATEGIES = ["random", "greedy", "tactician", "cautious"]


def mid_deal_states(strategy: str, count: int = 12):
    """Real positions: a deal played turn by turn up to some turn, then frozen."""
    rng = np.random.default_rng(5)
    for k in range(count):
        arr = make_state(STANDARD, [strategy] * 4)
        st = arr[0]
        setup_deal(st, 40 + k, 0, 1 + k % 4)
        seat = (int(st["sc"][4]) + 1) % 4
        stop = int(rng.integers(5, 70))
        for _ in range(stop):
            st["sc"][S_TURN] += 1
            play_turn(st, seat)
            if st["sc"][S_ENDED]:
                break
            seat = (seat + 1) % 4
        if not st["sc"][S_ENDED]:
            yield arr, seat


def scramble_hidden(arr, seat: int, rng) -> np.ndarray:
    """Change everything ``seat`` may not see: other hands, every unpicked Foot (its own
    too), the stock order. Counts of cards stay (they are visible)."""
    other = arr.copy()
    st = other[0]
    for s in range(4):
        if s != seat:
            n = int(st["hand"][s].sum())
            st["hand"][s] = np.bincount(rng.integers(0, N_KINDS - 2, n), minlength=N_KINDS)
        if st["on_foot"][s] == 0:
            n = int(st["foot"][s].sum())
            st["foot"][s] = np.bincount(rng.integers(0, N_KINDS - 2, n), minlength=N_KINDS)
    n = int(st["sc"][S_STOCK_N])
    st["stock"][:n] = rng.permutation(st["stock"][:n])
    return other


def decisions(arr, seat: int):
    st = arr[0]
    out = {}
    work = arr.copy()
    n = dispatch.choose_pickup(work[0], seat)
    out["pickup"] = (n, work[0]["entries"][: max(n, 0)].tolist())
    work = arr.copy()
    out["want_out"] = dispatch.meld_phase(work[0], seat)
    out["after_meld"] = (work[0]["hand"][seat].tolist(), work[0]["meld"].tolist(),
                         work[0]["books"].tolist())
    work = arr.copy()
    out["discard"] = dispatch.choose_discard(work[0], seat)
    work = arr.copy()
    out["grant"] = dispatch.grant(work[0], (seat + 2) % 4, seat)
    assert st is not None
    return out


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_no_cheating_hidden_information_does_not_change_decisions(strategy):
    rng = np.random.default_rng(11)
    checked = 0
    for arr, seat in mid_deal_states(strategy):
        for _ in range(3):
            other = scramble_hidden(arr, seat, rng)
            assert not np.array_equal(other[0]["stock"], arr[0]["stock"]) or \
                arr[0]["sc"][S_STOCK_N] < 2
            a, b = decisions(arr, seat), decisions(other, seat)
            a_cmp = {k: v for k, v in a.items() if k != "after_meld"}
            b_cmp = {k: v for k, v in b.items() if k != "after_meld"}
            assert a_cmp == b_cmp
            # what the seat melded is the same (its own cards and the table)
            assert a["after_meld"][0] == b["after_meld"][0]
            assert a["after_meld"][1] == b["after_meld"][1]
            checked += 1
    assert checked >= 20


def seat_params(name: str, **changes) -> tuple[np.ndarray, np.ndarray]:
    info = load(name)
    from strategies.registry import StrategyInfo

    info = StrategyInfo(name, info.id, "", {**info.params, **changes})
    return resolve_seats([info] * 4, 4, 16)


def with_params(arr, **changes):
    ids, params = seat_params("tactician", **changes)
    arr[0]["strategy"][:4] = ids
    arr[0]["params"][:4] = params
    return arr


def test_knob_min_pile_decides_whether_a_small_pile_is_worth_it():
    for min_pile, expected in ((1, True), (3, False)):
        arr = with_params(position(hands={0: ["K", "K", "4", "5"]}, pile=["Q", "K"],
                                   opened=(0,)), min_pile=min_pile)
        assert (dispatch.choose_pickup(arr[0], 0) > 0) is expected


def test_knob_open_extra_waits_for_a_bigger_opening():
    hand = ["A"] * 3 + ["4", "5", "6"]
    for extra, opens in ((0, True), (50, False)):
        arr = with_params(position(hands={0: hand}), open_extra=extra)
        dispatch.meld_phase(arr[0], 0)
        assert bool(arr[0]["opened"][0]) is opens


def test_knob_hold_wilds_keeps_wilds_out_of_melds():
    hand = ["K"] * 4 + ["2", "2", "4", "5", "6", "7"]
    for hold, melded_twos in ((0, 1), (1, 0)):
        arr = with_params(position(hands={0: hand}, opened=(0,), books={0: (0, 0, 1)}),
                          hold_wilds=hold)
        dispatch.meld_phase(arr[0], 0)
        assert 2 - arr[0]["hand"][0, KIND_INDEX["2"]] >= melded_twos
        if hold:
            assert arr[0]["hand"][0, KIND_INDEX["2"]] >= 1


def test_knob_books_before_partner_leaves_books_one_short():
    table = [(0, "K", ["K"] * 5)]
    for value, book in ((1, 1), (0, 0)):
        arr = with_params(position(hands={0: ["K", "K", "4", "5", "6"]}, melds=table,
                                   on_foot=(0,), opened=(0,)), books_before_partner=value)
        dispatch.meld_phase(arr[0], 0)
        assert arr[0]["books"][0, 0] == book


def test_knob_black3_block_discards_black_threes_first():
    for value, expected in ((1, "B3"), (0, "4")):
        arr = with_params(position(hands={0: ["B3", "4", "K", "K", "A", "A"]}, opened=(0,)),
                          black3_block=value)
        assert dispatch.choose_discard(arr[0], 0) == KIND_INDEX[expected]


def test_knob_discard_safety_avoids_what_the_next_opponent_took():
    for value, expected in ((0, "4"), (1, "5")):
        arr = with_params(position(hands={0: ["4", "5", "K", "K", "A", "A"]}, opened=(0,)),
                          discard_safety=value)
        arr[0]["taken"][1, KIND_INDEX["4"]] = 1  # seat 1 picked up a four earlier
        assert dispatch.choose_discard(arr[0], 0) == KIND_INDEX[expected]


def test_knob_wild_book_first_decides_where_wilds_go():
    table = [(0, "K", ["K"] * 6), (0, "W", ["2"] * 3)]
    for value, wild_meld_grows in ((1, True), (0, False)):
        arr = with_params(position(hands={0: ["JK", "4", "5", "6", "7"]}, melds=table,
                                   opened=(0,)), wild_book_first=value)
        dispatch.meld_phase(arr[0], 0)
        assert bool(arr[0]["meld"][0, 11].sum() == 4) is wild_meld_grows


@pytest.mark.parametrize("knob", ["go_out", "grant"])
def test_knob_go_out_and_grant_policies(knob):
    # Partnership 0 could go out but is far behind on the table.
    def arr_for(policy):
        arr = position(hands={0: ["9", "9", "9", "4"], 2: ["5", "6"]}, on_foot=(0, 2),
                       opened=(0, 1), books={0: (2, 2, 1), 1: (6, 6, 2)},
                       melds=[(0, "9", ["9"] * 3)], stock=["8", "8", "8"], pile=["B3"])
        return with_params(arr, **{knob: policy})

    if knob == "go_out":
        assert dispatch.meld_phase(arr_for(0)[0], 0) == 1  # always
        assert dispatch.meld_phase(arr_for(1)[0], 0) == 0  # not when behind on the deal
    else:
        assert dispatch.grant(arr_for(0)[0], 2, 0)
        assert not dispatch.grant(arr_for(1)[0], 2, 0)
        arr = arr_for(2)
        arr[0]["game_score"][:2] = (50_000, 0)  # far ahead on the game
        assert dispatch.grant(arr[0], 2, 0)


def test_knob_keep_pairs_breaks_a_single_instead_of_a_pair():
    for value, expected in ((0, "4"), (1, "K")):
        hand = ["4", "4", "K", "K", "K", "A", "A", "A"]
        arr = with_params(position(hands={0: hand}, opened=(0,)),
                          keep_pairs=value)
        assert dispatch.choose_discard(arr[0], 0) == KIND_INDEX[expected]


def test_strategy_files(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('base = "tactician"\nhold_wilds = 2\n[params]\ngo_out = 1\n')
    info = load(str(path))
    assert info.params["hold_wilds"] == 2 and info.params["go_out"] == 1
    for text, says in (('base = "nope"', "unknown strategy"), ("hold_wilds = 2", "needs base"),
                       ('base = "tactician"\nhold_wilds = 9', "outside 0..3"),
                       ('base = "tactician"\ncolour = 1', "unknown parameter"),
                       ('base = "greedy"\nhold_wilds = 1', "takes no parameters")):
        path.write_text(text + "\n")
        with pytest.raises(StrategyError, match=says):
            load(str(path))
    assert set(REGISTRY) >= {"random", "greedy", "tactician", "cautious"}
    assert S_PILE_N >= 0
