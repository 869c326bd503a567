"""Shared helpers for the run-folder tests: specs, runs in-process, records, file identities."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl

from sim.core.rules import Rules
from sim.play.api import seats_for_teams
from sim.runs.runner import simulate_to
from sim.runs.storage import MANIFEST, Run, RunSpec, UntilCI

RULES = Rules()
TEAMS = ("greedy", "random")


def spec_for(games: int, chunk_size: int, seed: int = 9, teams: tuple[str, str] = TEAMS,
             keep_records: bool = True, until_ci: UntilCI | None = None) -> RunSpec:
    seats = tuple(seats_for_teams(list(teams), RULES.players))
    return RunSpec(rules=RULES, profile="standard", team_strategies=teams,
                   seat_strategies=seats, seed=seed, games=games, chunk_size=chunk_size,
                   keep_records=keep_records, until_ci=until_ci)


def run_in(path: Path, spec: RunSpec | None, jobs: int = 1, **kw) -> Run:
    run, _, _ = simulate_to(path, spec, jobs=jobs, **kw)
    return run


def records(path: Path) -> pl.DataFrame:
    return Run.open(path).scan().sort(["game", "deal"]).collect()


def manifest(path: Path) -> dict:
    return json.loads((path / MANIFEST).read_text())


def check_played(path: Path, seat_specs: list[str], rules: Rules, games: int) -> dict:
    """The run at ``path`` played ``games`` games of ``seat_specs`` (names or strategy files,
    seat by seat) under ``rules``: its manifest names each seat's strategy and the parameters
    and rule knobs resolved from them, and its records are the games those strategies play
    under those rules (so a strategy file, or a knob, that was recorded but not played fails).
    Every deal ended by going out or by the stock. Returns the manifest."""
    from sim.play.api import play
    from strategies.registry import load

    m = manifest(path)
    assert m["status"] == "complete" and m["games"] == games, (m["status"], m["games"])
    assert m["rules"]["knobs"] == rules.to_dict(), m["rules"]["knobs"]
    assert m["rules"]["rules_id"] == rules.rules_id
    assert m["strategies"]["seats"] == list(seat_specs), m["strategies"]["seats"]
    infos = [load(spec) for spec in seat_specs]
    played = [(p["module"], p["params"]) for p in m["strategies"]["played"]]
    for seat, (got, info) in enumerate(zip(played, infos, strict=True)):
        assert got == (info.module, info.params), f"seat {seat} played {got}, not {info}"
    got = records(path)
    want = play(rules, infos, m["seed"], 0, games)
    assert got.height == len(want) == games * rules.deals_per_game
    for team in range(rules.partnerships):
        assert got[f"score_{team}"].to_list() == want["score"][:, team].tolist(), team
    assert got["turns"].to_list() == want["turns"].tolist()
    assert got["end_reason"].is_in([1, 2]).all()  # going out + the stock: every deal
    return m


def file_ids(path: Path) -> dict[str, tuple[int, int, int]]:
    """(inode, mtime_ns, size) of every file in a run folder: unchanged means untouched."""
    out = {}
    for f in sorted(path.iterdir()):
        st = f.stat()
        out[f.name] = (st.st_ino, st.st_mtime_ns, st.st_size)
    return out


def cli(capsys, *args: str) -> tuple[int, str, str]:
    """``handfoot ARGS`` in this process (fast: the engine is already loaded)."""
    from sim.cli import main

    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    out = capsys.readouterr()
    return code, out.out, out.err


def start_cli(*args: str, cwd: Path) -> subprocess.Popen:
    """``handfoot ARGS`` in its own process group, as a terminal would run it."""
    return subprocess.Popen([sys.executable, "-m", "sim.cli", *args], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, env=dict(os.environ))
