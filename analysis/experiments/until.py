"""``compare --until-ci W``: play the paired comparison until A's interval is narrower than W.

A pilot of a few thousand shuffles per seating estimates the spread; the runs are then grown
(analysis.experiments.playing.grow_run keeps every chunk already played) to the number of games the
estimate says is needed, and checked again, until the interval is narrow enough or the most
games allowed have been played. Game indices always run from 0, so the final runs are exactly
the runs that many games would have given.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from analysis.experiments.pairings import Note, Pairing, PairRuns, seating_name, seatings
from analysis.experiments.playing import play_pairs
from analysis.statistics.paired import PairedResult, analyse_seatings

PILOT = 2_000
CHUNK = 1_000
MARGIN = 1.1  # ask for 10% more games than the estimate, so one more round is rare


@dataclass(frozen=True)
class UntilOutcome:
    runs: PairRuns
    result: PairedResult
    width: float
    reached: bool
    rounds: int


def width(result: PairedResult, metric: str) -> float:
    """95% interval width of A's win rate or of the mean score difference per game."""
    if metric == "win-rate":
        return result.win_high - result.win_low
    return result.per_game.high - result.per_game.low


def games_needed(result: PairedResult, metric: str, target: float) -> int:
    """Shuffles per seating at which the interval should be ``target`` wide: widths shrink
    as one over the square root of the shuffles played."""
    n = result.games
    current = width(result, metric)
    if current <= 0:
        return n
    if metric == "win-rate" and result.win_rate in (0.0, 1.0):
        # Wilson's width at a rate of 0 or 1 is about 1.96^2 / n games.
        need = math.ceil(1.96**2 / (target * result.teams))
    else:
        need = math.ceil(n * (current / target) ** 2)
    return math.ceil(need * MARGIN)


def _already(path: Path) -> int:
    """Games an earlier --until-ci run of this report already played (0 if none): it is
    grown from there, not played again."""
    from sim.runs.storage import Run, RunError

    try:
        return Run.open(path).spec.games if path.exists() else 0
    except RunError:
        return 0


def play_until(pairing: Pairing, root: Path, seed: int, target: float, metric: str,
               most: int, jobs: int = 0, rerun: bool = False, progress: bool | None = None,
               note: Note | None = None) -> UntilOutcome:
    teams = seatings(pairing)
    first = root / f"{pairing.key}-{seating_name(0, teams)}"
    games = min(max(PILOT, _already(first)), most)
    rounds = 0
    while True:
        rounds += 1
        (runs,) = play_pairs([pairing], root, seed, games, jobs=jobs, rerun=rerun and rounds == 1,
                             progress=progress, note=note, chunk_size=CHUNK, grow=True)
        result, _ = analyse_seatings(runs.runs)
        w = width(result, metric)
        if w < target or games >= most:
            return UntilOutcome(runs, result, w, w < target, rounds)
        need = games_needed(result, metric, target)
        games = min(most, max(need, math.ceil(games * 1.2)))
        games = min(most, math.ceil(games / CHUNK) * CHUNK)
