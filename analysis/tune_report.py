"""The report of ``handfoot tune``: the held-out re-measure first (the number a tuned file is
judged by), then the settings found and every trial of the study, with plots of the search
and of each knob's effect at the first rung (where every trial was measured)."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis import figures, plots
from analysis.compare import METHOD
from analysis.compare import answer as compare_answer
from analysis.fmt import View, col, deals_view, many_seats, pct, pts, pval, results_view, sides_view
from analysis.playing import PairRuns
from analysis.report import Content, Figure, Section
from analysis.tables import analyse, deals_table, results_table, sides_table
from analysis.tune import TrialRecord, TuneSettings, base_info, read_trials

TUNE_METHOD = [
    "Search: optuna's TPE sampler (multivariate; categorical for knobs with at most three "
    "values, integers otherwise), seeded per trial from the study seed and the trial's order, "
    "its first trials random; the first trial is the strategy's defaults.",
    "Racing: every trial plays the same shuffles (common random numbers) against the same "
    "opponent in every seating, in rungs of a growing number of shuffles; after each rung it "
    "goes on only if its share of wins is among the best 1/reduction of the finished trials "
    "at that rung (successive halving). A setting proposed again reads the games already "
    "played.",
    "The winner is the trial with the best share of wins among those that finished every "
    "rung. Being the best of many noisy trials flatters it, so it is measured again on fresh "
    "shuffles (seed + 1) against the defaults, in the paired design with every statistic "
    "below; that held-out measurement is the result.",
]


def trials_table(trials: list[TrialRecord], settings: TuneSettings) -> pl.DataFrame:
    rows = []
    for t in trials:
        row = {"trial": t.number, "state": t.state, "shuffles": t.shuffles, "games": t.games,
               "share_won": t.value,
               "first_rung": t.values.get(settings.first_rung, float("nan"))}
        row.update({name: int(v) if float(v).is_integer() else v
                    for name, v in t.params.items()})
        rows.append(row)
    return pl.DataFrame(rows)


def best_table(settings: TuneSettings, best: dict[str, float]) -> pl.DataFrame:
    info = base_info(settings.strategy, settings.rules)
    rows = []
    for p in info.param_specs:
        default = info.params.get(p.name, 0)
        tuned = best.get(p.name, default)
        show = (lambda v: str(int(v))) if p.integer else (lambda v: f"{v:g}")
        rows.append({"parameter": p.name, "default": show(default), "tuned": show(tuned),
                     "changed": "yes" if tuned != default else "",
                     "searched": "yes" if p.name in settings.params else "no",
                     "meaning": p.doc})
    return pl.DataFrame(rows)


def verdict(row: dict, what: str) -> str:
    """The held-out answer in words, from the numbers."""
    better = row["p_value"] < 0.05 and row["diff_game"] > 0
    worse = row["p_value"] < 0.05 and row["diff_game"] < 0
    how = (f"on {row['games']:,} fresh shuffles it wins {pct(row['win_rate'])} of games "
           f"against {what} (95% CI {pct(row['win_low'])} to {pct(row['win_high'])}; "
           f"{pct(row['even'])} is even) and scores {pts(row['diff_game'], signed=True)} "
           f"points per game (95% CI {pts(row['diff_game_low'], signed=True)} to "
           f"{pts(row['diff_game_high'], signed=True)}), p = {pval(row['p_value'])}")
    if better:
        return f"The tuned settings beat {what}: {how}."
    if worse:
        return f"The tuned settings are worse than {what}: {how}."
    return (f"The tuned settings are no better than {what} beyond chance: {how}. The search "
            "found nothing the held-out games confirm.")


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    folder = Path(params["study_dir"])
    settings, trials = read_trials(folder)
    items = analyse(pairs)
    results = results_table(items, correct=False)
    rows = list(results.iter_rows(named=True))
    best = {k: float(v) for k, v in params["best"].items()}
    table = trials_table(trials, settings)
    complete = [t for t in trials if t.state == "complete"]
    top = max(complete, key=lambda t: (t.value, -t.number))
    stem = Path(settings.strategy).stem
    changed = best_table(settings, best).filter(pl.col("changed") == "yes")
    if changed.height:
        answer = [verdict(rows[0], f"{stem}'s defaults")]
    else:
        answer = [f"The search kept {stem}'s defaults: no setting it tried did better on the "
                  "study's shuffles, so the tuned strategy is the defaults and plays the same "
                  "games as they do."]
    answer.append("Best settings: " + (", ".join(
        f"{r['parameter']} = {r['tuned']} (default {r['default']})"
        for r in changed.iter_rows(named=True)) or "the defaults themselves") + ".")
    counts = {s: sum(t.state == s for t in trials) for s in ("complete", "pruned", "cut")}
    answer.append(
        f"Study: {len(trials)} trials against {Path(settings.against).stem} on seed "
        f"{settings.seed} ({counts['complete']} through every rung of "
        + ", ".join(f"{r:,}" for r in settings.rung_shuffles()) + " shuffles, "
        f"{counts['pruned']} pruned, {counts['cut']} cut by the budget), "
        f"{sum(t.games for t in trials):,} games of a {settings.budget:,}-game budget; the "
        f"winner (trial {top.number}) won {pct(top.value)} of its {top.shuffles:,} shuffles "
        "there, a number that flatters it (the best of many noisy trials).")
    for row, pair in zip(rows[1:], pairs[1:], strict=True):
        answer.append(f"Against {pair.pairing.b.label} (the study's opponent): "
                      + " ".join(compare_answer(pair, row)[:1]))
    figs = []
    if out is not None:
        even = rows[0]["even"]
        figs.append(Figure(plots.tune_history(table, even, out), "The search",
                           "Each trial's share of games won at the last rung it reached "
                           "(against the study's opponent, on the study's shuffles), in the "
                           "order they ran; pruned trials stopped early. Dashed: even play."))
        figs.append(Figure(plots.tune_slices(table, list(settings.params), even, out),
                           "Each knob at the first rung",
                           f"Share of games won over the first {settings.first_rung:,} "
                           "shuffles (every trial played them) against each searched knob's "
                           "value; cliffs show as values that never do well."))
    views = [Section("Held out: the tuned settings on fresh shuffles",
                     results_view(False, (col("against", "text", "value"),),
                                  ranks=many_seats(results))),
             Section("Settings", View("best.csv", tuple(
                 col(h, "text", c) for h, c in (("parameter", "parameter"),
                                                ("default", "default"), ("tuned", "tuned"),
                                                ("changed", "changed"),
                                                ("searched", "searched"),
                                                ("meaning", "meaning"))))),
             Section("Trials", View("trials.csv", (
                 col("trial", "int", "trial"), col("state", "text", "state"),
                 col("shuffles", "int", "shuffles"), col("share won", "pct", "share_won"),
                 *(col(name, "text", name) for name in settings.params))),
                     in_summary=False),
             Section("Each strategy", sides_view(), in_summary=False),
             Section("Deals", deals_view(), in_summary=False)]
    return Content(
        kind="tune", title=f"Tuning {stem} under {rows[0]['group']}",
        question=(f"Which settings of {stem} play best under {rows[0]['group']}, and do they "
                  "beat the defaults on games the search never saw?"),
        answer=answer,
        tables={"results.csv": results, "best.csv": best_table(settings, best),
                "trials.csv": table.sort("share_won", descending=True),
                "sides.csv": sides_table(items), "deals.csv": deals_table(items)},
        sections=views, figures=figs + figures.common(items, results, out),
        method=TUNE_METHOD + METHOD, params=params, pairs=pairs)
