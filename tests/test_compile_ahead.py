"""The engine compiled beside a cold start (``sim.runs.compile_ahead``) is the engine the game
loop then uses: a loop compiled after the helper compiles none of the engine's entry points
again, and the helper starts only where the cache of this engine build is cold."""

from __future__ import annotations

from sim.core.rules import Rules
from sim.play.api import play
from sim.runs import compile_ahead


def test_the_helper_starts_only_until_this_build_is_marked_warm(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    assert not compile_ahead.is_warm()
    compile_ahead.mark_warm()
    assert compile_ahead.is_warm()
    assert compile_ahead.start() is None  # warm: nothing is launched
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "other"))
    assert not compile_ahead.is_warm()  # the marker belongs to its cache folder


def test_the_loop_calls_the_entry_points_at_the_types_the_helper_compiles():
    """After a game, numba's cache holds each entry point at one signature: the helper's. Had
    the loop passed other argument types, the loop's compile would have cached a second one
    (and the helper would only ever duplicate work)."""
    play(Rules(), ["greedy"] * 4, 0, 0, 1)  # compiles the loop, or loads it
    for dispatcher, argtypes in compile_ahead.entry_points():
        cached = [key[0] for key in dispatcher._cache._cache_file._load_index()]
        assert cached == [tuple(argtypes)], dispatcher.py_func.__name__


def test_another_clone_of_the_same_build_is_not_taken_for_warm(tmp_path, monkeypatch):
    """numba caches each tree's functions apart (by the tree's path), so a warm clone says
    nothing of another: its marker is its own."""
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    compile_ahead.mark_warm()
    monkeypatch.setattr(compile_ahead, "ROOT", tmp_path / "another-clone")
    assert not compile_ahead.is_warm()
