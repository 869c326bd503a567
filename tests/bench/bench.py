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


def _per_call(func, calls: int) -> float:
    """Nanoseconds per call of ``func`` (which makes ``calls`` calls), best of three."""
    func()  # compile or load: not timed
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best / calls * 1e9


def primitives(rules: Rules) -> None:
    """Each primitive on ~2,000 meld decisions recorded from greedy games, and the cost of
    copying a position (what a search does per imagined world and candidate)."""
    from sim.core.records import N_COLUMNS  # noqa: F401  (keeps the record schema loaded)
    from sim.engine.layout import new_game
    from sim.play import timing

    seats = seats_for_teams(["greedy", "greedy"], rules.players)
    table = make_table(rules, seats)
    store = new_game(rules.packed(), count=2000)
    kept = timing.record_positions(*table.records(), 777, 40, store)
    positions = store[:kept].copy()
    names = ("meld planning (greedy's meld hook)", "pick-up planning", "discard choice",
             "legality check of a meld line", "scoring a partnership", "conservation check")
    for which, name in enumerate(names):
        reps = 20
        ns = _per_call(lambda w=which, r=reps: timing.primitive(
            w, positions, table.w, table.t, table.copies, r), reps * kept)
        _emit({"measure": "primitive_ns_per_call", "primitive": name, "positions": kept,
               "ns_per_call": round(ns, 1)})
    calls = 200_000
    ns = _per_call(lambda: timing.copies(positions, calls), calls)
    _emit({"measure": "copy_position", "bytes": int(positions.dtype.itemsize),
           "ns_per_copy": round(ns, 1)})
    n = 4000
    start = time.perf_counter()
    timing.rollouts(positions, table.w, table.t, table.copies, 10)  # compile: not timed
    start = time.perf_counter()
    turns = timing.rollouts(positions, table.w, table.t, table.copies, n)
    seconds = time.perf_counter() - start
    _emit({"measure": "rollouts_per_second_one_core", "policy": "greedy",
           "rollouts": n, "mean_turns": round(turns / n, 1),
           "rollouts_per_second": round(n / seconds)})


def deal_time_shares(rules: Rules, profile: str = "standard", games: int = 2000) -> None:
    """Each step's share of a greedy deal's time (sim.play.deal_profile): dealing, starting
    turns, each decision's hook and its application, scoring."""
    from sim.core.records import N_COLUMNS
    from sim.play.deal_profile import N_STEPS, STEP_NAMES, profile_games

    table = make_table(rules, seats_for_teams(["greedy", "greedy"], rules.players))
    out = np.zeros((games * rules.deals_per_game, N_COLUMNS), dtype=np.int64)
    spent = np.zeros(N_STEPS, dtype=np.int64)
    calls = np.zeros(N_STEPS, dtype=np.int64)
    profile_games(*table.records(), 7, 2, out, spent, calls)  # compile or load: not counted
    spent[:] = 0
    calls[:] = 0
    profile_games(*table.records(), 777, games, out, spent, calls)
    total = int(spent.sum())
    if total <= 0:
        _emit({"measure": "deal_time_share", "profile": profile,
               "note": "no time-stamp counter on this processor: shares not measured"})
        return
    deals = games * rules.deals_per_game
    for step, name in enumerate(STEP_NAMES):
        if calls[step]:
            _emit({"measure": "deal_time_share", "matchup": "greedy-vs-greedy",
                   "profile": profile, "step": name, "share": round(spent[step] / total, 4),
                   "calls_per_deal": round(calls[step] / deals, 2),
                   "ticks_per_call": round(spent[step] / calls[step])})


