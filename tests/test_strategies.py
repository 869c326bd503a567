"""Strategies: each tactician knob changes the decision it names; strategy files. (No cheating:
tests/test_no_cheating.py.)"""

from __future__ import annotations

import pytest

from sim.core.cards import KIND_INDEX
from sim.core.enums import Decision
from sim.engine.flow import apply_decision
from sim.engine.layout import S_DECIDER, S_DECISION, S_SEAT
from sim.play.loop import decide
from strategies.registry import REGISTRY, StrategyError, StrategyInfo, load
from tests.position import position


def tactician(**changes) -> tuple[StrategyInfo, ...]:
    """Four tactician seats with some parameters changed."""
    info = load("tactician")
    return (StrategyInfo("tactician", info.module, "", {**info.params, **changes}),) * 4


def with_params(**changes):
    """Position keywords that seat tacticians with these parameters."""
    return {"strategies": tactician(**changes)}


def ask(arr, decision: int, seat: int, asker: int | None = None) -> int:
    """The seat's strategy's answer (through the engine's ``decide``) to ``decision``."""
    arr.g["sc"][S_SEAT] = seat if asker is None else asker
    arr.g["sc"][S_DECISION] = decision
    arr.g["sc"][S_DECIDER] = seat
    return int(decide(*arr.records()))


def meld(arr, seat: int) -> int:
    """The meld decision, applied by the engine; returns 1 when the seat asks to go out."""
    want_out = ask(arr, Decision.MELD, seat)
    apply_decision(arr.g, arr.w, arr.t, want_out)
    return want_out


def test_knob_min_pile_decides_whether_a_small_pile_is_worth_it():
    for min_pile, expected in ((1, True), (3, False)):
        arr = position(hands={0: ["K", "K", "4", "5"]}, pile=["Q", "K"], opened=(0,),
                       **with_params(min_pile=min_pile))
        assert (ask(arr, Decision.PICK_UP, 0) > 0) is expected


def test_knob_open_extra_waits_for_a_bigger_opening():
    hand = ["A"] * 3 + ["4", "5", "6"]
    for extra, opens in ((0, True), (50, False)):
        arr = position(hands={0: hand}, **with_params(open_extra=extra))
        meld(arr, 0)
        assert bool(arr[0]["opened"][0]) is opens


HOLD_HAND = ["K"] * 4 + ["Q"] * 4 + ["2", "2", "JK", "4", "5", "6", "7"]


def held_wilds(hold: int, hand: list[str] = HOLD_HAND, **where) -> tuple[int, int, bool]:
    """(twos, jokers) left in seat 0's hand after its meld decision with ``hold_wilds =
    hold``, and whether it is on the Foot. Books complete freely (``books_before_partner =
    1``), so without a hold the wilds go down into melds."""
    where = {"opened": (0,), "books": {0: (0, 0, 1)}, **where}
    arr = position(hands={0: hand}, **where,
                   **with_params(hold_wilds=hold, books_before_partner=1))
    meld(arr, 0)
    kept = arr[0]["hand"][0]
    return int(kept[KIND_INDEX["2"]]), int(kept[KIND_INDEX["JK"]]), bool(arr[0]["on_foot"][0])


def test_knob_hold_wilds_keeps_that_many_wilds_back_twos_first():
    """On the Hand, opened, the wild book made: without a hold all three wilds (2 2 JK) go
    down; ``hold_wilds = h`` keeps exactly h of them back (all it has when h is more), twos
    before the joker (a joker left in hand costs 50). A player that melds its wilds anyway,
    keeps the wrong ones or keeps too many fails here."""
    assert held_wilds(0) == (0, 0, False)  # there is something to hold back
    for hold, kept in ((1, (1, 0)), (2, (2, 0)), (3, (2, 1))):
        assert held_wilds(hold)[:2] == kept, hold


@pytest.mark.parametrize("where, hand", [
    ({"on_foot": (0,)}, HOLD_HAND),  # on the Foot: nothing left to hold for
    ({"books": {0: (0, 0, 0)}}, HOLD_HAND),  # the wild book still to make
    ({"opened": (), "books": {0: (0, 0, 0)}}, HOLD_HAND),  # never keeps it from opening
    ({}, ["K", "K", "K", "2"]),  # the held wild takes the last cards down, into the Foot
], ids=["on-the-foot", "before-the-wild-book", "before-opening", "melds-into-the-foot"])
def test_knob_hold_wilds_does_not_hold_where_holding_would_not_pay(where, hand):
    """Where the tactician's hold does not apply, every hold plays as hold 0, and hold 0 melds
    wilds there (so a hold applied anyway would show)."""
    free = held_wilds(0, hand, **where)
    assert free[0] + free[1] < sum(c in ("2", "JK") for c in hand)
    for hold in (1, 2, 3):
        assert held_wilds(hold, hand, **where) == free, hold


