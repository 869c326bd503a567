"""``pimc``: perfect-information Monte Carlo search.

At each decision with more than one sensible candidate (``strategies.search.candidates``) it
imagines ``worlds`` deals of the cards it cannot see (``sim.engine.determinize``), plays every
candidate on in each of them to the end of the deal with a fast base policy
(``strategies.search.rollout``), and takes the candidate with the best mean outcome. Every
candidate meets the same worlds and the same rollout randomness (common random numbers), so
the comparison between candidates is far sharper than each candidate's own estimate.

The base policy (the first candidate, kept unless another is clearly better, and the play of
every seat in the rollouts) is the seat's own ``w.base_params[seat]``: a tactician vector its
strategy names (``base_policy``), read at run time. Rollout search improves on its base policy
(Tesauro and Galperin 1996), so the stronger the base, the stronger the search; and every
seat of an imagined deal plays it, the searcher's partner and opponents too.

It decides only from what its seat may know: a world is built from the seat's view alone (its
base policy is its own configuration, not a hidden card).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.enums import Decision
from sim.engine import rng
from sim.engine.determinize import copy_truth, deal_world
from sim.engine.flow import apply_decision
from sim.engine.hooktypes import hook
from sim.engine.layout import (
    MAX_WORLDS,
    S_ASKED,
    S_DEAL,
    S_DECISION,
    S_GAME,
    S_LINE,
    S_SEAT,
    S_SEED,
    S_TURN,
    T_ON,
)
from sim.engine.position import copy_position
from strategies.going_out import plan_go_out
from strategies.judgement import going_out_wins_deal
from strategies.plans import ENTRIES2
from strategies.search import candidates as cands
from strategies.search.params import (
    P_BASELINE,
    P_CAUTION,
    P_DISCARDS,
    P_EPSILON,
    P_HORIZON,
    P_MELD_VARIANTS,
    P_ROLLOUT,
    P_WORLDS,
    ROLLOUT_POLICY,
)
from strategies.search.rollout import play_on, value_for

ROLLOUT_SALT = 0x5DEECE66D  # the rollouts' random stream differs from the world's shuffle
ASKER_TRIES = 64  # worlds drawn, at most, to find one where the asker can go out


@njit(cache=True)
def decision_step(g) -> int:
    """Which decision of the turn this is (the worlds of each decision differ)."""
    return g.sc[S_DECISION] + 8 * g.sc[S_LINE] + 4096 * g.sc[S_ASKED]


@njit(cache=True)
def _world(g, w, x, seat: int, sees_hidden: bool, key) -> bool:
    """Deal world ``x[0]`` from ``key``. A partner answering an ask knows the asker can go out
    (it asked), so only worlds where the asker's imagined cards allow it are drawn; False when
    none is found in ASKER_TRIES draws."""
    if sees_hidden:
        copy_truth(g, x, 0, key)
        return True
    if g.sc[S_DECISION] != Decision.GRANT:
        deal_world(g, w, seat, x, 0, key)
        return True
    asker = g.sc[S_SEAT]
    for attempt in range(ASKER_TRIES):
        deal_world(g, w, seat, x, 0, rng.mix64(key + np.uint64(attempt)))
        n, _ = plan_go_out(x[0], w, asker, ENTRIES2)
        if n >= 0:
            return True
    return False


@njit(cache=True)
def evaluate(g, w, t, x, seat: int, sees_hidden: bool, worlds: int, first_world: int,
             policy: int, epsilon: float, horizon: int, count: int) -> bool:
    """Play each of the ``count`` candidates on in worlds ``first_world`` ..
    ``first_world + worlds - 1``; ``w.world_values[c, k - first_world]`` gets the outcome of
    candidate c in world k. The trace is off and the strategies' stream is put back after.
    False when no world consistent with the decision could be drawn."""
    trace_on = t.sc[T_ON]
    t.sc[T_ON] = 0
    saved = w.rng[rng.STREAM_STRATEGY]
    if policy == ROLLOUT_POLICY:  # every seat plays the searcher's base policy in the rollouts
        for s in range(w.params.shape[0]):
            for j in range(w.params.shape[1]):
                w.saved_params[s, j] = w.params[s, j]
                w.params[s, j] = w.base_params[seat, j]
    step = decision_step(g)
    found = True
    for k in range(worlds):
        key = rng.world_key(g.sc[S_SEED], g.sc[S_GAME], g.sc[S_DEAL], g.sc[S_TURN], step,
                            first_world + k)
        if not _world(g, w, x, seat, sees_hidden, key):
            found = False
            break
        for c in range(count):
            copy_position(x, 1, x[0])
            cands.load(w, c)
            w.rng[rng.STREAM_STRATEGY] = key ^ ROLLOUT_SALT
            apply_decision(x[1], w, t, w.cand_value[c])
            play_on(x[1], w, t, x, policy, epsilon, horizon)
            w.world_values[c, k] = value_for(x[1], seat)
    w.rng[rng.STREAM_STRATEGY] = saved
    if policy == ROLLOUT_POLICY:
        for s in range(w.params.shape[0]):
            for j in range(w.params.shape[1]):
                w.params[s, j] = w.saved_params[s, j]
    t.sc[T_ON] = trace_on
    return found


@njit(cache=True)
def choose(w, count: int, worlds: int, caution: float) -> int:
    """The candidate with the best lower bound on its gain over candidate 0 (the base
    heuristic's choice): mean paired difference over the worlds minus ``caution`` standard
    errors. With few worlds a rare swing makes some candidate look best by luck; the bound
    keeps the search from trading a sound choice for a lucky one."""
    best = 0
    best_bound = 0.0
    for c in range(1, count):
        total = 0.0
        total_sq = 0.0
        for k in range(worlds):
            d = w.world_values[c, k] - w.world_values[0, k]
            total += d
            total_sq += d * d
        mean = total / worlds
        se = 0.0
        if worlds > 1:
            var = (total_sq - worlds * mean * mean) / (worlds - 1)
            se = np.sqrt(max(var, 0.0) / worlds)
        bound = mean - caution * se
        if bound > best_bound:
            best = c
            best_bound = bound
    return best


@njit(cache=True)
def search(g, w, t, x, seat: int, sees_hidden: bool) -> int:
    """Choose among the candidates by their mean outcome over the worlds; the choice is left
    in ``w.prop`` and its value returned."""
    params = w.params[seat]
    count = cands.gather(g, w, t, x, seat, int(params[P_DISCARDS]),
                         params[P_MELD_VARIANTS] > 0, int(params[P_BASELINE]))
    worlds = min(max(int(params[P_WORLDS]), 1), MAX_WORLDS)
    if count > 1 and evaluate(g, w, t, x, seat, sees_hidden, worlds, 0,
                              int(params[P_ROLLOUT]), params[P_EPSILON],
                              int(params[P_HORIZON]), count):
        best = choose(w, count, worlds, params[P_CAUTION])
    elif count > 1 and g.sc[S_DECISION] == Decision.GRANT:  # no world where the asker can go out
        return 1 if going_out_wins_deal(g, seat) else 0
    else:
        best = 0
    cands.load(w, best)
    return w.cand_value[best]


@hook
def choose_pickup(g, w, t, x, seat):
    return search(g, w, t, x, seat, False)


@hook
def propose_melds(g, w, t, x, seat):
    return search(g, w, t, x, seat, False)


@hook
def grant(g, w, t, x, seat):
    return search(g, w, t, x, seat, False)


@hook
def go_out(g, w, t, x, seat):
    return search(g, w, t, x, seat, False)


@hook
def choose_discard(g, w, t, x, seat):
    return search(g, w, t, x, seat, False)


@njit(cache=True)
def candidate_values(g, w, t, x, seat: int, sees_hidden: bool, worlds: int, first_world: int,
                     policy: int, epsilon: float, horizon: int) -> int:
    """The pending decision's candidates (``w.cand_*``) and their outcomes in worlds
    ``first_world`` .. + ``worlds`` (``w.world_values``), for a position analysis; returns how
    many candidates there are (0 when no consistent world was found)."""
    params = w.params[seat]
    count = cands.gather(g, w, t, x, seat, int(params[P_DISCARDS]),
                         params[P_MELD_VARIANTS] > 0, int(params[P_BASELINE]))
    if not evaluate(g, w, t, x, seat, sees_hidden, worlds, first_world, policy, epsilon,
                    horizon, count):
        return 0
    return count