def search_decisions(rules: Rules, games: int = 10, opponent: str = "tuned",
                     search=None) -> None:
    """pimc at its defaults, or ``search`` (a search StrategyInfo), its base policy the
    profile's tuned, against ``opponent`` (``tests.bench.bench_search``, wall time):
    milliseconds per decision of its own (every one, and those with more than one candidate,
    where it searches), rollouts per second of search on one core, and per decision kind how
    often it left the base move and for which kind of candidate (``w.search_stats``)."""
    from sim.core.enums import Candidate, Decision, SearchStat
    from strategies.per_profile import resolve_spec
    from tests.bench.bench_search import time_search

    pimc = search or resolve_spec("pimc", rules)
    timing = time_search(rules, pimc, opponent, games)
    stats = timing.stats
    summary = timing.summary()
    common = {"strategy": "pimc (defaults)" if search is None else search.name,
              "opponent": opponent, "params": pimc.params,
              "base_policy": pimc.base_policy, "games": games}
    _emit({"measure": "search_ms_per_decision", **common,
           **{key: summary[key] for key in ("decisions", "searched", "ms_per_decision_mean",
                                            "ms_per_decision_p95", "ms_per_decision_max",
                                            "ms_per_searched_mean", "worlds_per_searched")},
           **_inference(stats)})
    _emit({"measure": "search_rollouts_per_s", **common, "rollouts": summary["rollouts"],
           "rollouts_per_s": summary["rollouts_per_s"]})
    for kind in Decision:
        row = stats[kind]
        left_for = {Candidate.word(c): int(n) for c, n in enumerate(timing.left_for[kind])
                    if n}
        _emit({"measure": "search_left_base", **common, "decision": Decision.word(kind),
               "decisions": int(row[SearchStat.DECISIONS]),
               "searched": int(row[SearchStat.SEARCHED]),
               "left_base": int(row[SearchStat.LEFT_BASE]),
               "left_base_share_of_searched": round(float(row[SearchStat.LEFT_BASE])
                                                    / max(int(row[SearchStat.SEARCHED]), 1), 4),
               "left_for": left_for})


def _inference(stats: np.ndarray) -> dict:
    """Discard inference's world draws (``infer = 1``): how many, the share kept, and how many
    worlds were kept unfitting when no draw fit; nothing when it was off."""
    from sim.core.enums import SearchStat

    draws = int(stats[:, SearchStat.DRAWS].sum())
    if not draws:
        return {}
    return {"infer_draws": draws,
            "infer_acceptance": round(1 - float(stats[:, SearchStat.REJECTED].sum()) / draws, 4),
            "infer_kept_unfit": int(stats[:, SearchStat.KEPT_UNFIT].sum())}


def cold_compiles() -> None:
    """Each command path's compile from an empty cache (tests.bench.compile_table): simulate
    with greedy, compare learned tuned, compare pimc tuned, the suite's warm-up. Set
    HANDFOOT_BENCH_COLD=0 to skip them (about 8 minutes on 2 cores)."""
    from tests.bench.compile_table import PATHS, cold

    if os.environ.get("HANDFOOT_BENCH_COLD", "1") == "0":
        return
    for path in PATHS:
        for line in cold(path):
            _emit(line)


def main() -> None:
    rules = Rules()
    compile_seconds()
    cold_compiles()
    primitives(rules)
    deal_time_shares(rules)
    search_decisions(rules)
    greedy = throughput("greedy-vs-greedy", ["greedy", "greedy"], 25_000, rules)
    throughput("random-vs-random", ["random", "random"], 10_000, rules)
    throughput("greedy-vs-random", ["greedy", "random"], 10_000, rules)
    for strategy in ("tactician", "cautious"):
        rate = throughput(f"{strategy}-vs-{strategy}", [strategy, strategy], 10_000, rules)
        _emit({"measure": "strategy_speed_vs_greedy", "strategy": strategy,
               "ratio": round(rate / greedy, 3)})
    # The fast strong player in every seat (its target: 1,000 deals/s on one core).
    rate = throughput("learned-all-seats", ["learned", "learned"], 1_000, rules)
    _emit({"measure": "strategy_speed_vs_greedy", "strategy": "learned",
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
