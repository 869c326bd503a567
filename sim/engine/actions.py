"""The moves: every change to a game record goes through one of these primitives.

Each checks its legality with ``sim.engine.legal`` (returning OK or a refusal code and changing
nothing when refused) and records its event, so ``sim.engine.flow`` only composes them with
the strategies' proposals (R-T, R-PU, R-M, R-F, R-G, R-E, R-V6, R-V8).
"""

from __future__ import annotations

from sim.core.cards import JOKER, N_KINDS, N_RANKS, RANK_KIND, RED3, TWO
from sim.core.enums import Ending
from sim.core.rules import R_RED3_RULE, R_WILD_DISCARD, RED3_EXPOSE, WILD_DISCARD_FREEZE
from sim.engine import events as ev
from sim.engine import rng
from sim.engine.jit import njit
from sim.engine.layout import (
    M_JOKER,
    M_NAT,
    M_TWO,
    S_ENDED,
    S_FROZEN_N,
    S_LINE,
    S_OUT_SEAT,
    S_PICKED_UP,
    S_PILE_N,
    S_STOCK_N,
    S_TURN,
    W_LINE_CONCEALED,
)
from sim.engine.legal import (
    check_discard,
    check_line,
    check_pickup,
    line_end_reason,
    taken_count,
    team_of,
)
from sim.engine.meldrules import BOOK_SIZE, entry_points, hand_to_avail, place_on_table
from sim.engine.reasons import E_EMPTY_LINE, E_NOT_HELD, E_SHAPE, E_WILD_MELD, OK

# --- melds -----------------------------------------------------------------------------------


@njit(cache=True)
def _forget(g, seat: int, kind: int, n: int) -> None:
    """``n`` held cards of ``kind`` left the seat's hand: of the cards known to be there
    (taken from the pile), at most that many are gone, and never more than remain held."""
    g.known[seat, kind] = max(0, min(g.known[seat, kind] - n, g.hand[seat, kind]))


@njit(cache=True)
def _take_from_hand(g, seat: int, rank: int, nat: int, twos: int, jokers: int) -> None:
    """An entry's cards leave the seat's held cards (and what the others know of them)."""
    kind = RANK_KIND[rank]
    if kind >= 0:
        g.hand[seat, kind] -= nat
        _forget(g, seat, kind, nat)
    g.hand[seat, TWO] -= twos
    g.hand[seat, JOKER] -= jokers
    _forget(g, seat, TWO, twos)
    _forget(g, seat, JOKER, jokers)


@njit(inline="always")
def _apply_entries(g, t, seat: int, entries, n: int, line_id: int) -> None:
    """Move the entries' cards from the seat's held cards onto the partnership's table."""
    team = team_of(g, seat)
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        _take_from_hand(g, seat, rank, nat, twos, jokers)
        if place_on_table(g, team, rank, nat, twos, jokers, entries[i, 4]) != OK:
            raise AssertionError("a checked meld entry failed to apply")
        g.melded_value[team] += entry_points(rank, nat, twos, jokers)
        e = ev.emit(t, ev.EV_MELD, seat, rank, line_id, entries[i, 4], 0)
        ev.emit_counts(t, e, RANK_KIND[rank], nat, twos, jokers)


@njit(cache=True)
def _mark_opened(g, team: int) -> None:
    if g.opened[team] == 0:
        g.opened[team] = 1
        g.open_turn[team] = g.sc[S_TURN]


@njit(cache=True)
def lay_line(g, w, t, seat: int, entries, n: int) -> int:
    """The meld primitive: check the line, then apply it. Returns OK or the refusal code."""
    reason = check_line(g, w, seat, entries, n)
    if reason != OK:
        return reason
    line_id = g.sc[S_LINE]
    g.sc[S_LINE] = line_id + 1
    _apply_entries(g, t, seat, entries, n, line_id)
    _mark_opened(g, team_of(g, seat))
    return OK


