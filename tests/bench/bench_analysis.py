"""Peak memory of analysing a 10,000,000-deal run: ``python -m tests.bench.bench_analysis``.

Plays (once; later calls reuse it) a run of 2,500,000 games of tactician against greedy with
per-deal records (10,000,000 deals, about 3-4 minutes on 2 cores), then, in a fresh process,
builds a full comparison report from it: every chunk checked (sha256), per-game tables,
histograms, paired statistics, tables, figures, HTML. The run is read as both orientations of
the pairing, so the analysis handles twice the records one orientation would. Prints one JSON
line with that process's peak resident memory (``peak_rss_mib``) against the 2 GiB budget.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT_MIB = 2048
DEFAULT_GAMES = 2_500_000


def generate(path: Path, games: int, jobs: int) -> None:
    """The run to analyse, played unless a finished one is already there."""
    from analysis.experiments.pairings import Pairing, Side
    from analysis.experiments.playing import ensure_run, run_spec

    pairing = Pairing(key="bench", a=Side("tactician", "tactician"), b=Side("greedy", "greedy"),
                      rules="standard", group="standard")
    spec = run_spec(pairing, True, seed=1, games=games, chunk_size=25_000)
    ensure_run(path, spec, jobs=jobs, progress=sys.stderr.isatty())


def analyse(path: Path, out: Path) -> dict:
    """The whole compare pipeline on ``path`` read as both orientations; peak RSS after."""
    from analysis.experiments.pairings import Pairing, PairRuns, Side
    from analysis.reports.build import build_and_write
    from analysis.statistics import paired
    from sim.runs.storage import Run

    run = Run.open(path)
    # One run stands for both orientations here; the real check wants two swapped runs.
    paired.check_seatings = lambda paths: (Run.open(paths[0]).spec.rules.deals_per_game, 2)
    pairing = Pairing(key="bench", a=Side("tactician", "tactician"),
                      b=Side("greedy", "greedy"), rules="standard", group="standard")
    start = time.perf_counter()
    content, report = build_and_write("compare", [PairRuns(pairing, (path, path))], {}, out,
                                      "bench", command=["bench_analysis"])
    seconds = time.perf_counter() - start
    deals = sum(c["rows"] for c in run.chunks if c["status"] == "done")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return {"bench": "analysis_peak_rss", "run": str(path), "deals": deals,
            "games": run.spec.games, "records_read": 2 * deals,
            "parquet_mib": round(sum(c.get("bytes", 0) for c in run.chunks) / 2**20, 1),
            "seconds": round(seconds, 1), "peak_rss_mib": round(peak, 1),
            "limit_mib": LIMIT_MIB, "ok": peak < LIMIT_MIB, "report": str(report)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.bench_analysis",
                                     description=__doc__)
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES,
                        help="games in the run (4 deals each)")
    parser.add_argument("--runs-dir", type=Path, default=Path("runs") / "bench-analysis")
    parser.add_argument("--jobs", type=int, default=0)
    parser.add_argument("--analyse", type=Path, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.analyse is not None:  # the measured child process
        print(json.dumps(analyse(args.analyse, args.out)))
        return 0
    path = args.runs_dir / f"tactician-greedy-{args.games}"
    generate(path, args.games, args.jobs)
    with tempfile.TemporaryDirectory() as tmp:
        child = subprocess.run([sys.executable, "-m", "tests.bench.bench_analysis", "--analyse",
                                str(path), "--out", tmp], capture_output=True, text=True)
    if child.returncode != 0:
        print(child.stderr, file=sys.stderr)
        return child.returncode
    line = child.stdout.strip().splitlines()[-1]
    print(line)
    return 0 if json.loads(line)["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
