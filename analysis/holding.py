"""When does holding a wild pay? Decision by decision: every time the baseline player would
meld a wild (after its partnership has opened), the rest of the deal is played both ways on
copies of the real deal — the line as the player proposed it, and the same line with its wilds
held back — with the baseline playing every seat afterwards (``sim.play.branching``). The
difference (held minus melded, in points of deal margin) is measured per situation with 95%
intervals from the paired outcomes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from analysis.stats import mean_estimate
from sim.core.rules import Rules
from sim.play import branching as br

# Situations: (name, column, bins as (label, low, high) inclusive).
SITUATIONS: tuple[tuple[str, int, tuple[tuple[str, float, float], ...]], ...] = (
    ("deal", br.F_DEAL, (("deal 1", 1, 1), ("deal 2", 2, 2), ("deal 3", 3, 3),
                         ("deal 4", 4, 4))),
    ("hand or Foot", br.F_ON_FOOT, (("on the Hand", 0, 0), ("on the Foot", 1, 1))),
    ("cards held", br.F_HELD, (("2-5 cards", 0, 5), ("6-10 cards", 6, 10),
                               ("11-15 cards", 11, 15), ("16+ cards", 16, 1e9))),
    ("wilds held", br.F_WILDS_HELD, (("1 wild", 1, 1), ("2 wilds", 2, 2),
                                     ("3+ wilds", 3, 1e9))),
    ("wild books made", br.F_WILD_BOOKS, (("no wild book yet", 0, 0),
                                          ("a wild book made", 1, 1e9))),
    ("partner on the Foot", br.F_PARTNER_ON_FOOT, (("partner on the Hand", 0, 0),
                                                   ("partner on the Foot", 1, 1))),
    ("fewest cards of an opponent", br.F_FEWEST_OPPONENT,
     (("an opponent at 1-4 cards", 0, 4), ("5-10", 5, 10), ("11-20", 11, 20),
      ("21+", 21, 1e9))),
)
MIN_PER_GROUP = 30


@dataclass(frozen=True)
class HoldEffect:
    """Holding minus melding in one situation: mean points of deal margin per decision,
    95% interval, number of branched positions, and how often holding did better."""

    situation: str
    group: str
    positions: int
    mean: float
    low: float
    high: float
    share_better: float

    def row(self) -> dict:
        return dict(self.__dict__)


def collect(rules: Rules, seats: Sequence, positions: int, seed: int = 1,
            jobs: int = 1, games_per_chunk: int = 200) -> np.ndarray:
    """At least ``positions`` branched positions (rows of ``sim.play.branching``) from games
    of ``seats``; chunks of games in parallel, each chunk's games fixed by the seed."""
    from joblib import Parallel, delayed

    per_game = 10  # a first guess, refined after the first round
    chunks: list[np.ndarray] = []
    have = 0
    next_game = 0
    while have < positions:
        games = max(games_per_chunk, math.ceil((positions - have) / per_game))
        starts = list(range(next_game, next_game + games, games_per_chunk))
        sizes = [min(games_per_chunk, next_game + games - s) for s in starts]
        parts = Parallel(n_jobs=jobs)(delayed(_chunk)(rules, list(seats), seed, s, n)
                                      for s, n in zip(starts, sizes, strict=True))
        for part in parts:
            chunks.append(part)
            have += len(part)
        next_game += games
        per_game = max(1.0, have / next_game)
    return np.concatenate(chunks)[:positions] if chunks else np.zeros((0, br.N_FEATURES))


def _chunk(rules: Rules, seats: list, seed: int, first_game: int, games: int) -> np.ndarray:
    from sim.play.api import make_table, run_compiled

    table = make_table(rules, seats)
    out = np.zeros((games * 200, br.N_FEATURES))
    rows = np.zeros(1, dtype=np.int64)

    def run(*records):
        rows[0] = br.collect_holds(*records, seed, first_game, games, out)

    run_compiled(table, run)
    return out[: rows[0]].copy()


def effects(rows: np.ndarray) -> list[HoldEffect]:
    """Holding minus melding overall and in every situation with enough positions."""
    d = rows[:, br.F_HOLD] - rows[:, br.F_MELD]
    out = [_effect("all decisions", "all", d)]
    for name, column, bins in SITUATIONS:
        for label, low, high in bins:
            mask = (rows[:, column] >= low) & (rows[:, column] <= high)
            if mask.sum() >= MIN_PER_GROUP:
                out.append(_effect(name, label, d[mask]))
    return out


def _effect(situation: str, group: str, d: np.ndarray) -> HoldEffect:
    est = mean_estimate(d)
    return HoldEffect(situation, group, len(d), est.mean, est.low, est.high,
                      float((d > 0).mean()))


def verdict(found: list[HoldEffect], player: str, profile: str) -> list[str]:
    """Plain sentences generated from the measured effects (never written by hand)."""
    overall = found[0]
    pays = [e for e in found[1:] if e.low > 0]
    costs = [e for e in found[1:] if e.high < 0]

    def where(items: list[HoldEffect]) -> str:
        best = sorted(items, key=lambda e: -abs(e.mean))[:4]
        return "; ".join(f"{e.group} ({e.mean:+.0f} points, 95% CI {e.low:+.0f} to "
                         f"{e.high:+.0f}, {e.positions:,} decisions)" for e in best)

    if overall.low > 0:
        head = "Holding pays on the whole"
    elif overall.high < 0:
        head = "Holding costs on the whole"
    else:
        head = "On the whole holding neither clearly pays nor clearly costs"
    lines = [f"{head} for {player} under {profile}: {overall.mean:+.0f} points of deal margin "
             f"per decision (95% CI {overall.low:+.0f} to {overall.high:+.0f}) over "
             f"{overall.positions:,} decisions where it would have melded a wild."]
    lines.append(f"It pays in: {where(pays)}." if pays else
                 "In no situation measured does holding clearly pay.")
    lines.append(f"It costs in: {where(costs)}." if costs else
                 "In no situation measured does holding clearly cost.")
    return lines
