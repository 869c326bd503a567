"""Strategies: no cheating, each tactician knob changes the decision it names, files."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.cards import KIND_INDEX, N_KINDS
from sim.core.profiles import STANDARD
from sim.engine.actions import lay_line
from sim.engine.flow import apply_decision, clear_proposal, next_turn, start_deal
from sim.engine.layout import (
    D_DISCARD,
    D_GRANT,
    D_MELD,
    D_NONE,
    D_PICKUP,
    GAME_DTYPE,
    S_DECIDER,
    S_DECISION,
    S_ENDED,
    S_PILE_N,
    S_SEAT,
    S_SEED,
    S_STOCK_N,
    W_ENTRIES,
    W_LINES,
)
from sim.engine.reasons import OK
from sim.play.api import Table, make_table
from sim.play.loop import decide
from strategies.kernels import HOOK_NAMES, hooks_of
from strategies.registry import REGISTRY, StrategyError, StrategyInfo, load
from tests.position import position

STRATEGIES = ["random", "greedy", "tactician", "cautious"]


def mid_deal_states(strategy: str, count: int = 12):
    """Real positions: a deal played decision by decision up to some turn (and some decisions
    into it), then frozen with a decision pending."""
    rng = np.random.default_rng(5)
    for k in range(count):
        table = make_table(STANDARD, [strategy] * 4)
        g, w, t = table.g, table.w, table.t
        start_deal(g, w, t, 40 + k, 0, 1 + k % 4)
        stop = int(rng.integers(5, 70))
        extra = int(rng.integers(0, 3))  # decisions into the frozen turn
        turns = 0
        while not g["sc"][S_ENDED]:
            if g["sc"][S_DECISION] == D_NONE:
                turns += 1
                next_turn(g, t)
                continue
            if turns >= stop:
                if extra == 0:
                    break
                extra -= 1
            apply_decision(g, w, t, decide(*table.records()))
        if not g["sc"][S_ENDED]:
            yield table, int(g["sc"][S_DECIDER])


def scramble_hidden(table: Table, seat: int, rng) -> np.ndarray:
    """Change everything ``seat`` may not see: other hands, every unpicked Foot (its own
    too), the stock order, the deal's random stream and root seed. Counts of cards stay
    (they are visible). Returns a new game record array."""
    other = table.game.copy()
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
    st["rng"][:] = rng.integers(0, 2**63, 2, dtype=np.uint64)
    st["sc"][S_SEED] = int(rng.integers(0, 2**31))
    return other


def decisions(table: Table, game: np.ndarray, seat: int):
    """Every hook's answer for ``seat`` (the grant: its partner's) on the game record
    ``game[0]``: the value it returns and the proposal it writes; and what its meld proposal
    does to its cards and the table once laid. Each hook starts from the same work area."""
    partner = (seat + 2) % 4
    out = {}
    for decision, name in enumerate(HOOK_NAMES):
        decider = partner if name == "grant" else seat
        hook = hooks_of(table.seats[decider])[decision]
        g = game.copy()
        work = table.work.copy()
        w = work[0]
        clear_proposal(w)
        value = int(hook(g[0], w, table.t, table.copies.copy(), decider))
        changed = [f for f in GAME_DTYPE.names if not np.array_equal(g[0][f], game[0][f])]
        assert not changed, f"{name} changed the game record: {changed}"
        rows = max(int(w["sc"][W_ENTRIES]), value if name == "choose_pickup" else 0)
        lines = int(w["sc"][W_LINES])
        out[name] = (value, int(w["sc"][W_ENTRIES]), lines, w["prop"][:rows].tolist(),
                     w["prop_line_end"][:lines].tolist())
        if name == "propose_melds":
            start = 0
            for end in w["prop_line_end"][:lines]:
                assert lay_line(g[0], w, table.t, seat, w["prop"][start:end], end - start) == OK
                start = end
            out["after_meld"] = (g[0]["hand"][seat].tolist(), g[0]["meld"].tolist(),
                                 g[0]["books"].tolist())
    return out


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_no_cheating_hidden_information_does_not_change_decisions(strategy):
    rng = np.random.default_rng(11)
    checked = 0
    for table, seat in mid_deal_states(strategy):
        for _ in range(3):
            other = scramble_hidden(table, seat, rng)
            assert not np.array_equal(other[0]["stock"], table.g["stock"]) or \
                table.g["sc"][S_STOCK_N] < 2
            a, b = decisions(table, table.game, seat), decisions(table, other, seat)
            a_cmp = {k: v for k, v in a.items() if k != "after_meld"}
            b_cmp = {k: v for k, v in b.items() if k != "after_meld"}
            assert a_cmp == b_cmp
            # what the seat melded is the same (its own cards and the table)
            assert a["after_meld"][0] == b["after_meld"][0]
            assert a["after_meld"][1] == b["after_meld"][1]
            assert a["after_meld"][2] == b["after_meld"][2]
            checked += 1
    assert checked >= 20


def tactician(**changes) -> tuple[StrategyInfo, ...]:
    """Four tactician seats with some parameters changed."""
    info = load("tactician")
    return (StrategyInfo("tactician", info.kernel, "", {**info.params, **changes}),) * 4


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
    want_out = ask(arr, D_MELD, seat)
    apply_decision(arr.g, arr.w, arr.t, want_out)
    return want_out


def test_knob_min_pile_decides_whether_a_small_pile_is_worth_it():
    for min_pile, expected in ((1, True), (3, False)):
        arr = position(hands={0: ["K", "K", "4", "5"]}, pile=["Q", "K"], opened=(0,),
                       **with_params(min_pile=min_pile))
        assert (ask(arr, D_PICKUP, 0) > 0) is expected


def test_knob_open_extra_waits_for_a_bigger_opening():
    hand = ["A"] * 3 + ["4", "5", "6"]
    for extra, opens in ((0, True), (50, False)):
        arr = position(hands={0: hand}, **with_params(open_extra=extra))
        meld(arr, 0)
        assert bool(arr[0]["opened"][0]) is opens


def test_knob_hold_wilds_keeps_wilds_out_of_melds():
    hand = ["K"] * 4 + ["2", "2", "4", "5", "6", "7"]
    for hold, melded_twos in ((0, 1), (1, 0)):
        arr = position(hands={0: hand}, opened=(0,), books={0: (0, 0, 1)},
                       **with_params(hold_wilds=hold))
        meld(arr, 0)
        assert 2 - arr[0]["hand"][0, KIND_INDEX["2"]] >= melded_twos
        if hold:
            assert arr[0]["hand"][0, KIND_INDEX["2"]] >= 1


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
        assert ask(arr, D_DISCARD, 0) == KIND_INDEX[expected]


def test_knob_discard_safety_avoids_what_the_next_opponent_took():
    for value, expected in ((0, "4"), (1, "5")):
        arr = position(hands={0: ["4", "5", "K", "K", "A", "A"]}, opened=(0,),
                       **with_params(discard_safety=value))
        arr[0]["taken"][1, KIND_INDEX["4"]] = 1  # seat 1 picked up a four earlier
        assert ask(arr, D_DISCARD, 0) == KIND_INDEX[expected]


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
        assert ask(arr_for(0), D_GRANT, 2, asker=0) == 1
        assert ask(arr_for(1), D_GRANT, 2, asker=0) == 0
        arr = arr_for(2)
        arr[0]["game_score"][:2] = (50_000, 0)  # far ahead on the game
        assert ask(arr, D_GRANT, 2, asker=0) == 1


def test_knob_keep_pairs_breaks_a_single_instead_of_a_pair():
    for value, expected in ((0, "4"), (1, "K")):
        hand = ["4", "4", "K", "K", "K", "A", "A", "A"]
        arr = position(hands={0: hand}, opened=(0,), **with_params(keep_pairs=value))
        assert ask(arr, D_DISCARD, 0) == KIND_INDEX[expected]


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
