"""How one meld entry changes a partnership's table under the rule set (R-M, R-V3..R-V7).

``place_entry`` is the one place that knows it. It works on whatever table arrays it is given:
the engine's scratch copies (checking a line), the real table (applying one), or a strategy's
plan copies, so plans follow the rules by construction. It reads only the rules from ``g``.
"""

from __future__ import annotations

from sim.core.cards import (
    BLACK3_RANK,
    CARD_VALUE,
    JOKER,
    N_NATURALS,
    N_RANKS,
    RANK_KIND,
    TWO,
    WILD_RANK,
)
from sim.core.enums import Book
from sim.core.rules import (
    BOOKS_GROW,
    BOOKS_NATURALS,
    R_BLACK3_MELDS,
    R_BOOKS,
    R_MAX_MELD,
    R_MAX_WILDS,
    R_WILD_MELDS,
    R_WILD_RATIO,
    RATIO_DOUBLE,
)
from sim.engine.bytecopy import copy_bytes, field_block, same_layout
from sim.engine.jit import njit
from sim.engine.layout import GAME_DTYPE, M_JOKER, M_NAT, M_TWO, WORK_DTYPE
from sim.engine.reasons import (
    E_BLACK3_WILD,
    E_BOOK_CLOSED,
    E_ONTO_BOOK,
    E_RATIO,
    E_SHAPE,
    E_THREES,
    E_TOO_BIG,
    E_TOO_SMALL,
    E_WILD_MELD,
    OK,
)

BOOK_SIZE = 7


@njit(cache=True)
def ratio_ok(g, naturals: int, wilds: int) -> bool:
    """R-M3 (naturals >= 2 x wilds) or the profile's 'naturals > wilds', and any hard cap."""
    if wilds == 0:
        return True
    cap = g.rules[R_MAX_WILDS]
    if cap > 0 and wilds > cap:
        return False
    if g.rules[R_WILD_RATIO] == RATIO_DOUBLE:
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
        return Book.WILD
    if rank == BLACK3_RANK:
        return Book.BLACK3
    if wilds > 0:
        return Book.DIRTY
    return Book.CLEAN


@njit(inline="always")
def _place(g, melds, books, rank_books, booked, rank: int, nat: int, twos: int, jokers: int,
           onto_book: int, apply: bool) -> int:
    """The body of ``place_entry``, compiled into each caller below: passing arrays to a
    function that is not inlined costs a reference-count call per array on entry and on every
    return (about 100 cycles a call here), so the hot callers pass records and ints instead.

    Every refusal is decided before anything changes, so with ``apply`` false (a constant at
    each call site) it is a pure check: the same verdict, on the table itself, no copy."""
    wild = twos + jokers
    if nat < 0 or twos < 0 or jokers < 0 or nat + wild == 0 or rank < 0 or rank >= N_RANKS:
        return E_SHAPE
    if rank == WILD_RANK:
        if g.rules[R_WILD_MELDS] == 0 or nat != 0:  # R-M4
            return E_WILD_MELD
    elif rank == BLACK3_RANK:
        if g.rules[R_BLACK3_MELDS] == 0:  # R-M5
            return E_THREES
        if wild != 0:  # R-V7
            return E_BLACK3_WILD
    mode = g.rules[R_BOOKS]
    kind = RANK_KIND[rank]
    if onto_book != 0:  # R-V4: naturals onto a closed book of a natural rank
        if mode != BOOKS_NATURALS or kind < 0 or kind >= N_NATURALS or wild != 0 \
                or rank_books[rank] == 0:
            return E_ONTO_BOOK
        if apply:
            booked[kind] += nat
        return OK
    m = melds[rank]
    size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
    new_size = size + nat + wild
    new_nat = m[M_NAT] + nat
    new_wild = m[M_TWO] + m[M_JOKER] + wild
    if size == 0 and new_size < 3:  # R-M2, R-M4: a new meld has 3 cards or more
        return E_TOO_SMALL
    if rank != WILD_RANK and not ratio_ok(g, new_nat, new_wild):  # R-M3, R-X13
        return E_RATIO
    if mode == BOOKS_NATURALS:
        # R-V4: only naturals of a natural rank take a meld past 7; black threes and wilds are
        # not naturals, so their melds close at 7 as in R-M6.
        if new_size > BOOK_SIZE and (wild > 0 or size == 0 or kind < 0 or kind >= N_NATURALS):
            return E_BOOK_CLOSED
    elif new_size > g.rules[R_MAX_MELD]:  # R-M6
        return E_TOO_BIG
    if not apply:
        return OK
    old_wild = m[M_TWO] + m[M_JOKER]
    m[M_NAT] = new_nat
    m[M_TWO] += twos
    m[M_JOKER] += jokers
    if mode == BOOKS_GROW:  # R-V3: a book from 7 cards on; a wild makes a clean one dirty
        if size < BOOK_SIZE <= new_size:
            books[book_type(rank, new_wild)] += 1
        elif size >= BOOK_SIZE and old_wild == 0 and new_wild > 0 and kind >= 0 and \
                rank != BLACK3_RANK:
            books[Book.CLEAN] -= 1
            books[Book.DIRTY] += 1
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
    return OK


@njit(cache=True)
def place_entry(g, melds, books, rank_books, booked, rank: int, nat: int, twos: int,
                jokers: int, onto_book: int) -> int:
    """Apply one entry to a partnership's table (melds, books, closed books per rank, cards in
    closed books). Returns OK, or the refusal code (sim.engine.reasons), changing nothing."""
    return _place(g, melds, books, rank_books, booked, rank, nat, twos, jokers, onto_book,
                  True)


