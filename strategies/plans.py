"""Meld plans: lines of entries worked out on the work area's copy of the seat's cards and its
partnership's table (``w.plan_*``), through the engine's own ``place_entry`` (so a plan follows
the rule set's meld rules by construction). A plan never touches the game record; its entries
``(rank, naturals, twos, jokers, onto_book)`` become a proposal the engine checks again.
A plan reads only what its seat may know: its own held cards and the table.
"""

from __future__ import annotations

from numba.cpython.unsafe.numbers import trailing_zeros

from sim.core.cards import (
    BLACK3,
    BLACK3_RANK,
    JOKER,
    N_KINDS,
    N_NATURALS,
    RANK_KIND,
    TWO,
    WILD_RANK,
)
from sim.core.rules import BOOKS_GROW, BOOKS_NATURALS, R_BLACK3_MELDS, R_BOOKS, R_WILD_MELDS
from sim.engine.jit import njit
from sim.engine.layout import M_JOKER, M_NAT, M_TWO
from sim.engine.legal import (
    check_pickup,
    held_count,
    needs_concealed_book,
    opening_minimum,
    pile_open,
    team_of,
    top_card,
    top_rank,
)
from sim.engine.meldrules import (
    entry_points,
    fits_in_plan,
    place_in_plan,
    ratio_ok,
    table_to_plan,
)
from sim.engine.reasons import OK

BIG = 1000

# Which entry array of the work area a plan writes (``entry_rows``): a plan function takes this
# number, not the array, since an array argument costs reference-count calls on every call.
ENTRIES = 0  # w.entries: the line being planned
ENTRIES2 = 1  # w.entries2: a second plan alongside it (going out, a trial)


@njit(inline="always")
def entry_rows(w, which: int):
    """The work area's entry array ``which`` names (ENTRIES or ENTRIES2)."""
    if which == ENTRIES2:
        return w.entries2
    return w.entries


@njit(cache=True)
def plan_reset(g, w, seat: int) -> None:
    table_to_plan(g, w, seat, team_of(g, seat))


@njit(inline="always")
def plan_size(w, rank: int) -> int:
    m = w.plan_meld[rank]
    return m[M_NAT] + m[M_TWO] + m[M_JOKER]


@njit(inline="always")
def plan_wilds(w) -> int:
    return w.plan_hand[TWO] + w.plan_hand[JOKER]


@njit(cache=True)
def plan_held(w) -> int:
    total = 0
    for k in range(N_KINDS):
        total += w.plan_hand[k]
    return total


@njit(inline="always")
def plan_try(g, w, entries, n: int, rank: int, nat: int, twos: int, jokers: int,
             onto_book: int) -> int:
    """Add the entry to the plan if the cards are there and the rules allow it; returns the
    new entry count (unchanged when refused)."""
    if n >= entries.shape[0] or nat + twos + jokers <= 0:
        return n
    kind = RANK_KIND[rank]
    if (kind >= 0 and w.plan_hand[kind] < nat) or (kind < 0 and nat > 0):
        return n
    if w.plan_hand[TWO] < twos or w.plan_hand[JOKER] < jokers:
        return n
    if place_in_plan(g, w, rank, nat, twos, jokers, onto_book) != OK:
        return n
    if kind >= 0:
        w.plan_hand[kind] -= nat
    w.plan_hand[TWO] -= twos
    w.plan_hand[JOKER] -= jokers
    entries[n, 0] = rank
    entries[n, 1] = nat
    entries[n, 2] = twos
    entries[n, 3] = jokers
    entries[n, 4] = onto_book
    return n + 1


@njit(inline="always")
def plan_add(g, w, entries, n: int, rank: int, nat: int, wilds: int) -> int:
    """``plan_try`` with ``wilds`` wilds, jokers first (they cost most if left in hand)."""
    jokers = min(wilds, w.plan_hand[JOKER])
    return plan_try(g, w, entries, n, rank, nat, wilds - jokers, jokers, 0)


