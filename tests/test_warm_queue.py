"""The warm-up's task queue (tests/warm.py): two processes take tasks longest first, and a task
that links another's compiled code never starts before that one has finished."""

from __future__ import annotations

import threading
import time

import pytest

from tests.warm import TaskQueue

SECONDS = {"search": 3.0, "ceiling": 2.5, "kernels": 1.0, "small": 0.2}
AFTER = {"ceiling": ("search",)}


def _drain(queue: TaskQueue, runs: dict[str, float]) -> list[tuple[str, str, float, float]]:
    """Both 'processes' as threads; each task sleeps its ``runs`` seconds; (task, where,
    start, end) of each."""
    log: list[tuple[str, str, float, float]] = []
    lock = threading.Lock()
    origin = time.perf_counter()

    def worker(where: str) -> None:
        def run(name: str) -> None:
            began = time.perf_counter() - origin
            time.sleep(runs[name])
            with lock:
                log.append((name, where, began, time.perf_counter() - origin))
        queue.work(where, run)

    threads = [threading.Thread(target=worker, args=(w,)) for w in ("here", "second")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    return log


def test_a_task_waits_for_the_one_whose_code_it_links_and_the_other_process_goes_on():
    queue = TaskQueue(list(SECONDS), time.perf_counter(), seconds=SECONDS, after=AFTER)
    log = _drain(queue, {"search": 0.6, "ceiling": 0.05, "kernels": 0.05, "small": 0.05})
    by_name = {name: (where, start, end) for name, where, start, end in log}
    assert sorted(by_name) == sorted(SECONDS)  # every task ran, once
    assert len(log) == len(SECONDS)
    assert by_name["ceiling"][1] >= by_name["search"][2]  # never beside the search
    # the other process ran the independent tasks while the search compiled
    other = "second" if by_name["search"][0] == "here" else "here"
    assert by_name["kernels"][0] == other and by_name["small"][0] == other
    assert by_name["small"][2] <= by_name["search"][2]


def test_tasks_are_handed_out_longest_first():
    queue = TaskQueue(["small", "kernels", "search"], time.perf_counter(), seconds=SECONDS,
                      after={})
    taken: list[str] = []
    queue.work("here", taken.append)
    assert taken == ["search", "kernels", "small"]


def test_a_failed_task_stops_the_queue():
    queue = TaskQueue(["search", "ceiling", "small"], time.perf_counter(), seconds=SECONDS,
                      after=AFTER)
    taken: list[str] = []

    def fail(name: str) -> None:
        taken.append(name)
        raise RuntimeError(name)

    with pytest.raises(RuntimeError):
        queue.work("here", fail)
    assert taken == ["search"] and queue.failure == "search"


def test_a_task_waiting_for_one_not_in_the_queue_is_refused():
    with pytest.raises(ValueError, match="search"):
        TaskQueue(["ceiling"], time.perf_counter(), seconds=SECONDS, after=AFTER)
