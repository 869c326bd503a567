"""The figures every comparison report carries, with captions that say what is drawn."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from analysis.reports import plots
from analysis.reports.content import Figure
from analysis.reports.describe import Description
from analysis.reports.tables import Analysed


def common(items: Sequence[Analysed], results: pl.DataFrame, out: Path | None) -> list[Figure]:
    """Forest plot, score distributions, deal lengths, opening and Foot turns."""
    if out is None:
        return []
    d = Description.concat([item.description for item in items])
    games = min(item.result.games for item in items)
    return [
        Figure(plots.forest(results, out), "Win rates and score differences",
               "A's game win rate (a tie for first among k counts 1/k) with its 95% Wilson "
               "interval at the effective number of games, and the mean score difference "
               "A - B (B: the mean of the partnerships A did not play) per deal with its 95% "
               f"t-interval, for each comparison; each played {games:,} or more shuffles in "
               "every seating of A. Dashed lines: even play."),
        Figure(plots.scores(d.scores, out), "Score distributions",
               "Share of deals in which a strategy's partnership scored each amount (bins of "
               "100 points), over every deal it played in every seating."),
        Figure(plots.deal_lengths(d.turns, out), "Deal length",
               "Turns per deal: histogram and empirical cumulative distribution, all deals "
               "of each rule set."),
        Figure(plots.milestones(d.milestones, out), "Opening and reaching the Foot",
               "Share of deals in which a strategy's partnership has opened (left) and of "
               "player-deals in which the player has picked up the Foot (right) by each turn; "
               "the curves stop at the share that ever did."),
    ]
