"""The data tables of a report, one row per comparison or per side, every estimate with its
interval: the numbers that summary.md, index.html and the terminal print are read from here.

Win rates get Wilson intervals at the effective number of games (clustered by shuffle); means
per deal get t-intervals from per-game values averaged over every seating of each shuffle
(analysis.statistics.paired), so they are clustered by shuffle too; medians and percentiles get
distribution-free order-statistic intervals, which treat the deals as independent. With more
than two partnerships "B" is every partnership A did not play, and B's numbers are per
partnership (the mean over them).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import polars as pl

from analysis.experiments.pairings import PairRuns
from analysis.reports.describe import Description
from analysis.statistics.intervals import (
    MeanEstimate,
    hist_quantile_interval,
    holm,
    mean_estimate,
    wilson_interval,
)
from analysis.statistics.paired import PairedResult, seatings_of


@dataclass
class Analysed:
    """A pairing with everything read from its runs (one per seating)."""

    pair: PairRuns
    result: PairedResult
    diffs: pl.DataFrame  # analysis.statistics.paired.differences
    description: Description
    # (rules id, seed) of its runs: two pairings with the same played the same shuffles, game
    # index by game index (a shuffle depends only on them), so their effects pair by shuffle
    shuffles: tuple[str, int] | None = None


def _est(prefix: str, est: MeanEstimate) -> dict:
    return {prefix: est.mean, f"{prefix}_se": est.se, f"{prefix}_low": est.low,
            f"{prefix}_high": est.high}


def _quantile(prefix: str, values: np.ndarray, counts: np.ndarray, q: float) -> dict:
    point, low, high = hist_quantile_interval(values, counts, q)
    return {prefix: point, f"{prefix}_low": low, f"{prefix}_high": high}


def _share(prefix: str, hits: int, n: int) -> dict:
    low, high = wilson_interval(hits, n) if n else (float("nan"), float("nan"))
    return {prefix: hits / n if n else float("nan"), f"{prefix}_low": low,
            f"{prefix}_high": high}


def per_deal(diffs: pl.DataFrame, stems: Sequence[str], deals_per_game: int) -> MeanEstimate:
    """Mean per deal of the per-game columns ``<stem>_1`` ... ``<stem>_T``, averaged over the
    seatings of each shuffle and over the stems."""
    seats = seatings_of(diffs)
    cols = [diffs[f"{s}_{o + 1}"].cast(pl.Float64).to_numpy() for s in stems
            for o in range(seats)]
    per_game = np.mean(np.stack(cols), axis=0)
    return mean_estimate(per_game).scaled(1.0 / deals_per_game)


def results_table(items: Sequence[Analysed], correct: bool) -> pl.DataFrame:
    """One row per comparison: A's win rate, A - B (the mean of B's partnerships) per game and
    per deal, A's mean rank, p (and Holm's adjusted p across the rows when ``correct``)."""
    rows = []
    for item in items:
        p = item.pair.pairing
        rows.append({"group": p.group, "value": p.value, "a": p.a.label, "b": p.b.label,
                     "key": p.key, **item.result.row()})
    table = pl.DataFrame(rows)
    if correct:
        table = table.with_columns(pl.Series("p_holm", holm(table["p_value"].to_list())))
    return table


def sides_table(items: Sequence[Analysed]) -> pl.DataFrame:
    """One row per strategy per comparison: its points and books per deal, how often and how
    early its partnership opens and its players reach the Foot."""
    rows = []
    for item in items:
        p, dpg, d = item.pair.pairing, item.result.deals_per_game, item.diffs
        miles = item.description.milestones
        for role, label in (("A", p.a.label), ("B", p.b.label)):
            x = role.lower()
            row = {"group": p.group, "key": p.key, "side": label, "role": role,
                   **_est("score_deal", per_deal(d, [f"{x}_total"], dpg))}
            for kind in ("clean", "dirty", "wild"):
                row.update(_est(f"books_{kind}", per_deal(d, [f"{x}_{kind}"], dpg)))
            for event in ("open", "foot"):
                h = miles.filter((pl.col("role") == role) & (pl.col("event") == event))
                reached = h.filter(pl.col("turn") >= 0)
                n, hits = int(h["count"].sum()), int(reached["count"].sum())
                row.update(_share(f"{event}_share", hits, n))
                row.update(_quantile(f"{event}_median", reached["turn"].to_numpy(),
                                     reached["count"].to_numpy(), 0.5))
            rows.append(row)
    return pl.DataFrame(rows)


def deals_table(items: Sequence[Analysed]) -> pl.DataFrame:
    """One row per comparison: how long deals last and how they end, points and books per
    partnership per deal, and the winner's margin per game (over the runner-up)."""
    rows = []
    for item in items:
        p, dpg, d = item.pair.pairing, item.result.deals_per_game, item.diffs
        turns = item.description.turns
        t, c = turns["turns"].to_numpy(), turns["count"].to_numpy()
        row = {"group": p.group, "key": p.key, "deals": int(c.sum()),
               **_est("turns_mean", per_deal(d, ["turns"], dpg))}
        for name, q in (("turns_median", 0.5), ("turns_p05", 0.05), ("turns_p95", 0.95)):
            row.update(_quantile(name, t, c, q))
        for name in ("out", "stock", "truncated"):
            row.update(_est(f"share_{name}", per_deal(d, [name], dpg)))
        row.update(_est("score_deal", per_deal(d, ["mean_total"], dpg)))
        for kind in ("clean", "dirty", "wild"):
            row.update(_est(f"books_{kind}", per_deal(d, [f"mean_{kind}"], dpg)))
        margins = np.stack([d[f"lead_{i + 1}"].to_numpy() for i in range(seatings_of(d))])
        row.update(_est("margin", mean_estimate(margins.mean(axis=0))))
        values, counts = np.unique(margins.ravel(), return_counts=True)
        row.update(_quantile("margin_median", values, counts, 0.5))
        rows.append(row)
    return pl.DataFrame(rows)


def analyse(pairs: Sequence[PairRuns]) -> list[Analysed]:
    """Read the runs of every pairing: paired statistics, per-shuffle table, histograms."""
    from analysis.reports.describe import describe_pair
    from analysis.statistics.paired import analyse_seatings

    out = []
    for pair in pairs:
        result, diffs = analyse_seatings(pair.runs)
        out.append(Analysed(pair, result, diffs, describe_pair(pair), _shuffles(pair)))
    return out


def _shuffles(pair: PairRuns) -> tuple[str, int]:
    """What a pairing's shuffles depend on: its rules and seed (its seatings share them)."""
    from sim.runs.storage import Run

    spec = Run.open(pair.runs[0]).spec
    return spec.rules.rules_id, spec.seed
