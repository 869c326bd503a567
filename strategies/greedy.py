"""``greedy``: the sensible baseline (issue 2).

Picks up whenever it legally can, opens as soon as it can, melds every natural it can, sends
wilds to the wild meld until the partnership has its wild book and then to natural melds for
dirty books, discards its least useful card, goes out whenever it is allowed, and grants
permission when going out wins the deal on points (R-X3).
"""

from __future__ import annotations

from numba import njit

from sim.melds import (
    deal_index,
    needs_concealed_book,
    opening_minimum,
    team_of,
)
from sim.rules import R_OUT_DIRTY, R_OUT_WILD
from sim.state import BOOK_DIRTY, BOOK_WILD
from strategies import toolkit as tk

WANT_OUT = 1


@njit(cache=True)
def choose_pickup(st, seat: int) -> int:
    n = tk.plan_pickup(st, seat, st.entries)
    return n if n > 0 else 0


@njit(cache=True)
def meld_phase(st, seat: int) -> int:
    team = team_of(st, seat)
    if tk.may_go_out(st, seat):
        n_out, _ = tk.plan_go_out(st, seat, st.entries2)
        if n_out >= 0:
            return WANT_OUT
    entries = st.entries
    d = deal_index(st)
    if st.opened[team] == 0 and needs_concealed_book(st):
        n = tk.plan_concealed_book(st, seat, entries)  # R-V5
    else:
        tk.plan_reset(st, seat)
        n = tk.plan_naturals(st, entries, 0)
        if st.opened[team] == 0:
            n = tk.plan_opening_extras(st, entries, n)
            if tk.entries_points(entries, n) < opening_minimum(st):
                return 0
        elif st.plan_books[BOOK_WILD] < st.rules[R_OUT_WILD + d]:
            n = tk.plan_wild_meld(st, entries, n)
        elif st.plan_books[BOOK_DIRTY] < st.rules[R_OUT_DIRTY + d]:
            n = tk.plan_wilds_to_naturals(st, entries, n, 99)
            n = tk.plan_pairs_with_wild(st, entries, n, 99)
    tk.lay_kept(st, seat, entries, n)
    return 0


@njit(cache=True)
def grant(st, seat: int, asker: int) -> bool:
    return tk.going_out_wins_deal(st, seat, asker)


@njit(cache=True)
def choose_discard(st, seat: int) -> int:
    """Black threes first, then lone low naturals; wilds last."""
    return tk.least_useful_card(st, seat, True, False, False)
