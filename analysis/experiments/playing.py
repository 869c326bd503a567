"""Plan and play the run folders behind a comparison: every pairing as one run per seating
of A, same rules, seed and games. With two partnerships the runs are ``<key>-ab`` (A as
partnership 0) and ``<key>-ba`` (A as partnership 1); with T partnerships (or T players in
individual play) they are ``<key>-a0`` ... ``<key>-a{T-1}``, A in partnership r and B in every
other one (analysis.statistics.paired).

Runs live in ``runs/<report name>/`` so a report can name the runs it used, and a command run
again reuses them: a finished run with the same rules, strategies (as played: kernel and every
parameter), seed and games is read as it is, an unfinished one is resumed (Ctrl-C keeps
finished chunks), one made by another engine build is played again (its records describe old
code), and one that differs in what defines its records is an error unless ``rerun`` replaces
it.

The pairings themselves, and the strategy files behind them, are plain data
(analysis.experiments.pairings), so a report reads them without loading the engine.
"""

from __future__ import annotations

import dataclasses
import math
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from analysis.experiments.pairings import (
    Note,
    Pairing,
    PairRuns,
    PlayError,
    rules_and_profile,
    seating_name,
    seatings,
)
from sim.core.profiles import load_rules
from sim.runs.storage import ChunkResult, Run, RunError, RunSpec, engine_build

# --- Runs ---------------------------------------------------------------------------------------

FAST_CHUNK_MIN = 200  # games: a fast player's chunk takes well under a second
SEARCH_CHUNK_MIN = 10  # games: a search player's take about a second each


def chunk_size_for(games: int, workers: int, search: bool = False) -> int:
    """Enough chunks to keep every worker busy (four each), none so small that overhead
    dominates: a search player's games are a thousand times slower, so its chunks may be
    small (a 60-game search run is six chunks, not one); records do not depend on it."""
    least = SEARCH_CHUNK_MIN if search else FAST_CHUNK_MIN
    return max(least, min(10_000, math.ceil(games / (4 * max(workers, 1)))))


def _plays_search(pairings: Sequence[Pairing]) -> bool:
    """Whether a side of any pairing is a search player (``players.SEARCH_MODULES``)."""
    from strategies.per_profile import resolve_spec
    from strategies.registry import SEARCH_MODULES

    return any(resolve_spec(side.spec, load_rules(p.rules)).module in SEARCH_MODULES
               for p in pairings for side in (p.a, p.b))


def workers_for(jobs: int) -> int:
    """The workers a run will have: the dask cluster's threads when the command plays there
    (``sim.runs.where``), else ``jobs`` or one per core."""
    from joblib import cpu_count

    from sim.runs.where import current

    where = current()
    if where.backend == "dask" and where.workers:
        return where.workers
    return jobs or cpu_count()


def run_spec(pairing: Pairing, seat: int, seed: int, games: int, chunk_size: int,
             keep_records: bool = True) -> RunSpec:
    """The run of seating ``seat``: A plays partnership ``seat``, B every other one."""
    from sim.play.api import seats_for_teams

    rules, profile = rules_and_profile(pairing.rules)
    teams_n = rules.partnerships
    if not 0 <= seat < teams_n:
        raise PlayError(f"seating {seat} does not exist with {teams_n} partnerships")
    teams = tuple(pairing.a.spec if t == seat else pairing.b.spec for t in range(teams_n))
    seats = tuple(seats_for_teams(list(teams), rules.players))
    return RunSpec(rules=rules, profile=profile, team_strategies=teams, seat_strategies=seats,
                   seed=seed, games=games, chunk_size=chunk_size, keep_records=keep_records)


def _played(spec: RunSpec) -> tuple:
    """The strategies as the engine plays them: module, every parameter and a search player's
    base policy, per seat."""
    return tuple(info.played for info in spec.engine_seats())


def _defines(spec: RunSpec) -> tuple:
    return (spec.rules.rules_id, spec.seat_strategies, _played(spec), spec.seed, spec.games,
            spec.keep_records)


def _describe_difference(have: RunSpec, want: RunSpec) -> str:
    parts = []
    for what, a, b in (("rules", have.rules.rules_id, want.rules.rules_id),
                       ("strategies", "/".join(have.team_strategies),
                        "/".join(want.team_strategies)),
                       ("seed", have.seed, want.seed), ("games", have.games, want.games),
                       ("records", have.keep_records, want.keep_records)):
        if a != b:
            parts.append(f"{what} {a} (wanted {b})")
    if not parts and _played(have) != _played(want):
        parts.append("strategies as played (a strategy file or a tuned file changed)")
    return "; ".join(parts)


