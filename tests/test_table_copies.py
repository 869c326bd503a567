"""The byte-block copies of a seat's cards and a partnership's table (sim.engine.bytecopy)
copy exactly the named rows, for every seat and partnership, and nothing else."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.rules import MAX_SEATS, MAX_TEAMS, Rules
from sim.engine import meldrules as mr
from sim.engine.bytecopy import same_layout
from sim.engine.layout import GAME_DTYPE, WORK_DTYPE, new_game

TABLE = ("meld", "books", "rank_books", "booked")


def _random_game(seed: int):
    g = new_game(Rules().packed())[0]
    rng = np.random.default_rng(seed)
    for name in ("hand",) + TABLE:
        g[name][...] = rng.integers(0, 1000, size=g[name].shape)
    return g


def _work_with_sentinels():
    w = np.zeros(1, WORK_DTYPE)[0]
    w["entries"][...] = -7  # lies between the proposal and the plan copies
    w["cand_prop"][...] = -9  # lies after the scratch copies
    return w


@pytest.mark.parametrize("seat", range(MAX_SEATS))
def test_table_to_plan_copies_the_seat_and_its_partnership(seat):
    g = _random_game(seat)
    team = seat % MAX_TEAMS
    w = _work_with_sentinels()
    mr.table_to_plan(g, w, seat, team)
    assert (w["plan_hand"] == g["hand"][seat]).all()
    for name in TABLE:
        assert (w["plan_" + name] == g[name][team]).all(), name
    assert (w["entries"] == -7).all() and (w["cand_prop"] == -9).all()


@pytest.mark.parametrize("team", range(MAX_TEAMS))
def test_scratch_copies_come_from_the_table_or_the_plan(team):
    g = _random_game(100 + team)
    w = _work_with_sentinels()
    mr.table_to_scratch(g, w, team)
    for name in TABLE:
        assert (w["tmp_" + name] == g[name][team]).all(), name
    mr.table_to_plan(g, w, 0, (team + 1) % MAX_TEAMS)
    mr.plan_to_scratch(w)
    for name in TABLE:
        assert (w["tmp_" + name] == w["plan_" + name]).all(), name
    mr.hand_to_avail(g, w, team)
    assert (w["avail"] == g["hand"][team]).all()
    assert (w["entries"] == -7).all() and (w["cand_prop"] == -9).all()


def test_a_copy_between_different_layouts_is_refused():
    with pytest.raises(AssertionError, match="cannot be copied"):
        same_layout(GAME_DTYPE, "hand", WORK_DTYPE, "plan_meld", True, False)
