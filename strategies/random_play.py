"""``random``: uniformly random among legal choices at every decision.

Melding is a sequence of decisions: at each step the player picks uniformly among the legal
single entries (start a meld of three, add one card, ...) and stopping. Before its partnership
has opened, it builds a random opening line entry by entry and lays it if it reaches the
minimum. It asks to go out, and grants, by a coin flip when going out is possible.
"""

from __future__ import annotations

from numba import njit

from sim import rng
from sim.cards import JOKER, N_KINDS, N_RANKS, WILD_RANK
from sim.melds import held_count, lay_line, needs_concealed_book, opening_minimum, team_of
from strategies import toolkit as tk

WANT_OUT = 1
MAX_STEPS = 40


@njit(cache=True)
def coin(st) -> bool:
    return rng.below(st.rng, rng.STREAM_STRATEGY, 2) == 1


@njit(cache=True)
def _offer(st, cands, c: int, keep: int, held: int, rank: int, nat: int, twos: int,
           jokers: int) -> int:
    """Add a candidate entry when it is legal on the plan and leaves ``keep`` cards held."""
    if held - (nat + twos + jokers) < keep or c >= cands.shape[0]:
        return c
    if not tk.plan_can(st, rank, nat, twos, jokers):
        return c
    cands[c, 0] = rank
    cands[c, 1] = nat
    cands[c, 2] = twos
    cands[c, 3] = jokers
    cands[c, 4] = 0
    return c + 1


@njit(cache=True)
def candidates(st, cands, keep: int) -> int:
    """Legal single entries from the plan state, leaving at least ``keep`` cards held:
    start a meld of three (with or without a wild), or add one card to a meld."""
    held = tk.plan_held(st)
    c = 0
    for rank in range(N_RANKS):
        size = tk.plan_size(st, rank)
        if size > 0:
            c = _offer(st, cands, c, keep, held, rank, 1, 0, 0)
            c = _offer(st, cands, c, keep, held, rank, 0, 1, 0)
            c = _offer(st, cands, c, keep, held, rank, 0, 0, 1)
        elif rank == WILD_RANK:
            j = min(st.plan_hand[JOKER], 3)
            c = _offer(st, cands, c, keep, held, rank, 0, 3 - j, j)
        else:
            c = _offer(st, cands, c, keep, held, rank, 3, 0, 0)
            c = _offer(st, cands, c, keep, held, rank, 2, 1, 0)
            c = _offer(st, cands, c, keep, held, rank, 2, 0, 1)
    return c


@njit(cache=True)
def choose_pickup(st, seat: int) -> int:
    n = tk.plan_pickup(st, seat, st.entries)
    if n > 0 and coin(st):
        return n
    return 0


@njit(cache=True)
def _random_opening(st, seat: int, keep: int) -> None:
    tk.plan_reset(st, seat)
    entries = st.entries
    cands = st.entries2
    n = 0
    minimum = opening_minimum(st)
    while tk.entries_points(entries, n) < minimum and n < 60:
        c = candidates(st, cands, keep)
        if c == 0:
            return
        i = rng.below(st.rng, rng.STREAM_STRATEGY, c)
        m = tk.plan_try(st, entries, n, cands[i, 0], cands[i, 1], cands[i, 2], cands[i, 3], 0)
        if m == n:
            return
        n = m
    if n > 0 and coin(st):
        lay_line(st, seat, entries, n)


@njit(cache=True)
def meld_phase(st, seat: int) -> int:
    if tk.may_go_out(st, seat):
        n_out, _ = tk.plan_go_out(st, seat, st.entries2)
        if n_out >= 0 and coin(st):
            return WANT_OUT
    keep = 2 if st.on_foot[seat] == 1 else 0
    if st.opened[team_of(st, seat)] == 0:
        if needs_concealed_book(st):
            n = tk.plan_concealed_book(st, seat, st.entries)  # R-V5
            if n > 0 and coin(st):
                lay_line(st, seat, st.entries, n)
        else:
            _random_opening(st, seat, keep)
        return 0
    cands = st.entries2
    for _ in range(MAX_STEPS):
        tk.plan_reset(st, seat)
        c = candidates(st, cands, keep)
        i = rng.below(st.rng, rng.STREAM_STRATEGY, c + 1)
        if i == c:
            return 0  # stopping is one of the choices
        if lay_line(st, seat, cands[i : i + 1], 1) != 0:
            return 0
        if held_count(st, seat) == 0:
            return 0  # the Hand is melded out: the engine hands over the Foot (R-F2)
    return 0


@njit(cache=True)
def grant(st, seat: int, asker: int) -> bool:
    return coin(st)


@njit(cache=True)
def choose_discard(st, seat: int) -> int:
    forced = tk.forced_discard(st, seat)
    if forced >= 0:
        return forced
    i = rng.below(st.rng, rng.STREAM_STRATEGY, held_count(st, seat))
    for k in range(N_KINDS):
        i -= st.hand[seat, k]
        if i < 0:
            return k
    return -1
