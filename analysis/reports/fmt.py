"""How numbers are shown, and views that turn a data table into text, Markdown or a page table.

A ``View`` names, for each displayed column, the data-table columns it shows and how, so the
terminal, summary.md and index.html print the same numbers from the same rows, and a test can
check each displayed number against the CSV it came from (the report manifest records the
views). A page shows a view's ``Table`` (its headers and cells) through its template's table
macro (analysis/reports/templates/macros.html.j2).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import polars as pl


def cap(text: str) -> str:
    """``text`` with its first letter capitalised (the rest as it is)."""
    return text[:1].upper() + text[1:]


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage (n/a for a missing number)."""
    return "n/a" if x is None or math.isnan(x) else f"{100 * x:.{digits}f}%"


def pts(x: float, digits: int = 1, signed: bool = False) -> str:
    """Points with thousands separators, signed for differences."""
    if x is None or math.isnan(x):
        return "n/a"
    return f"{x:+,.{digits}f}" if signed else f"{x:,.{digits}f}"


def pval(p: float) -> str:
    """A p-value to the digits that matter (below what a double resolves: <1e-300)."""
    if p is None or math.isnan(p):
        return "n/a"
    if p < 1e-300:  # below what a double resolves: scipy returns 0
        return "<1e-300"
    return f"{p:.2g}" if p < 0.001 else f"{p:.3f}"


_FORMATS: dict[str, Callable[..., str]] = {
    "text": lambda v: str(v),
    "int": lambda v: f"{int(v):,}",
    "pct": lambda v: pct(v),
    "pct_range": lambda lo, hi: f"{pct(lo)} to {pct(hi)}",
    "pts": lambda v: pts(v, signed=True),
    "pts_range": lambda lo, hi: f"{pts(lo, signed=True)} to {pts(hi, signed=True)}",
    "num": lambda v: pts(v),
    "num2": lambda v: pts(v, 2),
    "num_ci": lambda v, lo, hi: f"{pts(v)} ({pts(lo)} to {pts(hi)})",
    "num2_ci": lambda v, lo, hi: f"{pts(v, 2)} ({pts(lo, 2)} to {pts(hi, 2)})",
    "pts_ci": lambda v, lo, hi: f"{pts(v, signed=True)} ({pts(lo, signed=True)} to "
                                f"{pts(hi, signed=True)})",
    "int_ci": lambda v, lo, hi: f"{pts(v, 0)} ({pts(lo, 0)} to {pts(hi, 0)})",
    "pct_ci": lambda v, lo, hi: f"{pct(v)} ({pct(lo)} to {pct(hi)})",
    "p": lambda v: pval(v),
}


@dataclass(frozen=True)
class Column:
    header: str
    sources: tuple[str, ...]  # data-table columns shown, in order
    kind: str  # a key of _FORMATS

    def cell(self, row: dict) -> str:
        return _FORMATS[self.kind](*(row[s] for s in self.sources))


LONG_ROWS = 12  # a page folds a table longer than this (a <details> box)


@dataclass(frozen=True)
class Table:
    """A table as a page shows it: the headers, the rows of displayed cells, and which
    columns hold words (they may wrap) rather than numbers."""

    headers: list[str]
    rows: list[list[str]]
    words: list[bool]

    @property
    def long(self) -> bool:
        """Long enough for the page to fold it."""
        return len(self.rows) > LONG_ROWS


