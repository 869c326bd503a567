"""``make bench-ab OLD=<commit>``: deals per second of this tree against an older commit, on
the same machine in the same run, interleaved (old, new, old, new ...) so that a noisy
machine treats both alike. One JSON line per matchup.

The old commit is checked out in a temporary git worktree and played in its own process with
``PYTHONPATH`` pointing at it (its compiled cache lives in that worktree, so the first round
compiles it; compilation is never timed). Each round plays ``--games`` games ``--reps`` times
and keeps the best rate, in deals per CPU-second of the playing process (``process_time``), so
other jobs on the machine count less than they would in wall time. Each line gives the ratio of
the best rates and of the medians, with every round's rate: on a shared machine a round can
run at two thirds of the speed of the next, so one ratio alone can mislead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
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


def rate(tree: Path, profile: str, strategy: str, games: int, reps: int) -> float:
    out = subprocess.run([sys.executable, "-c", _PLAYER, profile, strategy, str(games),
                          str(reps)], cwd=tree, env={"PYTHONPATH": str(tree), "PATH": ""},
                         check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the commit to compare with (e.g. 715d02a)")
    parser.add_argument("--games", type=int, default=800, help="games per timed play")
    parser.add_argument("--reps", type=int, default=3, help="timed plays per round (best kept)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds per side")
    args = parser.parse_args(argv)
    new = Path(__file__).resolve().parent.parent
    with tempfile.TemporaryDirectory() as tmp:
        old = Path(tmp) / "old"
        subprocess.run(["git", "-C", str(new), "worktree", "add", "--detach", str(old),
                        args.old], check=True, capture_output=True)
        try:
            for profile, strategy in MATCHUPS:
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
        finally:
            subprocess.run(["git", "-C", str(new), "worktree", "remove", "--force", str(old)],
                           check=False, capture_output=True)


if __name__ == "__main__":
    main()
