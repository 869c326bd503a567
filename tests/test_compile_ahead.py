"""The engine compiled beside a cold start (``sim.runs.compile_ahead``) is the engine the game
loop then uses: a loop compiled after the helper compiles none of the engine's entry points
again, and the helper starts only where the cache of this engine build is cold."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sim.runs import compile_ahead

ROOT = Path(__file__).resolve().parent.parent

# Plays one game of greedy (the loop compiles) and prints every function numba compiled.
_PLAY_AND_LIST = """
import json
from numba.core import event
import sim
from sim.core.rules import Rules
from sim.play.api import play
listener = event.RecordingListener()
with event.install_listener("numba:compile", listener):
    play(Rules(), ["greedy"] * 4, 0, 0, 1)
funcs = [e.data["dispatcher"].py_func for _, e in listener.buffer if e.is_start]
names = sorted({f.__module__ + "." + f.__name__ for f in funcs})
print(json.dumps(names))
"""


def test_the_helper_starts_only_until_this_build_is_marked_warm(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    assert not compile_ahead.is_warm()
    compile_ahead.mark_warm()
    assert compile_ahead.is_warm()
    assert compile_ahead.start() is None  # warm: nothing is launched
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "other"))
    assert not compile_ahead.is_warm()  # the marker belongs to its cache folder


@pytest.mark.conformance
def test_the_loop_compiles_none_of_the_entry_points_the_helper_compiled(tmp_path):
    """From an empty cache: the helper, then a game. If the loop passed an entry point other
    argument types than the helper's, numba would compile that entry point again for the loop,
    and the helper would only ever have duplicated work."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "sim.runs.compile_ahead"], env=env, check=True,
                   cwd=ROOT, timeout=600)
    out = subprocess.run([sys.executable, "-c", _PLAY_AND_LIST], env=env, check=True, cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    compiled = set(json.loads(out.stdout.splitlines()[-1]))
    assert "sim.play.loop.play_games" in compiled  # the loop itself did compile here
    entries = {f"{d.py_func.__module__}.{d.py_func.__name__}"
               for d, _ in compile_ahead.entry_points()}
    assert not entries & compiled, f"compiled again for the loop: {sorted(entries & compiled)}"
