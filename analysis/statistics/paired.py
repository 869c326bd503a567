"""The paired design for every game shape: the same shuffles played once per seating of A.

With T partnerships (T = the number of players in individual play), every shuffle is played T
times: A's partnership (or seat) is partnership r in the r-th seating and B plays every other
partnership. A so meets every seat and every deal, and the luck of the cards cancels out of A's
results averaged over a shuffle's seatings. For two partnerships this is the familiar "both
ways": x1 = A - B with A as partnership 0, x2 = A - B with A as partnership 1.

Per game and seating the table holds A's total, the mean total of B's partnerships, A's
margin ``x = A - mean(B)``, A's win credit (1 for a win, 1/k for a k-way tie for first, 0
otherwise; R-X7) and A's rank (1 is best; tied partnerships share the mean of their ranks).
Per shuffle g they are averaged over the seatings: ``d`` (the margin), ``s`` (A's share of the
games, the SPRT's pair score) and ``rank``. Every interval treats the shuffle as the unit: the
mean margin and mean rank get t-intervals and t-tests from the N per-shuffle values, and the win
rate a Wilson interval at the effective sample size those values imply
(``analysis.statistics.intervals.clustered_wilson``), because the T plays of one shuffle are
not independent games. Other per-game quantities (turns, endings, books) are averaged over the
seatings of each shuffle in the same way, so their intervals are clustered by shuffle too.

Even play: A's share of wins is 1/T, its mean rank (T + 1) / 2 and its margin 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.statistics.frames import game_table
from analysis.statistics.intervals import MeanEstimate, clustered_wilson, mean_estimate


class PairingError(ValueError):
    """Runs that are not the same games played in every seating."""


@dataclass(frozen=True)
class PairedResult:
    """A against B over N shuffles, each played in all T seatings."""

    games: int  # N: shuffles (game indices) played in every seating
    teams: int  # T: seatings per shuffle (partnerships, or seats in individual play)
    deals_per_game: int
    win_credit: float  # A's wins over the T*N games, ties as fractions
    ties: int  # games in which A shared first place
    win_rate: float
    win_low: float
    win_high: float
    per_game: MeanEstimate  # mean of d_g (A - mean of B's partnerships), points per game
    per_deal: MeanEstimate  # the same per deal
    rank: MeanEstimate  # A's mean rank (1 = first)

    @property
    def p_value(self) -> float:
        return self.per_game.p_value

    @property
    def even(self) -> float:
        """A's share of wins when A and B are equally strong."""
        return 1.0 / self.teams

    @property
    def games_played(self) -> int:
        return self.games * self.teams

    def row(self) -> dict:
        """Flat columns for a results table (one comparison per row)."""
        out = {"games": self.games, "teams": self.teams, "games_played": self.games_played,
               "deals_per_game": self.deals_per_game, "ties": self.ties,
               "win_rate": self.win_rate, "win_low": self.win_low, "win_high": self.win_high,
               "even": self.even}
        for unit, est in (("game", self.per_game), ("deal", self.per_deal)):
            for key, value in asdict(est).items():
                if key not in ("n", "p_value"):
                    out[f"diff_{unit}" if key == "mean" else f"diff_{unit}_{key}"] = value
        out.update(rank=self.rank.mean, rank_se=self.rank.se, rank_low=self.rank.low,
                   rank_high=self.rank.high, rank_even=(self.teams + 1) / 2)
        out["p_value"] = self.p_value
        return out


def seatings_of(table: pl.DataFrame) -> int:
    """How many seatings a ``rotated`` table holds (its ``x1``, ``x2``, ... columns)."""
    n = 0
    while f"x{n + 1}" in table.columns:
        n += 1
    return n


CREDIT_UNITS = 60  # lcm(1..6): a k-way tie's share 1/k is a whole number of these


