"""Meld legality and meld lines (R-M, R-O, R-G4, R-X13, R-X14, R-V3..R-V5, R-V7).

A *line* is what one trace ``meld`` line holds: entries ``(rank, naturals, twos, jokers,
onto_book)`` applied in order to the partnership's melds. ``place_entry`` is the one place that
knows how an entry changes a partnership's table under the rule set; checking a line runs it
on scratch copies (so R-X13's "after each entry" holds by construction), applying runs it on
the real table, and strategy plans run it on their own copies. Nothing changes until the
whole line is legal.
"""

from __future__ import annotations

from numba import njit

from sim import events as ev
from sim.cards import BLACK3_RANK, CARD_VALUE, JOKER, N_KINDS, N_RANKS, RANK_KIND, TWO, WILD_RANK
from sim.rules import (
    BOOKS_GROW,
    BOOKS_NATURALS,
    R_BLACK3_MELDS,
    R_BOOKS,
    R_CONCEALED_DEAL4,
    R_FINAL_DISCARD,
    R_MAX_MELD,
    R_MAX_WILDS,
    R_OPEN_MIN,
    R_OUT_CLEAN,
    R_OUT_DIRTY,
    R_OUT_WILD,
    R_WILD_MELDS,
    R_WILD_RATIO,
    RATIO_DOUBLE,
)
from sim.state import (
    BOOK_BLACK3,
    BOOK_CLEAN,
    BOOK_DIRTY,
    BOOK_WILD,
    M_JOKER,
    M_NAT,
    M_TWO,
    S_DEAL,
    S_GRANTED,
    S_LINE,
    S_LINE_CONCEALED,
    S_PICKED_UP,
    S_TEAMS,
    S_TURN,
)

# Reasons a line is refused (0 = legal).
OK = 0
BAD_ENTRY = 1  # an entry breaks R-M2..R-M7, R-X13 or the profile's meld rules
MISSING_CARDS = 2  # cards not held
UNDER_MINIMUM = 3  # R-O1 (or no concealed book in deal 4, R-V5)
FOOT_NEEDS_TWO = 4  # R-G4 / R-X14
NO_BOOKS = 5  # R-G1 when the last card leaves
NEEDS_FINAL_DISCARD = 6  # going out must end with a discard (simpson)

BOOK_SIZE = 7


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
def ratio_ok(st, naturals: int, wilds: int) -> bool:
    """R-M3 (naturals >= 2 x wilds) or the profile's 'naturals > wilds', and any hard cap."""
    if wilds == 0:
        return True
    cap = st.rules[R_MAX_WILDS]
    if cap > 0 and wilds > cap:
        return False
    if st.rules[R_WILD_RATIO] == RATIO_DOUBLE:
        return naturals >= 2 * wilds
    return naturals > wilds


@njit(cache=True)
def entry_points(rank: int, nat: int, twos: int, jokers: int) -> int:
    """Card values of an entry (R-S1); a melded black three counts -5 (R-V7)."""
    pts = twos * CARD_VALUE[TWO] + jokers * CARD_VALUE[JOKER]
    if rank == BLACK3_RANK:
        pts -= 5 * nat
    elif rank != WILD_RANK:
        pts += nat * CARD_VALUE[rank]
    return pts


@njit(cache=True)
def book_type(rank: int, wilds: int) -> int:
    if rank == WILD_RANK:
        return BOOK_WILD
    if rank == BLACK3_RANK:
        return BOOK_BLACK3
    if wilds > 0:
        return BOOK_DIRTY
    return BOOK_CLEAN


