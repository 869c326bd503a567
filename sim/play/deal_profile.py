"""Where a deal's time goes, for ``make bench``: the game loop of ``sim.play.loop`` with a cycle
counter read around each step, so every share is measured on real play, by decision kind.

``perf`` sees numba's compiled code only as anonymous addresses, so the loop counts for itself
(the processor's time-stamp counter through LLVM's ``readcyclecounter``; it reads 0 on a
processor without one, and the shares are then not reported). A read costs some tens of ticks,
so the smallest steps are overstated; compare shares, not absolute figures.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

from sim.core.enums import NO_DECISION, Decision
from sim.core.rules import R_DEALS
from sim.engine.finish import finish_deal
from sim.engine.flow import apply_decision, ended, next_turn, start_deal
from sim.engine.jit import njit
from sim.engine.layout import N_DECISIONS, S_DECISION
from sim.engine.scoring import N_PARTS
from sim.play.loop import ask_next, builtin_code, decide

# Step slots: dealing, starting turns, each decision's hook and its application, scoring.
STEP_DEAL = 0
STEP_TURN = 1
STEP_HOOK = 2  # + decision
STEP_APPLY = STEP_HOOK + N_DECISIONS  # + decision
STEP_SCORE = STEP_APPLY + N_DECISIONS
N_STEPS = STEP_SCORE + 1
STEP_NAMES = (("dealing", "starting a turn")
              + tuple(f"{name} hook" for name in Decision.words)
              + tuple(f"applying the {name}" for name in Decision.words) + ("scoring",))


@intrinsic
def ticks(typingctx):
    """The processor's time-stamp counter."""
    def codegen(context, builder, signature, args):
        fnty = ir.FunctionType(ir.IntType(64), [])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@njit(cache=True)
def profile_games(g, w, t, x, guard, hooks, fast, seed: int, n_games: int, out, spent,
                  calls) -> None:
    """``sim.play.loop.play_games`` with the ticks of each step added to ``spent[step]`` and
    its calls to ``calls[step]``."""
    parts = np.zeros(N_PARTS, dtype=np.int64)
    row = 0
    for game in range(n_games):
        for deal in range(1, g.rules[R_DEALS] + 1):
            t0 = ticks()
            start_deal(g, w, t, seed, game, deal)
            spent[STEP_DEAL] += ticks() - t0
            calls[STEP_DEAL] += 1
            while not ended(g):
                if g.sc[S_DECISION] == NO_DECISION:
                    t0 = ticks()
                    next_turn(g, t)
                    spent[STEP_TURN] += ticks() - t0
                    calls[STEP_TURN] += 1
                    continue
                decision = g.sc[S_DECISION]
                t0 = ticks()
                builtin = builtin_code(g, fast)
                if builtin != 0:
                    value = ask_next(g, w, builtin)
                else:
                    value = decide(g, w, t, x, guard, hooks, fast)
                t1 = ticks()
                apply_decision(g, w, t, value)
                t2 = ticks()
                spent[STEP_HOOK + decision] += t1 - t0
                calls[STEP_HOOK + decision] += 1
                spent[STEP_APPLY + decision] += t2 - t1
                calls[STEP_APPLY + decision] += 1
            t0 = ticks()
            finish_deal(g, t, game, deal, out[row], parts)
            spent[STEP_SCORE] += ticks() - t0
            calls[STEP_SCORE] += 1
            row += 1
