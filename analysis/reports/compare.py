"""``handfoot compare A B``: one paired comparison, as a report and as terminal lines."""

from __future__ import annotations

from pathlib import Path

from analysis.experiments.pairings import Pairing, PairRuns, Side, rules_and_profile
from analysis.reports.content import Comparisons, Content, Section
from analysis.reports.fmt import col, many_seats, pct, pts, pval, results_view


def plan(a: Side, b: Side, rules: str) -> Pairing:
    """The one pairing of ``compare A B``."""
    _, profile = rules_and_profile(rules)
    return Pairing(key="compare", a=a, b=b, rules=rules, group=profile)


def seat_word(individual: bool) -> str:
    """What A takes in turn: a seat in individual play, else a partnership."""
    return "seat" if individual else "partnership"


def answer(pair: PairRuns, row: dict) -> list[str]:
    """The terminal and report lines of a comparison, from its results row."""
    a, b = pair.pairing.a.label, pair.pairing.b.label
    games, teams = row["games"], int(row.get("teams", 2))
    individual = rules_and_profile(pair.pairing.rules)[0].individual
    where = seat_word(individual)
    if teams == 2:
        how = f"each played with {a} in either {where}"
        even = ""
        versus = f"{a} - {b}"
    else:
        how = (f"each played {teams} times, {a} in each {where} in turn and {b} in every "
               f"other")
        even = f"; {pct(row['even'])} is even"
        versus = f"{a} - the mean of the {teams - 1} {b} {where}s"
    lines = [
        f"{a} wins {pct(row['win_rate'])} of games against {b} (95% Wilson CI "
        f"{pct(row['win_low'])} to {pct(row['win_high'])}, clustered by shuffle{even}) over "
        f"{teams * games:,} games: {games:,} shuffles under {pair.pairing.group}, {how}; "
        f"ties ({row['ties']:,}) count as shares.",
        f"{versus}: {pts(row['diff_game'], signed=True)} points per game (SE "
        f"{pts(row['diff_game_se'])}, 95% CI {pts(row['diff_game_low'], signed=True)} to "
        f"{pts(row['diff_game_high'], signed=True)}), {pts(row['diff_deal'], signed=True)} "
        f"per deal (SE {pts(row['diff_deal_se'])}, 95% CI "
        f"{pts(row['diff_deal_low'], signed=True)} to "
        f"{pts(row['diff_deal_high'], signed=True)}).",
    ]
    if teams > 2:
        lines.append(f"{a}'s mean rank: {row['rank']:.2f} of {teams} (95% CI "
                     f"{row['rank_low']:.2f} to {row['rank_high']:.2f}; "
                     f"{row['rank_even']:.1f} is even).")
    p = row["p_value"]
    if pair.pairing.a.spec == pair.pairing.b.spec:
        meaning = (f"{a} and {b} are the same strategy, so every seating plays the same game "
                   "and every paired difference is 0 by construction")
    elif p < 0.05:
        meaning = (f"{a} scores {'more' if row['diff_game'] > 0 else 'fewer'} points than "
                   f"{b}, beyond what chance explains at the 5% level")
    else:
        meaning = (f"no difference between {a} and {b} beyond chance at this number of "
                   "games (5% level)")
    lines.append(f"p = {pval(p)} (paired t-test on {games:,} per-shuffle differences): "
                 f"{meaning}.")
    return lines


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """One comparison: its answer in words and its results row."""
    c = Comparisons.read(pairs, holm=False)
    row = next(c.results.iter_rows(named=True))
    a, b = pairs[0].pairing.a.label, pairs[0].pairing.b.label
    extra = [f"--until-ci: {params['until']}."] if params.get("until") else []
    if params.get("sprt"):
        extra.append(f"--sprt: {params['sprt']}")
    lines = answer(pairs[0], row)
    if params.get("sprt"):
        lines.insert(0, params["sprt"])
    return Content(
        title=f"{a} against {b} ({pairs[0].pairing.group})",
        question=f"Does {a} beat {b}, and by how much?",
        answer=lines,
        sections=[Section("Result", results_view(False, (col("rules", "text", "group"),),
                                                 ranks=many_seats(c.results)))],
        method=extra, comparisons=c)
