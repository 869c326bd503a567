"""The heuristics a search leans on: asked for a decision directly, as the first candidate it
weighs (``baseline``) and as the policy its rollouts play."""

from __future__ import annotations

from numba import njit

from sim.engine.layout import S_DECISION
from strategies import greedy, random_play, tactician
from strategies.registry import REGISTRY, param_vector

# The cautious heuristic's parameter vector (numba freezes it into the compiled code).
CAUTIOUS_VECTOR = param_vector(REGISTRY["cautious"])


@njit(cache=True)
def ask_greedy(g, w, t, x, seat: int) -> int:
    decision = g.sc[S_DECISION]
    if decision == 0:
        return greedy.choose_pickup(g, w, t, x, seat)
    if decision == 1:
        return greedy.propose_melds(g, w, t, x, seat)
    if decision == 2:
        return greedy.grant(g, w, t, x, seat)
    if decision == 3:
        return greedy.go_out(g, w, t, x, seat)
    return greedy.choose_discard(g, w, t, x, seat)


@njit(cache=True)
def ask_random(g, w, t, x, seat: int) -> int:
    decision = g.sc[S_DECISION]
    if decision == 0:
        return random_play.choose_pickup(g, w, t, x, seat)
    if decision == 1:
        return random_play.propose_melds(g, w, t, x, seat)
    if decision == 2:
        return random_play.grant(g, w, t, x, seat)
    if decision == 3:
        return random_play.go_out(g, w, t, x, seat)
    return random_play.choose_discard(g, w, t, x, seat)


@njit(cache=True)
def ask_tactician(g, w, t, x, seat: int) -> int:
    """The tactician with whatever vector ``w.params[seat]`` holds."""
    decision = g.sc[S_DECISION]
    if decision == 0:
        return tactician.choose_pickup(g, w, t, x, seat)
    if decision == 1:
        return tactician.propose_melds(g, w, t, x, seat)
    if decision == 2:
        return tactician.grant(g, w, t, x, seat)
    if decision == 3:
        return tactician.go_out(g, w, t, x, seat)
    return tactician.choose_discard(g, w, t, x, seat)


@njit(cache=True)
def ask_cautious(g, w, t, x, seat: int) -> int:
    """The cautious heuristic's answer for ``seat``, whatever that seat's own parameters."""
    for j in range(CAUTIOUS_VECTOR.shape[0]):
        w.saved_params[seat, j] = w.params[seat, j]
        w.params[seat, j] = CAUTIOUS_VECTOR[j]
    value = ask_tactician(g, w, t, x, seat)
    for j in range(CAUTIOUS_VECTOR.shape[0]):
        w.params[seat, j] = w.saved_params[seat, j]
    return value