@njit(cache=True)
def plan_can(g, w, rank: int, nat: int, twos: int, jokers: int) -> bool:
    """Would the entry be legal on the plan's table? (``place_entry``'s verdict, nothing
    changed.)"""
    kind = RANK_KIND[rank]
    if (kind >= 0 and w.plan_hand[kind] < nat) or (kind < 0 and nat > 0):
        return False
    if w.plan_hand[TWO] < twos or w.plan_hand[JOKER] < jokers:
        return False
    return fits_in_plan(g, w, rank, nat, twos, jokers) == OK


@njit(cache=True)
def meld_cap(g) -> int:
    """How many cards a meld may reach in one go: 7, or unlimited where books grow."""
    return BIG if g.rules[R_BOOKS] == BOOKS_GROW else 7


@njit(cache=True)
def natural_ranks_end(g) -> int:
    """Natural ranks, plus the black-three rank where black threes meld (R-V7)."""
    return BLACK3_RANK + 1 if g.rules[R_BLACK3_MELDS] == 1 else N_NATURALS


@njit(inline="always")
def _joinable(w, rank: int, kind: int) -> bool:
    """Three or more of ``rank`` held, or a meld of it on the plan's table (``&``, ``|``: no
    branch)."""
    return (w.plan_hand[kind] >= 3) | (plan_size(w, rank) > 0)


@njit(inline="always")
def ranks_to_plan(g, w, limit: int) -> int:
    """Bit ``rank`` set for each natural rank (and the black-three rank where black threes
    meld) ``plan_naturals_upto`` can lay cards of: the plan holds some, and three or more, or
    a meld of the rank is on the table, or (R-V4, no ``limit``) a closed book of the rank can
    take them. Planning walks these bits instead of testing every rank: whether a rank is held,
    or a held pair has a meld to join, is a coin flip to the branch predictor. Laying a rank
    changes only that rank's cards, meld and books, so the set worked out first is the set
    the ranks would show one by one."""
    held = 0
    joinable = 0
    for rank in range(N_NATURALS):
        held |= (1 if w.plan_hand[rank] > 0 else 0) << rank
        joinable |= (1 if _joinable(w, rank, rank) else 0) << rank
    if natural_ranks_end(g) > N_NATURALS and w.plan_hand[BLACK3] > 0:
        held |= 1 << BLACK3_RANK
        joinable |= (1 if _joinable(w, BLACK3_RANK, BLACK3) else 0) << BLACK3_RANK
    if g.rules[R_BOOKS] == BOOKS_NATURALS and limit >= BIG:
        for rank in range(N_NATURALS):
            joinable |= (1 if w.plan_rank_books[rank] > 0 else 0) << rank
    return held & joinable


@njit(cache=True)
def plan_naturals(g, w, which: int, n: int) -> int:
    """Every natural that can go down: onto unfinished melds, as new melds of 3+, and (R-V4)
    onto closed books of the rank."""
    return plan_naturals_upto(g, w, which, n, BIG)


@njit(cache=True)
def plan_naturals_upto(g, w, which: int, n: int, limit: int) -> int:
    """``plan_naturals`` keeping every natural meld at ``limit`` cards or fewer (6: leave
    books one card short)."""
    entries = entry_rows(w, which)
    cap = min(meld_cap(g), limit)
    held = ranks_to_plan(g, w, limit)
    while held != 0:  # each such rank, lowest first (an entry takes cards of its rank only)
        rank = trailing_zeros(held)
        held &= held - 1
        kind = RANK_KIND[rank]
        size = plan_size(w, rank)
        if size > 0:
            c = w.plan_hand[kind]
            m = n
            if size + c <= limit:
                m = plan_try(g, w, entries, n, rank, c, 0, 0, 0)
            if m == n:
                m = plan_try(g, w, entries, n, rank, min(c, max(0, min(7, limit) - size)),
                             0, 0, 0)
            n = m
        while w.plan_hand[kind] >= 3 and plan_size(w, rank) == 0:
            m = plan_try(g, w, entries, n, rank, min(w.plan_hand[kind], cap), 0, 0, 0)
            if m == n:
                break
            n = m
        c = w.plan_hand[kind]
        if c > 0 and g.rules[R_BOOKS] == BOOKS_NATURALS and w.plan_rank_books[rank] > 0 \
                and limit >= BIG:
            n = plan_try(g, w, entries, n, rank, c, 0, 0, 1)
    return n


