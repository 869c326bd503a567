"""``make bench``: one JSON line per measurement (deals/s/core, compile time, memory, and the
speed-up of 2 workers over 1 on a 1,000,000-game ``simulate`` run).

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
from pathlib import Path

import numba
import numpy as np

from sim.core.rules import Rules
from sim.play.api import make_table, play, seats_for_teams

_FIRST_CALL = (
    "import time; t = time.perf_counter(); "
    "from sim.play.api import play; from sim.core.rules import Rules; "
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


def throughput(name: str, team_strategies: list[str], games: int, rules: Rules,
               profile: str = "standard") -> float:
    """Deals per second on one core, compilation excluded; returns the rate."""
    seats = seats_for_teams(team_strategies, rules.players)
    table = make_table(rules, seats)
    play(rules, seats, 0, 0, 1, table=table)  # compile or load from cache: not timed
    start = time.perf_counter()
    rec = play(rules, seats, 12345, 0, games, table=table)
    elapsed = time.perf_counter() - start
    rate = len(rec) / elapsed
    _emit({
        "measure": "deals_per_second_one_core", "matchup": name, "profile": profile,
        "deals": int(len(rec)), "seconds": round(elapsed, 3),
        "deals_per_second": round(rate),
        "mean_turns": round(float(rec["turns"].mean()), 1),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    })
    return rate


def parallel_speedup(games: int, rules: Rules, workers: int = 2) -> None:
    """Wall time of the whole ``handfoot simulate`` pipeline (chunks, Parquet files, manifest)
    on ``games`` games with 1 worker and with ``workers``, pool start-up included."""
    from sim.runs.runner import simulate_to
    from sim.runs.storage import RunSpec

    seats = seats_for_teams(["greedy", "greedy"], rules.players)
    spec = RunSpec(rules=rules, profile="standard", team_strategies=("greedy", "greedy"),
                   seat_strategies=tuple(seats), seed=12345, games=games, chunk_size=5000)
    play(rules, seats, 0, 0, 1)  # compile or load from cache: not timed
    seconds = {}
    with tempfile.TemporaryDirectory() as tmp:
        for jobs in (1, workers):
            start = time.perf_counter()
            simulate_to(Path(tmp) / f"jobs{jobs}", spec, jobs=jobs)
            seconds[jobs] = time.perf_counter() - start
    deals = games * rules.deals_per_game
    _emit({
        "measure": "parallel_speedup", "matchup": "greedy-vs-greedy", "profile": "standard",
        "games": games, "deals": deals, "workers": workers,
        "seconds_1_worker": round(seconds[1], 2), f"seconds_{workers}_workers":
        round(seconds[workers], 2),
        "deals_per_second_1_worker": round(deals / seconds[1]),
        f"deals_per_second_{workers}_workers": round(deals / seconds[workers]),
        "speedup": round(seconds[1] / seconds[workers], 3),
    })


def main() -> None:
    rules = Rules()
    compile_seconds()
    greedy = throughput("greedy-vs-greedy", ["greedy", "greedy"], 25_000, rules)
    throughput("random-vs-random", ["random", "random"], 10_000, rules)
    throughput("greedy-vs-random", ["greedy", "random"], 10_000, rules)
    for strategy in ("tactician", "cautious"):
        rate = throughput(f"{strategy}-vs-{strategy}", [strategy, strategy], 10_000, rules)
        _emit({"measure": "strategy_speed_vs_greedy", "strategy": strategy,
               "ratio": round(rate / greedy, 3)})
    from sim.core.profiles import PROFILES

    for name, (profile_rules, _) in PROFILES.items():
        if name == "standard":
            continue
        rate = throughput("greedy-all-seats", ["greedy", "greedy"], 10_000, profile_rules, name)
        _emit({"measure": "profile_speed_vs_standard", "profile": name,
               "ratio": round(rate / greedy, 3)})
    # The 2-worker speed-up on a 1,000,000-game run takes a few minutes; set
    # HANDFOOT_BENCH_SPEEDUP_GAMES=0 to skip it (or to another number of games).
    games = int(os.environ.get("HANDFOOT_BENCH_SPEEDUP_GAMES", "1000000"))
    if games > 0:
        parallel_speedup(games, rules)


if __name__ == "__main__":
    main()
