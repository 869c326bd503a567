"""``handfoot ask hold-wild``: is holding a wild back worth it?

The tactician holding 1, 2 or 3 wilds back from its melds until it reaches the Foot plays
against the same tactician holding none, under several rule sets, on the same shuffles both
ways. The answer is generated from the numbers (analysis.verdict) and states its uncertainty.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from analysis import figures, plots
from analysis.compare import METHOD
from analysis.fmt import col, deals_view, many_seats, results_view, sides_view
from analysis.playing import Pairing, PairRuns, PlayError, rules_and_profile, side
from analysis.report import Content, Figure, Section
from analysis.tables import analyse, deals_table, results_table, sides_table
from analysis.verdict import verdict

PROFILES = ("standard", "eleven", "saskatchewan")
VALUES = (1, 2, 3)
QUESTION = ("Is holding a wild worth it? Does the tactician do better if it keeps 1, 2 or 3 "
            "wild cards back from its melds until it reaches its Foot, rather than melding "
            "them at once?")


def plan(profiles: Sequence[str], values: Sequence[int], folder: Path,
         strategy: str = "tactician") -> list[Pairing]:
    out = []
    for spec in profiles:
        rules, profile = rules_and_profile(spec)
        none = side(strategy, folder, label="hold 0", rules=rules, hold_wilds=0)
        for v in values:
            if v == 0:
                raise PlayError("hold 0 is the baseline; compare 1, 2 or 3 against it")
            out.append(Pairing(key=f"{profile}-hold{v}",
                               a=side(strategy, folder, label=f"hold {v}", rules=rules,
                                      hold_wilds=v),
                               b=none, rules=spec, group=profile, value=str(v)))
    return out


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    items = analyse(pairs)
    results = results_table(items, correct=True)
    figs = []
    if out is not None:
        figs.append(Figure(plots.effect(results, "wilds held back (hold_wilds)", out),
                           "Holding 1, 2 or 3 wilds against holding none",
                           "Score difference per deal and game win rate of the tactician "
                           "holding wilds back against the same tactician holding none, under "
                           "each rule set; bars are 95% intervals (uncorrected; the verdict "
                           "uses Holm-corrected p-values)."))
    return Content(
        kind="hold-wild", title="Is holding a wild worth it?", question=QUESTION,
        answer=verdict(results),
        tables={"results.csv": results, "sides.csv": sides_table(items),
                "deals.csv": deals_table(items)},
        sections=[Section("Holding wilds against holding none",
                          results_view(True, (col("rules", "text", "group"),
                                              col("wilds held", "text", "value")),
                                       ranks=many_seats(results)),
                          note="A holds wilds back, B holds none; p (Holm): corrected for "
                               "every comparison in the table."),
                  Section("Each strategy", sides_view(), in_summary=False),
                  Section("Deals", deals_view(), in_summary=False)],
        figures=figs + figures.common(items, results, out),
        method=METHOD + [
            "Holding wilds: the tactician's hold_wilds parameter (strategies show tactician); "
            "every other parameter at its default in both strategies.",
            "Holm's correction across all comparisons (statsmodels multipletests); a "
            "comparison is called better or worse only when its corrected p is under 0.05."],
        params=params, pairs=pairs)
