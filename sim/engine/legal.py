"""Read-only questions about a position: what is legal now, and what the table is worth.

These are the only engine functions strategies call (an import contract checks it). None of
them changes the game record ``g``; checks run on the work area's scratch copies (``w.avail``,
``w.tmp_*``). The engine asks the same functions before it applies a proposal, so a strategy and
the referee can never disagree about the rules.
"""

from __future__ import annotations

from sim.core.cards import BLACK3, JOKER, N_KINDS, N_RANKS, RANK_KIND, RED3, TWO, WILD_RANK
from sim.core.enums import Book
from sim.core.rules import (
    BOOKS_GROW,
    PICKUP_EXACT,
    PICKUP_WHOLE,
    R_BOOKS,
    R_CLEAN_BONUS,
    R_CONCEALED_DEAL4,
    R_DIRTY_BONUS,
    R_FINAL_DISCARD,
    R_MAX_MELD,
    R_OPEN_MIN,
    R_OUT_CLEAN,
    R_OUT_DIRTY,
    R_OUT_WILD,
    R_PARTNER_FOOT,
    R_PICKUP_RULE,
    R_PICKUP_SIZE,
    R_RED3_BONUS,
    R_RED3_RULE,
    R_WILD_BONUS,
    R_WILD_TOP_PICKUP,
    RED3_DISCARD,
)
from sim.engine.jit import njit
from sim.engine.layout import (
    M_JOKER,
    M_NAT,
    M_TWO,
    S_ASKED,
    S_DEAL,
    S_GRANTED,
    S_PICKED_UP,
    S_PILE_N,
    S_PLAYERS,
    S_TEAMS,
    W_LINE_CONCEALED,
    W_POINTS,
)
from sim.engine.meldrules import (
    BOOK_SIZE,
    entry_points,
    fits_on_table,
    hand_to_avail,
    place_in_scratch,
    table_to_scratch,
)
from sim.engine.reasons import (
    E_COMPLETE_FIRST,
    E_DISCARD_NEEDS_GRANT,
    E_DISCARD_NO_BOOKS,
    E_DISCARD_NOT_HELD,
    E_EMPTY_LINE,
    E_FOOT_NEEDS_TWO,
    E_NEEDS_FINAL_DISCARD,
    E_NO_BOOKS,
    E_NO_CONCEALED_BOOK,
    E_NO_PAIR,
    E_NOT_HELD,
    E_PICKUP_NOT_HELD,
    E_PILE_BLOCKED,
    E_RED3_FIRST,
    E_SHAPE,
    E_UNDER_MINIMUM,
    E_WILD_MELD,
    E_WILD_TOP,
    OK,
)

# --- who, where, how many -------------------------------------------------------------------


@njit(cache=True)
def team_of(g, seat: int) -> int:
    """``seat % teams``, by subtraction: a seat (0..5) is below three times the number of
    partnerships (2 at least), and a 64-bit division costs tens of cycles on every call."""
    teams = g.sc[S_TEAMS]
    team = seat
    while team >= teams:
        team -= teams
    return team


@njit(cache=True)
def next_seat(g, seat: int) -> int:
    """The seat after ``seat`` in turn order (R-D4), ``(seat + 1) % players`` without a
    division."""
    after = seat + 1
    return 0 if after >= g.sc[S_PLAYERS] else after


