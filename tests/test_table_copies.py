"""The byte-block copies of a seat's cards and a partnership's table (sim.engine.bytecopy)
copy exactly the named rows, for every seat and partnership, and nothing else."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.rules import MAX_SEATS, MAX_TEAMS, Rules
from sim.engine import meldrules as mr
from sim.engine.bytecopy import same_layout
from sim.engine.layout import GAME_DTYPE, WORK_DTYPE, new_game
from sim.engine.legal import team_of

TABLE = ("meld", "books", "rank_books", "booked")


def _random_game(seed: int, rules: Rules | None = None):
    g = new_game((rules or Rules()).packed())[0]
    rng = np.random.default_rng(seed)
    for name in ("hand",) + TABLE:
        g[name][...] = rng.integers(0, 1000, size=g[name].shape)
    return g


def _work_with_sentinels():
    w = np.zeros(1, WORK_DTYPE)[0]
    w["entries"][...] = -7  # lies between the proposal and the plan copies
    w["cand_prop"][...] = -9  # lies after the scratch copies
    return w


def _assert_copies_seat_and_team(g, seat: int, team: int) -> None:
    """``table_to_plan`` copies the seat's hand and the partnership's table, and writes no
    other part of the work area."""
    w = _work_with_sentinels()
    mr.table_to_plan(g, w, seat, team)
    assert (w["plan_hand"] == g["hand"][seat]).all(), ("hand", seat, team)
    for name in TABLE:
        assert (w["plan_" + name] == g[name][team]).all(), (name, seat, team)
    assert (w["entries"] == -7).all() and (w["cand_prop"] == -9).all()


@pytest.mark.parametrize(("players", "partnerships"), [(4, 2), (6, 2), (6, 3)])
def test_table_to_plan_copies_the_seat_and_its_partnership(players, partnerships):
    """Every seat of a real partnership layout, its partnership as the engine assigns it
    (``team_of``): seat 2 of four plays for partnership 0, so the seat's hand row and the
    partnership's table rows differ and a copy that takes one index for the other is caught."""
    rules = Rules(players=players, partnerships=partnerships)
    swapped = 0
    for seat in range(players):
        g = _random_game(10 * players + seat, rules)
        team = team_of(g, seat)
        assert team == seat % partnerships
        _assert_copies_seat_and_team(g, seat, team)
        if seat != team:
            # the rows a swap would copy hold other values (random, so this is a guard)
            assert not (g["hand"][team] == g["hand"][seat]).all()
            swapped += 1
    assert swapped >= players - partnerships


@pytest.mark.parametrize("seat", range(MAX_SEATS))
def test_table_to_plan_takes_seat_and_partnership_apart(seat):
    """Every seat with a partnership index other than its own (the copy is given both and
    must use each for its own rows), so no seat/partnership pair of the limits is left out."""
    team = (seat + 1) % MAX_TEAMS
    g = _random_game(50 + seat)
    _assert_copies_seat_and_team(g, seat, team)


@pytest.mark.parametrize("team", range(MAX_TEAMS))
def test_scratch_and_held_copies_come_from_the_game(team):
    g = _random_game(100 + team)
    w = _work_with_sentinels()
    mr.table_to_scratch(g, w, team)
    for name in TABLE:
        assert (w["tmp_" + name] == g[name][team]).all(), name
    seat = (team + 1) % MAX_SEATS  # a seat index other than the partnership's
    mr.hand_to_avail(g, w, seat)
    assert (w["avail"] == g["hand"][seat]).all()
    assert (w["entries"] == -7).all() and (w["cand_prop"] == -9).all()


def test_a_copy_between_different_layouts_is_refused():
    with pytest.raises(AssertionError, match="cannot be copied"):
        same_layout(GAME_DTYPE, "hand", WORK_DTYPE, "plan_meld", True, False)


def _table_state(g, team):
    return [g[name][team].copy() for name in TABLE]


@pytest.mark.parametrize("profile", ["standard", "eleven", "saskatchewan", "simpson",
                                     "brouillette", "brouillette-partners"])
def test_a_dry_check_gives_place_entrys_verdict_and_changes_nothing(profile):
    """fits_on_table / fits_in_plan (place_entry without applying) against place_entry on a
    copy, over 800 random tables and entries of every shape, under each profile's meld rules."""
    from sim.core.cards import N_RANKS
    from sim.core.profiles import get_profile

    g = new_game(get_profile(profile).packed())[0]
    w = np.zeros(1, WORK_DTYPE)[0]
    rng = np.random.default_rng(7)
    verdicts = set()
    for trial in range(800):
        team = int(rng.integers(0, 2))
        g["meld"][team] = 0
        for rank in rng.choice(N_RANKS, size=4, replace=False):
            g["meld"][team, rank] = rng.integers(0, 4, size=3)
        g["rank_books"][team] = rng.integers(0, 2, size=N_RANKS)
        g["books"][team] = rng.integers(0, 3, size=4)
        entry = (int(rng.integers(0, N_RANKS)), int(rng.integers(0, 8)),
                 int(rng.integers(0, 3)), int(rng.integers(0, 2)))
        before = _table_state(g, team)
        expected = mr.place_entry(g, *[a.copy() for a in before], *entry, 0)
        assert mr.fits_on_table(g, team, *entry) == expected, (trial, entry)
        after = _table_state(g, team)
        assert all((a == b).all() for a, b in zip(before, after, strict=True)), trial
        mr.table_to_plan(g, w, 0, team)
        assert mr.fits_in_plan(g, w, *entry) == expected, (trial, entry)
        assert all((w["plan_" + n] == b).all() for n, b in zip(TABLE, before, strict=True)), trial
        verdicts.add(expected)
    assert len(verdicts) >= 5, verdicts  # refusals of several kinds, and OK, were met
