"""The heuristics a search leans on: asked for a decision directly, as the first candidate it
weighs (``baseline``) and as the policy its rollouts play."""

from __future__ import annotations

from numba import njit

from sim.engine.layout import S_DECISION
from strategies.builtin import GREEDY, RANDOM, TACTICIAN, ask_builtin
from strategies.registry import REGISTRY, param_vector

# The cautious heuristic's parameter vector (numba freezes it into the compiled code).
CAUTIOUS_VECTOR = param_vector(REGISTRY["cautious"])


@njit(cache=True)
def ask_greedy(g, w, seat: int) -> int:
    return ask_builtin(GREEDY, g.sc[S_DECISION], g, w, seat)


@njit(cache=True)
def ask_random(g, w, seat: int) -> int:
    return ask_builtin(RANDOM, g.sc[S_DECISION], g, w, seat)


@njit(cache=True)
def ask_tactician(g, w, seat: int) -> int:
    """The tactician with whatever vector ``w.params[seat]`` holds."""
    return ask_builtin(TACTICIAN, g.sc[S_DECISION], g, w, seat)


@njit(cache=True)
def ask_cautious(g, w, seat: int) -> int:
    """The cautious heuristic's answer for ``seat``, whatever that seat's own parameters."""
    for j in range(CAUTIOUS_VECTOR.shape[0]):
        w.saved_params[seat, j] = w.params[seat, j]
        w.params[seat, j] = CAUTIOUS_VECTOR[j]
    value = ask_tactician(g, w, seat)
    for j in range(CAUTIOUS_VECTOR.shape[0]):
        w.params[seat, j] = w.saved_params[seat, j]
    return value
