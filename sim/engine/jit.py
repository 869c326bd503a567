"""``njit`` for the project's compiled code: one specialisation per function, not one per
constant.

numba compiles a function called from compiled code once for every distinct tuple of argument
types, and a constant argument is typed as its literal value: ``place_in_plan(g, w, rank, n, 0,
0, 0)`` and ``place_in_plan(g, w, rank, n, 0, 0, 1)`` were two compiles, and an ``int32`` read
from a count array beside an ``int64`` another. The engine's plan and table helpers were
compiled up to 11 times each, a third of a cold ``simulate`` (``make compile-table``). Here a
compiled caller's argument types are widened before numba compiles: literals to their plain
type, and signed or small unsigned integers to ``int64`` (numba does integer arithmetic in at
least 64 bits, so the callee computes the same values; ``uint64``, the random streams' type,
stays as it is). A function with an explicit signature is compiled as numba's own ``njit``
compiles it.
"""

from __future__ import annotations

from typing import Any

from numba import njit as numba_njit
from numba import types
from numba.core.registry import CPUDispatcher


def _widened(arg: types.Type) -> types.Type:
    arg = types.unliteral(arg)
    if isinstance(arg, types.Integer) and arg != types.uint64:
        return types.int64
    return arg


class WideningDispatcher(CPUDispatcher):
    """A CPU dispatcher that compiles each compiled caller's call at widened argument types."""

    def get_call_template(self, args: tuple, kws: dict) -> tuple:
        return super().get_call_template(tuple(_widened(a) for a in args),
                                         {k: _widened(v) for k, v in kws.items()})


def njit(*args: Any, **options: Any) -> Any:
    """``numba.njit``, with calls from compiled code compiled at widened argument types."""
    if args and callable(args[0]) and not isinstance(args[0], types.Type):
        return _widen(numba_njit(**options)(args[0]))

    def decorate(func):
        return _widen(numba_njit(*args, **options)(func))

    return decorate


def _widen(dispatcher: CPUDispatcher) -> CPUDispatcher:
    if type(dispatcher) is CPUDispatcher:
        dispatcher.__class__ = WideningDispatcher
    return dispatcher
