"""``make bench``: one JSON line per measurement (deals/s/core, compile time, memory).

Throughput excludes compilation: the engine is warmed first and the compile cost is measured
separately, cold (empty cache) and cached, each in a fresh process.
"""

from __future__ import annotations

import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time

import numba
import numpy as np

from sim.api import make_state, play, seats_for_teams
from sim.rules import Rules

_FIRST_CALL = (
    "import time; t = time.perf_counter(); "
    "from sim.api import play; from sim.rules import Rules; "
    "play(Rules(), ['greedy', 'random'] * 2, 0, 0, 1); "
    "print(time.perf_counter() - t)"
)


def _cpu() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _context() -> dict:
    return {"python": platform.python_version(), "numpy": np.__version__,
            "numba": numba.__version__, "cpu": _cpu(), "cores": os.cpu_count()}


def _emit(record: dict) -> None:
    record.update(_context())
    print(json.dumps(record), flush=True)


def compile_seconds() -> None:
    """Cold: a new, empty cache folder. Cached: the same folder again, in a new process."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        runs = []
        for _ in range(2):
            out = subprocess.run([sys.executable, "-c", _FIRST_CALL], env=env, check=True,
                                 capture_output=True, text=True)
            runs.append(float(out.stdout.strip().splitlines()[-1]))
    _emit({"measure": "compile_seconds", "cold": round(runs[0], 2), "cached": round(runs[1], 3)})


def throughput(name: str, team_strategies: list[str], games: int, rules: Rules) -> None:
    seats = seats_for_teams(team_strategies, rules.players)
    st = make_state(rules, seats)
    play(rules, seats, 0, 0, 1, state=st)  # compile or load from cache: not timed
    start = time.perf_counter()
    rec = play(rules, seats, 12345, 0, games, state=st)
    elapsed = time.perf_counter() - start
    _emit({
        "measure": "deals_per_second_one_core", "matchup": name, "profile": "standard",
        "deals": int(len(rec)), "seconds": round(elapsed, 3),
        "deals_per_second": round(len(rec) / elapsed),
        "mean_turns": round(float(rec["turns"].mean()), 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    })


def main() -> None:
    rules = Rules()
    compile_seconds()
    throughput("greedy-vs-greedy", ["greedy", "greedy"], 25_000, rules)
    throughput("random-vs-random", ["random", "random"], 10_000, rules)
    throughput("greedy-vs-random", ["greedy", "random"], 10_000, rules)


if __name__ == "__main__":
    main()
