"""What a report shows: its answer, tables, sections, figures and method, as a builder of its
kind returns them (analysis.reports.kinds names the builders).

A builder returns only what its kind says; what every comparison report shows the same way
(the results, sides and deals tables, the sections of the last two, the common figures, the
paired design's method and the how-they-play panel) is added once by the report machinery
(analysis.reports.build and analysis.reports.writer) from ``Content.comparisons``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import polars as pl

from analysis.experiments.pairings import PairRuns
from analysis.reports.fmt import View
from analysis.reports.tables import Analysed, analyse, deals_table, results_table, sides_table

PAIRED_METHOD = [
    "Paired design: every shuffle (game index) is played once per seating of A: with two "
    "partnerships once with A as partnership 0 and once as partnership 1; with T partnerships, "
    "or T players in individual play, T times, A in partnership (seat) r and B in every other "
    "one. One run folder per seating, same rules and seed, so A meets every seat and every "
    "deal.",
    "A's win rate counts every game, a tie for first among k as 1/k of a win (R-X7); even "
    "play is 1/T. Its 95% interval is Wilson's at the effective number of games implied by "
    "the spread of A's per-shuffle win share (the T plays of one shuffle are not independent: "
    "the cards favour the same seats in each).",
    "The score margin of game g is d_g = the mean over seatings of (A - the mean of B's "
    "partnerships); its mean, standard error and 95% t-interval come from the N values d_g, "
    "and the p-value from a one-sample t-test of d_g against 0 (scipy). Per deal = per game / "
    "deals per game. With more than two seatings A's mean rank (1 = first, ties share the "
    "mean rank; (T + 1) / 2 is even) gets a t-interval from the per-shuffle mean ranks.",
    "Other means per deal (turns, endings, points, books) are averaged over the seatings of "
    "each shuffle first, so their intervals are clustered by shuffle; medians and percentiles "
    "carry order-statistic (binomial) intervals that treat deals as independent.",
]


class ReportError(ValueError):
    """A report that cannot be built or rebuilt as asked."""


@dataclass(frozen=True)
class Figure:
    """A PNG drawn into the report folder, with what it shows in words."""

    file: str
    title: str
    caption: str


@dataclass(frozen=True)
class Section:
    """A displayed table: ``view`` shows some columns of the CSV ``view.csv``."""

    title: str
    view: View
    note: str = ""
    in_summary: bool = True


@dataclass
class Comparisons:
    """A report's paired comparisons read from their runs: every pairing analysed and the
    results table (one row per comparison; Holm-corrected across the rows when ``holm``).

    A builder reads them once, shows what its kind needs from them, and hands them on in
    ``Content.comparisons`` for the parts every comparison report shows the same way."""

    items: list[Analysed]
    results: pl.DataFrame

    @classmethod
    def read(cls, pairs: Sequence[PairRuns], holm: bool) -> Comparisons:
        items = analyse(pairs)
        return cls(items, results_table(items, correct=holm))

    @cached_property
    def sides(self) -> pl.DataFrame:
        return sides_table(self.items)

    @cached_property
    def deals(self) -> pl.DataFrame:
        return deals_table(self.items)


@dataclass
class Content:
    """Everything a report shows, built from its runs by the builder of its kind.

    ``method`` is the kind's own method, stated after the paired design's; ``method_before``
    what must come before it (tune: the search whose winner the paired design measures).
    ``kind``, ``params`` and ``pairs`` are filled in by analysis.reports.build."""

    title: str
    question: str
    answer: list[str]
    sections: list[Section]
    tables: dict[str, pl.DataFrame] = field(default_factory=dict)  # CSV file name -> data
    figures: list[Figure] = field(default_factory=list)
    method: list[str] = field(default_factory=list)
    method_before: list[str] = field(default_factory=list)
    comparisons: Comparisons | None = None
    kind: str = ""
    params: dict = field(default_factory=dict)
    pairs: list[PairRuns] = field(default_factory=list)
    extra_runs: list[Path] = field(default_factory=list)
    console: list[str] = field(default_factory=list)  # a kind's own short print, if it has one

    def terminal(self) -> str:
        """What the command prints: the kind's own console lines where it has them (a guide:
        the answer and the key table do not fit a terminal), else the answer and the key
        table."""
        if self.console:
            return "\n".join([self.title, "", *self.console])
        key = self.sections[0]
        lines = [self.title, "", *self.answer, "", key.view.text(self.tables[key.view.csv])]
        return "\n".join(lines)


Builder = Callable[[list[PairRuns], dict, Path | None], Content]
