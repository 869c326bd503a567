"""``make bench-functions``: which compiled functions a greedy deal spends its time in, sampled
by Linux ``perf`` (JSON lines, one per function, largest share first).

``perf`` shows numba's compiled code as bare addresses. Compiled afresh (into a temporary
cache: code loaded from numba's cache carries no symbols), every function's address is known
to llvmlite; the player writes them to ``/tmp/perf-<pid>.map``, the file ``perf`` reads for
just-in-time code, and plays while ``perf`` samples it. The fresh compile takes a few minutes.
A function the compiler inlined into its caller counts as part of the caller.
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


def _write_map(path: Path) -> int:
    """Addresses and sizes of every compiled function of the game loop, in perf's map format."""
    from sim.play import loop

    found = {}
    for result in loop.play_games.overloads.values():
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


def _player(profile: str, seconds: float, ready: Path) -> None:
    from sim.core.profiles import get_profile
    from sim.play.api import make_table, play

    rules = get_profile(profile)
    seats = ["greedy"] * rules.players
    table = make_table(rules, seats)
    play(rules, seats, 0, 0, 2, table=table)  # compile afresh
    _write_map(Path(f"/tmp/perf-{os.getpid()}.map"))
    ready.write_text(str(os.getpid()))
    end = time.perf_counter() + seconds
    game = 0
    while time.perf_counter() < end:
        play(rules, seats, 777, game, 500, table=table)
        game += 500


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--profile", default="standard", help="rule profile (default standard)")
    parser.add_argument("--seconds", type=float, default=8.0, help="seconds sampled")
    parser.add_argument("--top", type=int, default=25, help="functions reported")
    parser.add_argument("--player", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.player:
        _player(args.profile, args.seconds + 5, Path(args.player))
        return
    if shutil.which("perf") is None:
        sys.exit("bench-functions: Linux perf is not installed (apt install linux-perf)")
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "ready"
        env = dict(os.environ, NUMBA_CACHE_DIR=str(Path(tmp) / "cache"))
        player = subprocess.Popen([sys.executable, "-m", "sim.bench_functions", "--player",
                                   str(ready), "--profile", args.profile, "--seconds",
                                   str(args.seconds)], env=env)
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
                          "matchup": "greedy-vs-greedy", "function": name,
                          "share": round(share, 4)}), flush=True)


if __name__ == "__main__":
    main()
