"""The report of ``handfoot tune``: the held-out re-measure first (the number a tuned file is
judged by), then the settings found and every trial of the study, with plots of the search
and of each knob's effect at the first rung (where every trial was measured); and the tuned
strategy file, whose comments state the same held-out numbers."""

from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.experiments.pairings import PairRuns, rules_and_profile
from analysis.experiments.tune_study import (
    HELD_OUT_SEED_OFFSET,
    StudyOutcome,
    TrialRecord,
    TuneSettings,
    base_info,
    read_trials,
)
from analysis.reports import plots
from analysis.reports.compare import answer as compare_answer
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import View, col, many_seats, pct, pts, pval, results_view
from strategies.registry import base_policy_lines, model_lines

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
    """One row per finished trial: its state, shuffles, share won and settings."""
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
    """One row per parameter: its default, the tuned value and what it means."""
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
    """The held-out re-measure, the settings found and every trial of the study."""
    folder = Path(params["study_dir"])
    settings, trials = read_trials(folder)
    measured = Comparisons.read(pairs, holm=False)
    results = measured.results
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
                     in_summary=False)]
    return Content(
        title=f"Tuning {stem} under {rows[0]['group']}",
        question=(f"Which settings of {stem} play best under {rows[0]['group']}, and do they "
                  "beat the defaults on games the search never saw?"),
        answer=answer,
        tables={"best.csv": best_table(settings, best),
                "trials.csv": table.sort("share_won", descending=True)},
        sections=views, figures=figs, method_before=TUNE_METHOD,
        comparisons=measured)


def strategy_text(outcome: StudyOutcome, params: dict[str, float], row: dict,
                  against_row: dict | None) -> str:
    """The tuned strategy file: base, every parameter, and comments saying how it was found
    and how it measured on fresh shuffles."""
    s = outcome.settings
    info = base_info(s.strategy, s.rules)
    rules, profile = rules_and_profile(s.rules)
    complete = sum(t.state == "complete" for t in outcome.trials)
    lines = [
        f"# {Path(s.strategy).stem} tuned by `handfoot tune` for {profile} "
        f"(rules id {rules.rules_id}) against {Path(s.against).stem}",
        f"# study: {len(outcome.trials)} trials ({complete} through every rung), "
        f"{outcome.spent:,} games, seed {s.seed}, rungs "
        + ", ".join(f"{r:,}" for r in s.rung_shuffles()) + " shuffles",
        f"# held out (seed {s.seed + HELD_OUT_SEED_OFFSET}, {row['games']:,} shuffles in every "
        f"seating): against the defaults it wins {pct(row['win_rate'])} (95% CI "
        f"{pct(row['win_low'])} to {pct(row['win_high'])}; even {pct(row['even'])}), "
        f"{pts(row['diff_game'], signed=True)} points per game (95% CI "
        f"{pts(row['diff_game_low'], signed=True)} to {pts(row['diff_game_high'], signed=True)}"
        f"), p = {row['p_value']:.2g}",
    ]
    if against_row is not None:
        lines.append(f"# against {Path(s.against).stem}: wins {pct(against_row['win_rate'])} "
                     f"(95% CI {pct(against_row['win_low'])} to "
                     f"{pct(against_row['win_high'])})")
    lines.append(f'base = "{info.base}"')
    lines += base_policy_lines(info) + model_lines(info)
    for p in info.param_specs:
        value = params.get(p.name, 0)
        shown = int(value) if p.integer else value
        mark = "" if value == outcome.defaults.get(p.name) else "  # default " + \
            f"{int(outcome.defaults[p.name]) if p.integer else outcome.defaults[p.name]}"
        lines.append(f"{p.name} = {shown}{mark}")
    return "\n".join(lines) + "\n"