@njit(inline="always")
def lay_line_or_abandon(g, w, t, seat: int, entries, n: int) -> int:
    """The meld primitive on the game's own path: check each entry as it is applied, then the
    whole line, without first rehearsing it on copies. Returns OK, or the refusal code with
    the game record part-changed: the caller must abandon the deal (``sim.engine.flow``
    raises). The rules checked are those of ``check_line``, in the same functions."""
    if n <= 0:
        return E_EMPTY_LINE
    hand_to_avail(g, w, seat)
    avail = w.avail
    for i in range(n):  # the cards must be held: all of them, before anything moves
        rank = entries[i, 0]
        if rank < 0 or rank >= N_RANKS:
            return E_SHAPE
        kind = RANK_KIND[rank]
        if kind >= 0:
            avail[kind] -= entries[i, 1]
        elif entries[i, 1] != 0:
            return E_WILD_MELD  # R-M4: naturals in a wild meld
        avail[TWO] -= entries[i, 2]
        avail[JOKER] -= entries[i, 3]
    for k in range(N_KINDS):
        if avail[k] < 0:
            return E_NOT_HELD
    team = team_of(g, seat)
    line_id = g.sc[S_LINE]
    g.sc[S_LINE] = line_id + 1
    points = 0
    w.sc[W_LINE_CONCEALED] = 0
    for i in range(n):
        rank = entries[i, 0]
        nat = entries[i, 1]
        twos = entries[i, 2]
        jokers = entries[i, 3]
        m = g.meld[team, rank]
        starts = m[M_NAT] + m[M_TWO] + m[M_JOKER] == 0 and entries[i, 4] == 0
        reason = place_on_table(g, team, rank, nat, twos, jokers, entries[i, 4])
        if reason != OK:
            return reason
        if starts and nat + twos + jokers >= BOOK_SIZE:
            w.sc[W_LINE_CONCEALED] = 1
        _take_from_hand(g, seat, rank, nat, twos, jokers)
        pts = entry_points(rank, nat, twos, jokers)
        g.melded_value[team] += pts
        points += pts
        e = ev.emit(t, ev.EV_MELD, seat, rank, line_id, entries[i, 4], 0)
        ev.emit_counts(t, e, RANK_KIND[rank], nat, twos, jokers)
    held_after = 0
    for k in range(N_KINDS):
        held_after += g.hand[seat, k]
    reason = line_end_reason(g, w, seat, team, held_after, points, False, g.books[team])
    if reason != OK:
        return reason
    _mark_opened(g, team)
    return OK


@njit(inline="always")
def apply_pickup(g, w, t, seat: int, entries, n: int) -> int:
    """The pick-up primitive: check, then take the top cards, meld, and keep the rest (R-PU5).

    Returns OK or the refusal code. A red three among the kept cards is exposed at once where
    red threes are exposed (R-T3); the caller does that after this returns."""
    reason = check_pickup(g, w, seat, entries, n)
    if reason != OK:
        return reason
    k = taken_count(g)
    pile_n = g.sc[S_PILE_N]
    line_id = g.sc[S_LINE]
    g.sc[S_LINE] = line_id + 1
    e = ev.emit(t, ev.EV_PICKUP, seat, line_id, 0, 0, 0)
    for i in range(k):
        card = g.pile[pile_n - 1 - i]
        ev.emit_card(t, e, card)
        g.hand[seat, card] += 1  # the top card joins a meld at once; the rest are kept
        g.taken[seat, card] += 1  # everyone saw it taken
        g.known[seat, card] += 1
    g.sc[S_PILE_N] = pile_n - k
    _apply_entries(g, t, seat, entries, n, line_id)
    _mark_opened(g, team_of(g, seat))
    g.pickups[team_of(g, seat)] += 1
    g.sc[S_PICKED_UP] = 1
    return OK


@njit(cache=True)
def red3_to_expose(g, seat: int) -> int:
    """Red threes a seat holds that must now be exposed (R-T3), 0 where they are discarded."""
    if g.rules[R_RED3_RULE] != RED3_EXPOSE:
        return 0
    return g.hand[seat, RED3]


# --- the stock, red threes, the Foot ------------------------------------------------------------


@njit(cache=True)
def _take_from_stock(g) -> int:
    n = g.sc[S_STOCK_N] - 1
    g.sc[S_STOCK_N] = n
    return g.stock[n]


@njit(cache=True)
def expose_red3(g, t, seat: int, count: int) -> None:
    """R-T3, R-X6, R-X1, R-X9: expose ``count`` held red threes, replace them one by one.

    A replacement that is itself a red three forms the next batch (its own trace line). A
    replacement the stock cannot give ends the deal; the red three still scores as exposed.
    Where red threes are discarded instead (R-V6) nothing happens.
    """
    if g.rules[R_RED3_RULE] != RED3_EXPOSE:
        return
    team = team_of(g, seat)
    while count > 0:
        g.hand[seat, RED3] -= count
        _forget(g, seat, RED3, count)
        g.red3[team] += count
        e = ev.emit(t, ev.EV_RED3, seat, count, 0, 0, 0)
        next_count = 0
        for _ in range(count):
            if g.sc[S_STOCK_N] == 0:
                g.sc[S_ENDED] = Ending.STOCK  # R-X1
                return
            card = _take_from_stock(g)
            ev.emit_card(t, e, card)
            g.hand[seat, card] += 1
            if card == RED3:
                next_count += 1
        count = next_count


