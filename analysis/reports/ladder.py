"""``handfoot ladder``: every pair of strategies played paired, one rating each.

Head-to-head win rates do not line up on their own; one Bradley-Terry rating per strategy
(analysis.statistics.ratings, Elo scale), fitted to every pair at once, puts the ladder on one
scale. Each pair is an ordinary paired comparison (analysis.statistics.paired: every shuffle
played once per seating of A). A game is read as A's comparisons with each partnership it did
not play: with two partnerships that is the game's result, with T partnerships (or T players) it
is T - 1 pairwise results (who scored more), the usual way of breaking a ranking into pairs.

Those comparisons are not independent: the seatings of one shuffle share their cards, and the T
- 1 comparisons of one game share A's score. The counts of each pair are therefore weighted by
its design effect before the fit, the ratio of the binomial variance of A's pairwise score to
the variance measured between shuffles (the same correction as the win rate's interval,
analysis.statistics.intervals.clustered_wilson), so the ratings' intervals are as wide as the
shuffles make them. A pair whose shuffles show no spread (identical play, or one side winning
everything) keeps its raw counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analysis.experiments.pairings import Pairing, PairRuns, PlayError, rules_and_profile, side
from analysis.reports import plots
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import View, col, many_seats, pts, results_view
from analysis.reports.tables import Analysed
from analysis.statistics.paired import seatings_of
from analysis.statistics.ratings import Ladder, Matchup, fit_ratings

DEFAULT = ("random", "greedy", "tactician", "cautious", "tuned")


def name_of(text: str) -> str:
    """The name a strategy (a name or a TOML file) goes by on the ladder and in its runs'
    folder names."""
    return re.sub(r"[^A-Za-z0-9_-]+", "-", Path(text).stem if text.endswith(".toml")
                  else text).strip("-")


def plan(strategies: Sequence[str], rules_spec: str, folder: Path,
         allow_oracle: bool = False) -> list[Pairing]:
    """One pairing for every pair of strategies (the earlier-named one is A)."""
    if len(strategies) < 2:
        raise PlayError("a ladder needs at least two strategies")
    names = [name_of(s) for s in strategies]
    if len(set(names)) != len(names):
        raise PlayError(f"strategies {', '.join(strategies)}: a strategy is named twice")
    rules, profile = rules_and_profile(rules_spec)
    sides = [side(s, folder, label=n, rules=rules, allow_oracle=allow_oracle)
             for s, n in zip(strategies, names, strict=True)]
    return [Pairing(key=f"{names[i]}--{names[j]}", a=sides[i], b=sides[j], rules=rules_spec,
                    group=profile, value=f"{names[i]} v {names[j]}")
            for i in range(len(sides)) for j in range(i + 1, len(sides))]


def matchup(item: Analysed) -> tuple[Matchup, float]:
    """A pair's pairwise counts, weighted by its design effect (and that weight)."""
    d = item.diffs
    seats = seatings_of(d)
    win = sum(d[f"pw_win_{i + 1}"].to_numpy() for i in range(seats)).astype(np.float64)
    loss = sum(d[f"pw_loss_{i + 1}"].to_numpy() for i in range(seats)).astype(np.float64)
    tie = sum(d[f"pw_tie_{i + 1}"].to_numpy() for i in range(seats)).astype(np.float64)
    per = seats * (seats - 1)  # comparisons per shuffle
    q = (win + tie / 2) / per
    mean = float(q.mean())
    var = float(q.var(ddof=1)) if len(q) > 1 and not np.all(q == q[0]) else 0.0
    weight = 1.0
    if var > 0 and 0 < mean < 1:
        weight = (mean * (1 - mean) / (len(q) * per)) / (var / len(q))
    p = item.pair.pairing
    return (p.a.label, p.b.label, float(win.sum()) * weight, float(loss.sum()) * weight,
            float(tie.sum()) * weight), weight


def fit(items: Sequence[Analysed], anchor: str | None) -> tuple[Ladder, list[float]]:
    """The ratings fitted to every pair at once, and each pair's design-effect weight."""
    pairs = [matchup(item) for item in items]
    labels = {p.pair.pairing.a.label for p in items} | {p.pair.pairing.b.label for p in items}
    if anchor is not None and anchor not in labels:
        raise PlayError(f"--anchor {anchor} is not one of the strategies "
                        f"({', '.join(sorted(labels))})")
    return fit_ratings([m for m, _ in pairs], anchor=anchor), [w for _, w in pairs]


