"""Going out: a plan that melds everything but at most one card (R-G1, R-G3), and the go_out
hook every heuristic strategy shares."""

from __future__ import annotations

from sim.core.cards import BLACK3, N_KINDS, N_NATURALS, RED3
from sim.core.rules import BOOKS_NATURALS, R_BLACK3_MELDS, R_BOOKS, R_FINAL_DISCARD
from sim.engine.hooktypes import hook
from sim.engine.jit import njit
from sim.engine.layout import M_JOKER, M_NAT, M_TWO
from sim.engine.legal import books_allow_out, team_of
from strategies.plans import ENTRIES, plan_everything, plan_held
from strategies.proposals import propose_line


@njit(cache=True)
def surely_stuck(g, seat: int) -> bool:
    """A cheap test that rules going out out: two or more held cards that no meld can take
    (a lone natural with no meld of its rank on the table, a three that cannot be melded).
    The naturals are counted with ``&`` and ``|``, not branches: whether a rank is a lone
    card is a coin flip to the branch predictor."""
    team = team_of(g, seat)
    stuck = g.hand[seat, RED3]
    if g.rules[R_BLACK3_MELDS] == 0:
        stuck += g.hand[seat, BLACK3]
    no_onto_books = g.rules[R_BOOKS] != BOOKS_NATURALS  # (R-V4: a lone natural joins a book)
    for rank in range(N_NATURALS):
        m = g.meld[team, rank]
        no_meld = m[M_NAT] + m[M_TWO] + m[M_JOKER] == 0
        no_book = no_onto_books | (g.rank_books[team, rank] == 0)
        stuck += 1 if (g.hand[seat, rank] == 1) & no_meld & no_book else 0
    return stuck > 1


@njit(cache=True)
def plan_go_out(g, w, seat: int, which: int):
    """A way to meld everything but at most one card, meeting R-G1. Returns (entries, discard).

    Entries is -1 when no way is found. The discard is -1 when the last meld empties the hand.
    Where a final discard is required, one card is held back for it.
    """
    if surely_stuck(g, seat):
        return -1, -1
    final_discard = g.rules[R_FINAL_DISCARD] == 1
    for held_back in range(-1, N_KINDS):
        if held_back >= 0 and (not final_discard or g.hand[seat, held_back] == 0):
            continue
        n = plan_everything(g, w, seat, which, held_back)
        left = plan_held(w)
        if left > 1 or not books_allow_out(g, w.plan_books):
            if final_discard:
                continue
            return -1, -1
        if left == 0 and (n == 0 or final_discard):
            continue
        discard = -1
        if left == 1:
            for k in range(N_KINDS):
                if w.plan_hand[k] > 0:
                    discard = k
        return n, discard
    return -1, -1


@njit(cache=True)
def on_go_out(g, w, seat: int) -> int:
    """Going out with a grant: propose the going-out plan; return its final discard."""
    n, discard = plan_go_out(g, w, seat, ENTRIES)
    if n > 0:
        propose_line(w, w.entries, n)
    return discard


@hook
def meld_out(g, w, t, x, seat):
    """The go_out hook every heuristic strategy shares."""
    return on_go_out(g, w, seat)
