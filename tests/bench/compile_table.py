"""What compiling costs, and where: one command path from an empty numba cache, with the time
numba spent compiling each function (numba's ``numba:compile`` events).

``python -m tests.bench.compile_table PATH`` runs PATH in a process of its own with a new, empty
``NUMBA_CACHE_DIR`` and prints JSON lines: one ``cold_compile_seconds`` line (wall time of the
whole path, from before handfoot is imported to its end, so it includes importing, the few
games the path plays and writing their records: those take well under a second) and, with
``--table N``, the N functions that took longest to compile, each with its own time (its
compile events less those of the functions it compiled inside them, which numba compiles
first) and the number of signatures. ``make bench`` calls it for every path.

Paths: ``simulate`` (``handfoot simulate --games 200 --jobs 1``, greedy in every seat),
``compare-learned`` (``handfoot compare learned tuned --games 2 --jobs 1``), ``compare-pimc``
(``handfoot compare pimc tuned --games 2 --jobs 1``: one paired shuffle, some seconds of play),
``warm`` (the suite's warm-up, ``python -m tests.warm``: two processes after its first task,
so its seconds are wall time and its table lists the first process's functions only).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

PATHS = {
    "simulate": ["simulate", "--games", "200", "--jobs", "1"],
    "compare-learned": ["compare", "learned", "tuned", "--games", "2", "--jobs", "1"],
    "compare-pimc": ["compare", "pimc", "tuned", "--games", "2", "--jobs", "1"],
    "warm": None,
}


def _run_path(path: str, work: Path) -> None:
    if PATHS[path] is None:
        from tests.warm import warm

        warm()
        return
    from sim.cli.main import main

    flag = "--out-dir" if path == "simulate" else "--runs-dir"
    try:
        main([*PATHS[path], flag, str(work / "runs"), "--no-progress"])
    except SystemExit as exc:
        if exc.code not in (0, None):
            raise


def _short(types: tuple) -> str:
    """A signature with the game, work and trace records named (their types print in full)."""
    from numba import types as nt

    from sim.engine.hooktypes import GAME, TRACE, WORK

    names = {GAME: "GAME", WORK: "WORK", TRACE: "TRACE"}
    out = []
    for t in types:
        if isinstance(t, nt.Array) and t.dtype in names:
            out.append(f"{names[t.dtype]}[{t.ndim}d,{t.layout}]")
        else:
            out.append(names.get(t, str(t)))
    return "(" + ", ".join(out) + ")"


def _own_times(buffer: list) -> dict[str, dict]:
    """Per function: its compile time less that of the compiles nested inside it, the number
    of signatures and each signature (shortened)."""
    rows: dict[str, dict] = defaultdict(lambda: {"seconds": 0.0, "signatures": 0, "types": []})
    stack: list[list] = []  # [name, start, time of nested compiles]
    for stamp, event in buffer:
        dispatcher = event.data["dispatcher"]
        name = f"{dispatcher.py_func.__module__}.{dispatcher.py_func.__qualname__}"
        if event.is_start:
            stack.append([name, stamp, 0.0])
            rows[name]["types"].append(_short(tuple(event.data.get("args", ()))))
            continue
        name, start, nested = stack.pop()
        spent = stamp - start
        rows[name]["seconds"] += spent - nested
        rows[name]["signatures"] += 1
        if stack:
            stack[-1][2] += spent
    return rows


def measure(path: str, table: int, signatures: bool = False) -> None:
    """Run ``path`` here, in this process (whose numba cache is empty), and print its lines."""
    start = time.perf_counter()
    from numba.core import event

    listener = event.RecordingListener()
    with tempfile.TemporaryDirectory() as work, event.install_listener("numba:compile",
                                                                       listener):
        _run_path(path, Path(work))
    wall = time.perf_counter() - start
    rows = _own_times(listener.buffer)
    print(json.dumps({"measure": "cold_compile_seconds", "path": path,
                      "seconds": round(wall, 1),
                      "compiling_seconds": round(sum(r["seconds"] for r in rows.values()), 1),
                      "functions": len(rows),
                      "signatures": sum(r["signatures"] for r in rows.values())}), flush=True)
    ranked = sorted(rows.items(), key=lambda item: -item[1]["seconds"])
    for name, row in ranked[:table]:
        line = {"measure": "compile_seconds_by_function", "path": path, "function": name,
                "seconds": round(row["seconds"], 2), "signatures": row["signatures"]}
        if signatures:
            line["types"] = row["types"]
        print(json.dumps(line), flush=True)


def cold(path: str, table: int = 0, signatures: bool = False) -> list[dict]:
    """``path`` in a new process from a new, empty cache folder: its JSON lines, parsed."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-m", "tests.bench.compile_table", path,
                              "--here", "--table", str(table),
                              *(["--signatures"] if signatures else [])],
                             env=env, check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.bench.compile_table",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("path", choices=sorted(PATHS))
    parser.add_argument("--table", type=int, default=25,
                        help="how many functions to list, longest compile first (0: none)")
    parser.add_argument("--signatures", action="store_true",
                        help="list each function's signatures (to find int64/uint64 twins)")
    parser.add_argument("--here", action="store_true",
                        help="run in this process and its cache (make bench uses a new one)")
    args = parser.parse_args(argv)
    if args.here:
        measure(args.path, args.table, args.signatures)
    else:
        for line in cold(args.path, args.table, args.signatures):
            print(json.dumps(line), flush=True)


if __name__ == "__main__":
    main()
