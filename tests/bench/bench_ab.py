"""``make bench-ab OLD=<commit>``: deals per second of this tree against an older commit, on
the same machine in the same run, interleaved (old, new, old, new ...) so that a noisy
machine treats both alike. One JSON line per matchup. With ``--search`` (``make bench-ab-search``)
it times the search player instead: pimc's milliseconds per decision and rollouts per second.

The old commit is checked out in a temporary git worktree and played in its own process with
``PYTHONPATH`` pointing at it (its compiled cache lives in that worktree, so the first round
compiles it; compilation is never timed). Each round plays ``--games`` games ``--reps`` times
and keeps the best rate, in deals per CPU-second of the playing process (``process_time``), so
other jobs on the machine count less than they would in wall time. Each line gives the ratio of
the best rates and of the medians, with every round's rate: on a shared machine a round can
run at two thirds of the speed of the next, so one ratio alone can mislead.

The search mode plays ``--search-games`` games of pimc at its defaults against tuned in each
tree per round, timed by the new tree's ``tests/bench/bench_search.py`` (run in the old tree too, so
both are timed by the same loop) in process CPU time, old first in even rounds and new first in
odd ones. It prints every round, then the ratios of the best and of the median rounds, and
whether both trees played the same games (the digest of every deal's final position).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from statistics import median

# Plays one matchup in whichever tree is first on sys.path: the engine's entry point moved
# (sim.api before the layered sim/, sim.play.api after), so both are tried.
_PLAYER = r"""
import sys, time
profile, strategy, games, reps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
try:
    from sim.play.api import play, make_table
    from sim.core.profiles import get_profile
    rules = get_profile(profile)
    seats = [strategy] * rules.players
    kw = {"table": make_table(rules, seats)}
except ImportError:
    from sim.api import play, make_state
    from sim.profiles import get_profile
    rules = get_profile(profile)
    seats = [strategy] * rules.players
    kw = {"state": make_state(rules, seats)}
play(rules, seats, 0, 0, 2, **kw)  # compile or load from cache: not timed
best = 0.0
for r in range(reps):
    start = time.process_time()
    rec = play(rules, seats, 777 + r, 0, games, **kw)
    best = max(best, len(rec) / (time.process_time() - start))
