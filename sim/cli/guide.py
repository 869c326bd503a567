"""``handfoot guide``: the strategy guide of one rule set, every piece of advice measured
against the strongest heuristic of the profile (analysis.reports.guide). User mistakes are one line
and exit code 2 (sim.cli.errors)."""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.common import check_common, finish, note, runs_root
from sim.cli.errors import user_errors
from sim.cli.options import analysis_options, check_report_name, rules_option

GAMES = 20_000


@click.command(epilog="Examples: handfoot guide --rules standard --report guide-standard;  "
                      "handfoot guide --rules eleven --baseline cautious --games 5000")
@rules_option()
@click.option("--baseline", default=None, metavar="STRATEGY",
              help="The player every piece of advice is measured against (a name or a "
                   "strategy file based on the tactician)  [default: tuned where the profile "
                   "has a tuned file, else cautious]")
@analysis_options(GAMES)
def guide(rules_spec: str, baseline: str | None, games: int, seed: int, jobs: int,
          report_name: str | None, runs_dir: Path, reports_dir: Path, rerun: bool,
          progress: bool | None) -> None:
    """A strategy guide for one rule set (run it once per profile): each piece of tactics
    advice (hold a wild, pick up small piles or wait, leave books one short until the
    partner is on the Foot, go out as soon as allowed, block with black threes, keep pairs,
    discard safely) measured against the baseline as a paired comparison: the baseline with
    that one knob changed against the baseline, on the same shuffles in every seating.

    Prints the effect of following each piece of advice on the game win rate and the points
    per deal with 95% intervals, Holm-corrected across the page and sorted by size, and a
    verdict generated from those numbers; writes reports/guide-<profile>/ (or --report NAME).
    The default (20,000 shuffles per piece of advice, each played in both seatings) takes a
    few minutes on 2 cores.
    """
    from analysis.experiments.pairings import rules_and_profile
    from analysis.experiments.playing import play_pairs
    from analysis.reports import guide as gd

    check_common(games, seed, jobs, report_name)
    with user_errors():
        _, profile = rules_and_profile(rules_spec)
        name = report_name or gd.default_name(rules_spec, profile)
        check_report_name(name)
        root = runs_root(runs_dir, "guide", name)
        plan = gd.plan(rules_spec, baseline, root / "strategies")
        pairs = play_pairs(plan.pairings, root, seed, games, jobs=jobs, rerun=rerun,
                           progress=progress, note=note)
        finish("guide", pairs, plan.params(seed, games), name, reports_dir, root)
