"""``random``: uniformly random among legal choices at every decision.

Melding is a sequence of decisions: at each step the player picks uniformly among the legal
single entries (start a meld of three, add one card, ...) and stopping; each chosen entry is
its own meld line. Before its partnership has opened, it builds a random opening line entry by
entry and lays it if it reaches the minimum. It asks to go out, and grants, by a coin flip when
going out is possible.
"""

from __future__ import annotations

from sim.core.cards import JOKER, N_KINDS, N_RANKS, RED3, WILD_RANK
from sim.engine import rng
from sim.engine.hooktypes import hook
from sim.engine.jit import njit
from sim.engine.legal import (
    check_line,
    held_count,
    may_go_out,
    must_discard_red3,
    needs_concealed_book,
    opening_minimum,
    team_of,
)
from sim.engine.reasons import OK
from strategies import plans as pl
from strategies.going_out import meld_out, plan_go_out
from strategies.proposals import propose_line, propose_pickup

WANT_OUT = 1
MAX_STEPS = 40


@njit(cache=True)
def coin(w) -> bool:
    return rng.below(w.rng, rng.STREAM_STRATEGY, 2) == 1


@njit(inline="always")
def _offer(g, w, cands, c: int, keep: int, held: int, rank: int, nat: int, twos: int,
           jokers: int) -> int:
    """Add a candidate entry when it is legal on the plan and leaves ``keep`` cards held."""
    if held - (nat + twos + jokers) < keep or c >= cands.shape[0]:
        return c
    if not pl.plan_can(g, w, rank, nat, twos, jokers):
        return c
    cands[c, 0] = rank
    cands[c, 1] = nat
    cands[c, 2] = twos
    cands[c, 3] = jokers
    cands[c, 4] = 0
    return c + 1


@njit(cache=True)
def candidates(g, w, keep: int) -> int:
    """Legal single entries from the plan state into ``w.entries2``, leaving at least ``keep``
    cards held: start a meld of three (with or without a wild), or add one card to a meld."""
    cands = w.entries2
    held = pl.plan_held(w)
    c = 0
    for rank in range(N_RANKS):
        size = pl.plan_size(w, rank)
        if size > 0:
            c = _offer(g, w, cands, c, keep, held, rank, 1, 0, 0)
            c = _offer(g, w, cands, c, keep, held, rank, 0, 1, 0)
            c = _offer(g, w, cands, c, keep, held, rank, 0, 0, 1)
        elif rank == WILD_RANK:
            j = min(w.plan_hand[JOKER], 3)
            c = _offer(g, w, cands, c, keep, held, rank, 0, 3 - j, j)
        else:
            c = _offer(g, w, cands, c, keep, held, rank, 3, 0, 0)
            c = _offer(g, w, cands, c, keep, held, rank, 2, 1, 0)
            c = _offer(g, w, cands, c, keep, held, rank, 2, 0, 1)
    return c


@njit(cache=True)
def on_pickup(g, w, seat: int) -> int:
    n = pl.plan_pickup(g, w, seat, pl.ENTRIES)
    if n > 0 and coin(w):
        return propose_pickup(w, w.entries, n)
    return 0


@hook
def choose_pickup(g, w, t, x, seat):
    return on_pickup(g, w, seat)


@njit(cache=True)
def _propose_if_legal(g, w, seat: int, entries, n: int) -> None:
    """A random line that breaks a whole-line rule (the minimum, the Foot's two cards) is one
    the player would not lay: propose only legal ones."""
    if check_line(g, w, seat, entries, n) == OK:
        propose_line(w, entries, n)


@njit(cache=True)
def _random_opening(g, w, seat: int, keep: int) -> None:
    pl.plan_reset(g, w, seat)
    entries = w.entries
    cands = w.entries2
    n = 0
    minimum = opening_minimum(g)
    while pl.entries_points(entries, n) < minimum and n < 60:
        c = candidates(g, w, keep)
        if c == 0:
            return
        i = rng.below(w.rng, rng.STREAM_STRATEGY, c)
        m = pl.plan_try(g, w, entries, n, cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3],
                        0)
        if m == n:
            return
        n = m
    if n > 0 and coin(w):
        _propose_if_legal(g, w, seat, entries, n)


@njit(cache=True)
def on_melds(g, w, seat: int) -> int:
    if may_go_out(g, seat):
        n_out, _ = plan_go_out(g, w, seat, pl.ENTRIES2)
        if n_out >= 0 and coin(w):
            return WANT_OUT
    keep = 2 if g.on_foot[seat] == 1 else 0
    if g.opened[team_of(g, seat)] == 0:
        if needs_concealed_book(g):
            n = pl.plan_concealed_book(g, w, seat, pl.ENTRIES)  # R-V5
            if n > 0 and coin(w):
                _propose_if_legal(g, w, seat, w.entries, n)
        else:
            _random_opening(g, w, seat, keep)
        return 0
    cands = w.entries2
    line = w.entries
    pl.plan_reset(g, w, seat)
    for _ in range(MAX_STEPS):
        c = candidates(g, w, keep)
        i = rng.below(w.rng, rng.STREAM_STRATEGY, c + 1)
        if i == c:
            return 0  # stopping is one of the choices
        if pl.plan_try(g, w, line, 0, cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3],
                       0) == 0:
            return 0
        propose_line(w, line, 1)
        if pl.plan_held(w) == 0:
            return 0  # the Hand is melded out: the engine hands over the Foot (R-F2)
    return 0


@hook
def propose_melds(g, w, t, x, seat):
    return on_melds(g, w, seat)


@njit(cache=True)
def on_grant(g, w, seat: int) -> int:
    return 1 if coin(w) else 0


@hook
def grant(g, w, t, x, seat):
    return on_grant(g, w, seat)


go_out = meld_out  # the shared go_out hook (strategies.going_out)


@njit(cache=True)
def on_discard(g, w, seat: int) -> int:
    if must_discard_red3(g, seat):
        return RED3
    i = rng.below(w.rng, rng.STREAM_STRATEGY, held_count(g, seat))
    for k in range(N_KINDS):
        i -= g.hand[seat, k]
        if i < 0:
            return k
    return -1


@hook
def choose_discard(g, w, t, x, seat):
    return on_discard(g, w, seat)
