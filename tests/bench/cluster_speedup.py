"""A search match on a local dask cluster, one worker against two, in the same run.

``python -m tests.bench.cluster_speedup [GAMES]`` plays ``compare pimc tuned --games GAMES``
(seed 5) on a local cluster (``tests.dask_processes``: a ``dask scheduler`` and 1, 2, 2 and 1
``dask worker`` processes on 127.0.0.1), in that order so a drift of the machine falls on both,
and prints one JSON line per match and the speedup of two
workers over one, on play time (the runs' session seconds) and on wall time (which adds the
connection and the workers' warm-up)."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def match(workers: int, games: str) -> dict:
    """One compare on a fresh cluster of ``workers`` one-thread worker processes."""
    from tests.dask_processes import process_cluster

    with process_cluster(workers=workers) as cluster:
        folder = Path(tempfile.mkdtemp())
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "sim.cli.main", "compare", "pimc", "tuned", "--games",
             games, "--seed", "5", "--no-progress", "--backend", "dask", "--scheduler",
             cluster.address, "--connect-timeout", "60", "--runs-dir",
             str(folder / "runs"), "--reports-dir", str(folder / "reports")],
            capture_output=True, text=True)
        wall = time.perf_counter() - start
    play = sum(json.loads(m.read_text())["sessions"][-1].get("seconds", 0)
               for m in (folder / "runs").rglob("manifest.json"))
    if done.returncode:
        raise SystemExit(done.stderr[-2000:])
    return {"workers": workers, "games": 2 * int(games), "seconds": round(wall, 1),
            "play_seconds": round(play, 1)}


def main() -> None:
    games = sys.argv[1] if len(sys.argv) > 1 else "60"
    lines = []
    for workers in (1, 2, 2, 1):
        lines.append(match(workers, games))
        print(json.dumps(lines[-1]), flush=True)

    def total(key: str, workers: int) -> float:
        return sum(line[key] for line in lines if line["workers"] == workers)

    print(json.dumps({"speedup_wall": round(total("seconds", 1) / total("seconds", 2), 3),
                      "speedup_play": round(total("play_seconds", 1) /
                                            total("play_seconds", 2), 3)}))


if __name__ == "__main__":
    main()
