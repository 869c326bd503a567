"""Compile (or load from numba's cache) what the suite runs, once, before pytest-xdist starts
its workers: the engine and every strategy (sim.runs.warm) and the test-only kernels (the
no-cheating redealer, tests/hidden_cards.py, about 160 s cold). Without it each worker would
compile its own copy at the same time. ``python -m tests.warm`` (make test does this)."""

from __future__ import annotations

import time


def warm() -> float:
    start = time.perf_counter()
    from sim.runs.warm import warm as warm_engine

    warm_engine()
    from strategies.registry import load
    from tests.test_no_cheating import check_strategy

    check_strategy(load("greedy"), "standard", games=1, redeals=1)
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"numba cache warm, engine and test kernels ({warm():.1f} s)")
