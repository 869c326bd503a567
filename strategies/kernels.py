"""Looking up a strategy's compiled hooks, and laying them out for the game loop.

Every strategy module defines the five hooks of ``HOOK_NAMES``, each compiled with
``sim.engine.hooktypes.hook``; a module that lacks one is refused by name, so no seat can ever
play some other strategy's hook by accident.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from sim.core.rules import MAX_SEATS
from sim.engine.hooktypes import HOOK_SIGNATURE
from sim.engine.layout import D_DISCARD, D_GO_OUT, D_GRANT, D_MELD, D_PICKUP, N_DECISIONS
from strategies.registry import StrategyError, StrategyInfo

# Hook names in decision order (sim.engine.layout.D_*).
HOOK_NAMES = ("choose_pickup", "propose_melds", "grant", "go_out", "choose_discard")
assert (D_PICKUP, D_MELD, D_GRANT, D_GO_OUT, D_DISCARD) == tuple(range(N_DECISIONS))


def hooks_of(info: StrategyInfo) -> tuple:
    """The five compiled hooks of a strategy's kernel module, in decision order."""
    try:
        module = importlib.import_module(info.kernel)
    except ImportError as exc:
        raise StrategyError(f"strategy '{info.name}': cannot import {info.kernel} ({exc})") \
            from None
    hooks = []
    for name in HOOK_NAMES:
        func = getattr(getattr(module, name, None), "pointer", None)
        if func is None or HOOK_SIGNATURE.args not in getattr(func, "signatures", ()):
            raise StrategyError(f"strategy '{info.name}': {info.kernel} has no hook '{name}' "
                                f"compiled with sim.engine.hooktypes.hook")
        hooks.append(func)
    return tuple(hooks)


def seat_hooks(infos: Sequence[StrategyInfo]) -> tuple:
    """One hook per (decision, seat) at index ``decision * MAX_SEATS + seat``; seats past the
    table's repeat seat 0's (they are never asked)."""
    per_seat = [hooks_of(info) for info in infos]
    table = []
    for decision in range(N_DECISIONS):
        for seat in range(MAX_SEATS):
            table.append(per_seat[seat if seat < len(per_seat) else 0][decision])
    return tuple(table)
