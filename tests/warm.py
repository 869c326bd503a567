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
    _warm_learned_kernels()
    _warm_answer_kernels()
    return time.perf_counter() - start


def _warm_learned_kernels() -> None:
    """The learned player's test kernels: the planted peeking player (its hooks compile on
    import), the planted peeking features, and the model kernels as the tests call them, on
    plain arrays."""
    import numpy as np

    import tests.peeking.learned  # noqa: F401 - compiles its hooks
    from sim.core.rules import Rules
    from sim.engine.layout import new_game
    from strategies.lookahead.features import N_FEATURES, write_features
    from strategies.lookahead.value import advantage_base, candidate_score, model_value
    from tests.learned_models import random_model
    from tests.test_learned_features import peeking_features

    rules = Rules()
    g = new_game(rules.packed())[0]
    out = np.zeros(N_FEATURES + 16)
    peeking_features(g, 0, out)
    write_features(g, 0, out)
    z = np.zeros(4 * N_FEATURES)
    x = np.zeros(N_FEATURES)
    for kind in ("ridge", "mlp"):
        for target in ("value", "advantage"):
            flat = random_model(rules, kind, target).flat()
            model_value(flat, x, x, z)
            if kind == "mlp" and target == "advantage":  # the folded form's own kernels
                advantage_base(flat, x, z)
                candidate_score(flat, x, x, z)


def _warm_answer_kernels() -> None:
    """The hold-wild experiment's kernels as the report tests call them: the branched
    positions (sim.play.branching.collect_holds) and the search's own choice, which plays to
    each position in compiled code and asks a search player's decision from Python (one
    position each)."""
    from analysis.experiments.holding import collect
    from analysis.experiments.search_choice import ask_search
    from sim.core.profiles import load_rules

    rules = load_rules("standard")
    collect(rules, ["cautious"] * rules.players, 1, seed=1, jobs=1)
    ask_search(rules, "cautious", "pimc", 1, 1)
    _warm_position_kernels()


def _warm_position_kernels() -> None:
    """What the position analysis and the hold-or-meld of one position call from Python (the
    search's candidate values, both ways in worlds), on the holding tests' own position: the
    game loop compiles neither with these entry points."""
    from analysis.experiments.holding import position_value
    from analysis.experiments.positions import analyze
    from tests.test_holding import late_in_deal

    position = late_in_deal(["7", "7", "9", "2"])
    analyze(position, worlds=2)
    position_value(position, "cautious", worlds=2)


if __name__ == "__main__":
    print(f"numba cache warm, engine and test kernels ({warm():.1f} s)")
