"""Compile (or load from numba's cache) everything a test run or a job uses, once, before
parallel workers start; otherwise each worker would compile its own copy at the same time.

``python -m sim.runs.warm`` plays one short game of every registered strategy three ways
(asked directly, checked, and through its hook pointers), traces one game and records one
(``handfoot learn``'s loop). The bench loops
(``make bench``) and the test-only kernels (``tests.warm``) compile where they are used."""

from __future__ import annotations

import time


def warm() -> float:
    """Compile everything; returns the seconds it took."""
    start = time.perf_counter()
    from sim.core.rules import Rules
    from sim.play.api import make_table, play
    from strategies.registry import POLICY_MODULES, REGISTRY, load, with_params

    rules = Rules()
    for name in REGISTRY:
        info = load(name)
        if info.module in POLICY_MODULES:
            info = with_params(info, name, {"worlds": 2})
        seats = [info, "greedy"] * 2
        for checked, direct in ((False, True), (True, True), (False, False)):
            play(rules, seats, 0, 0, 1, checked=checked,
                 table=make_table(rules, seats, checked=checked, direct_calls=direct))
    from sim.play.recording import record
    from sim.runs.trace import trace_games

    list(trace_games(rules, ["greedy", "random"] * 2, 0, 0, 1))
    record(rules, ["tuned"] * rules.players, 0, 0, 1, 0.05, 0.5, 2)  # handfoot learn's loop
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"numba cache warm ({warm():.1f} s)")
