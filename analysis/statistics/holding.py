"""Holding a wild, decision by decision: the estimates from branched positions.

A branched position (analysis.experiments.holding) is one row of ``COLUMNS``: where the
decision came (deal, Hand or Foot, cards and wilds held, wild books made, the partner, the
opponents) and the deal's score margin both ways, the line as the player proposed it
(``meld``) and the same line with its wilds held back (``hold``). Holding minus melding is
measured overall and per situation with 95% t-intervals clustered by game (the positions of
one game share its deals), from the rows alone: no game is played here, so a report rebuilt
from a cache of rows reads them without the engine.

``COLUMNS`` is the row layout of ``sim.play.branching`` (its ``F_*`` constants); the
experiment that plays the rows checks the two agree when it is imported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.statistics.intervals import clustered_mean
from sim.core.rules import Rules

COLUMNS = ("deal", "on_foot", "held", "wilds_held", "wild_books", "partner_on_foot",
           "fewest_opponent", "wilds_melded", "meld", "hold", "seat", "game", "turn")
(F_DEAL, F_ON_FOOT, F_HELD, F_WILDS_HELD, F_WILD_BOOKS, F_PARTNER_ON_FOOT, F_FEWEST_OPPONENT,
 F_WILDS_MELDED, F_MELD, F_HOLD, F_SEAT, F_GAME, F_TURN) = range(len(COLUMNS))
N_FEATURES = len(COLUMNS)

# Situations: (name, column, bins as (label, low, high) inclusive).
SITUATIONS: tuple[tuple[str, int, tuple[tuple[str, float, float], ...]], ...] = (
    ("deal", F_DEAL, (("deal 1", 1, 1), ("deal 2", 2, 2), ("deal 3", 3, 3),
                      ("deal 4", 4, 4))),
    ("hand or Foot", F_ON_FOOT, (("on the Hand", 0, 0), ("on the Foot", 1, 1))),
    ("cards held", F_HELD, (("2-5 cards held", 0, 5), ("6-10 cards held", 6, 10),
                            ("11-15 cards held", 11, 15), ("16+ cards held", 16, 1e9))),
    ("wilds held", F_WILDS_HELD, (("1 wild in hand", 1, 1), ("2 wilds in hand", 2, 2),
                                  ("3+ wilds in hand", 3, 1e9))),
    ("wild books made", F_WILD_BOOKS, (("no wild book yet", 0, 0),
                                       ("a wild book made", 1, 1e9))),
    ("partner on the Foot", F_PARTNER_ON_FOOT, (("partner on the Hand", 0, 0),
                                                ("partner on the Foot", 1, 1))),
    ("fewest cards of an opponent", F_FEWEST_OPPONENT,
     (("an opponent at 1-4 cards", 0, 4), ("fewest opponent cards 5-10", 5, 10),
      ("fewest opponent cards 11-20", 11, 20), ("fewest opponent cards 21+", 21, 1e9))),
)
MIN_PER_GROUP = 30


@dataclass(frozen=True)
class HoldEffect:
    """Holding minus melding in one situation: mean points of deal margin per decision,
    95% interval (clustered by game), number of branched positions, and how often holding
    did better and worse."""

    situation: str
    group: str
    positions: int
    mean: float
    low: float
    high: float
    share_better: float
    share_worse: float = 0.0

    def row(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Collected:
    """The branched positions of one rule set, and who played them."""

    profile: str  # the group the report shows (profile name)
    player: str  # the baseline player, as readers see it
    rules: Rules
    rows: np.ndarray  # one row per position (``COLUMNS``)
    games: int  # games played to find them (every position of these games is kept)
    path: Path | None = None

    @property
    def decisions_per_deal(self) -> float:
        return len(self.rows) / max(1, self.games * self.rules.deals_per_game)


def hold_effect(situation: str, group: str, d: np.ndarray, games: np.ndarray) -> HoldEffect:
    """The effect of holding from per-decision differences ``d`` (hold - meld), clustered by
    ``games``."""
    mean, low, high = clustered_mean(d, games)
    return HoldEffect(situation, group, len(d), mean, low, high, float((d > 0).mean()),
                      float((d < 0).mean()))


def effects(rows: np.ndarray) -> list[HoldEffect]:
    """Holding minus melding overall and in every situation with enough positions."""
    d = rows[:, F_HOLD] - rows[:, F_MELD]
    games = rows[:, F_GAME]
    out = [hold_effect("all decisions", "all", d, games)]
    for name, column, bins in SITUATIONS:
        for label, low, high in bins:
            mask = (rows[:, column] >= low) & (rows[:, column] <= high)
            if mask.sum() >= MIN_PER_GROUP:
                out.append(hold_effect(name, label, d[mask], games[mask]))
    return out


def effect_where(c: Collected, mask: np.ndarray, name: str) -> HoldEffect | None:
    """Holding minus melding at the positions of ``mask``; None with too few of them."""
    if mask.sum() < MIN_PER_GROUP:
        return None
    d = c.rows[:, F_HOLD] - c.rows[:, F_MELD]
    return hold_effect(name, name, d[mask], c.rows[mask, F_GAME])


def knob_acts(c: Collected) -> np.ndarray:
    """The positions where the ``hold_wilds`` knob acts: on the Hand, once the partnership's
    wild books for the deal are made (strategies.tactician)."""
    need = np.array(c.rules.out_wild_books, dtype=np.float64)
    deal = c.rows[:, F_DEAL].astype(np.int64)
    return (c.rows[:, F_ON_FOOT] == 0) & (c.rows[:, F_WILD_BOOKS] >= need[deal - 1])


def effects_table(collected: Sequence[Collected]) -> pl.DataFrame:
    """One row per rule set and situation: positions, their share of the rule set's
    decisions, holding minus melding with its interval, and how often holding did better or
    worse."""
    rows = []
    for c in collected:
        if len(c.rows) < 2:
            continue
        total = len(c.rows)
        for e in effects(c.rows):
            rows.append({"group": c.profile, "player": c.player, "situation": e.situation,
                         "case": e.group, "positions": e.positions,
                         "share": e.positions / total, "mean": e.mean, "low": e.low,
                         "high": e.high, "share_better": e.share_better,
                         "share_worse": e.share_worse})
    return pl.DataFrame(rows, schema={"group": pl.String, "player": pl.String,
                                      "situation": pl.String, "case": pl.String,
                                      "positions": pl.Int64, "share": pl.Float64,
                                      "mean": pl.Float64, "low": pl.Float64,
                                      "high": pl.Float64, "share_better": pl.Float64,
                                      "share_worse": pl.Float64})
