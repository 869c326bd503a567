"""Per-chunk aggregates that merge exactly, so a summary of millions of deals never needs every
record in memory at once.

A chunk of whole games reduces to integer counts and sums and a histogram of deal lengths.
Merging is element-wise addition of Python integers, so a merged aggregate is the same whatever
the chunk size, the number of workers or the order in which chunks finished, and it survives a
JSON round trip (the run manifest stores one per chunk) without losing a bit.

Deal lengths are whole turns (1..the turn cap), so the histogram gives the exact mean, median
and percentiles that numpy would compute from the full column.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

# Win credit is counted in 60ths: 60 = lcm(1..6), so a k-way tie's share 1/k (R-X7) is a whole
# number for every partnership count up to MAX_TEAMS and merged credit stays exact.
CREDIT_UNITS = 60

# End reasons as the engine codes them (sim.core.records.END_REASONS); kept as plain ints here so
# analysis does not import the compiled engine.
END_OUT = 1
END_STOCK = 2
END_TRUNCATED = 3

METRICS = ("win-rate", "score-diff")


def _zeros(n: int) -> list[int]:
    return [0] * n


@dataclass
class Aggregate:
    """Counts and sums over whole games; ``merge`` adds two of them."""

    teams: int
    games: int = 0
    deals: int = 0
    win_credit: list[int] = field(default_factory=list)  # per team, in 1/CREDIT_UNITS games
    ties: int = 0  # games whose best total is shared
    score_sum: list[int] = field(default_factory=list)  # per team, over deals
    score_sumsq: list[int] = field(default_factory=list)
    diff_sum: int = 0  # per game: total of partnership 0 minus total of partnership 1
    diff_sumsq: int = 0
    books_clean: list[int] = field(default_factory=list)  # per team, over deals
    books_dirty: list[int] = field(default_factory=list)
    books_wild: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)  # turns[t] = deals that lasted t turns
    end_reasons: dict[int, int] = field(default_factory=dict)  # END_* -> deals
    truncated: int = 0

    def __post_init__(self) -> None:
        for name in ("win_credit", "score_sum", "score_sumsq", "books_clean", "books_dirty",
                     "books_wild"):
            if not getattr(self, name):
                setattr(self, name, _zeros(self.teams))

    def merge(self, other: Aggregate) -> Aggregate:
        """The aggregate of both sets of games (neither input changes)."""
        if other.teams != self.teams:
            raise ValueError(f"cannot merge {self.teams} and {other.teams} partnerships")
        width = max(len(self.turns), len(other.turns))
        turns = [0] * width
        for hist in (self.turns, other.turns):
            for t, count in enumerate(hist):
                turns[t] += count
        reasons = dict(self.end_reasons)
        for reason, count in other.end_reasons.items():
            reasons[reason] = reasons.get(reason, 0) + count

        def add(a: list[int], b: list[int]) -> list[int]:
            return [x + y for x, y in zip(a, b, strict=True)]

        return Aggregate(
            teams=self.teams,
            games=self.games + other.games,
            deals=self.deals + other.deals,
            win_credit=add(self.win_credit, other.win_credit),
            ties=self.ties + other.ties,
            score_sum=add(self.score_sum, other.score_sum),
            score_sumsq=add(self.score_sumsq, other.score_sumsq),
            diff_sum=self.diff_sum + other.diff_sum,
            diff_sumsq=self.diff_sumsq + other.diff_sumsq,
            books_clean=add(self.books_clean, other.books_clean),
            books_dirty=add(self.books_dirty, other.books_dirty),
            books_wild=add(self.books_wild, other.books_wild),
            turns=turns,
            end_reasons=reasons,
            truncated=self.truncated + other.truncated,
        )

    # --- JSON form (the run manifest keeps one per chunk) ------------------------------------

    def to_dict(self) -> dict:
        """Plain ints only; the turn histogram is stored from its first non-zero entry."""
        first = next((t for t, c in enumerate(self.turns) if c), len(self.turns))
        last = max((t for t, c in enumerate(self.turns) if c), default=first - 1)
        return {
            "teams": self.teams,
            "games": self.games,
            "deals": self.deals,
            "win_credit": self.win_credit,
            "credit_units": CREDIT_UNITS,
            "ties": self.ties,
            "score_sum": self.score_sum,
            "score_sumsq": self.score_sumsq,
            "diff_sum": self.diff_sum,
            "diff_sumsq": self.diff_sumsq,
            "books_clean": self.books_clean,
            "books_dirty": self.books_dirty,
            "books_wild": self.books_wild,
            "turns": {"first": first, "counts": self.turns[first : last + 1]},
            "end_reasons": {str(k): v for k, v in sorted(self.end_reasons.items())},
            "truncated": self.truncated,
        }

    @classmethod
    def from_dict(cls, d: Mapping) -> Aggregate:
        if d.get("credit_units", CREDIT_UNITS) != CREDIT_UNITS:
            raise ValueError(f"win credit in units of 1/{d['credit_units']}, expected "
                             f"1/{CREDIT_UNITS}")
        first = int(d["turns"]["first"])
        return cls(
            teams=int(d["teams"]),
            games=int(d["games"]),
            deals=int(d["deals"]),
            win_credit=[int(x) for x in d["win_credit"]],
            ties=int(d["ties"]),
            score_sum=[int(x) for x in d["score_sum"]],
            score_sumsq=[int(x) for x in d["score_sumsq"]],
            diff_sum=int(d["diff_sum"]),
            diff_sumsq=int(d["diff_sumsq"]),
            books_clean=[int(x) for x in d["books_clean"]],
            books_dirty=[int(x) for x in d["books_dirty"]],
            books_wild=[int(x) for x in d["books_wild"]],
            turns=[0] * first + [int(x) for x in d["turns"]["counts"]],
            end_reasons={int(k): int(v) for k, v in d["end_reasons"].items()},
            truncated=int(d["truncated"]),
        )

    # --- Statistics -------------------------------------------------------------------------

    def win_share(self, team: int) -> float:
        """Games won by ``team`` with ties counted as shares (R-X7)."""
        return self.win_credit[team] / CREDIT_UNITS

    def turns_quantile(self, q: float) -> float:
        """``np.percentile(turns, 100 * q)`` (linear method) computed from the histogram.

        Follows numpy's arithmetic step by step (virtual index (n - 1) * q, then its two-sided
        lerp), so the result is the same float numpy gives on the full column.
        """
        return _hist_percentile(self.turns, q * 100.0)

    def turns_median(self) -> float:
        """``np.median(turns)``: the middle value, or the mean of the two middle values."""
        n = self.deals
        if n == 0:
            return math.nan
        cum = np.cumsum(np.asarray(self.turns, dtype=np.int64))
        lo = _order_stat(cum, (n - 1) // 2)
        hi = _order_stat(cum, n // 2)
        return float(np.mean(np.array([lo, hi], dtype=np.float64)))

    def turns_mean(self) -> float:
        return sum(t * c for t, c in enumerate(self.turns)) / self.deals

    def ci_width(self, metric: str) -> float:
        """Width of the 95% interval of ``metric``; infinite while it cannot be computed.

        ``win-rate``: partnership 0's game win rate, Wilson interval (ties as half wins).
        ``score-diff``: mean per-game score difference team0 - team1, t interval.
        """
        if metric == "win-rate":
            if self.games == 0:
                return math.inf
            from analysis.stats import wilson_interval

            low, high = wilson_interval(self.win_share(0), self.games)
            return high - low
        if metric == "score-diff":
            n = self.games
            if n < 2:
                return math.inf
            from scipy.stats import t

            # Exact integer arithmetic until the final division: (n*sumsq - sum^2) / (n (n-1)).
            var = (n * self.diff_sumsq - self.diff_sum**2) / (n * (n - 1))
            return 2.0 * float(t.ppf(0.975, n - 1)) * math.sqrt(max(var, 0.0) / n)
        raise ValueError(f"unknown metric '{metric}' (known: {', '.join(METRICS)})")


def _order_stat(cum: np.ndarray, k: int) -> int:
    """The k-th smallest value (0-based) of the sample whose histogram has cumsum ``cum``."""
    return int(np.searchsorted(cum, k, side="right"))


def _hist_percentile(hist: list[int], q_percent: float) -> float:
    n = int(sum(hist))
    if n == 0:
        return math.nan
    cum = np.cumsum(np.asarray(hist, dtype=np.int64))
    quantile = np.true_divide(q_percent, 100)
    virtual = np.float64(n - 1) * quantile
    if virtual >= n - 1:
        return float(_order_stat(cum, n - 1))
    if virtual < 0:
        return float(_order_stat(cum, 0))
    previous = np.floor(virtual)
    gamma = virtual - previous
    a = np.float64(_order_stat(cum, int(previous)))
    b = np.float64(_order_stat(cum, int(previous) + 1))
    diff = b - a
    if gamma >= 0.5:
        return float(b - diff * (1 - gamma))
    return float(a + diff * gamma)


def aggregate_columns(cols: Mapping[str, np.ndarray], deals_per_game: int,
                      teams: int) -> Aggregate:
    """Reduce flat per-deal columns (``score_0``, ``turns`` ...) holding whole games in order.

    Works on the Parquet chunk columns and on ``sim.core.records.flatten`` output alike; only the
    columns the summary needs are read.
    """
    n = len(cols["turns"])
    games = n // deals_per_game
    whole = games * deals_per_game
    scores = np.stack([np.asarray(cols[f"score_{t}"], dtype=np.int64) for t in range(teams)],
                      axis=1)
    totals = scores[:whole].reshape(games, deals_per_game, teams).sum(axis=1)
    if games:
        best = totals.max(axis=1, keepdims=True)
        is_best = totals == best
        n_best = is_best.sum(axis=1, keepdims=True)
        credit = np.where(is_best, CREDIT_UNITS // n_best, 0)
        ties = int((n_best[:, 0] > 1).sum())
    else:
        credit = np.zeros((0, teams), dtype=np.int64)
        ties = 0
    diff = totals[:, 0] - totals[:, 1] if teams >= 2 else totals[:, 0]
    turns = np.asarray(cols["turns"], dtype=np.int64)
    if n and turns.min() < 0:
        raise ValueError("negative turn count in records")
    reasons = np.asarray(cols["end_reason"], dtype=np.int64)
    reason_values, reason_counts = np.unique(reasons, return_counts=True)

    def team_sums(name: str, square: bool = False) -> list[int]:
        out = []
        for t in range(teams):
            col = np.asarray(cols[f"{name}_{t}"], dtype=np.int64)
            out.append(int((col * col).sum() if square else col.sum()))
        return out

    return Aggregate(
        teams=teams,
        games=games,
        deals=n,
        win_credit=[int(x) for x in credit.sum(axis=0)],
        ties=ties,
        score_sum=team_sums("score"),
        score_sumsq=team_sums("score", square=True),
        diff_sum=int(diff.sum()),
        diff_sumsq=int((diff * diff).sum()),
        books_clean=team_sums("books_clean"),
        books_dirty=team_sums("books_dirty"),
        books_wild=team_sums("books_wild"),
        turns=[int(x) for x in np.bincount(turns)] if n else [],
        end_reasons={int(v): int(c) for v, c in zip(reason_values, reason_counts, strict=True)},
        truncated=int(np.asarray(cols["truncated"]).astype(bool).sum()),
    )


def aggregate_records(records: np.ndarray, deals_per_game: int) -> Aggregate:
    """``aggregate_columns`` for a structured record array (``sim.core.records.record_dtype``)."""
    from sim.core.records import flatten

    teams = records["score"].shape[1]
    return aggregate_columns(flatten(records), deals_per_game, teams)


def merge_all(aggregates: Iterable[Aggregate], teams: int) -> Aggregate:
    total = Aggregate(teams=teams)
    for agg in aggregates:
        total = total.merge(agg)
    return total
