"""Building blocks strategies share: plans of meld lines made on scratch copies of the table.

A plan never changes the game: it works on ``st.plan_*`` copies of the seat's held cards and
its partnership's table, through the engine's own ``place_entry`` (so a plan follows the rule
set's meld rules by construction), and writes entries ``(rank, naturals, twos, jokers,
onto_book)`` that a strategy then hands to the engine's primitives, which check them again.
A plan reads only what its seat may know: its own held cards and the table.
"""

from __future__ import annotations

from numba import njit

from sim.cards import (
    BLACK3,
    BLACK3_RANK,
    CARD_VALUE,
    JOKER,
    N_KINDS,
    N_NATURALS,
    RANK_KIND,
    RED3,
    TWO,
    WILD_RANK,
)
from sim.melds import (
    OK,
    books_allow_out,
    copy_counts,
    copy_melds,
    entry_points,
    held_count,
    lay_line,
    needs_concealed_book,
    opening_minimum,
    place_entry,
    ratio_ok,
    team_of,
)
from sim.pickup import check_pickup, pile_open, top_card, top_rank
from sim.rules import (
    BOOKS_GROW,
    BOOKS_NATURALS,
    R_BLACK3_MELDS,
    R_BOOKS,
    R_CLEAN_BONUS,
    R_DIRTY_BONUS,
    R_FINAL_DISCARD,
    R_OUT_BONUS,
    R_PARTNER_FOOT,
    R_RED3_BONUS,
    R_RED3_RULE,
    R_WILD_BONUS,
    R_WILD_MELDS,
    RED3_DISCARD,
)
from sim.state import (
    BOOK_BLACK3,
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

BIG = 1000


@njit(cache=True)
def plan_reset(st, seat: int) -> None:
    team = team_of(st, seat)
    copy_counts(st.plan_hand, st.hand[seat])
    copy_melds(st.plan_meld, st.meld[team])
    copy_counts(st.plan_books, st.books[team])
    copy_counts(st.plan_rank_books, st.rank_books[team])
    copy_counts(st.plan_booked, st.booked[team])


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
def plan_try(st, entries, n: int, rank: int, nat: int, twos: int, jokers: int,
             onto_book: int) -> int:
    """Add the entry to the plan if the cards are there and the rules allow it; returns the
    new entry count (unchanged when refused)."""
    if n >= entries.shape[0] or nat + twos + jokers <= 0:
        return n
    kind = RANK_KIND[rank]
    if (kind >= 0 and st.plan_hand[kind] < nat) or (kind < 0 and nat > 0):
        return n
    if st.plan_hand[TWO] < twos or st.plan_hand[JOKER] < jokers:
        return n
    if not place_entry(st, st.plan_meld, st.plan_books, st.plan_rank_books, st.plan_booked,
                       rank, nat, twos, jokers, onto_book):
        return n
    if kind >= 0:
        st.plan_hand[kind] -= nat
    st.plan_hand[TWO] -= twos
    st.plan_hand[JOKER] -= jokers
    entries[n, 0] = rank
    entries[n, 1] = nat
    entries[n, 2] = twos
    entries[n, 3] = jokers
    entries[n, 4] = onto_book
    return n + 1


@njit(cache=True)
def plan_add(st, entries, n: int, rank: int, nat: int, wilds: int) -> int:
    """``plan_try`` with ``wilds`` wilds, jokers first (they cost most if left in hand)."""
    jokers = min(wilds, st.plan_hand[JOKER])
    return plan_try(st, entries, n, rank, nat, wilds - jokers, jokers, 0)


@njit(cache=True)
def plan_can(st, rank: int, nat: int, twos: int, jokers: int) -> bool:
    """Would the entry be legal on the plan's table? (Tries it on the tmp_ copies.)"""
    kind = RANK_KIND[rank]
    if (kind >= 0 and st.plan_hand[kind] < nat) or (kind < 0 and nat > 0):
        return False
    if st.plan_hand[TWO] < twos or st.plan_hand[JOKER] < jokers:
        return False
    copy_melds(st.tmp_meld, st.plan_meld)
    copy_counts(st.tmp_books, st.plan_books)
    copy_counts(st.tmp_rank_books, st.plan_rank_books)
    copy_counts(st.tmp_booked, st.plan_booked)
    return place_entry(st, st.tmp_meld, st.tmp_books, st.tmp_rank_books, st.tmp_booked, rank,
                       nat, twos, jokers, 0)


@njit(cache=True)
def meld_cap(st) -> int:
    """How many cards a meld may reach in one go: 7, or unlimited where books grow."""
    return BIG if st.rules[R_BOOKS] == BOOKS_GROW else 7


@njit(cache=True)
def natural_ranks_end(st) -> int:
    """Natural ranks, plus the black-three rank where black threes meld (R-V7)."""
    return BLACK3_RANK + 1 if st.rules[R_BLACK3_MELDS] == 1 else N_NATURALS


@njit(cache=True)
def plan_naturals(st, entries, n: int) -> int:
    """Every natural that can go down: onto unfinished melds, as new melds of 3+, and (R-V4)
    onto closed books of the rank."""
    return plan_naturals_upto(st, entries, n, BIG)


@njit(cache=True)
def plan_naturals_upto(st, entries, n: int, limit: int) -> int:
    """``plan_naturals`` keeping every natural meld at ``limit`` cards or fewer (6: leave
    books one card short)."""
    cap = min(meld_cap(st), limit)
    for rank in range(natural_ranks_end(st)):
        if rank == WILD_RANK:
            continue
        kind = RANK_KIND[rank]
        if st.plan_hand[kind] == 0:
            continue
        size = plan_size(st, rank)
        if size > 0:
            c = st.plan_hand[kind]
            m = n
            if size + c <= limit:
                m = plan_try(st, entries, n, rank, c, 0, 0, 0)
            if m == n:
                m = plan_try(st, entries, n, rank, min(c, max(0, min(7, limit) - size)), 0, 0, 0)
            n = m
        while st.plan_hand[kind] >= 3 and plan_size(st, rank) == 0:
            m = plan_try(st, entries, n, rank, min(st.plan_hand[kind], cap), 0, 0, 0)
            if m == n:
                break
            n = m
        c = st.plan_hand[kind]
        if c > 0 and st.rules[R_BOOKS] == BOOKS_NATURALS and st.plan_rank_books[rank] > 0 \
                and limit >= BIG:
            n = plan_try(st, entries, n, rank, c, 0, 0, 1)
    return n


@njit(cache=True)
def plan_wild_meld(st, entries, n: int) -> int:
    """Wilds onto the wild meld, or a new wild meld of 3+ (R-M4)."""
    if st.rules[R_WILD_MELDS] == 0:
        return n
    cap = meld_cap(st)
    for _ in range(8):
        w = plan_wilds(st)
        size = plan_size(st, WILD_RANK)
        if w == 0 or (size == 0 and w < 3):
            return n
        take = min(w, cap - size) if size > 0 else min(w, cap)
        m = plan_add(st, entries, n, WILD_RANK, 0, take)
        if m == n:
            return n
        n = m
    return n


@njit(cache=True)
def plan_pairs_with_wild(st, entries, n: int, max_wilds: int) -> int:
    """New melds of a held natural pair and one wild, up to ``max_wilds`` wilds."""
    used = 0
    for rank in range(N_NATURALS - 1, -1, -1):
        if used >= max_wilds or plan_wilds(st) == 0:
            break
        if st.plan_hand[rank] == 2 and plan_size(st, rank) == 0:
            m = plan_add(st, entries, n, rank, 2, 1)
            if m > n:
                used += 1
            n = m
    return n


@njit(cache=True)
def plan_wilds_to_naturals(st, entries, n: int, max_wilds: int) -> int:
    """Wilds onto unfinished natural melds within the ratio, fullest meld first."""
    used = 0
    while used < max_wilds and plan_wilds(st) > 0:
        best = -1
        best_size = 0
        cap = meld_cap(st) if st.rules[R_BOOKS] == BOOKS_GROW else 7
        for rank in range(N_NATURALS):
            m = st.plan_meld[rank]
            size = m[M_NAT] + m[M_TWO] + m[M_JOKER]
            # a cheap pre-check of place_entry's rules; plan_add below applies the real one
            if size > best_size and size < cap and ratio_ok(st, m[M_NAT],
                                                            m[M_TWO] + m[M_JOKER] + 1):
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
def plan_books(st, book: int) -> int:
    return st.plan_books[book]


@njit(cache=True)
def partners_on_foot(st, seat: int) -> bool:
    """R-G2, R-X15: every partner has picked up their Foot."""
    teams = st.sc[S_TEAMS]
    for other in range(seat % teams, st.sc[S_PLAYERS], teams):
        if other != seat and st.on_foot[other] == 0:
            return False
    return True


@njit(cache=True)
def may_go_out(st, seat: int) -> bool:
    """R-G1..R-G3, R-V9: on the Foot, partners on theirs where required, not yet asked."""
    if st.on_foot[seat] == 0 or st.sc[S_ASKED] == 1:
        return False
    if st.sc[S_TEAMS] == st.sc[S_PLAYERS]:
        return True
    return st.rules[R_PARTNER_FOOT] == 0 or partners_on_foot(st, seat)


@njit(cache=True)
def _plan_everything(st, seat: int, entries, held_back: int) -> int:
    plan_reset(st, seat)
    if held_back >= 0:
        st.plan_hand[held_back] -= 1
    n = plan_naturals(st, entries, 0)
    n = plan_wild_meld(st, entries, n)
    n = plan_pairs_with_wild(st, entries, n, 99)
    n = plan_wilds_to_naturals(st, entries, n, 99)
    n = plan_wild_meld(st, entries, n)
    if held_back >= 0:
        st.plan_hand[held_back] += 1
    return n


@njit(cache=True)
def surely_stuck(st, seat: int) -> bool:
    """A cheap test that rules going out out: two or more held cards that no meld can take
    (a lone natural with no meld of its rank on the table, a three that cannot be melded)."""
    team = team_of(st, seat)
    stuck = st.hand[seat, RED3]
    if st.rules[R_BLACK3_MELDS] == 0:
        stuck += st.hand[seat, BLACK3]
    for rank in range(N_NATURALS):
        if st.hand[seat, rank] == 1 and (st.rules[R_BOOKS] != BOOKS_NATURALS
                                         or st.rank_books[team, rank] == 0):
            m = st.meld[team, rank]  # (R-V4 lets a lone natural join a closed book)
            if m[M_NAT] + m[M_TWO] + m[M_JOKER] == 0:
                stuck += 1
    return stuck > 1


@njit(cache=True)
def plan_go_out(st, seat: int, entries):
    """A way to meld everything but at most one card, meeting R-G1. Returns (entries, discard).

    Entries is -1 when no way is found. The discard is -1 when the last meld empties the hand.
    Where a final discard is required, one card is held back for it.
    """
    if surely_stuck(st, seat):
        return -1, -1
    final_discard = st.rules[R_FINAL_DISCARD] == 1
    for held_back in range(-1, N_KINDS):
        if held_back >= 0 and (not final_discard or st.hand[seat, held_back] == 0):
            continue
        n = _plan_everything(st, seat, entries, held_back)
        left = plan_held(st)
        if left > 1 or not books_allow_out(st, st.plan_books):
            if final_discard:
                continue
            return -1, -1
        if left == 0 and (n == 0 or final_discard):
            continue
        discard = -1
        if left == 1:
            for k in range(N_KINDS):
                if st.plan_hand[k] > 0:
                    discard = k
        return n, discard
    return -1, -1


@njit(cache=True)
def meld_out(st, seat: int) -> int:
    """After a grant: lay the going-out plan; return the final discard or -1 (the go_out hook
    most strategies share)."""
    n, discard = plan_go_out(st, seat, st.entries)
    if n > 0:
        lay_line(st, seat, st.entries, n)
    return discard


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
def plan_concealed_book(st, seat: int, entries) -> int:
    """R-V5: one entry of 7+ cards starting a meld (most naturals first); 0 if none."""
    plan_reset(st, seat)
    best = -1
    for rank in range(N_NATURALS):
        if plan_size(st, rank) == 0 and (best < 0 or st.plan_hand[rank] > st.plan_hand[best]):
            best = rank
    if best < 0:
        return 0
    c = st.plan_hand[best]
    for wilds in range(max(0, 7 - c), min(plan_wilds(st), 3) + 1):
        m = plan_add(st, entries, 0, best, c, wilds)
        if m > 0:
            return m
    return 0


@njit(cache=True)
def plan_pickup(st, seat: int, entries) -> int:
    """Qualifying melds for picking up the pile (R-PU2, R-PU4, R-X12, R-O3, R-V3); -1 if none.

    Only held cards and the top card are used (R-PU3). When the partnership has not opened,
    held melds are added until the line meets the minimum (R-X11).
    """
    if not pile_open(st, seat):
        return -1
    team = team_of(st, seat)
    if st.opened[team] == 0 and needs_concealed_book(st):
        return -1  # R-V5: deal 4's opening is made in hand, without a pick-up
    top = top_card(st)
    rank = top_rank(top)
    plan_reset(st, seat)
    st.plan_hand[top] += 1
    size = plan_size(st, rank)
    grow = st.rules[R_BOOKS] == BOOKS_GROW
    n = 0
    if rank != WILD_RANK:
        h = st.plan_hand[rank]
        if size > 0 and not grow:  # R-PU4: complete the unfinished meld, then start a new one
            k = 7 - size
            found = False
            for y in range(0, min(k, plan_wilds(st)) + 1):
                x = k - y
                if x > h or h - x < 2:
                    continue
                m = plan_add(st, entries, 0, rank, x, y)
                if m == 0:
                    continue
                rest = st.plan_hand[rank]
                m2 = plan_add(st, entries, m, rank, min(rest, 7), 0)
                if m2 == m:
                    m2 = plan_add(st, entries, m, rank, 2, 1)
                if m2 > m and x + entries[m, 1] - 1 >= 2:
                    n = m2
                    found = True
                    break
                plan_reset(st, seat)
                st.plan_hand[top] += 1
            if not found:
                return -1
        else:
            n = plan_add(st, entries, 0, rank, h if grow else min(h, 7), 0)
            if n == 0:
                return -1
    else:
        other = JOKER if top == TWO else TWO
        if size > 0 and not grow:  # R-PU4 for the wild meld: complete it, other kind first
            k = 7 - size
            use_other = min(k, st.plan_hand[other])
            use_same = k - use_other
            if st.plan_hand[top] - use_same < 3:
                return -1
            if top == TWO:
                n = plan_try(st, entries, n, WILD_RANK, 0, use_same, use_other, 0)
            else:
                n = plan_try(st, entries, n, WILD_RANK, 0, use_other, use_same, 0)
            if n == 0:
                return -1
        same = st.plan_hand[top]
        take = same if grow else min(same, 7)
        m = plan_try(st, entries, n, WILD_RANK, 0, take if top == TWO else 0,
                     take if top == JOKER else 0, 0)
        if m == n:
            return -1
        n = m
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
        + st.books[team, BOOK_BLACK3] * st.rules[R_DIRTY_BONUS]
        + st.red3[team] * st.rules[R_RED3_BONUS]
    )


