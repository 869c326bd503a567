"""``compare --sprt LOW,HIGH``: play a paired comparison until a sequential test decides.

A fixed-size comparison spends as many games on an obvious edge as on a subtle one. Here the
runs of every seating grow in batches (analysis.experiments.playing.grow_run keeps every chunk
already played), and after each batch the new shuffles' pair scores (A's mean win credit over
the seatings of one shuffle, analysis.statistics.paired) are fed, in game order, to the SPRT of
analysis.statistics.sprt, which checks its log-likelihood ratio after every pair. The
comparison stops at the batch in which one hypothesis is accepted, or at the most games
allowed. Because pairs are fed in game order and the test looks after each one, the decision
and the pair it came at do not depend on the batch sizes; a batch only decides how many games
past that pair are played (and then reported: more games never hurt the estimates).
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path

from analysis.experiments.pairings import Note, Pairing, PairRuns, seating_name, seatings
from analysis.experiments.playing import play_pairs
from analysis.statistics.paired import PairedResult, analyse_seatings
from analysis.statistics.sprt import Sprt, SprtSpec

FIRST = 100  # shuffles in the first batch; later batches add a quarter of what was played
CHUNK = 100  # games per chunk of every run (fixed, so the runs can grow)


class SprtInputError(ValueError):
    """``--sprt`` bounds that do not describe a test."""


@dataclass(frozen=True)
class SprtOutcome:
    runs: PairRuns
    result: PairedResult
    sprt: Sprt
    rounds: int

    def summary(self) -> str:
        """One line: what was decided, where, and what the hypotheses were."""
        spec = self.sprt.spec
        hyp = (f"H0: A scores {_pct(spec.mu0)} per game, H1: {_pct(spec.mu1)} (even "
               f"{_pct(spec.even)}; alpha {spec.alpha:g}, beta {spec.beta:g})")
        lower, upper = spec.bounds
        games = self.result.games
        if self.sprt.decision is None:
            return (f"SPRT undecided after the most allowed, {games:,} shuffles: LLR "
                    f"{self.sprt.llr:.2f} inside [{lower:.2f}, {upper:.2f}]; {hyp}.")
        at = self.sprt.decided_at or 0
        word = "H1 accepted: A is better" if self.sprt.decision == "H1" else \
            "H0 accepted: A is not better"
        return (f"SPRT {word} (at least {spec.high:g} points over even is H1, at most "
                f"{spec.low:g} is H0) after {at:,} shuffles ({at * self.result.teams:,} "
                f"games), LLR crossed {upper if self.sprt.decision == 'H1' else lower:.2f}; "
                f"{games:,} shuffles were played (the last batch); {hyp}.")


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def parse_bounds(text: str) -> tuple[float, float]:
    """``"0,5"`` -> (0.0, 5.0): points of win rate over even play, low below high."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise SprtInputError(f"--sprt must be LOW,HIGH in points of win rate (got {text!r})")
    try:
        low, high = (float(p) for p in parts)
    except ValueError:
        raise SprtInputError(f"--sprt must be two numbers LOW,HIGH (got {text!r})") from None
    if not (math.isfinite(low) and math.isfinite(high)):
        raise SprtInputError(f"--sprt bounds must be finite numbers (got {text!r})")
    if low >= high:
        raise SprtInputError(f"--sprt bounds are in the wrong order: LOW ({low:g}) must be "
                             f"below HIGH ({high:g})")
    return low, high


def make_spec(low: float, high: float, teams: int, alpha: float, beta: float) -> SprtSpec:
    """The test for a comparison of ``teams`` seatings (even play is 1/teams); a one-line
    ``SprtInputError`` when the bounds or error rates do not make one."""
    try:
        return SprtSpec(low, high, even=1.0 / teams, alpha=alpha, beta=beta)
    except ValueError as exc:
        raise SprtInputError(f"--sprt {low:g},{high:g}: {exc}") from None


def _already(path: Path) -> int:
    from sim.runs.storage import Run, RunError

    try:
        return Run.open(path).spec.games if path.exists() else 0
    except RunError:
        return 0


def play_sprt(pairing: Pairing, root: Path, seed: int, low: float, high: float, most: int,
              alpha: float = 0.05, beta: float = 0.05, jobs: int = 0, rerun: bool = False,
              progress: bool | None = None, note: Note | None = None) -> SprtOutcome:
    """Grow the comparison's runs batch by batch until the SPRT decides or ``most`` shuffles
    are played; progress lines (LLR and bounds) go to stderr."""
    teams = seatings(pairing)
    test = Sprt(make_spec(low, high, teams, alpha, beta))
    show = sys.stderr.isatty() if progress is None else progress
    first = root / f"{pairing.key}-{seating_name(0, teams)}"
    games = min(most, max(FIRST, 0 if rerun else _already(first)))
    fed = rounds = 0
    while True:
        rounds += 1
        (runs,) = play_pairs([pairing], root, seed, games, jobs=jobs,
                             rerun=rerun and rounds == 1, progress=show, note=note,
                             chunk_size=CHUNK, grow=True)
        result, diffs = analyse_seatings(runs.runs)
        test.update(diffs["s"].to_numpy()[fed:])
        fed = diffs.height
        if show:
            print(f"sprt: {test.state_line()}", file=sys.stderr)
        if test.decision is not None or games >= most:
            return SprtOutcome(runs, result, test, rounds)
        step = max(FIRST, games // 4)
        games = min(most, math.ceil((games + step) / CHUNK) * CHUNK)
