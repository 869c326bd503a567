"""The heuristics a search leans on: asked for a decision directly, as the first candidate it
weighs (``baseline``) and as the policy its rollouts play.

The search's base policy is a tactician vector read at run time from ``w.base_params[seat]``
(filled per table from the seat's strategy, ``sim.play.api.make_table``), not a constant
frozen into the compiled code: any tactician-family strategy (``tuned``, ``cautious``, a
strategy file) can be the base without recompiling, and a sweep over base vectors costs no
compilation."""

from __future__ import annotations

from sim.engine.jit import njit
from sim.engine.layout import S_DECISION
from strategies.builtin import GREEDY, RANDOM, TACTICIAN, ask_builtin


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
def ask_policy(g, w, seat: int, vector) -> int:
    """The tactician's answer for ``seat`` with parameter ``vector`` (a seat's base policy,
    ``w.base_params[searcher]``), whatever that seat's own parameters."""
    return ask_policy_for(g.sc[S_DECISION], g, w, seat, vector)


@njit(cache=True)
def ask_policy_for(decision: int, g, w, seat: int, vector) -> int:
    """``ask_policy`` for ``decision``, whatever decision ``g`` waits for: a search asks which
    card another seat would have discarded. The seat's own parameters wait in
    ``w.asked_params``, apart from ``w.saved_params`` (every seat's during rollouts), so a
    search may ask this while its rollouts have every seat's parameters set aside."""
    for j in range(vector.shape[0]):
        w.asked_params[j] = w.params[seat, j]
        w.params[seat, j] = vector[j]
    value = ask_builtin(TACTICIAN, decision, g, w, seat)
    for j in range(vector.shape[0]):
        w.params[seat, j] = w.asked_params[j]
    return value
