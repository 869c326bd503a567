"""Picking up the discard pile (R-PU1..R-PU5, R-O3, R-X11, R-X12, R-E2, R-V3, R-V5).

The player names the qualifying melds; the engine checks that they use only the top card and
held cards (R-PU3), that they are built around the top card and a held pair of its kind
(R-PU2), that an unfinished meld of that rank is first completed to a book and a new meld
started (R-PU4, R-X12; not where books grow, R-V3), and that they meet the opening minimum by
themselves (R-O3, R-X11).
"""

from __future__ import annotations

from numba import njit

from sim import events as ev
from sim.cards import BLACK3, JOKER, N_KINDS, RED3, TWO, WILD_RANK
from sim.melds import (
    OK,
    apply_entries,
    check_entries,
    check_line_end,
    copy_counts,
    mark_opened,
    team_of,
)
from sim.rules import (
    BOOKS_GROW,
    PICKUP_EXACT,
    PICKUP_WHOLE,
    R_BOOKS,
    R_MAX_MELD,
    R_PICKUP_RULE,
    R_PICKUP_SIZE,
    R_RED3_RULE,
    R_WILD_TOP_PICKUP,
    RED3_EXPOSE,
)
from sim.state import M_JOKER, M_NAT, M_TWO, S_LINE, S_PICKED_UP, S_PILE_N

NOT_QUALIFIED = 10  # R-PU2 / R-PU4 not met
BLOCKED = 11  # R-PU1: empty pile, a three on top, a pile too small or a forbidden wild


@njit(cache=True)
def top_card(st) -> int:
    n = st.sc[S_PILE_N]
    if n == 0:
        return -1
    return st.pile[n - 1]


@njit(cache=True)
def top_rank(kind: int) -> int:
    """The meld rank a top card joins: its own rank, or the wild meld."""
    if kind == TWO or kind == JOKER:
        return WILD_RANK
    return kind


@njit(cache=True)
def taken_count(st) -> int:
    """How many cards a pick-up takes now; 0 when the pile may not be taken at all."""
    n = st.sc[S_PILE_N]
    rule = st.rules[R_PICKUP_RULE]
    if rule == PICKUP_WHOLE:
        return n
    size = st.rules[R_PICKUP_SIZE]
    if rule == PICKUP_EXACT:
        return size if n >= size else 0
    return min(size, n)


@njit(cache=True)
def pile_open(st, seat: int) -> bool:
    """R-PU1 and R-PU2's pair: worth planning a pick-up at all?"""
    top = top_card(st)
    if top < 0 or top == RED3 or top == BLACK3 or taken_count(st) == 0:
        return False
    if (top == TWO or top == JOKER) and st.rules[R_WILD_TOP_PICKUP] == 0:
        return False
    return st.hand[seat, top] >= 2


@njit(cache=True)
def _top_kind_used(top: int, entries, i: int) -> int:
    if top == TWO:
        return entries[i, 2]
    if top == JOKER:
        return entries[i, 3]
    return entries[i, 1]


@njit(cache=True)
def check_pickup(st, seat: int, entries, n: int) -> int:
    """Is picking up the pile with these qualifying melds legal? OK or a reason code."""
    top = top_card(st)
    if top < 0 or top == RED3 or top == BLACK3 or taken_count(st) == 0:
        return BLOCKED  # R-PU1 (and a pile below an exact pick-up size)
    if (top == TWO or top == JOKER) and st.rules[R_WILD_TOP_PICKUP] == 0:
        return BLOCKED
    if n <= 0:
        return NOT_QUALIFIED
    team = team_of(st, seat)
    rank = top_rank(top)
    m = st.meld[team, rank]
    size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
    # Walk the entries of the top's rank: an unfinished meld must be completed first, then a
    # new meld started (R-PU4, R-X12); without one, an entry starts the new meld (R-PU2).
    # Where books grow there is one meld per rank and the entries simply join it (R-V3).
    grow = st.rules[R_BOOKS] == BOOKS_GROW
    had_unfinished = size > 0 and not grow
    max_meld = st.rules[R_MAX_MELD]
    completed = not had_unfinished
    started = grow
    used_of_top_kind = 0
    for i in range(n):
        if entries[i, 0] != rank or entries[i, 4] != 0:
            continue
        used_of_top_kind += _top_kind_used(top, entries, i)
        add = entries[i, 1] + entries[i, 2] + entries[i, 3]
        if grow:
            continue
        if size == 0:
            started = True
        size += add
        if size >= max_meld:
            size = 0
            if had_unfinished and not started:
                completed = True
    if not (completed and started and used_of_top_kind >= 3):
        return NOT_QUALIFIED  # R-PU2: top + a held pair of its kind; R-PU4
    # R-PU3: only the top card and held cards may be melded.
    copy_counts(st.avail, st.hand[seat])
    st.avail[top] += 1
    points = check_entries(st, team, entries, n, st.avail)
    if points == -1:
        return NOT_QUALIFIED
    held_after = taken_count(st) - 1
    for k in range(N_KINDS):
        held_after += st.avail[k]
    return check_line_end(st, seat, team, held_after, points, True)  # R-O3, R-X11, R-X14


@njit(cache=True)
def apply_pickup(st, seat: int, entries, n: int) -> int:
    """The pick-up primitive: check, then take the top cards, meld, and keep the rest.

    Returns OK or the refusal reason. A red three among the kept cards is exposed at once
    where red threes are exposed (R-T3); the caller does that after this returns."""
    reason = check_pickup(st, seat, entries, n)
    if reason != OK:
        return reason
    k = taken_count(st)
    pile_n = st.sc[S_PILE_N]
    line_id = st.sc[S_LINE]
    st.sc[S_LINE] = line_id + 1
    e = ev.emit(st, ev.EV_PICKUP, seat, line_id, 0, 0, 0)
    for i in range(k):
        card = st.pile[pile_n - 1 - i]
        ev.emit_card(st, e, card)
        st.hand[seat, card] += 1  # the top card joins a meld at once; the rest are kept
        st.taken[seat, card] += 1  # everyone saw it taken
    st.sc[S_PILE_N] = pile_n - k
    apply_entries(st, seat, entries, n, line_id)
    mark_opened(st, team_of(st, seat))
    st.sc[S_PICKED_UP] = 1
    return OK


@njit(cache=True)
def red3_to_expose(st, seat: int) -> int:
    """Red threes a seat holds that must now be exposed (R-T3), 0 where they are discarded."""
    if st.rules[R_RED3_RULE] != RED3_EXPOSE:
        return 0
    return st.hand[seat, RED3]