@njit(cache=True)
def _restock(g, t) -> None:
    """R-V8: shuffle the set-aside piles and put them under the remaining stock."""
    f = g.sc[S_FROZEN_N]
    if f == 0:
        return
    rng.shuffle(g.rng, rng.STREAM_DEAL, g.frozen, f)
    n = g.sc[S_STOCK_N]
    for i in range(n - 1, -1, -1):  # lift the remaining stock above the restocked cards
        g.stock[i + f] = g.stock[i]
    for i in range(f):  # frozen[0] is drawn first of them: it lies just under the old stock
        g.stock[f - 1 - i] = g.frozen[i]
    g.sc[S_STOCK_N] = n + f
    g.sc[S_FROZEN_N] = 0
    e = ev.emit(t, ev.EV_RESTOCK, -1, 0, 0, 0, 0)
    for i in range(f):
        ev.emit_card(t, e, g.frozen[i])


@njit(cache=True)
def stock_can_draw(g, t) -> bool:
    """R-E1, R-X2: two cards needed; a frozen pile's cards come back first (R-V8)."""
    if g.sc[S_STOCK_N] < 2:
        _restock(g, t)
    return g.sc[S_STOCK_N] >= 2


@njit(cache=True)
def draw(g, t, seat: int) -> None:
    """R-T2: the top two stock cards, then their red threes (R-T3). Caller checks the stock."""
    e = ev.emit(t, ev.EV_DRAW, seat, 0, 0, 0, 0)
    reds = 0
    for _ in range(2):
        card = _take_from_stock(g)
        ev.emit_card(t, e, card)
        g.hand[seat, card] += 1
        if card == RED3:
            reds += 1
    expose_red3(g, t, seat, reds)


@njit(cache=True)
def pick_up_foot(g, t, seat: int) -> None:
    """R-F1..R-F3, R-X10: the Foot becomes the held cards; its red threes are exposed."""
    for k in range(N_KINDS):
        g.hand[seat, k] += g.foot[seat, k]
        g.foot[seat, k] = 0
    g.on_foot[seat] = 1
    g.foot_turn[seat] = g.sc[S_TURN]
    ev.emit(t, ev.EV_FOOT, seat, 0, 0, 0, 0)
    expose_red3(g, t, seat, g.hand[seat, RED3])


# --- discarding, going out ----------------------------------------------------------------------


@njit(cache=True)
def _freeze_pile(g, t, seat: int) -> None:
    """R-V8: a discarded wild sets the whole pile aside; the next discard starts a new one."""
    n = g.sc[S_PILE_N]
    f = g.sc[S_FROZEN_N]
    e = ev.emit(t, ev.EV_FREEZE, seat, 0, 0, 0, 0)
    for i in range(n):
        g.frozen[f + i] = g.pile[i]
        ev.emit_card(t, e, g.pile[i])
    g.sc[S_FROZEN_N] = f + n
    g.sc[S_PILE_N] = 0


@njit(cache=True)
def discard(g, t, seat: int, kind: int) -> int:
    """Discard one held card (R-T1, R-T5, R-V8). Returns OK or the refusal code."""
    reason = check_discard(g, seat, kind)
    if reason != OK:
        return reason
    g.hand[seat, kind] -= 1
    _forget(g, seat, kind, 1)
    n = g.sc[S_PILE_N]
    g.pile[n] = kind
    g.sc[S_PILE_N] = n + 1
    ev.emit(t, ev.EV_DISCARD, seat, kind, 0, 0, 0)
    if (kind == TWO or kind == JOKER) and g.rules[R_WILD_DISCARD] == WILD_DISCARD_FREEZE:
        _freeze_pile(g, t, seat)
    return OK


@njit(cache=True)
def go_out(g, t, seat: int) -> None:
    """R-G3: a player holding nothing has gone out; the deal ends (R-E1)."""
    g.sc[S_OUT_SEAT] = seat
    g.sc[S_ENDED] = Ending.OUT
    ev.emit(t, ev.EV_OUT, seat, 0, 0, 0, 0)
