"""Meld legality and meld lines (R-M, R-O, R-G4, R-X13, R-X14).

A *line* is what one trace ``meld`` line holds: entries ``(rank, naturals, twos, jokers)``
applied in order to the partnership's melds. Entries are checked one by one against a scratch
copy of the partnership's melds (R-X13: the wild ratio holds after each entry), and the line as
a whole against the opening minimum (R-O1, R-O2) and the Foot rule (R-G4, R-X14). Nothing
changes until the whole line is legal.
"""

from __future__ import annotations

from numba import njit

from sim import events as ev
from sim.cards import CARD_VALUE, JOKER, N_KINDS, N_RANKS, TWO, WILD_RANK
from sim.rules import (
    R_MAX_MELD,
    R_OPEN_MIN,
    R_OUT_CLEAN,
    R_OUT_DIRTY,
    R_OUT_WILD,
)
from sim.state import (
    BOOK_CLEAN,
    BOOK_DIRTY,
    BOOK_WILD,
    M_JOKER,
    M_NAT,
    M_TWO,
    S_DEAL,
    S_GRANTED,
    S_LINE,
    S_TEAMS,
    S_TURN,
)

# Reasons a line is refused (0 = legal).
OK = 0
BAD_ENTRY = 1  # an entry breaks R-M2..R-M6 or R-X13
MISSING_CARDS = 2  # cards not held
UNDER_MINIMUM = 3  # R-O1
FOOT_NEEDS_TWO = 4  # R-G4 / R-X14
NO_BOOKS = 5  # R-G1 when the last card leaves


@njit(cache=True)
def copy_counts(dst, src) -> None:
    """Element-wise copy; numba's slice assignment may allocate to guard against overlap."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@njit(cache=True)
def copy_melds(dst, src) -> None:
    for r in range(src.shape[0]):
        for j in range(src.shape[1]):
            dst[r, j] = src[r, j]


@njit(cache=True)
def team_of(st, seat: int) -> int:
    return seat % st.sc[S_TEAMS]


@njit(cache=True)
def held_count(st, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += st.hand[seat, k]
    return total


@njit(cache=True)
def entry_legal(rank: int, cur_nat: int, cur_wild: int, nat: int, wild: int, max_meld: int) -> bool:
    """One entry onto an unfinished meld holding cur_nat naturals and cur_wild wilds."""
    if nat < 0 or wild < 0 or nat + wild == 0:
        return False
    size = cur_nat + cur_wild
    new_size = size + nat + wild
    if size == 0 and new_size < 3:  # R-M2, R-M4: a new meld has at least 3 cards
        return False
    if new_size > max_meld:  # R-M6: never beyond 7
        return False
    if rank == WILD_RANK:  # R-M4: only wilds
        return nat == 0
    return cur_nat + nat >= 2 * (cur_wild + wild)  # R-M3 after each entry (R-X13)


@njit(cache=True)
def entry_points(rank: int, nat: int, twos: int, jokers: int) -> int:
    pts = twos * CARD_VALUE[TWO] + jokers * CARD_VALUE[JOKER]
    if rank != WILD_RANK:
        pts += nat * CARD_VALUE[rank]
    return pts


@njit(cache=True)
def book_type(rank: int, wilds: int) -> int:
    if rank == WILD_RANK:
        return BOOK_WILD
    if wilds > 0:
        return BOOK_DIRTY
    return BOOK_CLEAN


@njit(cache=True)
def check_entries(st, team: int, entries, n: int, avail) -> int:
    """Check entries against a scratch copy of the team's melds; spend cards from ``avail``.

    Returns the card points of the entries, or -1 if any entry is illegal or uses cards not
    in ``avail``. Books the entries would complete are counted in ``st.tmp_books``.
    """
    max_meld = st.rules[R_MAX_MELD]
    copy_melds(st.tmp_meld, st.meld[team])
    st.tmp_books[:] = 0
    points = 0
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        if rank < 0 or rank >= N_RANKS or twos < 0 or jokers < 0:
            return -1
        cur_nat = st.tmp_meld[rank, M_NAT]
        cur_wild = st.tmp_meld[rank, M_TWO] + st.tmp_meld[rank, M_JOKER]
        if not entry_legal(rank, cur_nat, cur_wild, nat, twos + jokers, max_meld):
            return -1
        if rank != WILD_RANK:
            avail[rank] -= nat
            if avail[rank] < 0:
                return -1
        avail[TWO] -= twos
        avail[JOKER] -= jokers
        if avail[TWO] < 0 or avail[JOKER] < 0:
            return -1
        points += entry_points(rank, nat, twos, jokers)
        st.tmp_meld[rank, M_NAT] += nat
        st.tmp_meld[rank, M_TWO] += twos
        st.tmp_meld[rank, M_JOKER] += jokers
        if cur_nat + cur_wild + nat + twos + jokers == max_meld:
            st.tmp_books[book_type(rank, cur_wild + twos + jokers)] += 1
            st.tmp_meld[rank, :] = 0
    return points


@njit(cache=True)
def books_allow_out(st, team: int, extra_books) -> bool:
    """R-G1: enough books of each type (counting books a pending line completes)."""
    return (
        st.books[team, BOOK_CLEAN] + extra_books[BOOK_CLEAN] >= st.rules[R_OUT_CLEAN]
        and st.books[team, BOOK_DIRTY] + extra_books[BOOK_DIRTY] >= st.rules[R_OUT_DIRTY]
        and st.books[team, BOOK_WILD] + extra_books[BOOK_WILD] >= st.rules[R_OUT_WILD]
    )


@njit(cache=True)
def opening_minimum(st) -> int:
    deal = st.sc[S_DEAL]
    idx = deal - 1 if deal <= 4 else 3
    return st.rules[R_OPEN_MIN + idx]


@njit(cache=True)
def check_line_end(
    st, seat: int, team: int, points: int, held_after: int, opening_points: int
) -> int:
    """Rules on a whole line: opening minimum, the Foot's two cards, books to go out."""
    if st.opened[team] == 0 and opening_points < opening_minimum(st):
        return UNDER_MINIMUM  # R-O1, R-O2, R-O3
    if st.on_foot[seat] == 1 and held_after < 2:
        if st.sc[S_GRANTED] == 0:
            return FOOT_NEEDS_TWO  # R-G4, R-X14
        if held_after == 0 and not books_allow_out(st, team, st.tmp_books):
            return NO_BOOKS  # R-G1 when the last card leaves (R-X14)
    return OK


