"""``handfoot ladder``: every pair of strategies played paired, one rating each.

Head-to-head win rates do not line up on their own; one Bradley-Terry rating per strategy
(analysis.ratings, Elo scale), fitted to every pair at once, puts the ladder on one scale.
Each pair is an ordinary paired comparison (analysis.paired: every shuffle played once per
seating of A). A game is read as A's comparisons with each partnership it did not play: with
two partnerships that is the game's result, with T partnerships (or T players) it is T - 1
pairwise results (who scored more), the usual way of breaking a ranking into pairs.

Those comparisons are not independent: the seatings of one shuffle share their cards, and the
T - 1 comparisons of one game share A's score. The counts of each pair are therefore weighted
by its design effect before the fit, the ratio of the binomial variance of A's pairwise score
to the variance measured between shuffles (the same correction as the win rate's interval,
analysis.stats.clustered_wilson), so the ratings' intervals are as wide as the shuffles make
them. A pair whose shuffles show no spread (identical play, or one side winning everything)
keeps its raw counts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analysis import figures, plots
from analysis.compare import METHOD
from analysis.fmt import View, col, deals_view, many_seats, pts, results_view, sides_view
from analysis.paired import seatings_of
from analysis.playing import Pairing, PairRuns, PlayError, rules_and_profile, side
from analysis.ratings import Ladder, Matchup, fit_ratings
from analysis.report import Content, Figure, Section
from analysis.tables import Analysed, analyse, deals_table, results_table, sides_table

DEFAULT = ("random", "greedy", "tactician", "cautious", "tuned")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]+", "-", Path(text).stem if text.endswith(".toml")
                  else text).strip("-")


def plan(strategies: Sequence[str], rules_spec: str, folder: Path,
         allow_oracle: bool = False) -> list[Pairing]:
    """One pairing for every pair of strategies (the earlier-named one is A)."""
    if len(strategies) < 2:
        raise PlayError("a ladder needs at least two strategies")
    names = [_slug(s) for s in strategies]
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
    pairs = [matchup(item) for item in items]
    labels = {p.pair.pairing.a.label for p in items} | {p.pair.pairing.b.label for p in items}
    if anchor is not None and anchor not in labels:
        raise PlayError(f"--anchor {anchor} is not one of the strategies "
                        f"({', '.join(sorted(labels))})")
    return fit_ratings([m for m, _ in pairs], anchor=anchor), [w for _, w in pairs]


def ladder_table(ladder: Ladder) -> pl.DataFrame:
    return pl.DataFrame([{k: row[k] for k in ("strategy", "rating", "se", "low", "high")}
                         for row in ladder.rows()])


def answer(ladder: Ladder, results: pl.DataFrame, params: dict) -> list[str]:
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
    items = analyse(pairs)
    results = results_table(items, correct=True)
    ladder, weights = fit(items, params.get("anchor"))
    results = results.with_columns(pl.Series("design_weight", weights))
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
        kind="ladder", title=f"Strategy ladder ({results['group'][0]})",
        question="How strong is each strategy, on one scale?",
        answer=answer(ladder, results, params),
        tables={"ladder.csv": table, "results.csv": results, "sides.csv": sides_table(items),
                "deals.csv": deals_table(items)},
        sections=[Section("Ratings", view),
                  Section("Every pair", results_view(True, (col("pair", "text", "value"),),
                                                     ranks=many_seats(results)),
                          note="p (Holm): corrected for the number of pairs."),
                  Section("Each strategy", sides_view(), in_summary=False),
                  Section("Deals", deals_view(), in_summary=False)],
        figures=figs + figures.common(items, results, out),
        method=METHOD + [
            "Ratings: Bradley-Terry by maximum likelihood (analysis.ratings) on the Elo scale "
            "(400 points = 10 to 1 odds of scoring more in a game), intervals from the Fisher "
            "information; each pair's counts weighted by its design effect (analysis.ladder).",
            "Holm's correction across the pairs for the p-values of the table."],
        params=params, pairs=pairs)