@njit(cache=True)
def held_count(g, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += g.hand[seat, k]
    return total


@njit(cache=True)
def foot_count(g, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += g.foot[seat, k]
    return total


@njit(cache=True)
def deal_index(g) -> int:
    deal = g.sc[S_DEAL]
    return deal - 1 if deal <= 4 else 3


@njit(cache=True)
def opening_minimum(g) -> int:
    return g.rules[R_OPEN_MIN + deal_index(g)]


@njit(cache=True)
def needs_concealed_book(g) -> bool:
    """R-V5: saskatchewan's deal 4 opens with a concealed book, not points."""
    return g.rules[R_CONCEALED_DEAL4] == 1 and g.sc[S_DEAL] == 4


@njit(inline="always")
def books_allow_out(g, books) -> bool:
    """R-G1 for a partnership whose books by type are ``books`` (black-three books count as
    clean, R-V7); the requirement may differ by deal (brouillette)."""
    d = deal_index(g)
    return (
        books[Book.CLEAN] + books[Book.BLACK3] >= g.rules[R_OUT_CLEAN + d]
        and books[Book.DIRTY] >= g.rules[R_OUT_DIRTY + d]
        and books[Book.WILD] >= g.rules[R_OUT_WILD + d]
    )


@njit(cache=True)
def partners_on_foot(g, seat: int) -> bool:
    """R-G2, R-X15: every partner has picked up their Foot. (A ``range`` with a step that
    is not a constant divides to count its steps: the partnership's seats are walked by
    adding.)"""
    teams = g.sc[S_TEAMS]
    players = g.sc[S_PLAYERS]
    other = team_of(g, seat)
    while other < players:
        if other != seat and g.on_foot[other] == 0:
            return False
        other += teams
    return True


@njit(cache=True)
def may_go_out(g, seat: int) -> bool:
    """R-G1..R-G3, R-V9: on the Foot, partners on theirs where required, not yet asked."""
    if g.on_foot[seat] == 0 or g.sc[S_ASKED] == 1:
        return False
    if g.sc[S_TEAMS] == g.sc[S_PLAYERS]:
        return True
    return g.rules[R_PARTNER_FOOT] == 0 or partners_on_foot(g, seat)


@njit(cache=True)
def must_discard_red3(g, seat: int) -> bool:
    """R-V6: where red threes are discarded, a held one must be the next discard."""
    return g.rules[R_RED3_RULE] == RED3_DISCARD and g.hand[seat, RED3] > 0


@njit(cache=True)
def table_score(g, team: int) -> int:
    """Points on the table for a partnership (melded cards, books, exposed red threes): what
    every seat can see. The deal's score adds what is left in hands (sim.engine.scoring)."""
    return (
        g.melded_value[team]
        + g.books[team, Book.CLEAN] * g.rules[R_CLEAN_BONUS]
        + g.books[team, Book.DIRTY] * g.rules[R_DIRTY_BONUS]
        + g.books[team, Book.WILD] * g.rules[R_WILD_BONUS]
        + g.books[team, Book.BLACK3] * g.rules[R_DIRTY_BONUS]  # R-V7
        + g.red3[team] * g.rules[R_RED3_BONUS]
    )


# --- meld lines --------------------------------------------------------------------------------


@njit(inline="always")
def check_entries(g, w, team: int, entries, n: int, avail) -> int:
    """Run the entries on scratch copies of the team's table; spend cards from ``avail``.

    Returns OK or the refusal code; ``w.sc[W_POINTS]`` gets the entries' card points.
    Afterwards ``w.tmp_books`` holds the team's books as the line leaves them, and
    ``w.sc[W_LINE_CONCEALED]`` says whether an entry started a meld of 7 or more (R-V5).
    """
    table_to_scratch(g, w, team)
    w.sc[W_LINE_CONCEALED] = 0
    points = 0
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        if rank < 0 or rank >= N_RANKS:
            return E_SHAPE
        kind = RANK_KIND[rank]
        if kind >= 0:
            avail[kind] -= nat
            if avail[kind] < 0:
                return E_NOT_HELD
        elif nat != 0:
            return E_WILD_MELD  # R-M4: naturals in a wild meld
        avail[TWO] -= twos
        avail[JOKER] -= jokers
        if avail[TWO] < 0 or avail[JOKER] < 0:
            return E_NOT_HELD
        size = w.tmp_meld[rank, M_NAT] + w.tmp_meld[rank, M_TWO] + w.tmp_meld[rank, M_JOKER]
        starts = size == 0 and entries[i, 4] == 0
        reason = place_in_scratch(g, w, rank, nat, twos, jokers, entries[i, 4])
        if reason != OK:
            return reason
        if starts and nat + twos + jokers >= BOOK_SIZE:
            w.sc[W_LINE_CONCEALED] = 1
        points += entry_points(rank, nat, twos, jokers)
    w.sc[W_POINTS] = points
    return OK


@njit(cache=True)
def check_line_end(g, w, seat: int, team: int, held_after: int, opening_points: int,
                   is_pickup: bool) -> int:
    """Rules on a whole line: the opening, the Foot's two cards, books to go out (with the
    books as the line leaves them in ``w.tmp_books``)."""
    return line_end_reason(g, w, seat, team, held_after, opening_points, is_pickup,
                           w.tmp_books)


@njit(inline="always")
def line_end_reason(g, w, seat: int, team: int, held_after: int, opening_points: int,
                    is_pickup: bool, books_after) -> int:
    """``check_line_end`` with the books after the line given."""
    if g.opened[team] == 0:
        if needs_concealed_book(g):
            if is_pickup or g.sc[S_PICKED_UP] == 1 or w.sc[W_LINE_CONCEALED] == 0:
                return E_NO_CONCEALED_BOOK  # R-V5
        elif opening_points < opening_minimum(g):
            return E_UNDER_MINIMUM  # R-O1, R-O2, R-O3
    if g.on_foot[seat] == 1 and held_after < 2:
        if g.sc[S_GRANTED] == 0:
            return E_FOOT_NEEDS_TWO  # R-G4, R-X14
        if held_after == 0:
            if g.rules[R_FINAL_DISCARD] == 1:
                return E_NEEDS_FINAL_DISCARD
            if not books_allow_out(g, books_after):
                return E_NO_BOOKS  # R-G1 when the last card leaves (R-X14)
    return OK


@njit(cache=True)
def check_line(g, w, seat: int, entries, n: int) -> int:
    """Is this meld line legal for ``seat`` now? Returns OK or a refusal code."""
    if n <= 0:
        return E_EMPTY_LINE
    team = team_of(g, seat)
    hand_to_avail(g, w, seat)
    reason = check_entries(g, w, team, entries, n, w.avail)
    if reason != OK:
        return reason
    held_after = 0
    for k in range(N_KINDS):
        held_after += w.avail[k]
    return check_line_end(g, w, seat, team, held_after, w.sc[W_POINTS], False)


@njit(cache=True)
def entry_legal(g, w, team: int, rank: int, nat: int, twos: int, jokers: int) -> bool:
    """Would this single entry be legal on the partnership's table now?"""
    return fits_on_table(g, team, rank, nat, twos, jokers) == OK


# --- the pile --------------------------------------------------------------------------------


@njit(cache=True)
def top_card(g) -> int:
    n = g.sc[S_PILE_N]
    if n == 0:
        return -1
    return g.pile[n - 1]


@njit(cache=True)
def top_rank(kind: int) -> int:
    """The meld rank a top card joins: its own rank, or the wild meld."""
    if kind == TWO or kind == JOKER:
        return WILD_RANK
    return kind


@njit(cache=True)
def taken_count(g) -> int:
    """How many cards a pick-up takes now; 0 when the pile may not be taken at all."""
    n = g.sc[S_PILE_N]
    rule = g.rules[R_PICKUP_RULE]
    if rule == PICKUP_WHOLE:
        return n
    size = g.rules[R_PICKUP_SIZE]
    if rule == PICKUP_EXACT:
        return size if n >= size else 0
    return min(size, n)


@njit(cache=True)
def pile_open(g, seat: int) -> bool:
    """R-PU1 and R-PU2's pair: worth planning a pick-up at all?"""
    top = top_card(g)
    if top < 0 or top == RED3 or top == BLACK3 or taken_count(g) == 0:
        return False
    if (top == TWO or top == JOKER) and g.rules[R_WILD_TOP_PICKUP] == 0:
        return False
    return g.hand[seat, top] >= 2


@njit(inline="always")
def _top_kind_used(top: int, entries, i: int) -> int:
    if top == TWO:
        return entries[i, 2]
    if top == JOKER:
        return entries[i, 3]
    return entries[i, 1]


@njit(inline="always")
def check_pickup(g, w, seat: int, entries, n: int) -> int:
    """Is picking up the pile with these qualifying melds legal? OK or a refusal code.

    The player names the qualifying melds; they may use only the top card and held cards
    (R-PU3), must be built around the top card and a held pair of its kind (R-PU2), must first
    complete an unfinished meld of that rank to a book and start a new meld (R-PU4, R-X12; not
    where books grow, R-V3), and meet the opening minimum by themselves (R-O3, R-X11)."""
    top = top_card(g)
    if top < 0 or top == RED3 or top == BLACK3 or taken_count(g) == 0:
        return E_PILE_BLOCKED  # R-PU1 (and a pile below an exact pick-up size)
    if (top == TWO or top == JOKER) and g.rules[R_WILD_TOP_PICKUP] == 0:
        return E_WILD_TOP
    if n <= 0:
        return E_NO_PAIR
    team = team_of(g, seat)
    rank = top_rank(top)
    m = g.meld[team, rank]
    size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
    # Walk the entries of the top's rank: an unfinished meld must be completed first, then a
    # new meld started (R-PU4, R-X12); without one, an entry starts the new meld (R-PU2).
    # Where books grow there is one meld per rank and the entries simply join it (R-V3).
    grow = g.rules[R_BOOKS] == BOOKS_GROW
    had_unfinished = size > 0 and not grow
    max_meld = g.rules[R_MAX_MELD]
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
    if not (completed and started):
        return E_COMPLETE_FIRST  # R-PU4
    if used_of_top_kind < 3:
        return E_NO_PAIR  # R-PU2: top + a held pair of its kind
    # R-PU3: only the top card and held cards may be melded.
    hand_to_avail(g, w, seat)
    w.avail[top] += 1
    reason = check_entries(g, w, team, entries, n, w.avail)
    if reason == E_NOT_HELD:
        return E_PICKUP_NOT_HELD  # R-PU3
    if reason != OK:
        return reason
    held_after = taken_count(g) - 1
    for k in range(N_KINDS):
        held_after += w.avail[k]
    return check_line_end(g, w, seat, team, held_after, w.sc[W_POINTS], True)


# --- discarding ------------------------------------------------------------------------------


@njit(inline="always")
def check_discard(g, seat: int, kind: int) -> int:
    """May ``seat`` discard one ``kind`` now? On the Foot, the last card may go only when going
    out (R-G4, R-X14, R-G1); a held red three goes first where they are discarded (R-V6)."""
    if kind < 0 or kind >= N_KINDS or g.hand[seat, kind] <= 0:
        return E_DISCARD_NOT_HELD
    if must_discard_red3(g, seat) and kind != RED3:
        return E_RED3_FIRST  # R-V6
    if held_count(g, seat) == 1 and g.on_foot[seat] == 1:
        if g.sc[S_GRANTED] == 0:
            return E_DISCARD_NEEDS_GRANT  # R-G4, R-X14
        if not books_allow_out(g, g.books[team_of(g, seat)]):
            return E_DISCARD_NO_BOOKS  # R-G1
    return OK
