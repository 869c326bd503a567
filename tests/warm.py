"""Compile (or load from numba's cache) what the suite runs, once, before pytest-xdist starts
its workers: the engine and every strategy (sim.runs.warm) and the test-only kernels (the
no-cheating redealer, tests/hidden_cards.py, the learned player's test kernels, the answers'
entry points). Without it each worker would compile its own copy at the same time.
``python -m tests.warm`` (make test does this).

numba compiles on one thread, so the warm-up shares its tasks between two processes: the
first task (the game loop with greedy, which every other task loads from the cache) runs
with only the engine compiling beside it (``sim.runs.compile_ahead``), then this process and
a second one each take half of the rest, longest first by the seconds each took cold
(``COLD_SECONDS``, measured with ``--serial``). Both write the same cache; numba replaces a
cache file whole, so a function both happen to compile is only compiled twice, never left
half-written. ``--serial`` runs every task here, in order, and
prints the seconds each took."""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from collections.abc import Callable

from sim.runs import compile_ahead

# Seconds each task took from an empty cache after the ones before it (python -m tests.warm
# --serial on a 2-core machine); only the split between the two processes depends on them.
COLD_SECONDS = {
    "play greedy": 57.1, "play pimc": 80.1, "play oracle": 30.7, "play oracle-hands": 32.3,
    "play learned": 32.8, "record": 37.7, "no-cheating redealer": 18.0,
    "learned kernels": 25.4, "answer kernels": 17.9, "position kernels": 13.6,
}
UNMEASURED_SECONDS = 0.5  # the tasks not listed compiled nothing of their own


def tasks() -> list[tuple[str, Callable[[], None]]]:
    """Every warm-up task, the one the others build on first."""
    from sim.runs.warm import tasks as engine_tasks

    return [*engine_tasks(), ("no-cheating redealer", _warm_no_cheating),
            ("learned kernels", _warm_learned_kernels), ("answer kernels", _warm_answer_kernels),
            ("position kernels", _warm_position_kernels)]


def warm(processes: int = 2) -> float:
    """Run every task, in ``processes`` processes after the first task; the seconds it took."""
    start = time.perf_counter()
    todo = tasks()
    with compile_ahead.engine_beside():
        todo[0][1]()
    rest = [name for name, _ in todo[1:]]
    if processes < 2 or not rest:
        _run(rest, todo)
        return time.perf_counter() - start
    mine, theirs = _split(rest)
    other = subprocess.Popen([sys.executable, "-m", "tests.warm", "--tasks", ",".join(theirs)])
    try:
        _run(mine, todo)
    finally:
        code = other.wait()
    if code != 0:
        raise SystemExit(f"the second warm-up process failed (exit {code})")
    return time.perf_counter() - start


def _split(names: list[str]) -> tuple[list[str], list[str]]:
    """Two lists of about equal cold seconds, longest task first, each kept in task order."""
    loads = [0.0, 0.0]
    groups: list[list[str]] = [[], []]
    for name in sorted(names, key=lambda n: -COLD_SECONDS.get(n, UNMEASURED_SECONDS)):
        k = 0 if loads[0] <= loads[1] else 1
        groups[k].append(name)
        loads[k] += COLD_SECONDS.get(name, UNMEASURED_SECONDS)
    order = {n: i for i, n in enumerate(names)}
    return (sorted(groups[0], key=order.__getitem__), sorted(groups[1], key=order.__getitem__))


def _run(names: list[str], todo: list[tuple[str, Callable[[], None]]],
         report: bool = False) -> None:
    by_name = dict(todo)
    for name in names:
        start = time.perf_counter()
        by_name[name]()
        if report:
            print(f"  {name}: {time.perf_counter() - start:.1f} s", flush=True)


def _warm_no_cheating() -> None:
    """The no-cheating test's redealer (tests/hidden_cards.py) on one game."""
    from strategies.registry import load
    from tests.test_no_cheating import check_strategy

    check_strategy(load("greedy"), "standard", games=1, redeals=1)


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


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.warm", description=__doc__.split(
        "\n\n")[0])
    parser.add_argument("--serial", action="store_true",
                        help="every task in this process, in order, with its seconds")
    parser.add_argument("--tasks", default=None,
                        help="comma-separated task names to run here (the second process)")
    args = parser.parse_args(argv)
    if args.tasks is not None:
        _run([n for n in args.tasks.split(",") if n], tasks())
        return
    if args.serial:
        start = time.perf_counter()
        todo = tasks()
        _run([name for name, _ in todo], todo, report=True)
        print(f"numba cache warm, serially ({time.perf_counter() - start:.1f} s)")
        return
    print(f"numba cache warm, engine and test kernels ({warm():.1f} s)")


if __name__ == "__main__":
    main()