@dataclass(frozen=True)
class View:
    """Some columns of a data table (the CSV ``csv``) as a displayed table."""

    csv: str
    columns: tuple[Column, ...]

    def rows(self, table: pl.DataFrame) -> list[list[str]]:
        return [[c.cell(row) for c in self.columns] for row in table.iter_rows(named=True)]

    def headers(self) -> list[str]:
        return [c.header for c in self.columns]

    def markdown(self, table: pl.DataFrame) -> str:
        lines = ["| " + " | ".join(self.headers()) + " |",
                 "|" + "|".join("---" for _ in self.columns) + "|"]
        lines += ["| " + " | ".join(cells) + " |" for cells in self.rows(table)]
        return "\n".join(lines)

    def table(self, table: pl.DataFrame) -> Table:
        """The cells a page shows, its text columns marked (they may wrap)."""
        return Table(self.headers(), self.rows(table), [c.kind == "text" for c in self.columns])

    def text(self, table: pl.DataFrame) -> str:
        rows = [self.headers()] + self.rows(table)
        widths = [max(len(r[i]) for r in rows) for i in range(len(self.columns))]
        return "\n".join("  ".join(cell.rjust(w) if i else cell.ljust(w)
                                   for i, (cell, w) in enumerate(zip(r, widths, strict=True)))
                         for r in rows)

    def to_dict(self) -> dict:
        return {"csv": self.csv, "columns": [{"header": c.header, "sources": list(c.sources),
                                              "format": c.kind} for c in self.columns]}


def col(header: str, kind: str, *sources: str) -> Column:
    """A displayed column: its header, its format (a key of ``_FORMATS``), its sources."""
    return Column(header, tuple(sources), kind)


def results_view(correct: bool, first: Sequence[Column] = (), ranks: bool = False) -> View:
    """The key table of every comparison report. ``ranks`` adds the even share and A's mean
    rank, for comparisons with more than two partnerships (or players); there "B" is the
    mean of the partnerships A did not play."""
    cols = [*first, col("A", "text", "a"), col("B", "text", "b"),
            col("shuffles (each seating)", "int", "games"), col("A wins", "pct", "win_rate"),
            col("95% CI (wins)", "pct_range", "win_low", "win_high")]
    if ranks:
        cols += [col("even", "pct", "even"),
                 col("A's mean rank (95% CI)", "num2_ci", "rank", "rank_low", "rank_high")]
    cols += [col("A - B per deal", "pts", "diff_deal"),
             col("95% CI (points)", "pts_range", "diff_deal_low", "diff_deal_high"),
             col("A - B per game (95% CI)", "pts_ci", "diff_game", "diff_game_low",
                 "diff_game_high"),
             col("p", "p", "p_value")]
    if correct:
        cols.append(col("p (Holm)", "p", "p_holm"))
    return View("results.csv", tuple(cols))


def many_seats(results: pl.DataFrame) -> bool:
    """Whether any comparison in ``results`` has more than two seatings."""
    return "teams" in results.columns and bool((results["teams"] > 2).any())


def _ci(header: str, kind: str, stem: str) -> Column:
    return col(header, kind, stem, f"{stem}_low", f"{stem}_high")


def sides_view() -> View:
    """Each strategy's partnership: points and books per deal, opening and the Foot."""
    return View("sides.csv", (
        col("rules", "text", "group"), col("strategy", "text", "side"),
        col("role", "text", "role"), _ci("points per deal", "num_ci", "score_deal"),
        _ci("clean books per deal", "num2_ci", "books_clean"),
        _ci("dirty books per deal", "num2_ci", "books_dirty"),
        _ci("wild books per deal", "num2_ci", "books_wild"),
        _ci("deals opened", "pct_ci", "open_share"),
        _ci("median opening turn", "int_ci", "open_median"),
        _ci("player-deals on the Foot", "pct_ci", "foot_share"),
        _ci("median turn on the Foot", "int_ci", "foot_median")))


def deals_view() -> View:
    """How the deals of each comparison went, both strategies together."""
    return View("deals.csv", (
        col("rules", "text", "group"), col("comparison", "text", "key"),
        col("deals", "int", "deals"), _ci("turns per deal", "num_ci", "turns_mean"),
        _ci("median turns", "int_ci", "turns_median"),
        _ci("5th percentile", "int_ci", "turns_p05"),
        _ci("95th percentile", "int_ci", "turns_p95"),
        _ci("ended by going out", "pct_ci", "share_out"),
        _ci("ended by the stock", "pct_ci", "share_stock"),
        _ci("points per partnership per deal", "num_ci", "score_deal"),
        _ci("winner's margin per game", "num_ci", "margin"),
        _ci("median margin", "int_ci", "margin_median")))