def test_knob_books_before_partner_leaves_books_one_short():
    table = [(0, "K", ["K"] * 5)]
    for value, book in ((1, 1), (0, 0)):
        arr = position(hands={0: ["K", "K", "4", "5", "6"]}, melds=table, on_foot=(0,),
                       opened=(0,), **with_params(books_before_partner=value))
        meld(arr, 0)
        assert arr[0]["books"][0, 0] == book


def test_knob_black3_block_discards_black_threes_first():
    for value, expected in ((1, "B3"), (0, "4")):
        arr = position(hands={0: ["B3", "4", "K", "K", "A", "A"]}, opened=(0,),
                       **with_params(black3_block=value))
        assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX[expected]


def test_knob_discard_safety_avoids_what_the_next_opponent_took():
    for value, expected in ((0, "4"), (1, "5")):
        arr = position(hands={0: ["4", "5", "K", "K", "A", "A"]}, opened=(0,),
                       **with_params(discard_safety=value))
        arr[0]["taken"][1, KIND_INDEX["4"]] = 1  # seat 1 picked up a four earlier
        assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX[expected]


def test_knob_wild_book_first_decides_where_wilds_go():
    table = [(0, "K", ["K"] * 6), (0, "W", ["2"] * 3)]
    for value, wild_meld_grows in ((1, True), (0, False)):
        arr = position(hands={0: ["JK", "4", "5", "6", "7"]}, melds=table, opened=(0,),
                       **with_params(wild_book_first=value))
        meld(arr, 0)
        assert bool(arr[0]["meld"][0, 11].sum() == 4) is wild_meld_grows


@pytest.mark.parametrize("knob", ["go_out", "grant"])
def test_knob_go_out_and_grant_policies(knob):
    # Partnership 0 could go out but is far behind on the table.
    def arr_for(policy):
        return position(hands={0: ["9", "9", "9", "4"], 2: ["5", "6"]}, on_foot=(0, 2),
                        opened=(0, 1), books={0: (2, 2, 1), 1: (6, 6, 2)},
                        melds=[(0, "9", ["9"] * 3)], stock=["8", "8", "8"], pile=["B3"],
                        **with_params(**{knob: policy}))

    if knob == "go_out":
        assert meld(arr_for(0), 0) == 1  # always
        assert meld(arr_for(1), 0) == 0  # not when behind on the deal
    else:
        assert ask(arr_for(0), Decision.GRANT, 2, asker=0) == 1
        assert ask(arr_for(1), Decision.GRANT, 2, asker=0) == 0
        arr = arr_for(2)
        arr[0]["game_score"][:2] = (50_000, 0)  # far ahead on the game
        assert ask(arr, Decision.GRANT, 2, asker=0) == 1


def test_knob_keep_pairs_breaks_a_single_instead_of_a_pair():
    for value, expected in ((0, "4"), (1, "K")):
        hand = ["4", "4", "K", "K", "K", "A", "A", "A"]
        arr = position(hands={0: hand}, opened=(0,), **with_params(keep_pairs=value))
        assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX[expected]


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


@pytest.mark.parametrize("name", list(REGISTRY))
def test_every_registered_strategy_is_a_whole_strategy(name, tmp_path):
    """A registered name is taken as it is (``load`` checks only files), so its entry is
    checked here: its kernel has the five compiled hooks, it sets exactly its kernel's
    parameters, each inside its range, and a strategy file on it (``base = name``) is the same
    strategy. (Every one plays checked games in tests/test_no_cheating.py, and ``handfoot
    strategies list`` lists them in tests/test_cli_strategies.py.)"""
    from strategies.hooks import hooks_of
    from strategies.registry import check_param

    info = load(name)
    assert info is REGISTRY[name] and info.base == name
    assert len(hooks_of(info)) == 5
    assert sorted(info.params) == sorted(p.name for p in info.param_specs), info.params
    for key, value in info.params.items():
        assert check_param(name, info.param_specs, key, value) == value, key
    path = tmp_path / f"{name}.toml"
    path.write_text(f'base = "{name}"\n')
    from_file = load(str(path))
    assert (from_file.module, from_file.params) == (info.module, info.params)
