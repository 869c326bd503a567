"""The one signature every strategy hook is compiled with, so hooks are first-class values.

A compiled game loop takes each seat's hooks as function pointers of this type: the loop is
compiled (and cached) once, and a new strategy compiles only itself (docs/design.md). A hook
gets the game record ``g`` (read only: checked mode proves it), the players' work area ``w``
(its proposal goes in ``w.prop``), the trace ``t`` (a search may switch it off around its
rollouts and must switch it back), a scratch array ``x`` of game records for a search's copies,
and the deciding seat; it returns one int64 (see ``sim.core.enums.Decision``).
"""

from __future__ import annotations

import warnings

from numba import from_dtype, njit, types
from numba.core.errors import NumbaExperimentalFeatureWarning

from sim.engine.layout import GAME_DTYPE, TRACE_DTYPE, WORK_DTYPE

warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)

GAME = from_dtype(GAME_DTYPE)
WORK = from_dtype(WORK_DTYPE)
TRACE = from_dtype(TRACE_DTYPE)
GAMES = types.Array(GAME, 1, "C")
HOOK_SIGNATURE = types.int64(GAME, WORK, TRACE, GAMES, types.int64)
HOOK_TYPE = types.FunctionType(HOOK_SIGNATURE)


def hook(func):
    """A strategy hook: the function compiled once, with ``HOOK_SIGNATURE``, so it is both an
    ordinary compiled function (other compiled code and Python may call it directly) and, as
    ``.pointer``, a first-class function value for the game loop. One dispatcher for both:
    with a second, lazily typed one for direct calls, numba compiled (and cached) every hook
    twice, the search's whole chain with it, for the same argument types. (The built-in
    heuristics' hooks wrap ``(g, w, seat)`` functions, which the loop calls directly:
    ``strategies.builtin``.)"""
    compiled = njit(HOOK_SIGNATURE, cache=True)(func)
    compiled.pointer = compiled
    return compiled
