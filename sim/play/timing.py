"""Compiled loops for ``make bench``: positions recorded from real games, and each primitive
run over them many times, so a figure is the cost of one call with compilation excluded."""

from __future__ import annotations

import numpy as np

from sim.core.enums import NO_DECISION, Decision
from sim.engine.audit import check_conservation
from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn, start_deal
from sim.engine.jit import njit
from sim.engine.layout import S_CHECKED, S_DECIDER, S_DECISION, S_TURN
from sim.engine.legal import check_line
from sim.engine.position import copy_position
from sim.engine.scoring import N_PARTS, score_parts
from sim.play.loop import decide
from strategies import greedy
from strategies.judgement import least_useful_card
from strategies.plans import ENTRIES, plan_pickup
from strategies.search.rollout import play_on


@njit(cache=True)
def record_positions(g, w, t, x, guard, hooks, fast, seed: int, deals: int, out) -> int:
    """Play ``deals`` deals and keep the game record at every meld decision (up to
    ``len(out)``); returns how many were kept."""
    kept = 0
    for d in range(deals):
        start_deal(g, w, t, seed, d // 4, d % 4 + 1)
        while not ended(g):
            if g.sc[S_DECISION] == NO_DECISION:
                next_turn(g, t)
                continue
            if g.sc[S_DECISION] == Decision.MELD and kept < out.shape[0]:
                copy_position(out, kept, g)
                kept += 1
            apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))
    return kept


@njit(cache=True)
def copies(positions, n: int) -> int:
    """``n`` position copies (about 5 KB each)."""
    total = 0
    for i in range(n):
        copy_position(positions, 0, positions[1 + i % (positions.shape[0] - 1)])
        total += positions[0].sc[0]
    return total


@njit(cache=True)
def primitive(which: int, positions, w, t, x, reps: int) -> int:
    """Run one primitive on every recorded position ``reps`` times: 0 meld planning (greedy's
    meld hook), 1 pick-up planning, 2 discard choice, 3 legality check of greedy's meld line,
    4 scoring, 5 conservation check."""
    total = 0
    parts = np.zeros(N_PARTS, dtype=np.int64)
    for _ in range(reps):
        for i in range(positions.shape[0]):
            g = positions[i]
            seat = g.sc[S_DECIDER]
            if which == 0:
                clear_proposal(w)
                total += greedy.propose_melds(g, w, t, x, seat)
            elif which == 1:
                total += plan_pickup(g, w, seat, ENTRIES)
            elif which == 2:
                total += least_useful_card(g, seat, black3_block=True, keep_pairs=False,
                                           safety=False)
            elif which == 3:
                n = greedy.plan_turn_melds(g, w, seat)
                if n > 0:
                    total += check_line(g, w, seat, w.entries, n)
            elif which == 4:
                total += score_parts(g, seat % 2, parts)
            else:
                g.sc[S_CHECKED] = 1
                check_conservation(g)
                g.sc[S_CHECKED] = 0
    return total


@njit(cache=True)
def rollouts(positions, w, t, x, n: int) -> int:
    """``n`` of the search's greedy play-outs (``strategies.search.rollout.play_on``) to the
    end of the deal, from the recorded positions in turn; returns the turns played."""
    turns = 0
    for i in range(n):
        copy_position(x, 1, positions[i % positions.shape[0]])
        start = x[1].sc[S_TURN]
        x[1].sc[S_CHECKED] = 0
        play_on(x[1], w, t, x, 0, 0.0, 0)
        turns += x[1].sc[S_TURN] - start
    return turns