@njit(cache=True)
def check_line(st, seat: int, entries, n: int) -> int:
    """Is this meld line legal for ``seat`` now? Returns OK or a reason code."""
    if n <= 0:
        return BAD_ENTRY
    team = team_of(st, seat)
    copy_counts(st.avail, st.hand[seat])
    points = check_entries(st, team, entries, n, st.avail)
    if points < 0:
        return BAD_ENTRY
    held_after = 0
    for k in range(N_KINDS):
        held_after += st.avail[k]
    return check_line_end(st, seat, team, points, held_after, points)


@njit(cache=True)
def apply_entries(st, seat: int, entries, n: int, line_id: int) -> None:
    """Move the entries' cards from the seat's held cards onto the partnership's melds."""
    team = team_of(st, seat)
    max_meld = st.rules[R_MAX_MELD]
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        if rank != WILD_RANK:
            st.hand[seat, rank] -= nat
        st.hand[seat, TWO] -= twos
        st.hand[seat, JOKER] -= jokers
        st.meld[team, rank, M_NAT] += nat
        st.meld[team, rank, M_TWO] += twos
        st.meld[team, rank, M_JOKER] += jokers
        st.melded_value[team] += entry_points(rank, nat, twos, jokers)
        e = ev.emit(st, ev.EV_MELD, seat, rank, line_id, 0, 0)
        ev.emit_counts(st, e, rank, nat, twos, jokers)
        m = st.meld[team, rank]
        if m[M_NAT] + m[M_TWO] + m[M_JOKER] == max_meld:
            st.books[team, book_type(rank, m[M_TWO] + m[M_JOKER])] += 1
            if rank != WILD_RANK:
                st.booked[team, rank] += m[M_NAT]
            st.booked[team, TWO] += m[M_TWO]
            st.booked[team, JOKER] += m[M_JOKER]
            m[:] = 0


@njit(cache=True)
def mark_opened(st, team: int) -> None:
    if st.opened[team] == 0:
        st.opened[team] = 1
        st.open_turn[team] = st.sc[S_TURN]


@njit(cache=True)
def lay_line(st, seat: int, entries, n: int) -> int:
    """The meld primitive: check the line, then apply it. Returns OK or the refusal reason."""
    reason = check_line(st, seat, entries, n)
    if reason != OK:
        return reason
    line_id = st.sc[S_LINE]
    st.sc[S_LINE] = line_id + 1
    apply_entries(st, seat, entries, n, line_id)
    mark_opened(st, team_of(st, seat))
    return OK
