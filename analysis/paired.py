"""The paired design: the same games (seeds) played with A as partnership 0 and as partnership 1.

Playing every shuffle both ways cancels the luck of the cards from the difference A - B: for
game g, d_g = ((A - B with A as partnership 0) + (A - B with A as partnership 1)) / 2. The mean
of d_g, its standard error, t-interval and one-sample t-test come from the N values d_g; A's
win rate counts every one of the 2N games (ties as half a win, R-X7) with a Wilson interval.

Other per-game quantities (turns, endings, books) are averaged over the two orientations of
each game index in the same way, so their intervals are clustered by game: the two plays of a
shuffle, and the four deals of a game, are never counted as independent observations.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.frames import game_table
from analysis.stats import MeanEstimate, mean_estimate, wilson_interval


class PairingError(ValueError):
    """Two runs that are not the same games played both ways."""


@dataclass(frozen=True)
class PairedResult:
    """A against B over N games played both ways."""

    games: int  # N: game indices played in both orientations
    deals_per_game: int
    win_credit: float  # A's wins over the 2N games, ties as half
    ties: int
    win_rate: float
    win_low: float
    win_high: float
    per_game: MeanEstimate  # mean of d_g, points per game
    per_deal: MeanEstimate  # the same per deal

    @property
    def p_value(self) -> float:
        return self.per_game.p_value

    def row(self) -> dict:
        """Flat columns for a results table (one comparison per row)."""
        out = {"games": self.games, "deals_per_game": self.deals_per_game, "ties": self.ties,
               "win_rate": self.win_rate, "win_low": self.win_low, "win_high": self.win_high}
        for unit, est in (("game", self.per_game), ("deal", self.per_deal)):
            for key, value in asdict(est).items():
                if key not in ("n", "p_value"):
                    out[f"diff_{unit}" if key == "mean" else f"diff_{unit}_{key}"] = value
        out["p_value"] = self.p_value
        return out


def oriented(table: pl.DataFrame, a_team: int) -> pl.DataFrame:
    """A game table seen from A: ``a_total``/``b_total`` (and ``a_clean`` ... where present)
    for the partnerships A and B played; shared columns (``turns`` ...) are kept."""
    renames = {}
    for name in table.columns:
        stem, _, team = name.rpartition("_")
        if team in ("0", "1") and stem:
            renames[name] = f"{'a' if int(team) == a_team else 'b'}_{stem}"
    return table.rename(renames)


def differences(a_first: pl.DataFrame, a_second: pl.DataFrame) -> pl.DataFrame:
    """Join the two orientations of every game index.

    Inputs are game tables (``game``, ``total_0``, ``total_1`` and any other columns) of the
    run with A as partnership 0 and of the run with A as partnership 1. Every other column
    comes out twice, suffixed ``_1`` and ``_2``; ``x1`` and ``x2`` are A - B in each, and
    ``d`` = (x1 + x2) / 2.
    """
    one, two = (_by_game(oriented(t, team)) for t, team in ((a_first, 0), (a_second, 1)))
    if one.height != two.height or one.height == 0:
        raise PairingError(f"the two orientations hold {one.height} and {two.height} games")
    if not one["game"].equals(two["game"]):
        raise PairingError("the two orientations do not hold the same game indices")
    cols = [c for c in one.columns if c != "game"]
    # Side by side rather than a join: both are sorted by the same games, and polars shares
    # the column buffers, so pairing a run of millions of games copies nothing.
    joined = pl.concat([one.rename({c: f"{c}_1" for c in cols}),
                        two.select(cols).rename({c: f"{c}_2" for c in cols})],
                       how="horizontal")
    x1 = (pl.col("a_total_1") - pl.col("b_total_1")).cast(pl.Int64).alias("x1")
    x2 = (pl.col("a_total_2") - pl.col("b_total_2")).cast(pl.Int64).alias("x2")
    return joined.with_columns(x1, x2).with_columns(
        ((pl.col("x1") + pl.col("x2")) / 2).alias("d"))


def _by_game(table: pl.DataFrame) -> pl.DataFrame:
    return table if table["game"].is_sorted() else table.sort("game")


def paired_result(diffs: pl.DataFrame, deals_per_game: int) -> PairedResult:
    """Statistics of a ``differences`` table."""
    x1 = diffs["x1"].to_numpy()
    x2 = diffs["x2"].to_numpy()
    n = len(x1)
    wins = np.concatenate([np.sign(x1), np.sign(x2)])  # +1 A won, 0 tie, -1 A lost
    credit = float((wins > 0).sum() + 0.5 * (wins == 0).sum())
    low, high = wilson_interval(credit, 2 * n)
    per_game = mean_estimate(diffs["d"].to_numpy())
    return PairedResult(games=n, deals_per_game=deals_per_game, win_credit=credit,
                        ties=int((wins == 0).sum()), win_rate=credit / (2 * n), win_low=low,
                        win_high=high, per_game=per_game,
                        per_deal=per_game.scaled(1.0 / deals_per_game))


def per_deal(diffs: pl.DataFrame, column: str, deals_per_game: int) -> MeanEstimate:
    """Mean per deal of a per-game column, averaged over both orientations of each game:
    ``column`` names a stem present as ``<column>_1`` and ``<column>_2``."""
    both = ((diffs[f"{column}_1"].cast(pl.Float64) + diffs[f"{column}_2"].cast(pl.Float64))
            / 2).to_numpy()
    return mean_estimate(both).scaled(1.0 / deals_per_game)


def check_pair(ab: Path, ba: Path) -> int:
    """Deals per game, after checking that ``ba`` is ``ab`` with the partnerships'
    strategies swapped on the same rules, seed and games."""
    from sim.runs.storage import Run

    s1, s2 = Run.open(ab).spec, Run.open(ba).spec
    if s1.rules.partnerships != 2:
        raise PairingError(f"{ab}: paired comparisons need 2 partnerships "
                           f"(this rule set has {s1.rules.partnerships})")
    same = (s1.rules.rules_id == s2.rules.rules_id and s1.seed == s2.seed
            and s1.games == s2.games)
    swapped = tuple(s1.team_strategies[::-1]) == tuple(s2.team_strategies)
    if not (same and swapped):
        raise PairingError(f"{ab} and {ba} are not the same games played both ways")
    return s1.rules.deals_per_game


def analyse_pair(ab: Path, ba: Path) -> tuple[PairedResult, pl.DataFrame]:
    """Paired statistics of two run folders and the per-game table behind them (one row per
    game index: both orientations' sums, x1, x2 and d)."""
    deals_per_game = check_pair(ab, ba)
    from sim.runs.storage import Run

    diffs = differences(game_table(Run.open(ab)), game_table(Run.open(ba)))
    return paired_result(diffs, deals_per_game), diffs