def ladder_table(ladder: Ladder) -> pl.DataFrame:
    """One row per strategy: its rating, standard error and 95% interval."""
    return pl.DataFrame([{k: row[k] for k in ("strategy", "rating", "se", "low", "high")}
                         for row in ladder.rows()])


def answer(ladder: Ladder, results: pl.DataFrame, params: dict) -> list[str]:
    """The ladder in words: every rating, each step between neighbours and how sure it is."""
    rows = ladder.rows()
    anchor = f"{ladder.anchor} = 0" if ladder.anchor else "the mean at 0"
    lines = [f"Ladder under {results['group'][0]} (Bradley-Terry ratings on the Elo scale, "
             f"{anchor}, 95% intervals): " + "; ".join(
                 f"{r['strategy']} {pts(r['rating'], 0, signed=True)} "
                 f"({pts(r['low'], 0, signed=True)} to {pts(r['high'], 0, signed=True)})"
                 for r in rows) + "."]
    steps = []
    for upper, lower in zip(rows, rows[1:], strict=False):
        d, lo, hi = ladder.difference(upper["strategy"], lower["strategy"])
        sure = "clearly" if lo > 0 else "not clearly"
        steps.append(f"{upper['strategy']} over {lower['strategy']}: {pts(d, 0, signed=True)} "
                     f"({pts(lo, 0, signed=True)} to {pts(hi, 0, signed=True)}), {sure} above")
    lines.append("Neighbours on the ladder: " + "; ".join(steps) + ".")
    games = results.select("a", "b", "games").iter_rows()
    counts = sorted({g for _, _, g in games})
    lines.append("Every pair played " + " or ".join(f"{c:,}" for c in counts)
                 + " shuffles in every seating"
                 + (f" ({params['games_note']})" if params.get("games_note") else "")
                 + "; the fit weights each pair's comparisons by its design effect, so "
                 "correlated games count for what they are worth.")
    if ladder.pseudo_wins:
        lines.append(f"Some strategy won (or lost) every comparison against the rest, so "
                     f"{ladder.pseudo_wins:g} pseudo-wins were added to each side of every pair "
                     "to keep its rating finite: its distance to the others is a lower bound.")
    return lines


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """One rating per strategy, fitted to every pair at once, and every pair's results."""
    c = Comparisons.read(pairs, holm=True)
    ladder, weights = fit(c.items, params.get("anchor"))
    c.results = results = c.results.with_columns(pl.Series("design_weight", weights))
    table = ladder_table(ladder)
    figs = []
    if out is not None:
        observed = np.where(ladder.games > 0, ladder.score / np.where(ladder.games > 0,
                                                                       ladder.games, 1), np.nan)
        figs.append(Figure(plots.ladder(ladder.rows(), out, ladder.anchor), "The ladder",
                           "Each strategy's Bradley-Terry rating (Elo scale) with its 95% "
                           "interval, fitted to every pair at once."))
        figs.append(Figure(plots.head_to_head(list(ladder.names), observed, out),
                           "Head to head",
                           "Observed share of pairwise comparisons (who scored more in a "
                           "game; ties half) the row strategy won against the column "
                           "strategy."))
    view = View("ladder.csv", (col("strategy", "text", "strategy"),
                               col("rating (95% CI)", "pts_ci", "rating", "low", "high")))
    return Content(
        title=f"Strategy ladder ({results['group'][0]})",
        question="How strong is each strategy, on one scale?",
        answer=answer(ladder, results, params),
        tables={"ladder.csv": table},
        sections=[Section("Ratings", view),
                  Section("Every pair", results_view(True, (col("pair", "text", "value"),),
                                                     ranks=many_seats(results)),
                          note="p (Holm): corrected for the number of pairs.")],
        figures=figs,
        method=[
            "Ratings: Bradley-Terry by maximum likelihood (analysis.statistics.ratings) on the "
            "Elo scale (400 points = 10 to 1 odds of scoring more in a game), intervals from "
            "the Fisher information; each pair's counts weighted by its design effect "
            "(analysis.reports.ladder).",
            "Holm's correction across the pairs for the p-values of the table."],
        comparisons=c)