@njit(cache=True)
def place_entry(st, melds, books, rank_books, booked, rank: int, nat: int, twos: int,
                jokers: int, onto_book: int) -> bool:
    """Apply one entry to a partnership's table (melds, books, closed books per rank, cards in
    closed books). Returns False, changing nothing, when the entry is illegal."""
    wild = twos + jokers
    if nat < 0 or twos < 0 or jokers < 0 or nat + wild == 0 or rank < 0 or rank >= N_RANKS:
        return False
    if rank == WILD_RANK:
        if st.rules[R_WILD_MELDS] == 0 or nat != 0:  # R-M4
            return False
    elif rank == BLACK3_RANK:
        if st.rules[R_BLACK3_MELDS] == 0 or wild != 0:  # R-M5, R-V7
            return False
    mode = st.rules[R_BOOKS]
    kind = RANK_KIND[rank]
    if onto_book != 0:  # R-V4: naturals onto a closed book of the rank
        if mode != BOOKS_NATURALS or kind < 0 or wild != 0 or rank_books[rank] == 0:
            return False
        booked[kind] += nat
        return True
    m = melds[rank]
    size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
    new_size = size + nat + wild
    new_nat = m[M_NAT] + nat
    new_wild = m[M_TWO] + m[M_JOKER] + wild
    if size == 0 and new_size < 3:  # R-M2, R-M4: a new meld has 3 cards or more
        return False
    if rank != WILD_RANK and not ratio_ok(st, new_nat, new_wild):  # R-M3, R-X13
        return False
    if mode == BOOKS_NATURALS:
        if new_size > BOOK_SIZE and (wild > 0 or size == 0):  # R-V4
            return False
    elif new_size > st.rules[R_MAX_MELD]:  # R-M6
        return False
    old_wild = m[M_TWO] + m[M_JOKER]
    m[M_NAT] = new_nat
    m[M_TWO] += twos
    m[M_JOKER] += jokers
    if mode == BOOKS_GROW:  # R-V3: a book from 7 cards on; a wild makes a clean one dirty
        if size < BOOK_SIZE <= new_size:
            books[book_type(rank, new_wild)] += 1
        elif size >= BOOK_SIZE and old_wild == 0 and new_wild > 0 and kind >= 0 and \
                rank != BLACK3_RANK:
            books[BOOK_CLEAN] -= 1
            books[BOOK_DIRTY] += 1
    elif new_size >= BOOK_SIZE:  # R-M6: the book closes; a new meld of the rank may start
        books[book_type(rank, new_wild)] += 1
        rank_books[rank] += 1
        if kind >= 0:
            booked[kind] += m[M_NAT]
        booked[TWO] += m[M_TWO]
        booked[JOKER] += m[M_JOKER]
        m[M_NAT] = 0
        m[M_TWO] = 0
        m[M_JOKER] = 0
    return True


@njit(cache=True)
def entry_legal(st, team: int, rank: int, nat: int, twos: int, jokers: int) -> bool:
    """Would this single entry be legal on the partnership's table now?"""
    copy_melds(st.tmp_meld, st.meld[team])
    copy_counts(st.tmp_books, st.books[team])
    copy_counts(st.tmp_rank_books, st.rank_books[team])
    copy_counts(st.tmp_booked, st.booked[team])
    return place_entry(st, st.tmp_meld, st.tmp_books, st.tmp_rank_books, st.tmp_booked, rank,
                       nat, twos, jokers, 0)


@njit(cache=True)
def check_entries(st, team: int, entries, n: int, avail) -> int:
    """Run the entries on scratch copies of the team's table; spend cards from ``avail``.

    Returns the card points of the entries, or -1 if any entry is illegal or uses cards not
    in ``avail``. Afterwards ``st.tmp_books`` holds the team's books as the line leaves them,
    and ``S_LINE_CONCEALED`` says whether an entry started a meld of 7 or more (R-V5).
    """
    copy_melds(st.tmp_meld, st.meld[team])
    copy_counts(st.tmp_books, st.books[team])
    copy_counts(st.tmp_rank_books, st.rank_books[team])
    copy_counts(st.tmp_booked, st.booked[team])
    st.sc[S_LINE_CONCEALED] = 0
    points = 0
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        if rank < 0 or rank >= N_RANKS:
            return -1
        kind = RANK_KIND[rank]
        if kind >= 0:
            avail[kind] -= nat
            if avail[kind] < 0:
                return -1
        elif nat != 0:
            return -1
        avail[TWO] -= twos
        avail[JOKER] -= jokers
        if avail[TWO] < 0 or avail[JOKER] < 0:
            return -1
        starts = st.tmp_meld[rank].sum() == 0 and entries[i, 4] == 0
        if not place_entry(st, st.tmp_meld, st.tmp_books, st.tmp_rank_books, st.tmp_booked,
                           rank, nat, twos, jokers, entries[i, 4]):
            return -1
        if starts and nat + twos + jokers >= BOOK_SIZE:
            st.sc[S_LINE_CONCEALED] = 1
        points += entry_points(rank, nat, twos, jokers)
    return points


