"""``handfoot rules-compare``: how rule sets change the game, and how much skill they reward.

For each rule set the same two strategies (tactician and greedy by default) play the paired
design, and the table puts side by side how long deals last, how they end, points and books
per deal, the winner's margin, and how often the stronger strategy wins: a rule set that
rewards skill lets the stronger strategy win more often.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl

from analysis.experiments.pairings import (
    Pairing,
    PairRuns,
    PlayError,
    Side,
    label_of,
    rules_and_profile,
    slug,
)
from analysis.reports import plots
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import View, col, many_seats, pct, pts, results_view

# (column, title, scale, reference or None: drawn as points around it instead of bars; "even"
# is each rule set's even share of wins, 1 / seatings)
PANELS = (("turns_mean", "turns per deal", 1.0, None),
          ("share_out", "deals ended by going out, %", 100.0, None),
          ("score_deal", "points per partnership per deal", 1.0, None),
          ("books_clean", "clean books per partnership per deal", 1.0, None),
          ("books_dirty", "dirty books per partnership per deal", 1.0, None),
          ("books_wild", "wild books per partnership per deal", 1.0, None),
          ("margin", "winner's margin per game, points", 1.0, None),
          ("win_rate", "stronger strategy's game win rate, %", 100.0, "even"),
          ("diff_deal", "stronger - weaker, points per deal", 1.0, 0.0))


def keys(profiles: Sequence[str]) -> list[str]:
    """Each rule set's pairing key; a PlayError, before anything is built or played, for rules
    given twice."""
    out: list[str] = []
    for spec in profiles:
        key = slug(label_of(spec))
        if key in out:
            raise PlayError(f"rules '{spec}' are given twice")
        out.append(key)
    return out


def plan(profiles: Sequence[str], strong: Mapping[str, Side], weak: Side) -> list[Pairing]:
    """One pairing per rule set, its stronger strategy (``strong[spec]``) as A."""
    out = []
    for spec, key in zip(profiles, keys(profiles), strict=True):
        _, profile = rules_and_profile(spec)
        out.append(Pairing(key=key, a=strong[spec], b=weak, rules=spec, group=profile))
    return out


def variants_table(results: pl.DataFrame, deals: pl.DataFrame, pairs: Sequence[PairRuns]
                   ) -> pl.DataFrame:
    """One row per rule set: its deals, with the stronger strategy's results beside them."""
    ids = pl.DataFrame({"key": [p.pairing.key for p in pairs],
                        "rules_id": [rules_and_profile(p.pairing.rules)[0].rules_id
                                     for p in pairs]})
    keep = ["key", "a", "b", "games", "teams", "even", "win_rate",
            pl.col("win_low").alias("win_rate_low"),
            pl.col("win_high").alias("win_rate_high"), "diff_deal", "diff_deal_low",
            "diff_deal_high", "p_value", "p_holm"]
    return deals.join(ids, on="key").join(results.select(keep), on="key")


def view() -> View:
    """The rule sets side by side."""

    def ci(header: str, kind: str, stem: str):
        return col(header, kind, stem, f"{stem}_low", f"{stem}_high")

    return View("variants.csv", (
        col("rules", "text", "group"), col("rules id", "text", "rules_id"),
        col("deals", "int", "deals"), ci("turns per deal", "num_ci", "turns_mean"),
        ci("median turns", "int_ci", "turns_median"),
        ci("ended by going out", "pct_ci", "share_out"),
        ci("ended by the stock", "pct_ci", "share_stock"),
        ci("points per partnership per deal", "num_ci", "score_deal"),
        ci("clean books", "num2_ci", "books_clean"), ci("dirty books", "num2_ci", "books_dirty"),
        ci("wild books", "num2_ci", "books_wild"),
        ci("winner's margin per game", "num_ci", "margin"),
        col("stronger", "text", "a"), ci("stronger wins", "pct_ci", "win_rate"),
        col("even", "pct", "even"),
        ci("stronger - weaker per deal", "pts_ci", "diff_deal")))


