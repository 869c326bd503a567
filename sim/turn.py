"""The remaining primitives of a turn: draw, red threes, the Foot, discard, going out.

Each one checks its own legality and records its event, so the deal loop only composes them
with strategy decisions (R-T, R-F, R-G, R-E, R-V6, R-V8).
"""

from __future__ import annotations

from numba import njit

from sim import events as ev
from sim import rng
from sim.cards import JOKER, N_KINDS, RED3, TWO
from sim.melds import books_allow_out, held_count, team_of
from sim.rules import R_RED3_RULE, R_WILD_DISCARD, RED3_DISCARD, RED3_EXPOSE, WILD_DISCARD_FREEZE
from sim.state import (
    END_OUT,
    END_STOCK,
    S_ENDED,
    S_FROZEN_N,
    S_GRANTED,
    S_OUT_SEAT,
    S_PILE_N,
    S_STOCK_N,
    S_TURN,
)

ILLEGAL_DISCARD = 20
NEEDS_GRANT = 21
NO_BOOKS_TO_OUT = 22
RED3_FIRST = 23  # R-V6: a held red three must be the discard


@njit(cache=True)
def take_from_stock(st) -> int:
    n = st.sc[S_STOCK_N] - 1
    st.sc[S_STOCK_N] = n
    return st.stock[n]


@njit(cache=True)
def expose_red3(st, seat: int, count: int) -> None:
    """R-T3, R-X6, R-X1, R-X9: expose ``count`` held red threes, replace them one by one.

    A replacement that is itself a red three forms the next batch (its own trace line). A
    replacement the stock cannot give ends the deal; the red three still scores as exposed.
    Where red threes are discarded instead (R-V6) nothing happens.
    """
    if st.rules[R_RED3_RULE] != RED3_EXPOSE:
        return
    team = team_of(st, seat)
    while count > 0:
        st.hand[seat, RED3] -= count
        st.red3[team] += count
        e = ev.emit(st, ev.EV_RED3, seat, count, 0, 0, 0)
        next_count = 0
        for _ in range(count):
            if st.sc[S_STOCK_N] == 0:
                st.sc[S_ENDED] = END_STOCK  # R-X1
                return
            card = take_from_stock(st)
            ev.emit_card(st, e, card)
            st.hand[seat, card] += 1
            if card == RED3:
                next_count += 1
        count = next_count


@njit(cache=True)
def restock(st) -> None:
    """R-V8: shuffle the set-aside piles and put them under the remaining stock."""
    f = st.sc[S_FROZEN_N]
    if f == 0:
        return
    rng.shuffle(st.rng, rng.STREAM_DEAL, st.frozen, f)
    n = st.sc[S_STOCK_N]
    for i in range(n - 1, -1, -1):  # lift the remaining stock above the restocked cards
        st.stock[i + f] = st.stock[i]
    for i in range(f):  # frozen[0] is drawn first of them: it lies just under the old stock
        st.stock[f - 1 - i] = st.frozen[i]
    st.sc[S_STOCK_N] = n + f
    st.sc[S_FROZEN_N] = 0
    e = ev.emit(st, ev.EV_RESTOCK, -1, 0, 0, 0, 0)
    for i in range(f):
        ev.emit_card(st, e, st.frozen[i])


@njit(cache=True)
def stock_can_draw(st) -> bool:
    """R-E1, R-X2: two cards needed; a frozen pile's cards come back first (R-V8)."""
    if st.sc[S_STOCK_N] < 2:
        restock(st)
    return st.sc[S_STOCK_N] >= 2


@njit(cache=True)
def draw(st, seat: int) -> None:
    """R-T2: the top two stock cards, then their red threes (R-T3). Caller checks the stock."""
    e = ev.emit(st, ev.EV_DRAW, seat, 0, 0, 0, 0)
    reds = 0
    for _ in range(2):
        card = take_from_stock(st)
        ev.emit_card(st, e, card)
        st.hand[seat, card] += 1
        if card == RED3:
            reds += 1
    expose_red3(st, seat, reds)


@njit(cache=True)
def pick_up_foot(st, seat: int) -> None:
    """R-F1..R-F3, R-X10: the Foot becomes the held cards; its red threes are exposed."""
    for k in range(N_KINDS):
        st.hand[seat, k] += st.foot[seat, k]
        st.foot[seat, k] = 0
    st.on_foot[seat] = 1
    st.foot_turn[seat] = st.sc[S_TURN]
    ev.emit(st, ev.EV_FOOT, seat, 0, 0, 0, 0)
    expose_red3(st, seat, st.hand[seat, RED3])


@njit(cache=True)
def discard(st, seat: int, kind: int) -> int:
    """Discard one held card. On the Foot, the last card may go only when going out."""
    if kind < 0 or kind >= N_KINDS or st.hand[seat, kind] <= 0:
        return ILLEGAL_DISCARD
    if st.rules[R_RED3_RULE] == RED3_DISCARD and kind != RED3 and st.hand[seat, RED3] > 0:
        return RED3_FIRST  # R-V6
    last = held_count(st, seat) == 1
    if last and st.on_foot[seat] == 1:
        if st.sc[S_GRANTED] == 0:
            return NEEDS_GRANT  # R-G4, R-X14
        if not books_allow_out(st, st.books[team_of(st, seat)]):
            return NO_BOOKS_TO_OUT  # R-G1
    st.hand[seat, kind] -= 1
    n = st.sc[S_PILE_N]
    st.pile[n] = kind
    st.sc[S_PILE_N] = n + 1
    ev.emit(st, ev.EV_DISCARD, seat, kind, 0, 0, 0)
    if (kind == TWO or kind == JOKER) and st.rules[R_WILD_DISCARD] == WILD_DISCARD_FREEZE:
        freeze_pile(st, seat)
    return 0


@njit(cache=True)
def freeze_pile(st, seat: int) -> None:
    """R-V8: a discarded wild sets the whole pile aside; the next discard starts a new one."""
    n = st.sc[S_PILE_N]
    f = st.sc[S_FROZEN_N]
    e = ev.emit(st, ev.EV_FREEZE, seat, 0, 0, 0, 0)
    for i in range(n):
        st.frozen[f + i] = st.pile[i]
        ev.emit_card(st, e, st.pile[i])
    st.sc[S_FROZEN_N] = f + n
    st.sc[S_PILE_N] = 0


@njit(cache=True)
def go_out(st, seat: int) -> None:
    """R-G3: a player holding nothing has gone out; the deal ends (R-E1)."""
    st.sc[S_OUT_SEAT] = seat
    st.sc[S_ENDED] = END_OUT
    ev.emit(st, ev.EV_OUT, seat, 0, 0, 0, 0)


@njit(cache=True)
def must_discard_red3(st, seat: int) -> bool:
    return st.rules[R_RED3_RULE] == RED3_DISCARD and st.hand[seat, RED3] > 0