@njit(cache=True)
def deal_index(st) -> int:
    deal = st.sc[S_DEAL]
    return deal - 1 if deal <= 4 else 3


@njit(cache=True)
def books_allow_out(st, books) -> bool:
    """R-G1 for a partnership whose books by type are ``books`` (black-three books count as
    clean, R-V7); the requirement may differ by deal (brouillette)."""
    d = deal_index(st)
    return (
        books[BOOK_CLEAN] + books[BOOK_BLACK3] >= st.rules[R_OUT_CLEAN + d]
        and books[BOOK_DIRTY] >= st.rules[R_OUT_DIRTY + d]
        and books[BOOK_WILD] >= st.rules[R_OUT_WILD + d]
    )


@njit(cache=True)
def opening_minimum(st) -> int:
    return st.rules[R_OPEN_MIN + deal_index(st)]


@njit(cache=True)
def needs_concealed_book(st) -> bool:
    """R-V5: saskatchewan's deal 4 opens with a concealed book, not points."""
    return st.rules[R_CONCEALED_DEAL4] == 1 and st.sc[S_DEAL] == 4


@njit(cache=True)
def check_line_end(st, seat: int, team: int, held_after: int, opening_points: int,
                   is_pickup: bool) -> int:
    """Rules on a whole line: the opening, the Foot's two cards, books to go out."""
    if st.opened[team] == 0:
        if needs_concealed_book(st):
            if is_pickup or st.sc[S_PICKED_UP] == 1 or st.sc[S_LINE_CONCEALED] == 0:
                return UNDER_MINIMUM  # R-V5
        elif opening_points < opening_minimum(st):
            return UNDER_MINIMUM  # R-O1, R-O2, R-O3
    if st.on_foot[seat] == 1 and held_after < 2:
        if st.sc[S_GRANTED] == 0:
            return FOOT_NEEDS_TWO  # R-G4, R-X14
        if held_after == 0:
            if st.rules[R_FINAL_DISCARD] == 1:
                return NEEDS_FINAL_DISCARD
            if not books_allow_out(st, st.tmp_books):
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
    if points == -1:
        return BAD_ENTRY
    held_after = 0
    for k in range(N_KINDS):
        held_after += st.avail[k]
    return check_line_end(st, seat, team, held_after, points, False)


@njit(cache=True)
def apply_entries(st, seat: int, entries, n: int, line_id: int) -> None:
    """Move the entries' cards from the seat's held cards onto the partnership's table."""
    team = team_of(st, seat)
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        kind = RANK_KIND[rank]
        if kind >= 0:
            st.hand[seat, kind] -= nat
        st.hand[seat, TWO] -= twos
        st.hand[seat, JOKER] -= jokers
        if not place_entry(st, st.meld[team], st.books[team], st.rank_books[team],
                           st.booked[team], rank, nat, twos, jokers, entries[i, 4]):
            raise AssertionError("a checked meld entry failed to apply")
        st.melded_value[team] += entry_points(rank, nat, twos, jokers)
        e = ev.emit(st, ev.EV_MELD, seat, rank, line_id, entries[i, 4], 0)
        ev.emit_counts(st, e, kind, nat, twos, jokers)


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

