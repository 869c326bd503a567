"""The built-in heuristics called by name instead of through a function pointer: the game
loop's fast path for seats that play them, and the policies a search asks (one dispatcher for
both, so they cannot drift apart)."""

from __future__ import annotations

from numba import njit

from strategies import greedy, random_play, tactician

RANDOM, GREEDY, TACTICIAN = 1, 2, 3
# Kernel module -> its code; 0 (absent) means "call through the pointer".
BUILTIN_KERNELS = {"strategies.random_play": RANDOM, "strategies.greedy": GREEDY,
                   "strategies.tactician": TACTICIAN}


@njit(cache=True)
def ask_builtin(kernel: int, decision: int, g, w, t, x, seat: int) -> int:
    """The answer of built-in heuristic ``kernel`` to ``decision`` for ``seat``."""
    if kernel == GREEDY:
        if decision == 0:
            return greedy.choose_pickup(g, w, t, x, seat)
        if decision == 1:
            return greedy.propose_melds(g, w, t, x, seat)
        if decision == 2:
            return greedy.grant(g, w, t, x, seat)
        if decision == 3:
            return greedy.go_out(g, w, t, x, seat)
        return greedy.choose_discard(g, w, t, x, seat)
    if kernel == TACTICIAN:
        if decision == 0:
            return tactician.choose_pickup(g, w, t, x, seat)
        if decision == 1:
            return tactician.propose_melds(g, w, t, x, seat)
        if decision == 2:
            return tactician.grant(g, w, t, x, seat)
        if decision == 3:
            return tactician.go_out(g, w, t, x, seat)
        return tactician.choose_discard(g, w, t, x, seat)
    if decision == 0:
        return random_play.choose_pickup(g, w, t, x, seat)
    if decision == 1:
        return random_play.propose_melds(g, w, t, x, seat)
    if decision == 2:
        return random_play.grant(g, w, t, x, seat)
    if decision == 3:
        return random_play.go_out(g, w, t, x, seat)
    return random_play.choose_discard(g, w, t, x, seat)
