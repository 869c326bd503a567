"""The built-in heuristics called by name instead of through a function pointer: the game
loop's fast path for seats that play them, and the policies a search asks (one dispatcher for
both, so they cannot drift apart)."""

from __future__ import annotations

from numba import njit

from sim.engine.layout import D_GO_OUT, D_GRANT, D_MELD, D_PICKUP
from strategies import greedy, random_play, tactician
from strategies.going_out import on_go_out

RANDOM, GREEDY, TACTICIAN = 1, 2, 3
# Kernel module -> its code; 0 (absent) means "call through the pointer".
BUILTIN_KERNELS = {"strategies.random_play": RANDOM, "strategies.greedy": GREEDY,
                   "strategies.tactician": TACTICIAN}


@njit(cache=True)
def ask_builtin(kernel: int, decision: int, g, w, seat: int) -> int:
    """The answer of built-in heuristic ``kernel`` to ``decision`` for ``seat``.

    The heuristics read only the game record, their work area and the seat, so they are
    called without the trace and the search's scratch records: an array argument costs an
    atomic reference-count round trip on every call (about a quarter of a decision's time).
    The three blocks below look alike but call different modules' functions: numba needs each
    call named where it is made."""
    if decision == D_GO_OUT:
        return on_go_out(g, w, seat)  # every built-in heuristic goes out the same way
    if kernel == GREEDY:
        if decision == D_PICKUP:
            return greedy.on_pickup(g, w, seat)
        if decision == D_MELD:
            return greedy.on_melds(g, w, seat)
        if decision == D_GRANT:
            return greedy.on_grant(g, w, seat)
        return greedy.on_discard(g, w, seat)
    if kernel == TACTICIAN:
        if decision == D_PICKUP:
            return tactician.on_pickup(g, w, seat)
        if decision == D_MELD:
            return tactician.on_melds(g, w, seat)
        if decision == D_GRANT:
            return tactician.on_grant(g, w, seat)
        return tactician.on_discard(g, w, seat)
    if decision == D_PICKUP:
        return random_play.on_pickup(g, w, seat)
    if decision == D_MELD:
        return random_play.on_melds(g, w, seat)
    if decision == D_GRANT:
        return random_play.on_grant(g, w, seat)
    return random_play.on_discard(g, w, seat)
