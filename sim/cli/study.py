"""``handfoot ladder`` and ``handfoot tune``: many comparisons at once, one answer.

``ladder`` plays every pair of strategies paired and fits one rating each; ``tune`` searches a
parametric strategy's knobs with optuna (racing trials on a growing number of games) and
measures the winner again on fresh shuffles. Both write a report; user mistakes are one line
and exit code 2 (sim.cli.errors).
"""

from __future__ import annotations

from pathlib import Path

import click

from sim.cli.common import check_common, finish, note, runs_root
from sim.cli.errors import Stopped, UserError, user_errors
from sim.cli.options import (
    allow_oracle_option,
    analysis_options,
    check_games,
    check_jobs,
    check_report_name,
    check_seed,
    cluster_options,
    jobs_option,
    progress_option,
    rules_option,
    seed_option,
)


def _games_for(values: tuple[str, ...], names: list[str]) -> dict[str, int]:
    """``--games-for pimc=300`` -> {"pimc": 300}, checked."""
    out = {}
    for text in values:
        name, sep, number = text.partition("=")
        name = name.strip()
        if not sep or not number.strip():
            raise UserError(f"--games-for must look like NAME=GAMES (got {text!r})")
        if name not in names:
            raise UserError(f"--games-for {name}: not one of the strategies ({', '.join(names)})")
        try:
            games = int(number)
        except ValueError:
            raise UserError(f"--games-for {name}: '{number}' is not a whole number") from None
        check_games(games, least=2)
        out[name] = games
    return out


@click.command(epilog="Examples: handfoot ladder --rules standard --report ladder;  "
                      "handfoot ladder --strategies greedy,cautious,tuned,pimc "
                      "--games-for pimc=300 --report with-pimc")
@rules_option()
@click.option("--strategies", "names", default=None, metavar="A,B,...",
              help="Strategies (names or TOML files)  [default: random, greedy, tactician, "
                   "cautious and tuned where the rules have a tuned file]")
@click.option("--anchor", default=None,
              help="The strategy rated 0  [default: greedy if playing, else the mean]")
@click.option("--games-for", "games_for", multiple=True, metavar="NAME=GAMES",
              help="Fewer (or more) shuffles for every pair with NAME, e.g. pimc=300 for a "
                   "slow search player; repeatable.")
@allow_oracle_option()
@analysis_options(5_000)
@cluster_options()
def ladder(rules_spec: str, names: str | None, anchor: str | None, games_for: tuple[str, ...],
           allow_oracle: bool, games: int, seed: int, jobs: int, report_name: str | None,
           runs_dir: Path, reports_dir: Path, rerun: bool, progress: bool | None) -> None:
    """Every pair of strategies played paired, one Bradley-Terry rating each (Elo scale) with
    a 95% interval: a table, a ladder plot and a head-to-head plot.

    Each pair is a paired comparison (every shuffle played once per seating of A, any rule
    set); with more than two partnerships or players a game counts as A's comparisons with
    every partnership it did not play. Each pair's counts are weighted by its design effect
    so the intervals are as wide as the correlated games make them.
    """
    from analysis.experiments.pairings import rules_and_profile
    from analysis.experiments.playing import play_pairs
    from analysis.reports import ladder as lad
    from strategies.per_profile import tuned_profiles

    check_common(games, seed, jobs, report_name)
    with user_errors():
        rules, profile = rules_and_profile(rules_spec)
        if names is None:
            chosen = [n for n in lad.DEFAULT if n != "tuned" or profile in tuned_profiles()]
        else:
            chosen = [n.strip() for n in names.split(",") if n.strip()]
        labels = [lad.name_of(n) for n in chosen]
        counts = _games_for(games_for, labels)
        if anchor is None and "greedy" in labels:
            anchor = "greedy"
        root = runs_root(runs_dir, "ladder", report_name)
        pairings = lad.plan(chosen, rules_spec, root / "strategies", allow_oracle)
        by_games: dict[int, list] = {}
        for pairing in pairings:
            n = min([games] + [counts[s] for s in (pairing.a.label, pairing.b.label)
                               if s in counts])
            by_games.setdefault(n, []).append(pairing)
        played = {}
        for n, group in by_games.items():
            for pair in play_pairs(group, root, seed, n, jobs=jobs, rerun=rerun,
                                   progress=progress, note=note):
                played[pair.pairing.key] = pair
        pairs = [played[p.key] for p in pairings]
        games_note = "; ".join(f"pairs with {k}: {v:,}" for k, v in counts.items())
        params = {"rules": rules_spec, "strategies": chosen, "anchor": anchor, "seed": seed,
                  "games": games, "games_for": counts,
                  "games_note": games_note}
        finish("ladder", pairs, params, report_name, reports_dir, root)


@click.command(epilog="Examples: handfoot tune tactician --rules eleven --budget 300000 "
                      "--out tuned-eleven.toml --report tune-eleven;  (after Ctrl-C) the same "
                      "command with --resume")
@click.argument("strategy")
@rules_option()
@click.option("--budget", type=int, required=True, metavar="GAMES",
              help="Games the trials may play in all (every seating counts); the held-out "
                   "re-measure comes on top.")
@click.option("--against", default=None,
              help="The opponent of every trial  [default: STRATEGY at its defaults]")
@click.option("--out", "out_file", type=click.Path(path_type=Path), default=None,
              help="Write the winner as a strategy file (TOML) with how it measured.")
@click.option("--params", "param_names", default=None, metavar="A,B,...",
              help="Search only these parameters (the rest stay at the defaults).")
