"""The summary ``handfoot simulate`` prints: win rates, scores, deal lengths, endings, books."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.stats import wilson_interval


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
    totals = game_totals(records, deals_per_game)
    games, teams = totals.shape
    best = totals.max(axis=1, keepdims=True)
    is_best = totals == best
    n_best = is_best.sum(axis=1, keepdims=True)
    credit = np.where(is_best, 1.0 / n_best, 0.0)  # R-X7: a tie is shared
    team_rows = []
    for t in range(teams):
        wins = float(credit[:, t].sum())
        low, high = wilson_interval(wins, games)
        team_rows.append(
            TeamSummary(
                team=t,
                strategy=team_strategies[t],
                win_rate=wins / games,
                win_low=low,
                win_high=high,
                mean_score_per_deal=float(records["score"][:, t].mean()),
                mean_books_clean=float(records["books_clean"][:, t].mean()),
                mean_books_dirty=float(records["books_dirty"][:, t].mean()),
                mean_books_wild=float(records["books_wild"][:, t].mean()),
            )
        )
    turns = records["turns"].astype(np.float64)
    return Summary(
        games=games,
        deals=len(records),
        teams=team_rows,
        ties=int((n_best[:, 0] > 1).sum()),
        turns_mean=float(turns.mean()),
        turns_median=float(np.median(turns)),
        turns_p5=float(np.percentile(turns, 5)),
        turns_p95=float(np.percentile(turns, 95)),
        share_out=float((records["end_reason"] == 1).mean()),
        share_stock=float((records["end_reason"] == 2).mean()),
        truncated=int(records["truncated"].sum()),
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
