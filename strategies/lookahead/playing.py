"""Playing a candidate on a copy of the position, as every looking-ahead player does.

The search (``strategies.search.pimc``), the learned player (``strategies.learned.player``) and
the recording of positions for fitting it (``sim.play.recording``) all weigh a decision the
same way: draw imagined deals of the unseen cards from a key of the decision, play each
candidate on a copy, read the outcome, and leave the game as they found it. The pieces they
share live here once, so that the three agree by construction (a learned player scores the
positions its training rows were recorded at) and neither player imports the other.
"""

from __future__ import annotations

from sim.engine import rng
from sim.engine.flow import apply_decision
from sim.engine.jit import njit
from sim.engine.layout import S_ASKED, S_DEAL, S_DECISION, S_GAME, S_LINE, S_SEED, S_TURN, T_ON
from sim.engine.position import copy_position
from strategies.lookahead import candidates as cands


@njit(cache=True)
def decision_step(g) -> int:
    """Which decision of the turn this is (the worlds of each decision differ)."""
    return g.sc[S_DECISION] + 8 * g.sc[S_LINE] + 4096 * g.sc[S_ASKED]


@njit(cache=True)
def world_key(g, step: int, k: int):
    """The key of imagined world ``k`` of decision ``step`` of the game ``g`` is at: the same
    for every candidate of the decision (they all meet the same worlds), another for every
    decision, deal and game, and the same however the games are split over workers."""
    return rng.world_key(g.sc[S_SEED], g.sc[S_GAME], g.sc[S_DEAL], g.sc[S_TURN], step, k)


@njit(cache=True)
def quiet(w, t) -> tuple[int, int]:
    """Before playing on copies: the trace off, so imagined moves are never written; returns
    what ``resume`` needs to put back (the trace flag, the strategies' random stream)."""
    trace_on = t.sc[T_ON]
    t.sc[T_ON] = 0
    return trace_on, w.rng[rng.STREAM_STRATEGY]


@njit(cache=True)
def resume(w, t, trace_on: int, stream) -> None:
    """After playing on copies: the trace and the strategies' stream as ``quiet`` found them,
    so the real game goes on as if nothing had been imagined."""
    w.rng[rng.STREAM_STRATEGY] = stream
    t.sc[T_ON] = trace_on


@njit(cache=True)
def play_candidate(x, w, t, c: int) -> None:
    """Candidate ``c`` played in ``x[1]``, a fresh copy of the position ``x[0]`` (which is
    left as it was)."""
    copy_position(x, 1, x[0])
    cands.load(w, c)
    apply_decision(x[1], w, t, w.cand_value[c])
