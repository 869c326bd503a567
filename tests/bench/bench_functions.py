"""``make bench-functions``: which compiled functions a deal spends its time in, sampled by
Linux ``perf`` (JSON lines, one per function, largest share first): greedy against greedy, or
(``--matchup pimc-vs-tuned``) the search player at its defaults against tuned, or
(``--matchup learned-vs-learned``) the learned player in every seat.

``perf`` shows numba's compiled code as bare addresses. Compiled afresh (into a temporary
cache: code loaded from numba's cache carries no symbols), every function's address is known
to llvmlite; the player writes them to ``/tmp/perf-<pid>.map``, the file ``perf`` reads for
just-in-time code, and plays while ``perf`` samples it. The fresh compile takes a few minutes.
A function the compiler inlined into its caller counts as part of the caller.

A strategy called through a function pointer (a search player's hooks, ``sim.engine.hooktypes``)
is compiled apart from the game loop, into a library of its own that holds its copy of every
function it calls; the map lists the functions of every library at the table, so a search
game's time is named too.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path


def _demangle(symbol: str) -> str:
    """``_ZN3sim6engine4flow14apply_decisionB4v312B...`` -> ``sim.engine.flow.apply_decision``."""
    rest = symbol[3:] if symbol.startswith("_ZN") else symbol
    parts = []
    while rest and rest[0].isdigit():
        digits = re.match(r"\d+", rest).group()
        size = int(digits)
        parts.append(rest[len(digits):len(digits) + size])
        rest = rest[len(digits) + size:]
    return ".".join(parts) if parts else symbol


def _write_map(path: Path, dispatchers) -> int:
    """Addresses and sizes of every compiled function of ``dispatchers``' libraries (each holds
    its own copy of every function it calls), in perf's map format."""
    found = {}
    for dispatcher in dispatchers:
        for result in dispatcher.overloads.values():
            library = result.library
            engine = library._codegen._engine._ee
            for func in library._final_module.functions:
                if func.is_declaration:
                    continue
                address = engine.get_function_address(func.name)
                if address:
                    found[address] = _demangle(func.name)
    addresses = sorted(found)
    with path.open("w") as out:
        for i, address in enumerate(addresses):
            size = addresses[i + 1] - address if i + 1 < len(addresses) else 4096
            out.write(f"{address:x} {size:x} {found[address]}\n")
    return len(addresses)


# Each matchup: the strategy of each partnership, and the games played per call (a search
# game costs about a thousand heuristic ones, so it plays one at a time).
MATCHUPS = {"greedy-vs-greedy": (("greedy", "greedy"), 500),
            "learned-vs-learned": (("learned", "learned"), 20),
            "pimc-vs-tuned": (("pimc", "tuned"), 1)}


def _player(profile: str, matchup: str, seconds: float, ready: Path) -> None:
    from sim.core.profiles import get_profile
    from sim.play.api import make_table, play, seats_for_teams
    from sim.play.loop import play_games

    rules = get_profile(profile)
    teams, per_call = MATCHUPS[matchup]
    seats = seats_for_teams(list(teams), rules.players)
    table = make_table(rules, seats)
    play(rules, seats, 0, 0, 1, table=table)  # compile afresh
    _write_map(Path(f"/tmp/perf-{os.getpid()}.map"), {play_games, *table.hooks})
    ready.write_text(str(os.getpid()))
    end = time.perf_counter() + seconds
    game = 0
    while time.perf_counter() < end:
        play(rules, seats, 777, game, per_call, table=table)
        game += per_call


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="standard", help="rule profile (default standard)")
    parser.add_argument("--matchup", default="greedy-vs-greedy", choices=sorted(MATCHUPS),
                        help="who plays: greedy in every seat, or pimc (its defaults) in "
                             "partnership 0 against tuned (default greedy-vs-greedy)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds sampled")
    parser.add_argument("--top", type=int, default=25, help="functions reported")
    parser.add_argument("--player", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.player:
        _player(args.profile, args.matchup, args.seconds + 5, Path(args.player))
        return
    if shutil.which("perf") is None:
        sys.exit("bench-functions: Linux perf is not installed (apt install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "ready"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        player = subprocess.Popen([sys.executable, "-m", "tests.bench.bench_functions", "--player",
                                   str(ready), "--profile", args.profile, "--matchup",
                                   args.matchup, "--seconds", str(args.seconds)], env=env)
        while not ready.exists():
            if player.poll() is not None:
                sys.exit("bench-functions: the player stopped before it was ready")
            time.sleep(1)
        pid = ready.read_text()
        data = Path(tmp) / "perf.data"
        subprocess.run(["perf", "record", "-q", "-p", pid, "-o", str(data), "--", "sleep",
                        str(args.seconds)], check=True, capture_output=True)
        report = subprocess.run(["perf", "report", "-i", str(data), "--sort", "sym", "--stdio"],
                                check=True, capture_output=True, text=True).stdout
        player.wait()
        Path(f"/tmp/perf-{pid}.map").unlink(missing_ok=True)
    shares: dict[str, float] = defaultdict(float)
    for line in report.splitlines():
        match = re.match(r"\s*([\d.]+)%\s+\[\.\]\s+(\S+)", line)
        if match:
            shares[_demangle(match.group(2))] += float(match.group(1)) / 100
    for name, share in sorted(shares.items(), key=lambda kv: -kv[1])[:args.top]:
        print(json.dumps({"measure": "function_share", "profile": args.profile,
                          "matchup": args.matchup, "function": name,
                          "share": round(share, 4)}), flush=True)


if __name__ == "__main__":
    main()
