"""``tactician``: the parametric strategy; ``cautious`` is one of its parameter vectors.

Every decision reads the seat's parameter vector (``strategies.params``), so sweeping a knob
needs no recompilation. Decisions read only what the seat may know: its own held cards, the
table, the pile, the cards each seat took from the pile, counts of other players' cards and
the game's earlier scores.
"""

from __future__ import annotations

from numba import njit

from sim.cards import JOKER, TWO
from sim.melds import (
    deal_index,
    held_count,
    needs_concealed_book,
    opening_minimum,
    team_of,
)
from sim.rules import R_OUT_DIRTY, R_OUT_WILD
from sim.state import BOOK_DIRTY, BOOK_WILD, S_PILE_N, S_PLAYERS, S_TEAMS
from strategies import params as P
from strategies import toolkit as tk
from strategies.greedy import WANT_OUT


@njit(cache=True)
def knob(st, seat: int, index: int) -> int:
    return int(st.params[seat, index])


@njit(cache=True)
def policy_allows(st, seat: int, policy: int, going_out: bool) -> bool:
    """ALWAYS, or only when ahead on the deal / on the game, as the seat sees it."""
    if policy == P.ALWAYS:
        return True
    return tk.deal_margin(st, seat, going_out, policy == P.AHEAD_ON_GAME) > 0


@njit(cache=True)
def opponents_close_to_out(st, seat: int) -> bool:
    """An opponent on the Foot with four cards or fewer (visible counts)."""
    teams = st.sc[S_TEAMS]
    team = seat % teams
    for s in range(st.sc[S_PLAYERS]):
        if s % teams != team and st.on_foot[s] == 1 and held_count(st, s) <= 4:
            return True
    return False


@njit(cache=True)
def choose_pickup(st, seat: int) -> int:
    if st.sc[S_PILE_N] < knob(st, seat, P.P_MIN_PILE):
        return 0
    n = tk.plan_pickup(st, seat, st.entries)
    return n if n > 0 else 0


@njit(cache=True)
def _hold_back_wilds(st, count: int) -> None:
    """Keep ``count`` wilds out of the plan, twos first (a joker left over costs 50)."""
    for _ in range(count):
        if st.plan_hand[TWO] > 0:
            st.plan_hand[TWO] -= 1
        elif st.plan_hand[JOKER] > 0:
            st.plan_hand[JOKER] -= 1


@njit(cache=True)
def _melds_into_foot(st, seat: int) -> bool:
    """Could everything held be melded now (the Hand emptied, the Foot taken at once)?"""
    tk.plan_reset(st, seat)
    n = tk.plan_naturals(st, st.entries2, 0)
    n = tk.plan_wild_meld(st, st.entries2, n)
    n = tk.plan_pairs_with_wild(st, st.entries2, n, 99)
    n = tk.plan_wilds_to_naturals(st, st.entries2, n, 99)
    return n > 0 and tk.plan_held(st) == 0


@njit(cache=True)
def meld_phase(st, seat: int) -> int:
    team = team_of(st, seat)
    if tk.may_go_out(st, seat):
        n_out, _ = tk.plan_go_out(st, seat, st.entries2)
        if n_out >= 0 and policy_allows(st, seat, knob(st, seat, P.P_GO_OUT), True):
            return WANT_OUT
    entries = st.entries
    d = deal_index(st)
    if st.opened[team] == 0 and needs_concealed_book(st):
        n = tk.plan_concealed_book(st, seat, entries)  # R-V5
    else:
        complete = (knob(st, seat, P.P_BOOKS_BEFORE_PARTNER) == 1 or st.on_foot[seat] == 0
                    or tk.partners_on_foot(st, seat) or opponents_close_to_out(st, seat))
        hold = 0
        if st.on_foot[seat] == 0 and st.books[team, BOOK_WILD] >= st.rules[R_OUT_WILD + d]:
            hold = knob(st, seat, P.P_HOLD_WILDS)  # once the wild books are made
        if hold > 0 and st.opened[team] == 1 and _melds_into_foot(st, seat):
            hold = 0  # the held wild's moment: it takes the last cards down and into the Foot
        tk.plan_reset(st, seat)
        _hold_back_wilds(st, hold)
        n = tk.plan_naturals_upto(st, entries, 0, tk.BIG if complete else 6)
        if st.opened[team] == 0:
            n = tk.plan_opening_extras(st, entries, n)
            needed = opening_minimum(st) + knob(st, seat, P.P_OPEN_EXTRA)
            if tk.entries_points(entries, n) < needed:
                return 0
        else:
            wild_first = knob(st, seat, P.P_WILD_BOOK_FIRST) == 1
            need_wild = st.plan_books[BOOK_WILD] < st.rules[R_OUT_WILD + d]
            need_dirty = st.plan_books[BOOK_DIRTY] < st.rules[R_OUT_DIRTY + d]
            if need_wild and (wild_first or not need_dirty):
                n = tk.plan_wild_meld(st, entries, n)
            elif need_dirty and complete:
                n = tk.plan_wilds_to_naturals(st, entries, n, 99)
                n = tk.plan_pairs_with_wild(st, entries, n, 99)
    tk.lay_kept(st, seat, entries, n)
    return 0


@njit(cache=True)
def grant(st, seat: int, asker: int) -> bool:
    return policy_allows(st, seat, knob(st, seat, P.P_GRANT), True)


@njit(cache=True)
def choose_discard(st, seat: int) -> int:
    return tk.least_useful_card(st, seat, knob(st, seat, P.P_BLACK3_BLOCK) == 1,
                                knob(st, seat, P.P_KEEP_PAIRS) == 1,
                                knob(st, seat, P.P_DISCARD_SAFETY) == 1)
