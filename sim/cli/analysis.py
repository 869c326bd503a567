"""``handfoot compare | sweep | rules-compare | report | ask``: questions in, reports out.

Each command plans paired comparisons, plays (or reuses) their run folders under
``runs/<report name>/``, analyses them lazily with polars, prints the answer and, with
``--report NAME``, writes ``reports/NAME/`` (index.html, summary.md, PNG figures, CSV tables,
manifest.json) through sim.cli.common; ``report`` rebuilds any kind of analysis.reports.kinds.
User mistakes are one line and exit code 2 (sim.cli.errors); the commands are registered on
``handfoot`` or run alone as ``python -m sim.cli.analysis``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from analysis.reports import kinds
from sim.cli.common import check_common, finish, note, runs_root
from sim.cli.errors import UserError, run_group, user_errors
from sim.cli.options import (
    allow_oracle_option,
    analysis_options,
    build_scale_option,
    cluster_options,
    player_options,
    rules_option,
)


@click.command(epilog="Examples: handfoot compare tactician greedy --games 5000 --report tg;  "
                      "handfoot compare cautious greedy --rules simpson;  "
                      "handfoot compare greedy random --sprt 0,5")
@click.argument("a")
@click.argument("b")
@rules_option()
@click.option("--until-ci", type=float, default=None, metavar="WIDTH",
              help="Play until the 95% interval of --metric is narrower than WIDTH; --games "
                   "is then the most per seating (default 1,000,000).")
@click.option("--metric", type=click.Choice(["win-rate", "score-diff"]), default="win-rate",
              show_default=True,
              help="For --until-ci: A's win rate (WIDTH as a fraction, e.g. 0.02) or the mean "
                   "score difference per game (points).")
@click.option("--sprt", "sprt_bounds", default=None, metavar="LOW,HIGH",
              help="Sequential test: stop as soon as H0 (A's win rate is LOW points over even) "
                   "or H1 (HIGH points over even) is accepted; --games is then the most per "
                   "seating (default 200,000). Even is 50% with two partnerships, 1/N for N.")
@click.option("--alpha", type=float, default=0.05, show_default=True,
              help="For --sprt: chance of accepting H1 when H0 holds.")
@click.option("--beta", type=float, default=0.05, show_default=True,
              help="For --sprt: chance of accepting H0 when H1 holds.")
@allow_oracle_option()
@analysis_options(10_000)
@cluster_options()
def compare(a: str, b: str, rules_spec: str, until_ci: float | None, metric: str,
            sprt_bounds: str | None, alpha: float, beta: float, allow_oracle: bool, games: int,
            seed: int, jobs: int, report_name: str | None, runs_dir: Path, reports_dir: Path,
            rerun: bool, progress: bool | None) -> None:
    """Strategy A against strategy B on the same shuffles, played in every seating (paired).

    With two partnerships every shuffle is played twice, A in either partnership; with T
    partnerships, or T players in individual play (simpson, brouillette, 3 or 5 players),
    T times, A in each partnership or seat in turn and B in all the others. Prints A's game
    win rate with its 95% interval (1/T is even), the mean score margin of A over B (the mean
    of B's partnerships) per game and per deal with its standard error and 95% interval, A's
    mean rank with more than two seatings, and the p-value of a paired t-test. A and B are
    strategy names or strategy files (TOML).
    """
    from analysis.experiments.pairings import side
    from analysis.experiments.playing import play_pairs
    from analysis.reports import compare as cmp

    src = click.get_current_context().get_parameter_source("games")
    given = src == click.core.ParameterSource.COMMANDLINE
    if until_ci is not None and sprt_bounds is not None:
        raise UserError("give either --until-ci or --sprt, not both")
    most = games if given or (until_ci is None and sprt_bounds is None) else \
        (1_000_000 if until_ci is not None else 200_000)
    check_common(most, seed, jobs, report_name)
    with user_errors():
        if sprt_bounds is not None:
            from analysis.experiments.sequential import parse_bounds

            low, high = parse_bounds(sprt_bounds)
        from sim.core.profiles import load_rules

        rules = load_rules(rules_spec)
        root = runs_root(runs_dir, "compare", report_name)
        folder = root / "strategies"
        pairing = cmp.plan(side(a, folder, rules=rules, allow_oracle=allow_oracle),
                           side(b, folder, rules=rules, allow_oracle=allow_oracle), rules_spec)
        params: dict = {"a": a, "b": b, "rules": rules_spec, "seed": seed}
        extra: tuple[str, ...] = ()
        if until_ci is not None:
            from analysis.experiments.until import play_until

            if not until_ci > 0:
                raise UserError(f"--until-ci must be a positive width (got {until_ci:g})")
            outcome = play_until(pairing, root, seed, until_ci, metric, most, jobs=jobs,
                                 rerun=rerun, progress=progress, note=note)
            pairs = [outcome.runs]
            what = "A's win rate" if metric == "win-rate" else "the score difference per game"
            params["until"] = (
                f"played until the 95% interval of {what} was narrower than {until_ci:g}: "
                + (f"{outcome.width:.4g} after {outcome.result.games:,} games per seating "
                   f"({outcome.rounds} rounds)" if outcome.reached else
                   f"not reached: {outcome.width:.4g} after the most allowed, "
                   f"{outcome.result.games:,} games per seating"))
            extra = (f"until-ci: {params['until']}",)
        elif sprt_bounds is not None:
            from analysis.experiments.pairings import seatings
            from analysis.experiments.sequential import make_spec, play_sprt

            make_spec(low, high, seatings(pairing), alpha, beta)  # refuse bad bounds first
            outcome = play_sprt(pairing, root, seed, low, high, most, alpha=alpha, beta=beta,
                                jobs=jobs, rerun=rerun, progress=progress, note=note)
            pairs = [outcome.runs]
            params.update(sprt=outcome.summary(), sprt_llr=outcome.sprt.llr,
                          sprt_decision=outcome.sprt.decision,
                          sprt_decided_at=outcome.sprt.decided_at,
                          sprt_bounds=[low, high], alpha=alpha, beta=beta)
        else:
            pairs = play_pairs([pairing], root, seed, games, jobs=jobs, rerun=rerun,
                               progress=progress, note=note)
        params["games"] = _games_played(pairs[0])
        finish("compare", pairs, params, report_name, reports_dir, root, extra=extra)


def _games_played(pair) -> int:
    from sim.runs.storage import Run

    return Run.open(pair.runs[0]).spec.games


@click.command(epilog="Examples: handfoot sweep --param hold_wilds=0,1,2,3 --rules eleven;  "
                      "handfoot sweep --strategy tactician --param hold_wilds=0,1,2,3 "
                      "--against greedy --report hold-sweep")
@click.option("--strategy", default=None, metavar="NAME|FILE",
              help="Strategy (name or TOML file) to vary  [default: the strongest fast player "
                   "measured for the rules (strategies/ladder.toml; a rule file: the stronger "
                   "of a tuned and a learned player built for it once, kept under "
                   "--runs-dir/players/)]")
@click.option("--param", "param_text", required=True, metavar="NAME=V1,V2,...",
              help="The parameter and its values, e.g. hold_wilds=0,1,2,3 (a learned player's "
                   "tactician knobs are those of its base policy).")
@click.option("--against", default=None,
              help="The opponent of every value  [default: --strategy with its own values]")
@rules_option()
@allow_oracle_option()
@build_scale_option()
@analysis_options(10_000)
@cluster_options()
def sweep(strategy: str | None, param_text: str, against: str | None, rules_spec: str,
          allow_oracle: bool, build_scale: float, games: int, seed: int, jobs: int,
          report_name: str | None, runs_dir: Path, reports_dir: Path, rerun: bool,
          progress: bool | None) -> None:
    """Each value of one strategy parameter against the same opponent on the same shuffles,
    each played in every seating (any rule set: partnerships or individual play).

    Prints a table of win rates and score differences with 95% intervals and p-values
    corrected for the number of values (Holm); the report adds a plot with error bars. The
    table and plot name the player.
    """
    from analysis.experiments.players import check_player_spec
    from analysis.experiments.playing import play_pairs
    from analysis.experiments.strong_players import choose
    from analysis.reports import sweep as sw

    check_common(games, seed, jobs, report_name)
    with user_errors():
        if strategy is not None:
            check_player_spec(strategy)
        player = choose(rules_spec, [strategy] if strategy else [], allow_oracle,
                        runs_dir=runs_dir, jobs=jobs, note=note, count=1,
                        need_knobs=False, build_scale=build_scale, option="--strategy")[0]
        param, values = sw.parse_param(param_text, player.spec)
        root = runs_root(runs_dir, "sweep", report_name)
        pairings = sw.plan(player, param, values, against, rules_spec, root / "strategies",
                           allow_oracle=allow_oracle)
        pairs = play_pairs(pairings, root, seed, games, jobs=jobs, rerun=rerun,
                           progress=progress, note=note)
        params = {"strategy": player.spec, "player": player.label, "player_why": player.why,
                  "param": param, "values": values, "against": against,
                  "rules": rules_spec, "seed": seed, "games": games}
        finish("sweep", pairs, params, report_name, reports_dir, root)


@click.command("rules-compare", epilog="Example: handfoot rules-compare standard eleven "
                                       "saskatchewan --report house-rules")
@click.argument("profiles", nargs=-1, required=True)
@click.option("--strong", default=None, metavar="NAME|FILE",
              help="The stronger strategy (name or TOML file)  [default: per rule set, the "
                   "strongest fast player measured for it (strategies/ladder.toml; a rule "
                   "file: the stronger of a tuned and a learned player built for it once, kept "
                   "under --runs-dir/players/)]")
@click.option("--weak", default="greedy", show_default=True,
              help="The weaker strategy (name or TOML file).")
@allow_oracle_option()
@build_scale_option()
@analysis_options(10_000)
@cluster_options()
def rules_compare(profiles: tuple[str, ...], strong: str | None, weak: str, allow_oracle: bool,
                  build_scale: float, games: int, seed: int, jobs: int,
                  report_name: str | None, runs_dir: Path, reports_dir: Path, rerun: bool,
          progress: bool | None) -> None:
    """Rule profiles (or rule files) side by side: deal length, going out vs the stock, points
    and books per deal, the winner's margin, and how often the stronger of two strategies
    wins (how much skill the rules reward), each with a 95% interval. Any profile or rule
    file, in partnerships or individual play (2-6 players). The skill measure plays, by
    default, each rule set's strongest fast player against --weak."""
    from analysis.experiments.pairings import side
    from analysis.experiments.players import check_player_spec
    from analysis.experiments.playing import play_pairs
    from analysis.experiments.strong_players import choose
    from analysis.reports import rules_compare

    check_common(games, seed, jobs, report_name)
    with user_errors():
        if strong is not None:
            check_player_spec(strong)
        rules_compare.keys(profiles)  # rules given twice: refused before any build
        root = runs_root(runs_dir, "rules-compare", report_name)
        folder = root / "strategies"
        weak_side = side(weak, folder, allow_oracle=allow_oracle)
        if strong is not None:
            strong_sides = {spec: side(strong, folder, allow_oracle=allow_oracle)
                            for spec in profiles}
        else:
            strong_sides = {}
            for spec in profiles:
                player = choose(spec, [], runs_dir=runs_dir, jobs=jobs, note=note, count=1,
                                need_knobs=False, build_scale=build_scale)[0]
                strong_sides[spec] = side(player.spec, folder, label=player.label)
        pairings = rules_compare.plan(profiles, strong_sides, weak_side)
        pairs = play_pairs(pairings, root, seed, games, jobs=jobs, rerun=rerun,
                           progress=progress, note=note)
        params = {"profiles": list(profiles), "strong": strong or "the strongest fast player "
                  "of each rule set", "weak": weak, "seed": seed, "games": games}
        finish("rules-compare", pairs, params, report_name, reports_dir, root)


REPORT_HELP = (
    "Rebuild the report NAME from the runs its manifest names, without playing a game.\n\n"
    "This command reads the same run folders again (checking every chunk's sha256) and writes "
    "reports/NAME/ anew: index.html, summary.md, the PNG figures, the CSV tables and "
    "manifest.json. It loads no compiled code. Reports are made by (the kinds of "
    "analysis.reports.kinds):\n\n\b\n"
    + "\n".join(f"  {k.command}" for k in kinds.KINDS.values()))


@click.command(epilog="Example: handfoot report hold-wild", help=REPORT_HELP)
@click.argument("name")
@click.option("--reports-dir", type=click.Path(path_type=Path), default=Path("reports"),
              show_default=True, help="Folder that holds reports.")
def report(name: str, reports_dir: Path) -> None:
    """Rebuild a report from its manifest (the help text lists the kinds, from their table)."""
    from analysis.reports.build import rebuild

    with user_errors():
        content, path = rebuild(reports_dir, name)
    click.echo(content.terminal())
    click.echo("")
    click.echo(f"report: {path / 'index.html'}")


@click.group(epilog="Example: handfoot ask hold-wild")
def ask() -> None:
    """Ready-made questions, each answered with a report."""


@ask.command("hold-wild", epilog="Examples: handfoot ask hold-wild;  handfoot ask hold-wild "
                                  "--rules standard --player tuned --player cautious --games "
                                  "20000")
@click.option("--rules", "profiles", multiple=True,
              help="Rule profile or file; repeat for several  [default: all six profiles]")
@player_options()
@click.option("--positions", type=int, default=None, metavar="N",
              help="Branched positions per rule set and player for the decision-by-decision "
                   "section; 0 leaves it out  [default: 25,000]")
@click.option("--search-positions", type=int, default=None, metavar="N",
              help="Of those, positions per rule set at which the search player (pimc, its "
                   "defaults) is asked what it would meld; 0 leaves it out  [default: all of "
                   "them, 25,000]")
@analysis_options(3_000)
@cluster_options()
def hold_wild(profiles: tuple[str, ...], players: tuple[str, ...], allow_oracle: bool,
              build_scale: float, positions: int | None, search_positions: int | None,
              games: int, seed: int, jobs: int, report_name: str | None, runs_dir: Path,
              reports_dir: Path, rerun: bool, progress: bool | None) -> None:
    """Is holding a wild worth it? Asked of the strongest fast players of each rule set (the
    shipped ladder: learned, then tuned; for a rule file the two players built for it once
    and reused; --player names others) in all six profiles, individual play
    included: each player holding 1, 2 or 3 wilds back until its Foot against itself holding
    none, on the same shuffles in every seating, and how far the answer holds across the
    players. Then decision by decision: every time the player would meld a wild the rest of
    the deal is played both ways from the same deal by that player, the value of holding is
    shown by situation, and at a sample of those positions the search player (pimc) is asked
    what it would meld. Win rates and score differences with 95% intervals, a plain-words
    verdict that names the players and states its uncertainty, and the report
    reports/hold-wild/ (or --report NAME).

    The default (3,000 shuffles per seating of each of 36 comparisons and 25,000 branched
    positions per rule set and player, the search asked at all of them) took 7 minutes on 2
    cores (180b00c).
    """
    from analysis.experiments.holding import collect_positions
    from analysis.experiments.pairings import rules_and_profile
    from analysis.experiments.players import check_player_spec, search_spec
    from analysis.experiments.playing import play_pairs
    from analysis.experiments.search_choice import collect_search_choices
    from analysis.experiments.strong_players import choose
    from analysis.reports import hold_wild

    name = report_name or "hold-wild"
    check_common(games, seed, jobs, name)
    count = hold_wild.POSITIONS if positions is None else positions
    asked = hold_wild.SEARCH_POSITIONS if search_positions is None else search_positions
    if count < 0:
        raise UserError(f"--positions must be 0 or more (got {count})")
    if asked < 0:
        raise UserError(f"--search-positions must be 0 or more (got {asked})")
    with user_errors():
        for spec in players:
            check_player_spec(spec)
        root = runs_root(runs_dir, "ask", name)
        chosen = list(profiles) or list(hold_wild.PROFILES)
        strong = {spec: choose(spec, players, allow_oracle, runs_dir=runs_dir, jobs=jobs,
                               note=note, build_scale=build_scale) for spec in chosen}
        pairings = hold_wild.plan(chosen, hold_wild.VALUES, root / "strategies", strong)
        pairs = play_pairs(pairings, root, seed, games, jobs=jobs, rerun=rerun,
                           progress=progress, note=note)
        params = {"profiles": chosen, "values": list(hold_wild.VALUES), "seed": seed,
                  "games": games, "positions": count, "search_positions": min(asked, count),
                  "players": hold_wild.players(pairs),
                  "player_why": hold_wild.why_in_general(strong)}
        if count:
            if progress or (progress is None and sys.stderr.isatty()):
                click.echo(f"branching {count:,} decisions per rule set and player ...",
                           err=True)
            params["holding"] = collect_positions(pairs, params["players"], root / "holding",
                                                  count, seed, jobs=jobs, rerun=rerun)
            if asked:
                searches = {spec: search_spec(ps[0], rules_and_profile(spec)[0],
                                              root / "strategies")
                            for spec, ps in strong.items()}
                params["search_choices"] = collect_search_choices(
                    pairs, params["players"], root / "holding", min(asked, count), seed,
                    searches=searches, rerun=rerun, jobs=jobs)
        finish("hold-wild", pairs, params, name, reports_dir, root)


COMMANDS = (compare, sweep, rules_compare, report, ask)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def cli() -> None:
    """handfoot's analysis commands (also registered on `handfoot` itself)."""


for _command in COMMANDS:
    cli.add_command(_command)


def main(argv: list[str] | None = None) -> None:
    """Standalone entry point with handfoot's error conventions."""
    run_group(cli, argv)


if __name__ == "__main__":
    main()