@click.option("--first-rung", type=int, default=250, show_default=True,
              help="Shuffles (each played in every seating) of the first rung of the race.")
@click.option("--rungs", type=int, default=4, show_default=True,
              help="Rungs of the race: each plays --reduction times the shuffles of the last.")
@click.option("--reduction", type=int, default=3, show_default=True,
              help="At each rung only the best 1/reduction of the trials go on.")
@click.option("--startup", type=int, default=16, show_default=True,
              help="Random trials before the sampler models the results.")
@click.option("--remeasure", type=int, default=20_000, show_default=True,
              help="Fresh shuffles (each in every seating) to measure the winner against "
                   "the defaults.")
@click.option("--resume", is_flag=True,
              help="Continue the study of this --report name (after Ctrl-C), same settings.")
@seed_option("Root seed of the study's shuffles (the re-measure plays seed + 1).")
@jobs_option()
@click.option("--report", "report_name", default=None, metavar="NAME",
              help="reports/NAME/ and runs/NAME/  [default: tune-STRATEGY-PROFILE]")
@click.option("--runs-dir", type=click.Path(path_type=Path), default=Path("runs"),
              show_default=True, help="Folder that holds run folders.")
@click.option("--reports-dir", type=click.Path(path_type=Path), default=Path("reports"),
              show_default=True, help="Folder that holds reports.")
@click.option("--rerun", is_flag=True, help="Start the study again from nothing.")
@allow_oracle_option()
@progress_option()
@cluster_options()
def tune(strategy: str, rules_spec: str, budget: int, against: str | None,
         out_file: Path | None, param_names: str | None, first_rung: int, rungs: int,
         reduction: int, startup: int, remeasure: int, resume: bool, seed: int, jobs: int,
         report_name: str | None, runs_dir: Path, reports_dir: Path, rerun: bool,
         allow_oracle: bool, progress: bool | None) -> None:
    """Search STRATEGY's parameters for the settings that win most under one rule set.

    optuna's TPE sampler proposes settings; every trial plays the same shuffles against the
    same opponent in every seating, in rungs of a growing number of shuffles, and only the
    best third of the trials at each rung go on (racing). The winner is then measured on
    fresh shuffles against the defaults; that measurement, with its intervals, is the answer.
    The study lives in runs/NAME/ (study.db): Ctrl-C keeps it and --resume continues it, and
    the same seed gives the same trials.
    """
    check_seed(seed)
    check_jobs(jobs)
    if resume and rerun:
        raise UserError("give either --resume or --rerun, not both")
    hint = "continue the study with the same command and --resume"
    try:
        content, report, outcome, folder = _tune(
            strategy, rules_spec, budget, against, out_file, param_names, first_rung, rungs,
            reduction, startup, remeasure, resume, seed, jobs, report_name, runs_dir,
            reports_dir, rerun, allow_oracle, progress, hint)
    except KeyboardInterrupt:
        raise Stopped(f"interrupted: the study keeps every finished trial; {hint}") from None
    click.echo(content.terminal())
    click.echo("")
    click.echo(f"study: {folder}/ ({len(outcome.trials)} trials, {outcome.spent:,} games)")
    if out_file is not None:
        click.echo(f"tuned strategy: {out_file}")
    click.echo(f"report: {report / 'index.html'}")


def _tune(strategy, rules_spec, budget, against, out_file, param_names, first_rung, rungs,
          reduction, startup, remeasure, resume, seed, jobs, report_name, runs_dir,
          reports_dir, rerun, allow_oracle, progress, hint):
    from analysis.experiments import tune as tn
    from analysis.experiments import tune_study as ts
    from analysis.experiments.pairings import rules_and_profile, side
    from analysis.reports.build import build_and_write
    from analysis.reports.tune import strategy_text

    with user_errors(hint):
        rules, profile = rules_and_profile(rules_spec)
        info = ts.base_info(strategy, rules_spec)
        names = tn.searched(info, param_names)
        name = report_name or f"tune-{Path(strategy).stem}-{profile.split(' ')[0]}"
        check_report_name(name)
        opponent = against or strategy
        settings = ts.TuneSettings(
            strategy=strategy, rules=rules_spec, rules_id=rules.rules_id, against=opponent,
            seed=seed, first_rung=first_rung, rungs=rungs, reduction=reduction,
            startup=startup, params=names, budget=budget, remeasure=remeasure)
        tn.check_settings(settings, rules.partnerships)
        folder = runs_dir / name
        if resume and not (folder / ts.SETTINGS).exists():
            raise UserError(f"--resume: {folder} holds no tuning study to continue")
        side(opponent, folder / "strategies", rules=rules, allow_oracle=allow_oracle)
        outcome = tn.run_study(settings, folder, jobs=jobs, resume=resume, rerun=rerun,
                               progress=progress, note=note)
        pairs = tn.held_out(outcome, folder, jobs=jobs, progress=progress, note=note)
        path, best = tn.best_side(outcome, folder)
        params = {"strategy": strategy, "rules": rules_spec, "against": opponent,
                  "seed": seed, "budget": budget, "study_dir": str(folder.resolve()),
                  "best": best, "best_file": path, "remeasure": remeasure}
        content, report = build_and_write("tune", pairs, params, reports_dir, name)
        rows = list(content.tables["results.csv"].iter_rows(named=True))
        if out_file is not None:
            text = strategy_text(outcome, best, rows[0], rows[1] if len(rows) > 1 else None)
            try:
                out_file.write_text(text, encoding="utf-8")
            except OSError as exc:
                raise UserError(f"cannot write --out {out_file}: {exc.strerror}") from None
    return content, report, outcome, folder
