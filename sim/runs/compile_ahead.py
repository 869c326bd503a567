"""Compile the engine in a second process while this one compiles the strategies.

numba compiles on one thread, and a cold start compiles two halves that do not call each other:
the strategies (their hooks compile when their modules are imported, the built-in heuristics
when ``sim.play.loop`` imports them) and the engine the game loop drives (the flow of a turn,
the deal, the score, the checked mode's compare). The loop itself is compiled last and links
both. So, on a machine with a second core and a cold cache, ``start`` launches
``python -m sim.runs.compile_ahead``, which compiles the engine's entry points at the exact
argument types the loop calls them with, while this process goes on as before; each function
the helper finishes is written to numba's cache, where this process then finds it instead of
compiling it (a function both reach at the same moment is compiled twice, never half-written:
numba replaces a cache file whole). Nothing the helper does changes what is compiled, only
which process compiles it first.

Whether the cache is cold is read from a marker per tree and engine build
(``sim.cache.build_key``) that ``mark_warm`` leaves in the cache folder after a warm-up, so a
warm start launches nothing.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sim.cache import ROOT, build_key

FINISH_SECONDS = 30.0


def _marker() -> Path:
    """The cache folder's marker for this build of this tree: numba caches a tree's functions
    under a subfolder named after the tree's path, so two clones of one build share a cache
    folder but not their compiled code."""
    tree = hashlib.sha256(f"{ROOT}\0{build_key()}".encode()).hexdigest()[:16]
    return Path(os.environ["NUMBA_CACHE_DIR"]) / f"warm-{tree}"


def is_warm() -> bool:
    """A warm-up of this engine build finished with this cache folder."""
    return _marker().exists()


def mark_warm() -> None:
    """Record that the engine of this build is in the cache (after a warm-up that played)."""
    try:
        marker = _marker()
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:  # a read-only cache folder: the next cold start just compiles in one process
        pass


def start() -> subprocess.Popen | None:
    """The helper process, when the cache is cold and a second core can run it; else None."""
    if is_warm() or (os.cpu_count() or 1) < 2:
        return None
    return subprocess.Popen([sys.executable, "-m", "sim.runs.compile_ahead"],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def finish(helper: subprocess.Popen | None) -> None:
    """Wait for the helper (it compiles less than this process, so it is done or nearly);
    one that is still at it after ``FINISH_SECONDS`` is only compiling a copy of what this
    process has, and is stopped (numba writes a cache file whole or not at all)."""
    if helper is None:
        return
    try:
        helper.wait(timeout=FINISH_SECONDS)
    except subprocess.TimeoutExpired:
        stop(helper)


def stop(helper: subprocess.Popen | None) -> None:
    """Stop the helper now."""
    if helper is not None and helper.poll() is None:
        helper.terminate()
        helper.wait()


@contextmanager
def engine_beside() -> Iterator[None]:
    """Run the block (a first game, which compiles what it plays) with the helper compiling the
    engine beside it when the cache is cold; on an error or Ctrl-C nothing waits for the
    helper. Afterwards this build counts as warm."""
    helper = start()
    try:
        yield
    except BaseException:
        stop(helper)
        raise
    finish(helper)
    mark_warm()


def entry_points() -> list[tuple]:
    """The engine's entry points, each with the argument types the game loop
    (``sim.play.loop``) passes them: game, work and trace records, int64 scalars, int64 rows."""
    from numba import types

    from sim.engine.audit import same_position
    from sim.engine.finish import finish_deal
    from sim.engine.flow import apply_decision, next_turn, start_deal
    from sim.engine.hooktypes import GAME, TRACE, WORK

    i64 = types.int64
    row = types.Array(types.int64, 1, "C")
    return [(apply_decision, (GAME, WORK, TRACE, i64)),
            (start_deal, (GAME, WORK, TRACE, i64, i64, i64)),
            (next_turn, (GAME, TRACE)),
            (finish_deal, (GAME, TRACE, i64, i64, row, row)),
            (same_position, (GAME, GAME))]


def compile_engine() -> None:
    """Compile (or load) every entry point."""
    for dispatcher, argtypes in entry_points():
        dispatcher.compile(argtypes)


if __name__ == "__main__":  # python -m imports the sim package, and with it the cache set-up
    compile_engine()
