"""Rollouts: playing an imagined world on with a fast base policy, and scoring where it ends.

A rollout plays every seat with the same base policy (greedy; random; greedy with a chance
of a random choice at each decision; or the searching seat's base policy, a tactician vector
that the caller puts in every seat's row of ``w.params``) until the deal ends or
``horizon`` more turns are played, then scores the world from the searching seat's side: its
partnership's deal score minus the best other partnership's (game totals in the last deal,
where winning the game is what counts).

With a value model at the leaves (``leaf = 1``) a rollout stops instead once the searching
seat's own turn has ended ``horizon`` times, and the position is scored by the seat's value
model (``strategies.learned``) from its own view: the model predicts the outcome the rollout
would have reached, so the search looks a few turns ahead instead of to the end of the deal.
It stops just after the seat's own discard because that is where the model was fitted: on the
positions a seat sees right after its own decisions.
"""

from __future__ import annotations

from sim.core.enums import NO_DECISION
from sim.core.rules import R_DEALS
from sim.engine import rng
from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn
from sim.engine.jit import njit
from sim.engine.layout import S_DEAL, S_DECIDER, S_DECISION, S_SEAT, S_TEAMS, S_TURN
from sim.engine.legal import team_of
from sim.engine.scoring import deal_score
from strategies.lookahead.features import write_features
from strategies.lookahead.heuristics import ask_greedy, ask_random, ask_tactician
from strategies.lookahead.value import model_value
from strategies.search.params import ROLLOUT_GREEDY, ROLLOUT_POLICY, ROLLOUT_RANDOM

GAME_WIN_WEIGHT = 2000.0  # in the last deal: a won game is worth this many points of margin


@njit(inline="always")
def _decide(g, w, t, policy: int, epsilon: float) -> None:
    """The pending decision, made by the base policy and applied."""
    clear_proposal(w)
    seat = g.sc[S_DECIDER]
    if policy == ROLLOUT_POLICY:
        apply_decision(g, w, t, ask_tactician(g, w, seat))
        return
    if policy == ROLLOUT_GREEDY:
        use_random = False
    elif policy == ROLLOUT_RANDOM:
        use_random = True
    else:
        use_random = rng.uniform(w.rng, rng.STREAM_STRATEGY) < epsilon
    if use_random:
        apply_decision(g, w, t, ask_random(g, w, seat))
    else:
        apply_decision(g, w, t, ask_greedy(g, w, seat))


@njit(cache=True)
def play_on(g, w, t, x, policy: int, epsilon: float, horizon: int) -> None:
    """Play the world ``g`` on with the base policy for every seat (the trace ``t`` must be
    off; for ``ROLLOUT_POLICY`` every seat's row of ``w.params`` must hold the base policy's
    vector)."""
    last_turn = g.sc[S_TURN] + horizon if horizon > 0 else 1 << 40
    while not ended(g):
        if g.sc[S_DECISION] == NO_DECISION:
            if g.sc[S_TURN] >= last_turn:
                return
            next_turn(g, t)
            continue
        _decide(g, w, t, policy, epsilon)


@njit(cache=True)
def play_own_turns(g, w, t, x, policy: int, epsilon: float, turns: int, seat: int) -> None:
    """``play_on``, stopping once ``seat``'s own turn has ended ``turns`` times (the turn
    under way counts) or the deal ends."""
    done = 0
    while not ended(g):
        if g.sc[S_DECISION] == NO_DECISION:
            if g.sc[S_SEAT] == seat:
                done += 1
                if done >= turns:
                    return
            next_turn(g, t)
            continue
        _decide(g, w, t, policy, epsilon)


@njit(cache=True)
def leaf_value(g, w, seat: int) -> float:
    """Where a rollout with a value model stops: the true outcome if the deal ended, else the
    seat's value model's prediction from its own view."""
    if ended(g):
        return value_for(g, seat)
    write_features(g, seat, w.feats)
    return model_value(w.value_model[seat], w.feats, w.feats, w.model_in)


@njit(cache=True)
def value_for(g, seat: int) -> float:
    """The world's outcome for ``seat``'s partnership: its deal score minus the best other's
    (an unfinished deal is scored as it stands); in the last deal, the game margin plus a
    bonus for winning the game."""
    teams = g.sc[S_TEAMS]
    own = team_of(g, seat)
    last = g.sc[S_DEAL] >= g.rules[R_DEALS]
    ours = 0.0
    best = -1e18
    for team in range(teams):
        score = float(deal_score(g, team))
        if last:
            score += g.game_score[team]
        if team == own:
            ours = score
        elif score > best:
            best = score
    margin = ours - best
    if last:
        if margin > 0:
            margin += GAME_WIN_WEIGHT
        elif margin < 0:
            margin -= GAME_WIN_WEIGHT
    return margin
