"""The learned player, but scoring a pick-up's or meld's candidates on the real deal instead of
on imagined deals of the cards its seat cannot see: the position after drawing holds the real
stock's top cards, so its choice follows them. The learned player's one way to cheat; its
hooks are played with a real learned seat's model and base policy (the test puts them on a
``learned`` table)."""

from __future__ import annotations

from numba import njit

from sim.core.enums import SearchStat
from sim.engine import rng
from sim.engine.flow import apply_decision
from sim.engine.hooktypes import hook
from sim.engine.layout import S_CHECKED, S_DECISION, T_ON
from sim.engine.position import copy_position
from strategies.learned.params import P_DISCARDS, P_MARGIN, P_MELD_VARIANTS
from strategies.lookahead import candidates as cands
from strategies.lookahead.candidates import BASELINE_POLICY
from strategies.lookahead.features import write_features
from strategies.lookahead.value import is_advantage, model_value


@njit(cache=True)
def score_on_the_real_deal(g, w, t, x, seat: int, count: int) -> None:
    m = w.value_model[seat]
    trace_on = t.sc[T_ON]
    t.sc[T_ON] = 0
    saved = w.rng[rng.STREAM_STRATEGY]
    advantage = is_advantage(m)
    copy_position(x, 0, g)  # the peek: no imagined deal, the real cards
    x[0].sc[S_CHECKED] = 0
    for c in range(count):
        w.cand_score[c] = 0.0
        copy_position(x, 1, x[0])
        cands.load(w, c)
        apply_decision(x[1], w, t, w.cand_value[c])
        if c == 0 and advantage:
            write_features(x[1], seat, w.feats_base)
            continue
        write_features(x[1], seat, w.feats)
        w.cand_score[c] = model_value(m, w.feats, w.feats_base, w.model_in)
    w.rng[rng.STREAM_STRATEGY] = saved
    t.sc[T_ON] = trace_on


@hook
def choose(g, w, t, x, seat: int) -> int:
    params = w.params[seat]
    decision = g.sc[S_DECISION]
    count = cands.gather(g, w, t, x, seat, int(params[P_DISCARDS]),
                         params[P_MELD_VARIANTS] > 0, BASELINE_POLICY)
    w.search_stats[decision, SearchStat.DECISIONS] += 1
    best = 0
    if count > 1:
        score_on_the_real_deal(g, w, t, x, seat, count)
        for c in range(1, count):
            if w.cand_score[c] > w.cand_score[best]:
                best = c
        if best != 0 and w.cand_score[best] - w.cand_score[0] <= params[P_MARGIN]:
            best = 0
        if best != 0:
            w.search_stats[decision, SearchStat.LEFT_BASE] += 1
    cands.load(w, best)
    return w.cand_value[best]


# One compiled hook for every decision (why: strategies.hooks).
choose_pickup = propose_melds = grant = go_out = choose_discard = choose
