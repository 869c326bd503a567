"""Compile (or load from numba's cache) what the suite runs, once, before pytest-xdist starts
its workers: the engine and every strategy (sim.runs.warm) and the test-only kernels (the
no-cheating redealer, tests/hidden_cards.py, the learned player's test kernels, the answers'
entry points). Without it each worker would compile its own copy at the same time.
``python -m tests.warm`` (make test does this).

numba compiles on one thread, so the warm-up runs on two processes: the first task (the game
loop with greedy, which every other task loads from the cache) runs with only the engine
compiling beside it (``sim.runs.compile_ahead``); then this process and a second one each take
the next task from one queue as they come free, the longest first (``COLD_SECONDS``, measured
with ``--serial``), a task never before those whose compiled code it reuses have finished
(``AFTER``: the ceiling players, the learn loop's recording and the answers' kernels link the
search's code, so compiling them beside it would compile the search twice). Both write the
same cache; numba replaces a cache file whole, so a function both happen to compile is only
compiled twice, never left half-written. ``--serial`` runs every task here, in order, and
prints the seconds each took; ``--report`` prints which process ran each task, and when."""

from __future__ import annotations

import argparse
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context

from sim.runs import compile_ahead

# Seconds each task took from an empty cache after the ones before it (python -m tests.warm
# --serial on a 2-core machine where tuned plays 58,000 deals a second per core, at dbe3075);
# only the order in which the queue hands tasks out depends on them.
COLD_SECONDS = {
    "play greedy": 37.4, "play pimc": 29.6, "play oracle": 2.8, "play oracle-hands": 2.8,
    "play learned": 5.2, "record": 16.2, "no-cheating redealer": 8.3,
    "learned kernels": 4.6, "answer kernels": 12.0, "position kernels": 5.4,
}
UNMEASURED_SECONDS = 0.5  # the tasks not listed compiled nothing of their own

# The tasks each task must wait for (the compiled code it links, compiled by them).
AFTER = {
    "play oracle": ("play pimc",), "play oracle-hands": ("play pimc",),
    "answer kernels": ("play pimc",), "position kernels": ("play pimc",),
    "learned kernels": ("play learned",), "record": ("play pimc",),
}


def tasks() -> list[tuple[str, Callable[[], None]]]:
    """Every warm-up task, the one the others build on first."""
    from sim.runs.warm import tasks as engine_tasks

    return [*engine_tasks(), ("no-cheating redealer", _warm_no_cheating),
            ("learned kernels", _warm_learned_kernels), ("answer kernels", _warm_answer_kernels),
            ("position kernels", _warm_position_kernels)]


def warm(processes: int = 2, report: bool = False) -> float:
    """Run every task, on ``processes`` processes after the first task; the seconds it took."""
    start = time.perf_counter()
    todo = tasks()
    with compile_ahead.engine_beside():
        todo[0][1]()
    if report:
        print(f"  {todo[0][0]}: 0.0 to {time.perf_counter() - start:.1f} s (here)", flush=True)
    queue = TaskQueue([name for name, _ in todo[1:]], start, report)
    if processes < 2:
        queue.work("here", run_task)
        return time.perf_counter() - start
    with ProcessPoolExecutor(max_workers=1, mp_context=get_context("spawn")) as second:

        def there(name: str) -> None:
            second.submit(run_task, name).result()

        helper = threading.Thread(target=queue.work, args=("second", there), daemon=True)
        helper.start()
        queue.work("here", run_task)
        helper.join()
    if queue.failure is not None:
        raise SystemExit(f"the warm-up task {queue.failure!r} failed in the second process")
    return time.perf_counter() - start


def run_task(name: str) -> None:
    """The warm-up task ``name``, in whichever process calls it."""
    dict(tasks())[name]()


class TaskQueue:
    """The tasks still to run, handed out longest first to whichever process asks, each only
    once every task it is ``AFTER`` has finished."""

    def __init__(self, names: list[str], start: float, report: bool = False,
                 seconds: dict[str, float] = COLD_SECONDS,
                 after: dict[str, tuple[str, ...]] = AFTER) -> None:
        self._pending = sorted(names, key=lambda n: -seconds.get(n, UNMEASURED_SECONDS))
        self._after = after
        missing = {n for name in names for n in after.get(name, ())} - set(names)
        if missing:  # a task would wait for ever
            raise ValueError(f"warm-up tasks wait for tasks not in the queue: {sorted(missing)}")
        self._done: set[str] = set()
        self._ready = threading.Condition()
        self._start = start
        self._report = report
        self.failure: str | None = None

    def _take(self) -> str | None:
        """The next task that may start, waiting while every one left waits on a running one;
        None when none is left (or a task failed)."""
        with self._ready:
            while self._pending and self.failure is None:
                for name in self._pending:
                    if all(n in self._done for n in self._after.get(name, ())):
                        self._pending.remove(name)
                        return name
                self._ready.wait()
            return None

    def _finish(self, name: str, ok: bool) -> None:
        with self._ready:
            self._done.add(name)
            if not ok:
                self.failure = name
            self._ready.notify_all()

    def work(self, where: str, run: Callable[[str], None]) -> None:
        """Run tasks with ``run`` until none is left (or one raised: it stops the queue)."""
        while (name := self._take()) is not None:
            began = time.perf_counter() - self._start
            ok = False
            try:
                run(name)
                ok = True
            finally:
                self._finish(name, ok)
            if self._report:
                print(f"  {name}: {began:.1f} to {time.perf_counter() - self._start:.1f} s "
                      f"({where})", flush=True)


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
    parser.add_argument("--report", action="store_true",
                        help="print which process ran each task, and from when to when")
    args = parser.parse_args(argv)
    if args.serial:
        start = time.perf_counter()
        todo = tasks()
        _run([name for name, _ in todo], todo, report=True)
        print(f"numba cache warm, serially ({time.perf_counter() - start:.1f} s)")
        return
    print(f"numba cache warm, engine and test kernels ({warm(report=args.report):.1f} s)")


if __name__ == "__main__":
    main()
