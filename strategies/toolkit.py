"""Building blocks strategies share: plans of meld lines made on scratch copies of the state.

A plan never changes the game: it works on ``st.plan_hand`` / ``st.plan_meld`` /
``st.plan_books`` and writes entries ``(rank, naturals, twos, jokers)`` that a strategy then
hands to the engine's primitives, which check them again. A plan reads only what its seat may
know: its own held cards and the table.
"""

from __future__ import annotations

from numba import njit

from sim.cards import CARD_VALUE, JOKER, N_KINDS, N_NATURALS, TWO, WILD_RANK
from sim.melds import (
    OK,
    copy_counts,
    copy_melds,
    entry_points,
    held_count,
    opening_minimum,
    team_of,
)
from sim.pickup import check_pickup, pile_open, top_card, top_rank
from sim.rules import (
    R_CLEAN_BONUS,
    R_DIRTY_BONUS,
    R_OUT_BONUS,
    R_OUT_CLEAN,
    R_OUT_DIRTY,
    R_OUT_WILD,
    R_RED3_BONUS,
    R_WILD_BONUS,
)
from sim.state import (
    BOOK_CLEAN,
    BOOK_DIRTY,
    BOOK_WILD,
    M_JOKER,
    M_NAT,
    M_TWO,
    S_ASKED,
    S_PLAYERS,
    S_TEAMS,
)

MAX_MELD = 7


@njit(cache=True)
def plan_reset(st, seat: int) -> None:
    copy_counts(st.plan_hand, st.hand[seat])
    copy_melds(st.plan_meld, st.meld[team_of(st, seat)])
    st.plan_books[:] = 0


@njit(cache=True)
def plan_size(st, rank: int) -> int:
    m = st.plan_meld[rank]
    return m[M_NAT] + m[M_TWO] + m[M_JOKER]


@njit(cache=True)
def plan_wilds(st) -> int:
    return st.plan_hand[TWO] + st.plan_hand[JOKER]


@njit(cache=True)
def plan_held(st) -> int:
    total = 0
    for k in range(N_KINDS):
        total += st.plan_hand[k]
    return total


@njit(cache=True)
def plan_add(st, entries, n: int, rank: int, nat: int, wilds: int) -> int:
    """Append an entry of ``nat`` naturals and ``wilds`` wilds (jokers first) to the plan."""
    jokers = min(wilds, st.plan_hand[JOKER])
    return plan_add_typed(st, entries, n, rank, nat, wilds - jokers, jokers)


@njit(cache=True)
def plan_add_typed(st, entries, n: int, rank: int, nat: int, twos: int, jokers: int) -> int:
    """Like ``plan_add`` with the wild kinds chosen by the caller."""
    entries[n, 0] = rank
    entries[n, 1] = nat
    entries[n, 2] = twos
    entries[n, 3] = jokers
    if rank != WILD_RANK:
        st.plan_hand[rank] -= nat
    st.plan_hand[TWO] -= twos
    st.plan_hand[JOKER] -= jokers
    m = st.plan_meld[rank]
    m[M_NAT] += nat
    m[M_TWO] += twos
    m[M_JOKER] += jokers
    if m[M_NAT] + m[M_TWO] + m[M_JOKER] == MAX_MELD:
        st.plan_books[
            BOOK_WILD
            if rank == WILD_RANK
            else (BOOK_DIRTY if m[M_TWO] + m[M_JOKER] > 0 else BOOK_CLEAN)
        ] += 1
        m[:] = 0
    return n + 1


@njit(cache=True)
def plan_naturals(st, entries, n: int) -> int:
    """Every natural that can go down: onto unfinished melds, or as new melds of 3+."""
    for rank in range(N_NATURALS):
        c = st.plan_hand[rank]
        if c == 0:
            continue
        size = plan_size(st, rank)
        if size > 0:
            k = min(c, MAX_MELD - size)
            n = plan_add(st, entries, n, rank, k, 0)
            c -= k
        while c >= 3:
            k = min(c, MAX_MELD)
            n = plan_add(st, entries, n, rank, k, 0)
            c -= k
    return n


@njit(cache=True)
def plan_wild_meld(st, entries, n: int) -> int:
    """Wilds onto the wild meld, or a new wild meld of 3+ (R-M4)."""
    while True:
        w = plan_wilds(st)
        size = plan_size(st, WILD_RANK)
        if size > 0 and w > 0:
            n = plan_add(st, entries, n, WILD_RANK, 0, min(w, MAX_MELD - size))
        elif size == 0 and w >= 3:
            n = plan_add(st, entries, n, WILD_RANK, 0, min(w, MAX_MELD))
        else:
            return n


