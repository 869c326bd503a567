"""``handfoot compare A B``: one paired comparison, as a report and as terminal lines."""

from __future__ import annotations

from pathlib import Path

from analysis import figures
from analysis.fmt import col, deals_view, pct, pts, pval, results_view, sides_view
from analysis.playing import Pairing, PairRuns, Side, rules_and_profile
from analysis.report import Content, Section
from analysis.tables import analyse, deals_table, results_table, sides_table

METHOD = [
    "Paired design: every game index is played twice on the same shuffles, once with A as "
    "partnership 0 and once with A as partnership 1 (two run folders, same rules and seed).",
    "A's win rate counts all 2N games, a tie as half a win (R-X7), with a 95% Wilson interval.",
    "The score difference of game g is d_g = ((A - B, A first) + (A - B, A second)) / 2; its "
    "mean, standard error and 95% t-interval come from the N values d_g, and the p-value from a "
    "one-sample t-test of d_g against 0 (scipy). Per deal = per game / deals per game.",
    "Other means per deal (turns, endings, points, books) are averaged over both plays of each "
    "game index first, so their intervals are clustered by game; medians and percentiles carry "
    "order-statistic (binomial) intervals that treat deals as independent.",
]


def plan(a: Side, b: Side, rules: str) -> Pairing:
    _, profile = rules_and_profile(rules)
    return Pairing(key="compare", a=a, b=b, rules=rules, group=profile)


def answer(pair: PairRuns, row: dict) -> list[str]:
    """The terminal and report lines of a comparison, from its results row."""
    a, b = pair.pairing.a.label, pair.pairing.b.label
    games = row["games"]
    lines = [
        f"{a} wins {pct(row['win_rate'])} of games against {b} (95% Wilson CI "
        f"{pct(row['win_low'])} to {pct(row['win_high'])}) over {2 * games:,} games: "
        f"{games:,} shuffles under {pair.pairing.group}, each played with {a} in either seat; "
        f"ties ({row['ties']:,}) count half.",
        f"{a} - {b}: {pts(row['diff_game'], signed=True)} points per game (SE "
        f"{pts(row['diff_game_se'])}, 95% CI {pts(row['diff_game_low'], signed=True)} to "
        f"{pts(row['diff_game_high'], signed=True)}), {pts(row['diff_deal'], signed=True)} "
        f"per deal (SE {pts(row['diff_deal_se'])}, 95% CI "
        f"{pts(row['diff_deal_low'], signed=True)} to "
        f"{pts(row['diff_deal_high'], signed=True)}).",
    ]
    p = row["p_value"]
    if pair.pairing.a.spec == pair.pairing.b.spec:
        meaning = (f"{a} and {b} are the same strategy, so every paired difference is 0 "
                   "by construction and the win rate is exactly 50%")
    elif p < 0.05:
        meaning = (f"{a} scores {'more' if row['diff_game'] > 0 else 'fewer'} points than "
                   f"{b}, beyond what chance explains at the 5% level")
    else:
        meaning = (f"no difference between {a} and {b} beyond chance at this number of "
                   "games (5% level)")
    lines.append(f"p = {pval(p)} (paired t-test on {games:,} per-game differences): "
                 f"{meaning}.")
    return lines


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    items = analyse(pairs)
    results = results_table(items, correct=False)
    row = next(results.iter_rows(named=True))
    a, b = pairs[0].pairing.a.label, pairs[0].pairing.b.label
    return Content(
        kind="compare", title=f"{a} against {b} ({pairs[0].pairing.group})",
        question=f"Does {a} beat {b}, and by how much?",
        answer=answer(pairs[0], row),
        tables={"results.csv": results, "sides.csv": sides_table(items),
                "deals.csv": deals_table(items)},
        sections=[Section("Result", results_view(False, (col("rules", "text", "group"),))),
                  Section("Each strategy", sides_view(), in_summary=False),
                  Section("Deals", deals_view(), in_summary=False)],
        figures=figures.common(items, results, out),
        method=METHOD + ([f"--until-ci: {params['until']}."] if params.get("until") else []),
        params=params, pairs=pairs)
