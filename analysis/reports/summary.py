"""The summary ``handfoot simulate`` prints: win rates, scores, deal lengths, endings, books.

Every number comes from a mergeable aggregate (sim.runs.aggregate), so the summary of a run of
millions of deals is built from per-chunk aggregates without loading the records.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.statistics.intervals import wilson_interval
from sim.core.enums import Ending
from sim.runs.aggregate import Aggregate, aggregate_records


@dataclass(frozen=True)
class TeamSummary:
    team: int
    strategy: str
    win_rate: float
    win_low: float
    win_high: float
    mean_score_per_deal: float
    mean_books_clean: float
    mean_books_dirty: float
    mean_books_wild: float


@dataclass(frozen=True)
class Summary:
    games: int
    deals: int
    teams: list[TeamSummary]
    ties: int
    turns_mean: float
    turns_median: float
    turns_p5: float
    turns_p95: float
    share_out: float
    share_stock: float
    truncated: int


def game_totals(records: np.ndarray, deals_per_game: int) -> np.ndarray:
    """Per-game totals, shape (games, teams); records must hold whole games in order."""
    scores = records["score"].astype(np.int64)
    games = len(records) // deals_per_game
    return scores[: games * deals_per_game].reshape(games, deals_per_game, -1).sum(axis=1)


def summarize(records: np.ndarray, deals_per_game: int, team_strategies: list[str]) -> Summary:
    """The summary of in-memory records (whole games in order)."""
    return summary_from_aggregate(aggregate_records(records, deals_per_game), team_strategies)


def summary_from_aggregate(agg: Aggregate, team_strategies: list[str]) -> Summary:
    """The summary of merged per-chunk aggregates: the same numbers ``summarize`` gives on the
    concatenated records, without holding them (sim.runs.aggregate)."""
    team_rows = []
    for t in range(agg.teams):
        wins = agg.win_share(t)
        low, high = wilson_interval(wins, agg.games)
        team_rows.append(
            TeamSummary(
                team=t,
                strategy=team_strategies[t],
                win_rate=wins / agg.games,
                win_low=low,
                win_high=high,
                mean_score_per_deal=agg.score_sum[t] / agg.deals,
                mean_books_clean=agg.books_clean[t] / agg.deals,
                mean_books_dirty=agg.books_dirty[t] / agg.deals,
                mean_books_wild=agg.books_wild[t] / agg.deals,
            )
        )
    return Summary(
        games=agg.games,
        deals=agg.deals,
        teams=team_rows,
        ties=agg.ties,
        turns_mean=agg.turns_mean(),
        turns_median=agg.turns_median(),
        turns_p5=agg.turns_quantile(0.05),
        turns_p95=agg.turns_quantile(0.95),
        share_out=agg.end_reasons.get(Ending.OUT, 0) / agg.deals,
        share_stock=agg.end_reasons.get(Ending.STOCK, 0) / agg.deals,
        truncated=agg.truncated,
    )


def format_summary(s: Summary) -> str:
    lines = [f"{s.games:,} games, {s.deals:,} deals", ""]
    lines.append("team  strategy   game wins  95% CI (Wilson)   points/deal   books/deal: "
                 "clean dirty  wild")
    for t in s.teams:
        lines.append(
            f"{t.team:>4}  {t.strategy:<9}  {t.win_rate:8.1%}  {t.win_low:6.1%} - "
            f"{t.win_high:6.1%}   {t.mean_score_per_deal:11.1f}   "
            f"{t.mean_books_clean:17.2f} {t.mean_books_dirty:5.2f} {t.mean_books_wild:5.2f}"
        )
    lines.append(f"tied games (half a win each): {s.ties:,}")
    lines.append("")
    lines.append(
        f"deal length in turns: mean {s.turns_mean:.1f}, median {s.turns_median:.0f}, "
        f"5th-95th percentile {s.turns_p5:.0f}-{s.turns_p95:.0f}"
    )
    lines.append(
        f"deals ended by going out: {s.share_out:.1%}, by the stock running out: "
        f"{s.share_stock:.1%}, truncated: {s.truncated}"
    )
    return "\n".join(lines)