@njit(cache=True)
def plan_pairs_with_wild(st, entries, n: int, max_wilds: int) -> int:
    """New melds of a held natural pair and one wild (R-M3), up to ``max_wilds`` wilds."""
    used = 0
    for rank in range(N_NATURALS - 1, -1, -1):
        if used >= max_wilds or plan_wilds(st) == 0:
            break
        if st.plan_hand[rank] == 2 and plan_size(st, rank) == 0:
            n = plan_add(st, entries, n, rank, 2, 1)
            used += 1
    return n


@njit(cache=True)
def plan_wilds_to_naturals(st, entries, n: int, max_wilds: int) -> int:
    """Wilds onto unfinished natural melds within the ratio, fullest meld first."""
    used = 0
    while used < max_wilds and plan_wilds(st) > 0:
        best = -1
        best_size = 0
        for rank in range(N_NATURALS):
            m = st.plan_meld[rank]
            size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
            if size == 0 or size >= MAX_MELD:
                continue
            if m[M_NAT] < 2 * (m[M_TWO] + m[M_JOKER] + 1):
                continue
            if size > best_size:
                best = rank
                best_size = size
        if best < 0:
            break
        n = plan_add(st, entries, n, best, 0, 1)
        used += 1
    return n


@njit(cache=True)
def entries_points(entries, n: int) -> int:
    pts = 0
    for i in range(n):
        pts += entry_points(entries[i, 0], entries[i, 1], entries[i, 2], entries[i, 3])
    return pts


@njit(cache=True)
def team_books(st, team: int, book: int) -> int:
    return st.books[team, book] + st.plan_books[book]


@njit(cache=True)
def plan_books_allow_out(st, team: int) -> bool:
    return (
        team_books(st, team, BOOK_CLEAN) >= st.rules[R_OUT_CLEAN]
        and team_books(st, team, BOOK_DIRTY) >= st.rules[R_OUT_DIRTY]
        and team_books(st, team, BOOK_WILD) >= st.rules[R_OUT_WILD]
    )


@njit(cache=True)
def partners_on_foot(st, seat: int) -> bool:
    """R-G2, R-X15: every partner has picked up their Foot."""
    teams = st.sc[S_TEAMS]
    for other in range(seat % teams, st.sc[S_PLAYERS], teams):
        if other != seat and st.on_foot[other] == 0:
            return False
    return True


@njit(cache=True)
def may_ask(st, seat: int) -> bool:
    """R-G3: on the Foot, partners on theirs, not yet asked this turn."""
    return (
        st.on_foot[seat] == 1
        and st.sc[S_ASKED] == 0
        and st.sc[S_TEAMS] < st.sc[S_PLAYERS]
        and partners_on_foot(st, seat)
    )


@njit(cache=True)
def plan_go_out(st, seat: int, entries):
    """A way to meld everything but at most one card, meeting R-G1. Returns (entries, discard).

    Entries is -1 when no way is found. The discard is -1 when the last meld empties the hand.
    """
    team = team_of(st, seat)
    plan_reset(st, seat)
    n = plan_naturals(st, entries, 0)
    n = plan_wild_meld(st, entries, n)
    n = plan_pairs_with_wild(st, entries, n, 99)
    n = plan_wilds_to_naturals(st, entries, n, 99)
    n = plan_wild_meld(st, entries, n)
    left = plan_held(st)
    if left > 1 or not plan_books_allow_out(st, team):
        return -1, -1
    if n == 0 and left == 0:
        return -1, -1
    discard = -1
    if left == 1:
        for k in range(N_KINDS):
            if st.plan_hand[k] > 0:
                discard = k
    return n, discard


@njit(cache=True)
def plan_opening_extras(st, entries, n: int) -> int:
    """Everything that adds points to a first meld line: more melds, then wilds within ratio."""
    n = plan_naturals(st, entries, n)
    n = plan_wild_meld(st, entries, n)
    n = plan_wilds_to_naturals(st, entries, n, 99)
    n = plan_pairs_with_wild(st, entries, n, 99)
    n = plan_wilds_to_naturals(st, entries, n, 99)
    return n