def _seating(table: pl.DataFrame, seat: int, teams: int) -> dict[str, np.ndarray]:
    """Per-game columns of one seating's game table, seen from A (partnership ``seat``).

    Margins, win credits and ranks are kept as exact integer numerators (``x_num`` over
    T - 1, ``c60`` over 60, ``rank2`` over 2), so that averaging them over the seatings of a
    shuffle gives exactly 0, 1/T and (T + 1) / 2 when every seating plays the same game (a
    strategy against itself): floating-point noise would otherwise turn "no difference by
    construction" into a t-test on rounding errors."""
    totals = np.stack([table[f"total_{t}"].to_numpy().astype(np.int64)
                       for t in range(teams)], axis=1)
    a = totals[:, seat]
    others = np.delete(totals, seat, axis=1)
    best = totals.max(axis=1)
    at_best = (totals == best[:, None]).sum(axis=1)
    ordered = np.sort(totals, axis=1)
    out = {
        "a_total": a, "b_total": others.mean(axis=1), "mean_total": totals.mean(axis=1),
        "x_num": (teams - 1) * a - others.sum(axis=1),
        "c60": np.where(a == best, CREDIT_UNITS // at_best, 0),
        "rank2": 2 + 2 * (others > a[:, None]).sum(axis=1) + (others == a[:, None]).sum(axis=1),
        "lead": ordered[:, -1] - ordered[:, -2],  # the winner's margin over the runner-up
        "tie": ((a == best) & (at_best > 1)).astype(np.int64),
        # A against each other partnership on its own (rank-breaking, for ratings)
        "pw_win": (others < a[:, None]).sum(axis=1), "pw_loss": (others > a[:, None]).sum(axis=1),
        "pw_tie": (others == a[:, None]).sum(axis=1),
    }
    out["c"] = out["c60"] / CREDIT_UNITS
    out["rank"] = out["rank2"] / 2
    for kind in ("clean", "dirty", "wild"):
        if f"{kind}_0" not in table.columns:
            continue
        books = np.stack([table[f"{kind}_{t}"].to_numpy().astype(np.float64)
                          for t in range(teams)], axis=1)
        out[f"a_{kind}"] = books[:, seat]
        out[f"b_{kind}"] = np.delete(books, seat, axis=1).mean(axis=1)
        out[f"mean_{kind}"] = books.mean(axis=1)
    for name in ("turns", "out", "stock", "truncated", "deals"):
        if name in table.columns:
            out[name] = table[name].to_numpy()
    return out


def rotated(tables: Sequence[pl.DataFrame]) -> pl.DataFrame:
    """Join the seatings of every game index into one row per shuffle.

    ``tables[r]`` is the game table (``game``, ``total_0`` ... ``total_{T-1}``, books and any
    shared columns) of the run in which A played partnership r. Every per-seating column
    comes out suffixed ``_1`` ... ``_T`` (seating r is suffix r + 1); ``x{i}`` is A's margin
    in seating i, ``d`` the mean margin, ``s`` A's mean win credit and ``rank`` its mean rank.
    """
    teams = len(tables)
    if teams < 2:
        raise PairingError(f"a paired design needs at least 2 seatings, got {teams}")
    ordered = [_by_game(t) for t in tables]
    heights = {t.height for t in ordered}
    if len(heights) != 1 or 0 in heights:
        raise PairingError("the seatings hold " + " and ".join(str(t.height) for t in ordered)
                           + " games")
    for t in ordered[1:]:
        if not t["game"].equals(ordered[0]["game"]):
            raise PairingError("the seatings do not hold the same game indices")
    for t in ordered:
        missing = [f"total_{p}" for p in range(teams) if f"total_{p}" not in t.columns]
        if missing:
            raise PairingError(f"a seating's game table lacks {', '.join(missing)} "
                               f"({teams} seatings need {teams} partnerships)")
    columns: dict[str, np.ndarray] = {"game": ordered[0]["game"].to_numpy()}
    sums = {"x_num": 0, "c60": 0, "rank2": 0}
    for seat, table in enumerate(ordered):
        per = _seating(table, seat, teams)
        for name in sums:
            sums[name] = sums[name] + per.pop(name)
        for name, values in per.items():
            columns[f"{name}_{seat + 1}"] = values
        columns[f"x{seat + 1}"] = columns[f"a_total_{seat + 1}"] - columns[f"b_total_{seat + 1}"]
    columns["d"] = sums["x_num"] / ((teams - 1) * teams)
    columns["s60"] = sums["c60"]  # A's credit over the seatings, in 1/60 games (exact)
    columns["s"] = sums["c60"] / (CREDIT_UNITS * teams)
    columns["rank"] = sums["rank2"] / (2 * teams)
    return pl.DataFrame(columns)


def differences(a_first: pl.DataFrame, a_second: pl.DataFrame) -> pl.DataFrame:
    """``rotated`` for two partnerships: A as partnership 0 (``a_first``), then as 1."""
    return rotated([a_first, a_second])


def _by_game(table: pl.DataFrame) -> pl.DataFrame:
    return table if table["game"].is_sorted() else table.sort("game")


def paired_result(diffs: pl.DataFrame, deals_per_game: int) -> PairedResult:
    """Statistics of a ``rotated`` table."""
    teams = seatings_of(diffs)
    n = diffs.height
    units = int(diffs["s60"].sum())
    credit = units / CREDIT_UNITS
    ties = int(sum(diffs[f"tie_{i + 1}"].sum() for i in range(teams)))
    rate = units / (CREDIT_UNITS * teams * n)
    low, high = clustered_wilson(diffs["s"].to_numpy(), teams, rate=rate)
    per_game = mean_estimate(diffs["d"].to_numpy())
    rank = mean_estimate(diffs["rank"].to_numpy() - (teams + 1) / 2)
    # The interval is clipped to the ranks that exist (a t-interval on a few shuffles can
    # reach past them).
    rank = MeanEstimate(rank.n, rank.mean + (teams + 1) / 2, rank.se,
                        max(1.0, rank.low + (teams + 1) / 2),
                        min(float(teams), rank.high + (teams + 1) / 2), rank.p_value)
    return PairedResult(games=n, teams=teams, deals_per_game=deals_per_game,
                        win_credit=credit, ties=ties,
                        win_rate=rate,
                        win_low=low, win_high=high, per_game=per_game,
                        per_deal=per_game.scaled(1.0 / deals_per_game), rank=rank)


def per_deal(diffs: pl.DataFrame, column: str, deals_per_game: int) -> MeanEstimate:
    """Mean per deal of a per-game column, averaged over the seatings of each shuffle:
    ``column`` names a stem present as ``<column>_1`` ... ``<column>_T``."""
    teams = seatings_of(diffs)
    both = np.mean([diffs[f"{column}_{i + 1}"].cast(pl.Float64).to_numpy()
                    for i in range(teams)], axis=0)
    return mean_estimate(both).scaled(1.0 / deals_per_game)


def check_seatings(paths: Sequence[Path]) -> tuple[int, int]:
    """Deals per game and the number of seatings, after checking that run r is run 0 with A
    moved to partnership r, on the same rules, seed and games."""
    from sim.runs.storage import Run

    specs = [Run.open(p).spec for p in paths]
    first = specs[0]
    teams = first.rules.partnerships
    if len(paths) != teams:
        raise PairingError(f"{paths[0]}: {teams} partnerships need {teams} seatings, "
                           f"got {len(paths)} runs")
    a = first.team_strategies[0]
    b = first.team_strategies[1 % teams]
    for r, (path, spec) in enumerate(zip(paths, specs, strict=True)):
        same = (spec.rules.rules_id == first.rules.rules_id and spec.seed == first.seed
                and spec.games == first.games)
        expected = tuple(a if t == r else b for t in range(teams))
        if not same or tuple(spec.team_strategies) != expected:
            raise PairingError(f"{paths[0]} and {path} are not the same games with A moved "
                               f"to partnership {r}")
    return first.rules.deals_per_game, teams


def analyse_seatings(paths: Sequence[Path]) -> tuple[PairedResult, pl.DataFrame]:
    """Paired statistics of the runs of every seating and the per-shuffle table behind them
    (one row per game index: every seating's sums, margins, credits and ranks)."""
    deals_per_game, _ = check_seatings(paths)
    from sim.runs.storage import Run

    diffs = rotated([game_table(Run.open(p)) for p in paths])
    return paired_result(diffs, deals_per_game), diffs


def analyse_pair(ab: Path, ba: Path) -> tuple[PairedResult, pl.DataFrame]:
    """``analyse_seatings`` of the two runs of a two-partnership comparison."""
    return analyse_seatings([ab, ba])


def effect_difference(first: pl.DataFrame, second: pl.DataFrame,
                      signs: tuple[float, float] = (1.0, 1.0)) -> MeanEstimate:
    """One effect minus another, paired by shuffle: per game index g played in both
    ``rotated`` tables, ``signs[0] * d_g(first) - signs[1] * d_g(second)`` (points per game),
    with the same t-interval and t-test as every comparison's margin (``mean_estimate``).

    Two players' effects of the same change measured on the same shuffles share the luck of
    the cards, so their difference is tested shuffle by shuffle, the way each effect is; a
    difference of two separately significant (or unclear) effects is not a test of it. The
    caller makes sure the tables are the same shuffles (same rules and seed: a shuffle
    depends only on them and the game index); only the game indices both hold are used.
    ``signs`` turn each effect round where A of that pairing plays the other side."""
    joined = first.select("game", pl.col("d").alias("d_first")).join(
        second.select("game", pl.col("d").alias("d_second")), on="game", how="inner")
    if joined.height < 2:
        raise PairingError(f"the two comparisons share {joined.height} game indices; a "
                           "paired difference needs at least 2")
    values = (signs[0] * joined["d_first"].cast(pl.Float64).to_numpy()
              - signs[1] * joined["d_second"].cast(pl.Float64).to_numpy())
    return mean_estimate(values)
