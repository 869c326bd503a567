"""``learned``: the base policy's choice, unless a learned model scores another candidate better.

At each decision with more than one sensible candidate (the search's candidate generator,
``strategies.lookahead.candidates``, the base policy's choice first) it plays each candidate on a
copy of the position and scores the position it leads to, from its own seat's view, with the
seat's model (``w.value_model[seat]``, fitted by ``handfoot learn``): a value model scores each
position; an advantage model (the shipped ones) scores how much better each candidate's
position is than the base candidate's, having been fitted on exactly those differences of the
search's values, which share their imagined deals and so are sharp where the values are not.
A pick-up or meld can bring cards the seat cannot see (the two drawn, a Foot picked up), so
those are played in ``worlds`` imagined deals of the unseen cards (``sim.engine.determinize``)
and the scores averaged, every candidate meeting the same worlds; a discard, a grant or going
out reveals nothing, so it is played once on a copy of the position as it is. The base
policy's choice stays unless another beats it by ``margin`` points. One model evaluation per
candidate instead of a search's thousands of rollouts: the player is as fast as a few
heuristic ones.

It decides only from what its seat may know: the worlds are built from its view, and the
features read only what the seat may see (``strategies.lookahead.features``;
``tests/test_no_cheating.py`` changes every hidden card and gets the same choices).
"""

from __future__ import annotations

from sim.core.enums import Decision, SearchStat
from sim.engine.determinize import deal_world
from sim.engine.hooktypes import hook
from sim.engine.jit import njit
from sim.engine.layout import (
    S_CHECKED,
    S_DECIDER,
    S_DECISION,
)
from sim.engine.position import copy_position
from strategies.learned.params import P_DISCARDS, P_MARGIN, P_MELD_VARIANTS, P_WORLDS
from strategies.lookahead import candidates as cands
from strategies.lookahead.candidates import BASELINE_POLICY
from strategies.lookahead.features import write_features
from strategies.lookahead.heuristics import ask_policy
from strategies.lookahead.playing import decision_step, play_candidate, quiet, resume, world_key
from strategies.lookahead.value import (
    advantage_base,
    candidate_score,
    is_advantage,
    is_folded,
)

LEARNED_SALT = 0x6A09E667F3BCC909  # the learned player's worlds differ from a search's


@njit(cache=True)
def hides_cards(decision: int) -> bool:
    """Can the decision bring cards the seat cannot see into its view (a draw, a Foot)?"""
    return decision == Decision.PICK_UP or decision == Decision.MELD


@njit(cache=True)
def _score_on(w, t, x, seat: int, count: int, m, guard_foot: bool) -> bool:
    """Add each candidate's model score in the position ``x[0]`` to ``w.cand_score``. With
    ``guard_foot`` (``x[0]`` is the true position), stop and return False at a candidate that
    picks up the seat's Foot: its cards would come into the features, which the seat may not
    see yet."""
    advantage = is_advantage(m)
    on_foot = x[0].on_foot[seat]
    for c in range(count):
        play_candidate(x, w, t, c)
        if guard_foot and x[1].on_foot[seat] != on_foot:
            return False
        if c == 0 and advantage:
            write_features(x[1], seat, w.feats_base)
            if is_folded(m):
                advantage_base(m, w.feats_base, w.model_in)
            continue
        write_features(x[1], seat, w.feats)
        w.cand_score[c] += candidate_score(m, w.feats, w.feats_base, w.model_in)
    return True


@njit(cache=True)
def score_candidates(g, w, t, x, seat: int, count: int, worlds: int) -> None:
    """``w.cand_score[c]``: candidate c's mean model value over the worlds (for an advantage
    model, its mean advantage over the base candidate, 0 for the base candidate itself); the
    trace off and the strategies' stream put back after.

    A meld brings no card the seat cannot see unless it empties the hand and picks up the
    Foot, so a meld decision is first scored on a copy of the position as it is (the features
    of a position the seat sees are the same in every world); only if a candidate picks up the
    Foot is it scored in the worlds instead. A pick-up always is (a draw brings unseen cards);
    a discard, grant or going out never is."""
    m = w.value_model[seat]
    trace_on, stream = quiet(w, t)
    for c in range(count):
        w.cand_score[c] = 0.0
    decision = g.sc[S_DECISION]
    n = 1
    if decision != Decision.PICK_UP:
        copy_position(x, 0, g)
        x[0].sc[S_CHECKED] = 0
        if not _score_on(w, t, x, seat, count, m, decision == Decision.MELD):
            for c in range(count):
                w.cand_score[c] = 0.0
            n = 0
    if n == 0 or decision == Decision.PICK_UP:
        n = worlds
        step = decision_step(g)
        for k in range(n):
            key = world_key(g, step, k) ^ LEARNED_SALT
            deal_world(g, w, seat, x, 0, key)
            _score_on(w, t, x, seat, count, m, False)
    for c in range(count):
        w.cand_score[c] /= n
    resume(w, t, trace_on, stream)


@hook
def choose(g, w, t, x, seat: int) -> int:
    """The candidate with the best model value, kept to the base policy's unless another beats
    it by ``margin``; left in ``w.prop``, its value returned."""
    params = w.params[seat]
    decision = g.sc[S_DECISION]
    if seat != g.sc[S_DECIDER]:  # asked out of turn (never in play): the base policy answers
        return ask_policy(g, w, seat, w.base_params[seat])
    count = cands.gather(g, w, t, x, seat, int(params[P_DISCARDS]),
                         params[P_MELD_VARIANTS] > 0, BASELINE_POLICY)
    w.search_stats[decision, SearchStat.DECISIONS] += 1
    best = 0
    if count > 1:
        w.search_stats[decision, SearchStat.SEARCHED] += 1
        score_candidates(g, w, t, x, seat, count, max(int(params[P_WORLDS]), 1))
        for c in range(1, count):
            if w.cand_score[c] > w.cand_score[best]:
                best = c
        if best != 0 and w.cand_score[best] - w.cand_score[0] <= params[P_MARGIN]:
            best = 0
        if best != 0:
            w.search_stats[decision, SearchStat.LEFT_BASE] += 1
            w.search_left_for[decision, w.cand_kind[best]] += 1
    cands.load(w, best)
    return w.cand_value[best]


# One compiled hook for every decision (why: strategies.hooks).
choose_pickup = propose_melds = grant = go_out = choose_discard = choose