print(best)
"""

MATCHUPS = [(p, "greedy") for p in ("standard", "eleven", "saskatchewan", "simpson",
                                     "brouillette", "brouillette-partners")]
MATCHUPS += [("standard", "tactician"), ("standard", "random")]


def _run(tree: Path, args: list[str]) -> str:
    """The last line a Python process prints, run with ``tree`` alone on its path."""
    out = subprocess.run([sys.executable, *args], cwd=tree,
                         env={"PYTHONPATH": str(tree), "PATH": ""}, check=True,
                         capture_output=True, text=True)
    return out.stdout.strip().splitlines()[-1]


def rate(tree: Path, profile: str, strategy: str, games: int, reps: int) -> float:
    return float(_run(tree, ["-c", _PLAYER, profile, strategy, str(games), str(reps)]))


def search_round(tree: Path, timer: Path, games: int) -> dict:
    """One timed search run in ``tree`` by the timing loop in ``timer`` (this tree's
    ``tests/bench/bench_search.py``, run by path so an older tree is timed the same way)."""
    runner = (f"import runpy, sys; sys.argv = ['bench_search', '{games}']; "
              f"runpy.run_path({str(timer)!r}, run_name='__main__')")
    return json.loads(_run(tree, ["-c", runner]))


@contextmanager
def old_tree(new: Path, commit: str) -> Iterator[Path]:
    """A temporary git worktree of ``commit``, removed afterwards."""
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(new), "worktree", "add", "--detach", str(old),
                        commit], check=True, capture_output=True)
        try:
            yield old
        finally:
            subprocess.run(["git", "-C", str(new), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)


def compare_deals(old: Path, new: Path, args: argparse.Namespace) -> None:
    """Deals per CPU-second of each matchup, old against new."""
    for profile, strategy in args.matchup or MATCHUPS:
        rates: dict[str, list[float]] = {"old": [], "new": []}
        for _ in range(args.rounds):
            rates["old"].append(rate(old, profile, strategy, args.games, args.reps))
            rates["new"].append(rate(new, profile, strategy, args.games, args.reps))
        best_old, best_new = max(rates["old"]), max(rates["new"])
        mid_old, mid_new = median(rates["old"]), median(rates["new"])
        print(json.dumps({"measure": "deals_per_cpu_second_old_vs_new",
                          "old": args.old, "profile": profile, "strategy": strategy,
                          "old_rate": round(best_old), "new_rate": round(best_new),
                          "ratio": round(best_new / best_old, 3),
                          "old_rounds": [round(r) for r in rates["old"]],
                          "new_rounds": [round(r) for r in rates["new"]],
                          "ratio_of_medians": round(mid_new / mid_old, 3)}),
              flush=True)


def _ratios(old: list[float], new: list[float], lower_is_better: bool) -> dict:
    """New over old, of the best rounds and of the medians."""
    best = min if lower_is_better else max
    return {"old_best": best(old), "new_best": best(new),
            "new_over_old_best": round(best(new) / best(old), 3),
            "new_over_old_median": round(median(new) / median(old), 3)}


def compare_search(old: Path, new: Path, args: argparse.Namespace) -> None:
    """pimc's CPU milliseconds per decision and rollouts per CPU-second, old against new:
    one line per round and side, then the ratios and whether the play was the same."""
    timer = new / "tests" / "bench" / "bench_search.py"
    runs: dict[str, list[dict]] = {"old": [], "new": []}
    for r in range(args.rounds):
        for side in ("old", "new") if r % 2 == 0 else ("new", "old"):
            run = search_round(old if side == "old" else new, timer, args.search_games)
            runs[side].append(run)
            print(json.dumps({"measure": "search_cpu_round", "round": r, "side": side,
                              **run}), flush=True)
    ms = {side: [run["ms_per_decision_mean"] for run in runs[side]] for side in runs}
    rollouts = {side: [run["rollouts_per_s"] for run in runs[side]] for side in runs}
    digests = {run["digest"] for side in runs for run in runs[side]}
    print(json.dumps({"measure": "search_cpu_old_vs_new", "old": args.old,
                      "games": args.search_games, "rounds": args.rounds,
                      "ms_per_decision": {**_ratios(ms["old"], ms["new"], True),
                                          "old_rounds": ms["old"], "new_rounds": ms["new"]},
                      "rollouts_per_s": {**_ratios(rollouts["old"], rollouts["new"], False),
                                         "old_rounds": rollouts["old"],
                                         "new_rounds": rollouts["new"]},
                      "same_play": len(digests) == 1}), flush=True)


def _matchup(text: str) -> tuple[str, str]:
    profile, sep, strategy = text.partition(":")
    if not sep or not profile or not strategy:
        raise argparse.ArgumentTypeError(f"{text!r} is not PROFILE:STRATEGY")
    return profile, strategy


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the commit to compare with (e.g. 715d02a)")
    parser.add_argument("--games", type=int, default=800, help="games per timed play")
    parser.add_argument("--reps", type=int, default=3, help="timed plays per round (best kept)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per side")
    parser.add_argument("--search", action="store_true",
                        help="time pimc's decisions (against tuned) instead of deals")
    parser.add_argument("--search-games", type=int, default=10,
                        help="with --search: games timed per round and side")
    parser.add_argument("--matchup", action="append", type=_matchup, metavar="PROFILE:STRATEGY",
                        help="time only these (repeatable), e.g. standard:learned")
    args = parser.parse_args(argv)
    new = Path(__file__).resolve().parents[2]
    with old_tree(new, args.old) as old:
        if args.search:
            compare_search(old, new, args)
        else:
            compare_deals(old, new, args)


if __name__ == "__main__":
    main()