@njit(cache=True)
def plan_wild_meld(g, w, which: int, n: int) -> int:
    """Wilds onto the wild meld, or a new wild meld of 3+ (R-M4)."""
    entries = entry_rows(w, which)
    if g.rules[R_WILD_MELDS] == 0:
        return n
    cap = meld_cap(g)
    for _ in range(8):
        wilds = plan_wilds(w)
        size = plan_size(w, WILD_RANK)
        if wilds == 0 or (size == 0 and wilds < 3):
            return n
        take = min(wilds, cap - size) if size > 0 else min(wilds, cap)
        m = plan_add(g, w, entries, n, WILD_RANK, 0, take)
        if m == n:
            return n
        n = m
    return n


@njit(cache=True)
def plan_pairs_with_wild(g, w, which: int, n: int, max_wilds: int) -> int:
    """New melds of a held natural pair and one wild, up to ``max_wilds`` wilds."""
    entries = entry_rows(w, which)
    used = 0
    for rank in range(N_NATURALS - 1, -1, -1):
        if used >= max_wilds or plan_wilds(w) == 0:
            break
        if w.plan_hand[rank] == 2 and plan_size(w, rank) == 0:
            m = plan_add(g, w, entries, n, rank, 2, 1)
            if m > n:
                used += 1
            n = m
    return n


@njit(cache=True)
def plan_wilds_to_naturals(g, w, which: int, n: int, max_wilds: int) -> int:
    """Wilds onto unfinished natural melds within the ratio, fullest meld first."""
    entries = entry_rows(w, which)
    used = 0
    while used < max_wilds and plan_wilds(w) > 0:
        best = -1
        best_size = 0
        cap = meld_cap(g) if g.rules[R_BOOKS] == BOOKS_GROW else 7
        for rank in range(N_NATURALS):
            m = w.plan_meld[rank]
            size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
            # a cheap pre-check of place_entry's rules; plan_add below applies the real one
            if size > best_size and size < cap and ratio_ok(g, m[M_NAT],
                                                            m[M_TWO] + m[M_JOKER] + 1):
                best = rank
                best_size = size
        if best < 0:
            break
        n = plan_add(g, w, entries, n, best, 0, 1)
        used += 1
    return n


@njit(inline="always")
def entries_points(entries, n: int) -> int:
    pts = 0
    for i in range(n):
        pts += entry_points(entries[i, 0], entries[i, 1], entries[i, 2], entries[i, 3])
    return pts


@njit(cache=True)
def plan_opening_extras(g, w, which: int, n: int) -> int:
    """Everything that adds points to a first meld line: more melds, then wilds within ratio."""
    n = plan_naturals(g, w, which, n)
    n = plan_wild_meld(g, w, which, n)
    n = plan_wilds_to_naturals(g, w, which, n, 99)
    n = plan_pairs_with_wild(g, w, which, n, 99)
    n = plan_wilds_to_naturals(g, w, which, n, 99)
    return n


@njit(cache=True)
def plan_everything(g, w, seat: int, which: int, held_back: int) -> int:
    """Every card that can go down, keeping one ``held_back`` kind (-1: none) out of it."""
    plan_reset(g, w, seat)
    if held_back >= 0:
        w.plan_hand[held_back] -= 1
    n = plan_naturals(g, w, which, 0)
    n = plan_wild_meld(g, w, which, n)
    n = plan_pairs_with_wild(g, w, which, n, 99)
    n = plan_wilds_to_naturals(g, w, which, n, 99)
    n = plan_wild_meld(g, w, which, n)
    if held_back >= 0:
        w.plan_hand[held_back] += 1
    return n


