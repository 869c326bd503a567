"""``tactician``: the parametric strategy; ``cautious`` is one of its parameter vectors.

Every decision reads the seat's parameter vector (``strategies.params``), so sweeping a knob
needs no recompilation. Decisions read only what the seat may know: its own held cards, the
table, the pile, the cards each seat took from the pile, counts of other players' cards and
the game's earlier scores.
"""

from __future__ import annotations

from sim.core.cards import JOKER, TWO
from sim.core.enums import Book
from sim.core.rules import R_OUT_DIRTY, R_OUT_WILD
from sim.engine.hooktypes import hook
from sim.engine.jit import njit
from sim.engine.layout import S_PILE_N, S_PLAYERS
from sim.engine.legal import (
    deal_index,
    held_count,
    may_go_out,
    needs_concealed_book,
    opening_minimum,
    partners_on_foot,
    team_of,
)
from strategies import params as P
from strategies import plans as pl
from strategies.going_out import meld_out, plan_go_out
from strategies.judgement import deal_margin, least_useful_card
from strategies.proposals import propose_line, propose_pickup

WANT_OUT = 1


@njit(cache=True)
def knob(w, seat: int, index: int) -> int:
    return int(w.params[seat, index])


@njit(cache=True)
def policy_allows(g, seat: int, policy: int, going_out: bool) -> bool:
    """ALWAYS, or only when ahead on the deal / on the game, as the seat sees it."""
    if policy == P.ALWAYS:
        return True
    return deal_margin(g, seat, going_out, policy == P.AHEAD_ON_GAME) > 0


@njit(cache=True)
def opponents_close_to_out(g, seat: int) -> bool:
    """An opponent on the Foot with four cards or fewer (visible counts). (Partnerships by
    ``team_of``: a 64-bit division per seat cost more than the rest.)"""
    team = team_of(g, seat)
    for s in range(g.sc[S_PLAYERS]):
        if team_of(g, s) != team and g.on_foot[s] == 1 and held_count(g, s) <= 4:
            return True
    return False


@njit(cache=True)
def on_pickup(g, w, seat: int) -> int:
    if g.sc[S_PILE_N] < knob(w, seat, P.P_MIN_PILE):
        return 0
    return propose_pickup(w, w.entries, pl.plan_pickup(g, w, seat, pl.ENTRIES))


@hook
def choose_pickup(g, w, t, x, seat):
    return on_pickup(g, w, seat)


@njit(cache=True)
def _hold_back_wilds(w, count: int) -> None:
    """Keep ``count`` wilds out of the plan, twos first (a joker left over costs 50)."""
    for _ in range(count):
        if w.plan_hand[TWO] > 0:
            w.plan_hand[TWO] -= 1
        elif w.plan_hand[JOKER] > 0:
            w.plan_hand[JOKER] -= 1


@njit(cache=True)
def _melds_into_foot(g, w, seat: int) -> bool:
    """Could everything held be melded now (the Hand emptied, the Foot taken at once)?"""
    pl.plan_reset(g, w, seat)
    n = pl.plan_naturals(g, w, pl.ENTRIES2, 0)
    n = pl.plan_wild_meld(g, w, pl.ENTRIES2, n)
    n = pl.plan_pairs_with_wild(g, w, pl.ENTRIES2, n, 99)
    n = pl.plan_wilds_to_naturals(g, w, pl.ENTRIES2, n, 99)
    return n > 0 and pl.plan_held(w) == 0


@njit(cache=True)
def on_melds(g, w, seat: int) -> int:
    team = team_of(g, seat)
    if may_go_out(g, seat):
        n_out, _ = plan_go_out(g, w, seat, pl.ENTRIES2)
        if n_out >= 0 and policy_allows(g, seat, knob(w, seat, P.P_GO_OUT), True):
            return WANT_OUT
    entries = w.entries
    d = deal_index(g)
    if g.opened[team] == 0 and needs_concealed_book(g):
        n = pl.plan_concealed_book(g, w, seat, pl.ENTRIES)  # R-V5
    else:
        complete = (knob(w, seat, P.P_BOOKS_BEFORE_PARTNER) == 1 or g.on_foot[seat] == 0
                    or partners_on_foot(g, seat) or opponents_close_to_out(g, seat))
        hold = 0
        if g.on_foot[seat] == 0 and g.opened[team] == 1 and \
                g.books[team, Book.WILD] >= g.rules[R_OUT_WILD + d]:
            # once the wild books are made; never before the partnership has opened, so a
            # held wild never keeps a player from opening
            hold = knob(w, seat, P.P_HOLD_WILDS)
        if hold > 0 and g.opened[team] == 1 and _melds_into_foot(g, w, seat):
            hold = 0  # the held wild's moment: it takes the last cards down and into the Foot
        pl.plan_reset(g, w, seat)
        _hold_back_wilds(w, hold)
        n = pl.plan_naturals_upto(g, w, pl.ENTRIES, 0, pl.BIG if complete else 6)
        if g.opened[team] == 0:
            n = pl.plan_opening_extras(g, w, pl.ENTRIES, n)
            needed = opening_minimum(g) + knob(w, seat, P.P_OPEN_EXTRA)
            if pl.entries_points(entries, n) < needed:
                return 0
        else:
            wild_first = knob(w, seat, P.P_WILD_BOOK_FIRST) == 1
            need_wild = w.plan_books[Book.WILD] < g.rules[R_OUT_WILD + d]
            need_dirty = w.plan_books[Book.DIRTY] < g.rules[R_OUT_DIRTY + d]
            if need_wild and (wild_first or not need_dirty):
                n = pl.plan_wild_meld(g, w, pl.ENTRIES, n)
            elif need_dirty and complete:
                n = pl.plan_wilds_to_naturals(g, w, pl.ENTRIES, n, 99)
                n = pl.plan_pairs_with_wild(g, w, pl.ENTRIES, n, 99)
    propose_line(w, entries, pl.trim_for_foot(g, seat, entries, n))
    return 0


@hook
def propose_melds(g, w, t, x, seat):
    return on_melds(g, w, seat)


@njit(cache=True)
def on_grant(g, w, seat: int) -> int:
    return 1 if policy_allows(g, seat, knob(w, seat, P.P_GRANT), True) else 0


@hook
def grant(g, w, t, x, seat):
    return on_grant(g, w, seat)


go_out = meld_out  # the shared go_out hook (strategies.going_out)


@njit(cache=True)
def on_discard(g, w, seat: int) -> int:
    return least_useful_card(g, seat, black3_block=knob(w, seat, P.P_BLACK3_BLOCK) == 1,
                             keep_pairs=knob(w, seat, P.P_KEEP_PAIRS) == 1,
                             safety=knob(w, seat, P.P_DISCARD_SAFETY) == 1)


@hook
def choose_discard(g, w, t, x, seat):
    return on_discard(g, w, seat)