@njit(cache=True)
def place_on_table(g, team: int, rank: int, nat: int, twos: int, jokers: int,
                   onto_book: int) -> int:
    """``place_entry`` on the partnership's real table in the game record."""
    return _place(g, g.meld[team], g.books[team], g.rank_books[team], g.booked[team], rank, nat,
                  twos, jokers, onto_book, True)


@njit(cache=True)
def place_in_plan(g, w, rank: int, nat: int, twos: int, jokers: int, onto_book: int) -> int:
    """``place_entry`` on a strategy's plan copy of its table (``w.plan_*``)."""
    return _place(g, w.plan_meld, w.plan_books, w.plan_rank_books, w.plan_booked, rank, nat,
                  twos, jokers, onto_book, True)


@njit(cache=True)
def place_in_scratch(g, w, rank: int, nat: int, twos: int, jokers: int, onto_book: int) -> int:
    """``place_entry`` on the scratch copy a check runs on (``w.tmp_*``)."""
    return _place(g, w.tmp_meld, w.tmp_books, w.tmp_rank_books, w.tmp_booked, rank, nat, twos,
                  jokers, onto_book, True)


@njit(cache=True)
def fits_on_table(g, team: int, rank: int, nat: int, twos: int, jokers: int) -> int:
    """``place_entry``'s verdict on the partnership's real table, changing nothing."""
    return _place(g, g.meld[team], g.books[team], g.rank_books[team], g.booked[team], rank, nat,
                  twos, jokers, 0, False)


@njit(cache=True)
def fits_in_plan(g, w, rank: int, nat: int, twos: int, jokers: int) -> int:
    """``place_entry``'s verdict on a strategy's plan copy (``w.plan_*``), changing nothing."""
    return _place(g, w.plan_meld, w.plan_books, w.plan_rank_books, w.plan_booked, rank, nat,
                  twos, jokers, 0, False)


# Byte blocks of the table copies (sim.engine.bytecopy): a seat's held cards and a
# partnership's table in the game record; in the work area, the plan and scratch copies, each
# laid out as the table's four fields in the same order and sizes (checked here), so a copy
# needs only where its meld block starts.
_TABLE_FIELDS = ("meld", "books", "rank_books", "booked")
for _name in _TABLE_FIELDS:
    for _copy in ("plan_", "tmp_"):
        same_layout(GAME_DTYPE, _name, WORK_DTYPE, _copy + _name, True, False)
for _field in ("plan_hand", "avail"):
    same_layout(GAME_DTYPE, "hand", WORK_DTYPE, _field, True, False)
_GAME_AT = {name: field_block(GAME_DTYPE, name, True) for name in ("hand",) + _TABLE_FIELDS}
HAND_AT, HAND_ROW = _GAME_AT["hand"]
MELD_AT, MELD_ROW = _GAME_AT["meld"]
BOOKS_AT, BOOKS_ROW = _GAME_AT["books"]
RANK_BOOKS_AT, RANK_BOOKS_ROW = _GAME_AT["rank_books"]
BOOKED_AT, BOOKED_ROW = _GAME_AT["booked"]
PLAN_HAND_AT = field_block(WORK_DTYPE, "plan_hand", False)[0]
AVAIL_AT = field_block(WORK_DTYPE, "avail", False)[0]
PLAN_TABLE_AT = field_block(WORK_DTYPE, "plan_meld", False)[0]
TMP_TABLE_AT = field_block(WORK_DTYPE, "tmp_meld", False)[0]
for _copy, _start in (("plan_", PLAN_TABLE_AT), ("tmp_", TMP_TABLE_AT)):
    _at = _start
    for _name in _TABLE_FIELDS:
        if field_block(WORK_DTYPE, _copy + _name, False)[0] != _at:
            raise AssertionError(f"{_copy}{_name} does not follow the {_copy} table's layout")
        _at += _GAME_AT[_name][1]


@njit(inline="always")
def _table_into(g, w, team: int, dest: int) -> None:
    """The partnership's table into the work area's copy whose meld block starts at ``dest``."""
    at = dest
    copy_bytes(w, at, g, MELD_AT + team * MELD_ROW, MELD_ROW)
    at += MELD_ROW
    copy_bytes(w, at, g, BOOKS_AT + team * BOOKS_ROW, BOOKS_ROW)
    at += BOOKS_ROW
    copy_bytes(w, at, g, RANK_BOOKS_AT + team * RANK_BOOKS_ROW, RANK_BOOKS_ROW)
    at += RANK_BOOKS_ROW
    copy_bytes(w, at, g, BOOKED_AT + team * BOOKED_ROW, BOOKED_ROW)


@njit(cache=True)
def table_to_scratch(g, w, team: int) -> None:
    """The partnership's table into the scratch copy (``w.tmp_*``)."""
    _table_into(g, w, team, TMP_TABLE_AT)


@njit(cache=True)
def table_to_plan(g, w, seat: int, team: int) -> None:
    """The seat's held cards and its partnership's table into the plan copy (``w.plan_*``)."""
    copy_bytes(w, PLAN_HAND_AT, g, HAND_AT + seat * HAND_ROW, HAND_ROW)
    _table_into(g, w, team, PLAN_TABLE_AT)


@njit(cache=True)
def hand_to_avail(g, w, seat: int) -> None:
    """The seat's held cards into the scratch count ``w.avail``."""
    copy_bytes(w, AVAIL_AT, g, HAND_AT + seat * HAND_ROW, HAND_ROW)