@njit(cache=True)
def plan_concealed_book(g, w, seat: int, which: int) -> int:
    """R-V5: one entry of 7+ cards starting a meld (most naturals first); 0 if none."""
    entries = entry_rows(w, which)
    plan_reset(g, w, seat)
    best = -1
    for rank in range(N_NATURALS):
        if plan_size(w, rank) == 0 and (best < 0 or w.plan_hand[rank] > w.plan_hand[best]):
            best = rank
    if best < 0:
        return 0
    c = w.plan_hand[best]
    for wilds in range(max(0, 7 - c), min(plan_wilds(w), 3) + 1):
        m = plan_add(g, w, entries, 0, best, c, wilds)
        if m > 0:
            return m
    return 0


@njit(cache=True)
def plan_pickup(g, w, seat: int, which: int) -> int:
    """Qualifying melds for picking up the pile (R-PU2, R-PU4, R-X12, R-O3, R-V3); -1 if none.

    Only held cards and the top card are used (R-PU3). When the partnership has not opened,
    held melds are added until the line meets the minimum (R-X11).
    """
    entries = entry_rows(w, which)
    if not pile_open(g, seat):
        return -1
    team = team_of(g, seat)
    if g.opened[team] == 0 and needs_concealed_book(g):
        return -1  # R-V5: deal 4's opening is made in hand, without a pick-up
    top = top_card(g)
    rank = top_rank(top)
    plan_reset(g, w, seat)
    w.plan_hand[top] += 1
    size = plan_size(w, rank)
    grow = g.rules[R_BOOKS] == BOOKS_GROW
    n = 0
    if rank != WILD_RANK:
        h = w.plan_hand[rank]
        if size > 0 and not grow:  # R-PU4: complete the unfinished meld, then start a new one
            k = 7 - size
            found = False
            for y in range(0, min(k, plan_wilds(w)) + 1):
                x = k - y
                if x > h or h - x < 2:
                    continue
                m = plan_add(g, w, entries, 0, rank, x, y)
                if m == 0:
                    continue
                rest = w.plan_hand[rank]
                m2 = plan_add(g, w, entries, m, rank, min(rest, 7), 0)
                if m2 == m:
                    m2 = plan_add(g, w, entries, m, rank, 2, 1)
                if m2 > m and x + entries[m, 1] - 1 >= 2:
                    n = m2
                    found = True
                    break
                plan_reset(g, w, seat)
                w.plan_hand[top] += 1
            if not found:
                return -1
        else:
            n = plan_add(g, w, entries, 0, rank, h if grow else min(h, 7), 0)
            if n == 0:
                return -1
    else:
        other = JOKER if top == TWO else TWO
        if size > 0 and not grow:  # R-PU4 for the wild meld: complete it, other kind first
            k = 7 - size
            use_other = min(k, w.plan_hand[other])
            use_same = k - use_other
            if w.plan_hand[top] - use_same < 3:
                return -1
            if top == TWO:
                n = plan_try(g, w, entries, n, WILD_RANK, 0, use_same, use_other, 0)
            else:
                n = plan_try(g, w, entries, n, WILD_RANK, 0, use_other, use_same, 0)
            if n == 0:
                return -1
        same = w.plan_hand[top]
        take = same if grow else min(same, 7)
        m = plan_try(g, w, entries, n, WILD_RANK, 0, take if top == TWO else 0,
                     take if top == JOKER else 0, 0)
        if m == n:
            return -1
        n = m
    if g.opened[team] == 0:
        minimum = opening_minimum(g)
        if entries_points(entries, n) < minimum:
            n = plan_opening_extras(g, w, which, n)
            if entries_points(entries, n) < minimum:
                return -1
    if check_pickup(g, w, seat, entries, n) != OK:
        return -1  # e.g. R-G4: on the Foot the pick-up must leave two cards
    return n


@njit(inline="always")
def trim_for_foot(g, seat: int, entries, n: int) -> int:
    """R-G4: on the Foot keep at least two cards; drop entries from the end until so."""
    if g.on_foot[seat] == 0:
        return n
    held = held_count(g, seat)
    while n > 0:
        used = 0
        for i in range(n):
            used += entries[i, 1] + entries[i, 2] + entries[i, 3]
        if held - used >= 2:
            break
        n -= 1
    return n