@njit(cache=True)
def held_value(st, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += st.hand[seat, k] * CARD_VALUE[k]
    return total


@njit(cache=True)
def _foot_count(st, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += st.foot[seat, k]
    return total


@njit(cache=True)
def deal_margin(st, seat: int, going_out: bool, with_game: bool) -> int:
    """Our partnership's lead on points as ``seat`` sees it, if the deal ended now (with the
    going-out bonus when ``going_out``; the game's earlier deals when ``with_game``).

    Hidden cards are estimated at 10 points each (a seat sees only their number); the seat's
    own cards count at their values unless it is the one going out."""
    team = team_of(st, seat)
    ours = visible_deal_score(st, team)
    if going_out:
        ours += st.rules[R_OUT_BONUS]
    if with_game:
        ours += st.game_score[team]
    teams = st.sc[S_TEAMS]
    for s in range(team, st.sc[S_PLAYERS], teams):
        if s == seat:
            ours -= held_value(st, seat)
        elif not going_out:  # a partner going out melds everything
            ours -= 10 * (held_count(st, s) + _foot_count(st, s))
    best_other = -(1 << 40)
    for other in range(teams):
        if other == team:
            continue
        theirs = visible_deal_score(st, other)
        if with_game:
            theirs += st.game_score[other]
        for s in range(other, st.sc[S_PLAYERS], teams):
            theirs -= 10 * (held_count(st, s) + _foot_count(st, s))
        best_other = max(best_other, theirs)
    return ours - best_other


@njit(cache=True)
def going_out_wins_deal(st, seat: int, asker: int) -> bool:
    """R-X3's default grant: going out now wins the deal on points (the asker will hold no
    cards; the grantor's own cards count against)."""
    return deal_margin(st, seat, True, False) > 0


@njit(cache=True)
def forced_discard(st, seat: int) -> int:
    """R-V6: a held red three must be the discard where red threes are discarded."""
    if st.rules[R_RED3_RULE] == RED3_DISCARD and st.hand[seat, RED3] > 0:
        return RED3
    return -1


@njit(cache=True)
def _taken_by_next(st, seat: int, kind: int) -> bool:
    """The next player has taken this rank from the pile (so may hold a pair of it)."""
    return st.taken[(seat + 1) % st.sc[S_PLAYERS], kind] > 0


@njit(cache=True)
def discard_usefulness(st, seat: int, kind: int, black3_block: bool, keep_pairs: bool,
                       safety: bool) -> int:
    """Lower is discarded first: (blocking) black threes, then lone low naturals; wilds last."""
    if kind == BLACK3:
        return -1000 if black3_block else 60
    if kind == TWO or kind == JOKER:
        return 1000 + CARD_VALUE[kind]
    if kind >= N_NATURALS:
        return 2000
    m = st.meld[team_of(st, seat), kind]
    count = st.hand[seat, kind]
    score = count * 20 + CARD_VALUE[kind]
    if m[M_NAT] + m[M_TWO] + m[M_JOKER] > 0:
        score += 30
    if keep_pairs and count == 2:
        score += 40
    if safety and count == 1 and _taken_by_next(st, seat, kind):
        score += 15
    return score


@njit(cache=True)
def least_useful_card(st, seat: int, black3_block: bool, keep_pairs: bool,
                      safety: bool) -> int:
    """The discard: a forced red three (R-V6), else the held kind of least usefulness."""
    forced = forced_discard(st, seat)
    if forced >= 0:
        return forced
    best = -1
    best_score = 1 << 30
    for k in range(N_KINDS):
        if st.hand[seat, k] > 0:
            score = discard_usefulness(st, seat, k, black3_block, keep_pairs, safety)
            if score < best_score:
                best = k
                best_score = score
    return best


@njit(cache=True)
def trim_for_foot(st, seat: int, entries, n: int) -> int:
    """R-G4: on the Foot keep at least two cards; drop entries from the end until so."""
    if st.on_foot[seat] == 0:
        return n
    held = held_count(st, seat)
    while n > 0:
        used = 0
        for i in range(n):
            used += entries[i, 1] + entries[i, 2] + entries[i, 3]
        if held - used >= 2:
            break
        n -= 1
    return n



@njit(cache=True)
def lay_kept(st, seat: int, entries, n: int) -> None:
    """Lay a planned line, first trimmed so a player on the Foot keeps two cards (R-G4)."""
    n = trim_for_foot(st, seat, entries, n)
    if n > 0:
        lay_line(st, seat, entries, n)