def ensure_run(path: Path, spec: RunSpec, jobs: int = 0, rerun: bool = False,
               grow: bool = False, progress: bool = False, note: Note | None = None) -> Run:
    """The finished run ``spec`` at ``path``: reused, resumed, grown, or played."""
    from sim.runs.runner import simulate_to

    note = note or (lambda message: None)
    if path.exists():
        try:
            run = Run.open(path)
        except RunError:
            if not rerun:
                raise PlayError(f"{path} is in the way and is not a usable run folder; pass "
                                "--rerun to replace it") from None
            run = None
        if run is not None and not rerun:
            if run.manifest["engine"]["sources_sha256"] != engine_build():
                note(f"{path}: made by another engine build; playing it again")
                rerun = True
            elif _defines(run.spec) != _defines(spec):
                have = run.spec
                if grow and _defines(dataclasses.replace(have, games=spec.games)) == \
                        _defines(spec) and have.games < spec.games:
                    grow_run(path, spec.games)
                else:
                    raise PlayError(f"{path} holds a different run: "
                                    f"{_describe_difference(have, spec)}; pass --rerun to "
                                    "replace it, or choose another --report name")
            if not rerun:
                run = Run.open(path)
                if not run.missing():
                    return run
                simulate_to(path, None, jobs=jobs, progress=progress, note=note)
                return Run.open(path)
        shutil.rmtree(path)
    simulate_to(path, spec, jobs=jobs, progress=progress, note=note)
    return Run.open(path)


def grow_run(path: Path, games: int) -> None:
    """Extend a run to ``games`` without replaying it: the chunks it has are exactly the first
    chunks of the longer run (same seed, same chunking), so their files are carried over and
    only the new chunks are left to play (by resuming)."""
    old = Run.open(path)
    old.verify()
    spec = dataclasses.replace(old.spec, games=games)
    staging = path.with_name(path.name + ".grow")
    if staging.exists():
        shutil.rmtree(staging)
    new = Run.create(staging, spec, name=path.name)
    for index in old.done():
        entry = old.chunks[index]
        planned = new.chunks[index] if index < len(new.chunks) else None
        if planned is None or (planned["first_game"], planned["games"]) != \
                (entry["first_game"], entry["games"]):
            continue  # a last, partial chunk of the shorter run is played again
        kept = old.spec.keep_records
        new.store(ChunkResult(index=index, first_game=entry["first_game"],
                              games=entry["games"], rows=entry["rows"],
                              aggregate=entry["aggregate"], seconds=entry["seconds"],
                              data=old.chunk_path(index).read_bytes() if kept else None,
                              sha256=entry["sha256"] if kept else None))
    new.set_status("incomplete")
    new.save(force=True)
    shutil.rmtree(path)
    staging.rename(path)


def play_pairs(pairings: Sequence[Pairing], root: Path, seed: int, games: int, jobs: int = 0,
               rerun: bool = False, progress: bool | None = None, note: Note | None = None,
               chunk_size: int | None = None, grow: bool = False) -> list[PairRuns]:
    """The run of every seating of every pairing under ``root``; progress on stderr only on a
    terminal."""
    show = sys.stderr.isatty() if progress is None else progress
    chunk = chunk_size or chunk_size_for(games, workers_for(jobs), _plays_search(pairings))
    plans = [(pairing, seatings(pairing)) for pairing in pairings]
    total = sum(n for _, n in plans)
    done = 0
    out = []
    for pairing, n in plans:
        paths = []
        for seat in range(n):
            path = root / f"{pairing.key}-{seating_name(seat, n)}"
            done += 1
            if show:
                where = "seat" if load_rules(pairing.rules).individual else "partnership"
                print(f"[{done}/{total}] {pairing.group}: {pairing.a.label} vs "
                      f"{pairing.b.label}, A as {where} {seat}: {games:,} games",
                      file=sys.stderr)
            ensure_run(path, run_spec(pairing, seat, seed, games, chunk), jobs=jobs,
                       rerun=rerun, grow=grow, progress=show, note=note)
            paths.append(path)
        out.append(PairRuns(pairing, tuple(paths)))
    return out
