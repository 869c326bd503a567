"""``greedy``: the sensible baseline.

Picks up whenever it legally can, opens as soon as it can, melds every natural it can, sends
wilds to the wild meld until the partnership has its wild book and then to natural melds for
dirty books, discards its least useful card, goes out whenever it is allowed, and grants
permission when going out wins the deal on points (R-X3).
"""

from __future__ import annotations

from sim.core.enums import Book
from sim.core.rules import R_OUT_DIRTY, R_OUT_WILD
from sim.engine.hooktypes import hook
from sim.engine.jit import njit
from sim.engine.legal import deal_index, may_go_out, needs_concealed_book, opening_minimum, team_of
from strategies import plans as pl
from strategies.going_out import meld_out, plan_go_out
from strategies.judgement import going_out_wins_deal, least_useful_card
from strategies.proposals import propose_line, propose_pickup

WANT_OUT = 1


@njit(cache=True)
def on_pickup(g, w, seat: int) -> int:
    return propose_pickup(w, w.entries, pl.plan_pickup(g, w, seat, pl.ENTRIES))


@hook
def choose_pickup(g, w, t, x, seat):
    return on_pickup(g, w, seat)


@njit(cache=True)
def plan_turn_melds(g, w, seat: int) -> int:
    """Greedy's meld line for this turn (without going out) in ``w.entries``, trimmed to keep
    two cards on the Foot; 0 entries when it would not (or could not yet) open."""
    entries = w.entries
    team = team_of(g, seat)
    d = deal_index(g)
    if g.opened[team] == 0 and needs_concealed_book(g):
        n = pl.plan_concealed_book(g, w, seat, pl.ENTRIES)  # R-V5
    else:
        pl.plan_reset(g, w, seat)
        n = pl.plan_naturals(g, w, pl.ENTRIES, 0)
        if g.opened[team] == 0:
            n = pl.plan_opening_extras(g, w, pl.ENTRIES, n)
            if pl.entries_points(entries, n) < opening_minimum(g):
                return 0
        elif w.plan_books[Book.WILD] < g.rules[R_OUT_WILD + d]:
            n = pl.plan_wild_meld(g, w, pl.ENTRIES, n)
        elif w.plan_books[Book.DIRTY] < g.rules[R_OUT_DIRTY + d]:
            n = pl.plan_wilds_to_naturals(g, w, pl.ENTRIES, n, 99)
            n = pl.plan_pairs_with_wild(g, w, pl.ENTRIES, n, 99)
    return pl.trim_for_foot(g, seat, entries, n)


@njit(cache=True)
def on_melds(g, w, seat: int) -> int:
    if may_go_out(g, seat):
        n_out, _ = plan_go_out(g, w, seat, pl.ENTRIES2)
        if n_out >= 0:
            return WANT_OUT
    propose_line(w, w.entries, plan_turn_melds(g, w, seat))
    return 0


@hook
def propose_melds(g, w, t, x, seat):
    return on_melds(g, w, seat)


@njit(cache=True)
def on_grant(g, w, seat: int) -> int:
    return 1 if going_out_wins_deal(g, seat) else 0


@hook
def grant(g, w, t, x, seat):
    return on_grant(g, w, seat)


go_out = meld_out  # the shared go_out hook (strategies.going_out)


@njit(cache=True)
def on_discard(g, w, seat: int) -> int:
    """Black threes first, then lone low naturals; wilds last."""
    return least_useful_card(g, seat, black3_block=True, keep_pairs=False, safety=False)


@hook
def choose_discard(g, w, t, x, seat):
    return on_discard(g, w, seat)
