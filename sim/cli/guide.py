"""``handfoot guide``: the strategy guide of one rule set, every piece of advice measured with
the strongest fast players of the rules, and how far each verdict holds (analysis.reports.
guide). User mistakes are one line and exit code 2 (sim.cli.errors)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import click

from sim.cli.common import check_common, finish, note, runs_root
from sim.cli.errors import user_errors
from sim.cli.options import (
    analysis_options,
    check_games,
    check_report_name,
    cluster_options,
    player_options,
    rules_option,
)

GAMES = 5_000
SEARCH_GAMES = 200


@click.command(epilog="Examples: handfoot guide --rules standard --card;  "
                      "handfoot guide --rules eleven --player tuned --player cautious "
                      "--games 20000;  handfoot guide --rules club.toml (builds a strong "
                      "player for the file first, then reuses it)")
@rules_option()
@player_options()
@click.option("--with-search", is_flag=True,
              help="Also measure every piece of advice with the search player (pimc, its "
                   "defaults) on --search-games shuffles: far slower, so fewer games.")
@click.option("--search-games", type=int, default=SEARCH_GAMES, show_default=True,
              help="Shuffles per comparison for a search player (--with-search, or a "
                   "--player that searches).")
@click.option("--card", is_flag=True,
              help="Also write the strategy card (card.html, one printed page) into the "
                   "report, linked from it.")
@analysis_options(GAMES)
@cluster_options()
def guide(rules_spec: str, players: tuple[str, ...], allow_oracle: bool, build_scale: float,
          with_search: bool,
          search_games: int, card: bool, games: int, seed: int, jobs: int,
          report_name: str | None, runs_dir: Path, reports_dir: Path, rerun: bool,
          progress: bool | None) -> None:
    """A strategy guide for one rule set (run it once per profile): each piece of tactics
    advice (hold a wild, pick up small piles or wait, leave books one short until the
    partner is on the Foot, go out as soon as allowed, block with black threes, keep pairs,
    discard safely) measured with each strong player as a paired comparison: the player with
    that one knob changed against the player, on the same shuffles in every seating.

    The players: by default the two strongest fast players measured for the rules (the
    shipped ladder: learned, then tuned); for a rule file, two players built for it once (a
    tuned heuristic and a learned player on it, ranked by a match: a few minutes) and kept
    under --runs-dir/players/ for the next question; --player names others.

    Prints, for each piece of advice and player, the effect of following it on the game win
    rate and the points per deal with 95% intervals, Holm-corrected across every comparison,
    and how far the verdict holds: it pays (or costs) for every strong player measured, or it
    depends on the player. Writes reports/guide-<profile>/ (or --report NAME). The default
    (5,000 shuffles per comparison, each played in every seating) takes about 3 minutes on 2
    cores for a two-partnership profile.
    """
    from analysis.experiments import guide_plan
    from analysis.experiments.pairings import rules_and_profile
    from analysis.experiments.players import check_player_spec, checked, search_spec
    from analysis.experiments.playing import play_pairs
    from analysis.experiments.strong_players import choose

    check_common(games, seed, jobs, report_name)
    check_games(search_games, least=2)
    with user_errors():
        for spec in players:
            check_player_spec(spec)
        rules, profile = rules_and_profile(rules_spec)
        name = report_name or guide_plan.default_name(rules_spec, profile)
        check_report_name(name)
        root = runs_root(runs_dir, "guide", name)
        chosen = choose(rules_spec, players, allow_oracle, runs_dir=runs_dir, jobs=jobs,
                        note=note, build_scale=build_scale)
        if with_search and not any(p.speed == "search" for p in chosen):
            spec = search_spec(chosen[0], rules, root / "strategies")
            chosen.append(dataclasses.replace(
                checked(spec, rules, False, f"the search player at its defaults on "
                                            f"{chosen[0].label}'s heuristic, on "
                                            f"{search_games:,} shuffles (--with-search)"),
                label="pimc"))
        plan = guide_plan.plan(rules_spec, chosen, root / "strategies")
        search = {p.label for p in chosen if p.speed == "search"}
        fast = [p for p in plan.pairings if plan.pairing_players[p.key] not in search]
        slow = [p for p in plan.pairings if plan.pairing_players[p.key] in search]
        pairs = play_pairs(fast, root, seed, games, jobs=jobs, rerun=rerun,
                           progress=progress, note=note)
        if slow:
            note(f"search players ({', '.join(sorted(search))}) play {search_games:,} "
                 "shuffles per comparison (--search-games), the fast ones --games")
            pairs += play_pairs(slow, root, seed, search_games, jobs=jobs, rerun=rerun,
                                progress=progress, note=note)
        params = plan.params(seed, games)
        params.update(card=card, search_games=search_games if slow else 0)
        finish("guide", pairs, params, name, reports_dir, root)
