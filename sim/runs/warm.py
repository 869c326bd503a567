"""Compile (or load from numba's cache) everything a test run or a job uses, once, before
parallel workers start; otherwise each worker would compile its own copy at the same time.

``python -m sim.runs.warm`` plays one short game of every registered strategy three ways
(asked directly, checked, and through its hook pointers), traces one game and records one
(``handfoot learn``'s loop). The bench loops
(``make bench``) and the test-only kernels (``tests.warm``) compile where they are used.

The work is a list of named tasks (``tasks``) so that ``tests.warm`` can share it between two
processes: numba compiles on one thread, and every task after the first (the game loop with
greedy, which every other task reuses from the cache) compiles code of its own."""

from __future__ import annotations

import time
from collections.abc import Callable


def _play_three_ways(name: str) -> None:
    from sim.core.rules import Rules
    from sim.play.api import make_table, play
    from strategies.registry import POLICY_MODULES, load, with_params

    rules = Rules()
    info = load(name)
    if info.module in POLICY_MODULES:
        info = with_params(info, name, {"worlds": 2})
    seats = [info, "greedy"] * 2
    for checked, direct in ((False, True), (True, True), (False, False)):
        play(rules, seats, 0, 0, 1, checked=checked,
             table=make_table(rules, seats, checked=checked, direct_calls=direct))


def _trace() -> None:
    from sim.core.rules import Rules
    from sim.runs.trace import trace_games

    list(trace_games(Rules(), ["greedy", "random"] * 2, 0, 0, 1))


def _record() -> None:
    from sim.core.rules import Rules
    from sim.play.recording import record

    rules = Rules()
    record(rules, ["tuned"] * rules.players, 0, 0, 1, 0.05, 0.5, 2)  # handfoot learn's loop


def tasks() -> list[tuple[str, Callable[[], None]]]:
    """The engine's warm-up, first task first: greedy (the game loop in every mode), then
    every other registered strategy, the trace and the learn loop."""
    from strategies.registry import REGISTRY

    names = ["greedy", *(n for n in REGISTRY if n != "greedy")]
    out: list[tuple[str, Callable[[], None]]] = [
        (f"play {n}", lambda n=n: _play_three_ways(n)) for n in names]
    return [*out, ("trace", _trace), ("record", _record)]


def warm() -> float:
    """Compile everything; returns the seconds it took."""
    start = time.perf_counter()
    for _, task in tasks():
        task()
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"numba cache warm ({warm():.1f} s)")