@njit(cache=True)
def plan_pickup(st, seat: int, entries) -> int:
    """Qualifying melds for picking up the pile (R-PU2, R-PU4, R-X12, R-O3); -1 if none.

    Only held cards and the top card are used (R-PU3). When the partnership has not opened,
    held melds are added until the line meets the minimum (R-X11).
    """
    if not pile_open(st, seat):
        return -1
    top = top_card(st)
    rank = top_rank(top)
    team = team_of(st, seat)
    plan_reset(st, seat)
    st.plan_hand[top] += 1
    size = plan_size(st, rank)
    n = 0
    if rank != WILD_RANK:
        h = st.plan_hand[rank]
        if size > 0:  # R-PU4: complete the unfinished meld, then start a new one
            m = st.plan_meld[rank]
            k = MAX_MELD - size
            w_all = plan_wilds(st)
            found = -1
            for y in range(0, min(k, w_all) + 1):
                x = k - y
                if x > h or m[M_NAT] + x < 2 * (m[M_TWO] + m[M_JOKER] + y):
                    continue
                rest = h - x
                if rest >= 3 or (rest == 2 and w_all - y >= 1):
                    if x + min(rest, MAX_MELD) - 1 >= 2:
                        found = y
                        break
            if found < 0:
                return -1
            x = k - found
            n = plan_add(st, entries, n, rank, x, found)
            rest = h - x
            if rest >= 3:
                n = plan_add(st, entries, n, rank, min(rest, MAX_MELD), 0)
            else:
                n = plan_add(st, entries, n, rank, 2, 1)
        else:
            if h < 3:
                return -1
            n = plan_add(st, entries, n, rank, min(h, MAX_MELD), 0)
    else:
        other = JOKER if top == TWO else TWO
        if size > 0:  # R-PU4 for the wild meld: complete it with the other kind first
            k = MAX_MELD - size
            use_other = min(k, st.plan_hand[other])
            use_same = k - use_other
            if st.plan_hand[top] - use_same < 3:
                return -1
            if top == TWO:
                n = plan_add_typed(st, entries, n, WILD_RANK, 0, use_same, use_other)
            else:
                n = plan_add_typed(st, entries, n, WILD_RANK, 0, use_other, use_same)
        same = st.plan_hand[top]
        take = min(same, MAX_MELD)
        if take < 3:
            return -1
        if top == TWO:
            n = plan_add_typed(st, entries, n, WILD_RANK, 0, take, 0)
        else:
            n = plan_add_typed(st, entries, n, WILD_RANK, 0, 0, take)
    if st.opened[team] == 0:
        minimum = opening_minimum(st)
        if entries_points(entries, n) < minimum:
            n = plan_opening_extras(st, entries, n)
            if entries_points(entries, n) < minimum:
                return -1
    if check_pickup(st, seat, entries, n) != OK:
        return -1  # e.g. R-G4: on the Foot the pick-up must leave two cards
    return n


@njit(cache=True)
def visible_deal_score(st, team: int) -> int:
    """Points on the table for a partnership: what every seat can see."""
    return (
        st.melded_value[team]
        + st.books[team, BOOK_CLEAN] * st.rules[R_CLEAN_BONUS]
        + st.books[team, BOOK_DIRTY] * st.rules[R_DIRTY_BONUS]
        + st.books[team, BOOK_WILD] * st.rules[R_WILD_BONUS]
        + st.red3[team] * st.rules[R_RED3_BONUS]
    )


@njit(cache=True)
def held_value(st, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += st.hand[seat, k] * CARD_VALUE[k]
    return total


@njit(cache=True)
def going_out_wins_deal(st, seat: int, asker: int) -> bool:
    """R-X3's default: grant when going out now wins the deal on points.

    Hidden cards are estimated at 10 points each (a seat sees only their number)."""
    team = team_of(st, seat)
    ours = visible_deal_score(st, team) + st.rules[R_OUT_BONUS] - held_value(st, seat)
    best_other = -(1 << 30)
    teams = st.sc[S_TEAMS]
    for other in range(teams):
        if other == team:
            continue
        theirs = visible_deal_score(st, other)
        for s in range(other, st.sc[S_PLAYERS], teams):
            theirs -= 10 * (held_count(st, s) + _foot_count(st, s))
        best_other = max(best_other, theirs)
    return ours > best_other


@njit(cache=True)
def _foot_count(st, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += st.foot[seat, k]
    return total