def answer(table: pl.DataFrame) -> list[str]:
    """Where skill matters most: ranked by the stronger strategy's win rate over even play
    (1/2 with two partnerships, 1/T with T partnerships or players), so rule sets of
    different shapes are compared fairly."""
    rows = list(table.iter_rows(named=True))
    a, b = rows[0]["a"], rows[0]["b"]
    shapes = len({r["teams"] for r in rows}) > 1

    def over(r: dict) -> str:
        return f", {pct(r['even'])} even" if shapes else ""

    lines = []
    ranked = sorted(rows, key=lambda r: r["win_rate"] - r["even"], reverse=True)
    top, bottom = ranked[0], ranked[-1]
    if len(rows) > 1:
        apart = top["win_rate_low"] - top["even"] > bottom["win_rate_high"] - bottom["even"]
        lines.append(
            f"Skill matters most under {top['group']}, where {a} beats {b} in "
            f"{pct(top['win_rate'])} of games (95% CI {pct(top['win_rate_low'])} to "
            f"{pct(top['win_rate_high'])}{over(top)}), and least under {bottom['group']} "
            f"({pct(bottom['win_rate'])}, {pct(bottom['win_rate_low'])} to "
            f"{pct(bottom['win_rate_high'])}{over(bottom)})"
            + (" (ranked by the win rate over even play)" if shapes else "")
            + ("." if apart else "; the two intervals overlap, so that ranking is not "
               "certain."))
    for r in rows:
        lines.append(
            f"{r['group']}: deals last {pts(r['turns_mean'])} turns on average (95% CI "
            f"{pts(r['turns_mean_low'])} to {pts(r['turns_mean_high'])}); "
            f"{pct(r['share_out'])} end by going out ({pct(r['share_out_low'])} to "
            f"{pct(r['share_out_high'])}) and {pct(r['share_stock'])} by the stock "
            f"({pct(r['share_stock_low'])} to {pct(r['share_stock_high'])}); a "
            f"partnership scores {pts(r['score_deal'])} points per deal "
            f"({pts(r['score_deal_low'])} to {pts(r['score_deal_high'])}); the winner's margin "
            f"is {pts(r['margin'])} points per game ({pts(r['margin_low'])} to "
            f"{pts(r['margin_high'])}); {a} wins {pct(r['win_rate'])} against {b} "
            f"({pct(r['win_rate_low'])} to {pct(r['win_rate_high'])}; {pct(r['even'])} is "
            "even).")
    return lines


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """The rule sets side by side, and the stronger strategy's results under each."""
    c = Comparisons.read(pairs, holm=len(pairs) > 1)
    results = c.results
    table = variants_table(results if "p_holm" in results.columns else
                           results.with_columns(pl.col("p_value").alias("p_holm")),
                           c.deals, pairs)
    figs = []
    if out is not None:
        figs.append(Figure(plots.variants(table, PANELS, out), "The rule sets side by side",
                           "Each bar is a rule set; error bars are 95% intervals (Wilson at "
                           "the effective number of games for the win rate, t-intervals "
                           "clustered by shuffle for the means); the win rate's dashed marks "
                           "are each rule set's even share."))
    strong = list(dict.fromkeys(p.pairing.a.label for p in pairs))
    a = " / ".join(strong) if len(strong) > 1 else strong[0]
    b = pairs[0].pairing.b.label
    return Content(
        title="Rule sets compared: " + ", ".join(p.pairing.group for p in pairs),
        question=(f"How do these rule sets change deal length, endings, scores and books, and "
                  f"how much skill do they reward ({a} against {b})?"),
        answer=answer(table),
        tables={"variants.csv": table},
        sections=[Section("The rule sets side by side", view()),
                  Section(f"{a} against {b} under each rule set",
                          results_view("p_holm" in results.columns,
                                       ranks=many_seats(results)))],
        figures=figs,
        method=["Under each rule set the two strategies play the paired design on the same "
                "seed; the stronger strategy's win rate measures how much the rules reward "
                "skill.",
                "The stronger strategy: " + ("; ".join(
                    f"{p.pairing.a.label} under {p.pairing.group}" for p in pairs)) + (
                    " (by default each rule set's strongest fast player measured: "
                    "strategies/ladder.toml, or for a rule file the stronger of the two players "
                    "built for it)."
                    if params.get("strong", "").startswith("the strongest") else ".")],
        comparisons=c)
