"""The built-in heuristics called by name instead of through a function pointer: the game
loop's fast path for seats that play them, and the policies a search asks (one dispatcher for
both, so they cannot drift apart)."""

from __future__ import annotations

from sim.core.enums import Decision
from sim.engine.jit import njit
from strategies import greedy, random_play, tactician
from strategies.going_out import on_go_out

RANDOM, GREEDY, TACTICIAN = 1, 2, 3
# A built-in heuristic's strategy module -> its code; 0 (absent) means "call through the pointer".
BUILTIN_CODES = {"strategies.random_play": RANDOM, "strategies.greedy": GREEDY,
                   "strategies.tactician": TACTICIAN}


@njit(cache=True)
def ask_builtin(builtin: int, decision: int, g, w, seat: int) -> int:
    """The answer of the built-in heuristic coded ``builtin`` (``BUILTIN_CODES``) to
    ``decision`` for ``seat``.

    The heuristics read only the game record, their work area and the seat, so they are
    called without the trace and the search's scratch records: an array argument costs an
    atomic reference-count round trip on every call (about a quarter of a decision's time).
    The three blocks below look alike but call different modules' functions: numba needs each
    call named where it is made."""
    if decision == Decision.GO_OUT:
        return on_go_out(g, w, seat)  # every built-in heuristic goes out the same way
    if builtin == GREEDY:
        if decision == Decision.PICK_UP:
            return greedy.on_pickup(g, w, seat)
        if decision == Decision.MELD:
            return greedy.on_melds(g, w, seat)
        if decision == Decision.GRANT:
            return greedy.on_grant(g, w, seat)
        return greedy.on_discard(g, w, seat)
    if builtin == TACTICIAN:
        if decision == Decision.PICK_UP:
            return tactician.on_pickup(g, w, seat)
        if decision == Decision.MELD:
            return tactician.on_melds(g, w, seat)
        if decision == Decision.GRANT:
            return tactician.on_grant(g, w, seat)
        return tactician.on_discard(g, w, seat)
    if decision == Decision.PICK_UP:
        return random_play.on_pickup(g, w, seat)
    if decision == Decision.MELD:
        return random_play.on_melds(g, w, seat)
    if decision == Decision.GRANT:
        return random_play.on_grant(g, w, seat)
    return random_play.on_discard(g, w, seat)
