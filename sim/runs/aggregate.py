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
from dataclasses import dataclass, field, fields

import numpy as np

from sim.core.records import aggregated_team_fields

# Win credit is counted in 60ths: 60 = lcm(1..6), so a k-way tie's share 1/k (R-X7) is a whole
# number for every partnership count up to MAX_TEAMS and merged credit stays exact.
CREDIT_UNITS = 60

METRICS = ("win-rate", "score-diff")

# Per-team sums the aggregate keeps, from the record schema (sim.core.records): one list per
# field, summed over deals, and the sums of squares where a spread is needed.
SUM_FIELDS = aggregated_team_fields("sum")
SUMSQ_FIELDS = aggregated_team_fields("sumsq")


def _count(kind: str):
    """A field of ``Aggregate``: ``int`` (a count), ``team`` (one int per partnership),
    ``hist`` (deal-length histogram) or ``reasons`` (deals per end reason)."""
    defaults = {"int": lambda: 0, "team": list, "hist": list, "reasons": dict}
    return field(default_factory=defaults[kind], metadata={"kind": kind})


@dataclass
class Aggregate:
    """Counts and sums over whole games; ``merge`` adds two of them.

    Every field says how it merges (``_count``), so merging, the JSON form and the reduction of
    records all follow from this one declaration."""

    teams: int
    games: int = _count("int")
    deals: int = _count("int")
    win_credit: list[int] = _count("team")  # per team, in 1/CREDIT_UNITS games
    ties: int = _count("int")  # games whose best total is shared
    score_sum: list[int] = _count("team")  # per team, over deals
    score_sumsq: list[int] = _count("team")
    diff_sum: int = _count("int")  # per game: total of partnership 0 minus total of partnership 1
    diff_sumsq: int = _count("int")
    books_clean: list[int] = _count("team")  # per team, over deals
    books_dirty: list[int] = _count("team")
    books_wild: list[int] = _count("team")
    pickups: list[int] = _count("team")  # discard-pile pick-ups, per team over deals
    turns: list[int] = _count("hist")  # turns[t] = deals that lasted t turns
    end_reasons: dict[int, int] = _count("reasons")  # Ending code -> deals
    truncated: int = _count("int")

    def __post_init__(self) -> None:
        for f in _fields("team"):
            if not getattr(self, f.name):
                setattr(self, f.name, [0] * self.teams)

    def merge(self, other: Aggregate) -> Aggregate:
        """The aggregate of both sets of games (neither input changes)."""
        if other.teams != self.teams:
            raise ValueError(f"cannot merge {self.teams} and {other.teams} partnerships")
        out = Aggregate(teams=self.teams)
        for f in fields(self):
            kind = f.metadata.get("kind")
            a, b = getattr(self, f.name), getattr(other, f.name)
            if kind == "int":
                value = a + b
            elif kind == "team":
                value = [x + y for x, y in zip(a, b, strict=True)]
            elif kind == "hist":
                value = [0] * max(len(a), len(b))
                for hist in (a, b):
                    for t, count in enumerate(hist):
                        value[t] += count
            elif kind == "reasons":
                value = dict(a)
                for reason, count in b.items():
                    value[reason] = value.get(reason, 0) + count
            else:
                continue
            setattr(out, f.name, value)
        return out

    # --- JSON form (the run manifest keeps one per chunk) ------------------------------------

    def to_dict(self) -> dict:
        """Plain ints only; the turn histogram is stored from its first non-zero entry."""
        out: dict = {"teams": self.teams, "credit_units": CREDIT_UNITS}
        for f in fields(self):
            kind = f.metadata.get("kind")
            value = getattr(self, f.name)
            if kind == "hist":
                first = next((t for t, c in enumerate(value) if c), len(value))
                last = max((t for t, c in enumerate(value) if c), default=first - 1)
                out[f.name] = {"first": first, "counts": value[first : last + 1]}
            elif kind == "reasons":
                out[f.name] = {str(k): v for k, v in sorted(value.items())}
            elif kind:
                out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, d: Mapping) -> Aggregate:
        if d.get("credit_units", CREDIT_UNITS) != CREDIT_UNITS:
            raise ValueError(f"win credit in units of 1/{d['credit_units']}, expected "
                             f"1/{CREDIT_UNITS}")
        out = cls(teams=int(d["teams"]))
        for f in fields(cls):
            kind = f.metadata.get("kind")
            value = d[f.name] if kind else None
            if kind == "int":
                setattr(out, f.name, int(value))
            elif kind == "team":
                setattr(out, f.name, [int(x) for x in value])
            elif kind == "hist":
                setattr(out, f.name, [0] * int(value["first"])
                        + [int(x) for x in value["counts"]])
            elif kind == "reasons":
                setattr(out, f.name, {int(k): int(v) for k, v in value.items()})
        return out

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
            from statsmodels.stats.proportion import proportion_confint

            low, high = proportion_confint(self.win_share(0), self.games, alpha=0.05,
                                           method="wilson")
            return float(high - low)
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

    sums = {f"{name}_sum" if name in SUMSQ_FIELDS else name: team_sums(name)
            for name in SUM_FIELDS}
    sums.update({f"{name}_sumsq": team_sums(name, square=True) for name in SUMSQ_FIELDS})
    return Aggregate(
        teams=teams,
        games=games,
        deals=n,
        win_credit=[int(x) for x in credit.sum(axis=0)],
        ties=ties,
        diff_sum=int(diff.sum()),
        diff_sumsq=int((diff * diff).sum()),
        turns=[int(x) for x in np.bincount(turns)] if n else [],
        end_reasons={int(v): int(c) for v, c in zip(reason_values, reason_counts, strict=True)},
        truncated=int(np.asarray(cols["truncated"]).astype(bool).sum()),
        **sums,
    )


def aggregate_records(records: np.ndarray, deals_per_game: int) -> Aggregate:
    """``aggregate_columns`` for a structured record array (``sim.core.records.record_dtype``)."""
    from sim.core.records import flatten

    teams = records["score"].shape[1]
    return aggregate_columns(flatten(records), deals_per_game, teams)


def _fields(kind: str) -> list:
    return [f for f in fields(Aggregate) if f.metadata.get("kind") == kind]


# The record schema decides which team sums exist; Aggregate names one field for each.
assert {f.name for f in _fields("team")} - {"win_credit"} == (
    {f"{n}_sum" if n in SUMSQ_FIELDS else n for n in SUM_FIELDS}
    | {f"{n}_sumsq" for n in SUMSQ_FIELDS}), "Aggregate's team sums differ from RECORD_FIELDS"


def merge_all(aggregates: Iterable[Aggregate], teams: int) -> Aggregate:
    total = Aggregate(teams=teams)
    for agg in aggregates:
        total = total.merge(agg)
    return total
