"""Looking up a strategy's compiled hooks, and laying them out for the game loop.

Every strategy module defines the five hooks of ``HOOK_NAMES``, each compiled with
``sim.engine.hooktypes.hook``; a module that lacks one is refused by name, so no seat can ever
play some other strategy's hook by accident. A player that answers every decision the same way
(the searches, ``learned``) names one hook five times: numba compiles each hook with the whole
player it calls linked into it, so five one-line hooks cost five compiles of the same code.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence

from sim.core.enums import Decision
from sim.core.rules import MAX_SEATS
from sim.engine.hooktypes import HOOK_SIGNATURE
from sim.engine.layout import N_DECISIONS
from strategies.registry import StrategyError, StrategyInfo

# The hook each decision asks (sim.core.enums.Decision); HOOK_NAMES lists them in decision
# order, which is the order of the hook table (a decision without a hook is a KeyError here).
HOOK_OF = {Decision.PICK_UP: "choose_pickup", Decision.MELD: "propose_melds",
           Decision.GRANT: "grant", Decision.GO_OUT: "go_out", Decision.DISCARD: "choose_discard"}
HOOK_NAMES = tuple(HOOK_OF[decision] for decision in Decision)


def hooks_of(info: StrategyInfo) -> tuple:
    """The five compiled hooks of a strategy's module, in decision order."""
    try:
        module = importlib.import_module(info.module)
    except ImportError as exc:
        raise StrategyError(f"strategy '{info.name}': cannot import {info.module} ({exc})") \
            from None
    hooks = []
    for name in HOOK_NAMES:
        func = getattr(getattr(module, name, None), "pointer", None)
        if func is None or HOOK_SIGNATURE.args not in getattr(func, "signatures", ()):
            raise StrategyError(f"strategy '{info.name}': {info.module} has no hook '{name}' "
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
