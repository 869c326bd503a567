"""``handfoot learn``: fit a value model for one rule set (analysis.experiments.learn) and
write its model file and its report (the report kind ``learn``, analysis.reports.learn, which
``handfoot report NAME`` rebuilds from the model file). User mistakes are one line and exit
code 2 (sim.cli.errors)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from sim.cli.common import note
from sim.cli.errors import UserError, user_errors
from sim.cli.options import (
    check_games,
    check_jobs,
    check_report_folder,
    check_seed,
    cluster_options,
    jobs_option,
    progress_option,
    rules_option,
    seed_option,
)
from sim.runs.storage import MAX_LABEL_HORIZON

GAMES = 20_000


@click.command(epilog="Examples: handfoot learn --rules standard --out standard.json;  "
                      "handfoot learn --rules club.toml --player cautious --games 5000 "
                      "--out club.json;  handfoot learn --rules standard --player learned "
                      "--out round2.json (a round of expert iteration: the learned player "
                      "plays the games)")
@rules_option()
@click.option("--out", "out", type=click.Path(path_type=Path), required=True,
              help="The model file to write (JSON); written only once the fit is done.")
@click.option("--player", default=None, metavar="STRATEGY",
              help="The strategy every seat plays while positions are recorded  [default: "
                   "tuned where the profile has a tuned file, else cautious]")
@click.option("--games", "-n", type=int, default=GAMES, show_default=True,
              help="Games to play (the last tenth held out to measure the model).")
@seed_option("Root seed: the same seed and games give the same model file, bit for bit.")
@click.option("--sample-rate", type=float, default=0.05, show_default=True,
              help="Chance that a decision's position is recorded.")
@click.option("--worlds", type=int, default=16, show_default=True,
              help="Imagined deals behind each recorded candidate's target (the search's "
                   "value, every seat playing the player's base policy); 0: the deal's "
                   "realised outcome, one row per recorded decision.")
@click.option("--label-horizon", type=click.IntRange(0, MAX_LABEL_HORIZON), default=0,
              show_default=True,
              help="0: each world of a target is played to the end of the deal; H: by the "
                   "leaf search, the base policy for H of the seat's own turns, then valued by "
                   "--label-model (cheaper a world, so more worlds a label).")
@click.option("--label-model", type=click.Path(path_type=Path), default=None,
              help="The value model of --label-horizon's leaves  [default: the profile's "
                   "shipped one, strategies/learned/models/<profile>.value.json]")
@click.option("--explore", type=float, default=0.5, show_default=True,
              help="Chance that a recorded decision plays a random sensible candidate "
                   "instead of the player's own choice.")
@click.option("--target", type=click.Choice(["advantage", "value"]), default="advantage",
              show_default=True,
              help="What the model predicts: how much better each candidate's position is "
                   "than the base policy's choice's (fitted on the differences of the "
                   "search's values, which share their worlds), or a position's value.")
@click.option("--kind", type=click.Choice(["mlp", "ridge"]), default="mlp", show_default=True,
              help="The model: a one-hidden-layer network of rectified units, or ridge "
                   "regression on the features.")
@click.option("--loss", type=click.Choice(["regression", "rank"]), default="regression",
              show_default=True,
              help="How the network is fitted: regression on the searched advantages, or "
                   "(rank) refined from that fit on each decision's order: the softmax "
                   "cross-entropy of its scores against the searched advantages, weighted "
                   "by what a wrong choice there costs (--kind mlp, --target advantage).")
@click.option("--temperature", type=click.FloatRange(1.0, 10_000.0), default=None,
              help="Points: the softmax temperature of --loss rank  [default: 50]")
@click.option("--hidden", type=click.IntRange(1, 48), default=32, show_default=True,
              help="Hidden units of the network.")
@click.option("--alpha", type=float, default=1.0, show_default=True,
              help="Ridge penalty (with --kind ridge).")
@click.option("--rounds", type=click.IntRange(1, 5), default=1, show_default=True,
              help="Rounds of expert iteration: round r's games are played by the learned "
                   "player of round r - 1's model, and round r's model is fitted on them.")
@click.option("--measure", type=click.IntRange(0, 1_000_000), default=0, show_default=True,
              metavar="SHUFFLES",
              help="Match each round's learned player against --player on this many "
                   "shuffles in every seating and write the figures in the model file.")
@click.option("--name", default=None, metavar="NAME",
              help="The run folder under --runs-dir  [default: learn-<rules>-<player>-s<seed>-"
                   "g<games>]")
@click.option("--resume", is_flag=True,
              help="Continue the interrupted run of these settings (running the same command "
                   "again does too).")
@click.option("--runs-dir", type=click.Path(path_type=Path), default=Path("runs"),
              show_default=True, help="Where the recording runs go.")
@click.option("--report-dir", type=click.Path(path_type=Path), default=None,
              help="Where the report goes  [default: reports/<name of --out>]")
@jobs_option()
@progress_option()
@cluster_options()
def learn(rules_spec: str, out: Path, player: str | None, games: int, seed: int,
          sample_rate: float, worlds: int, label_horizon: int, label_model: Path | None,
          explore: float, target: str, kind: str, loss: str, temperature: float | None,
          hidden: int, alpha: float, rounds: int, measure: int,
          name: str | None, resume: bool, runs_dir: Path, report_dir: Path | None, jobs: int,
          progress: bool | None) -> None:
    """Fit the model of a `learned` player for one rule set: play games with every seat
    playing --player; at a sample of the decisions, value every sensible candidate by the
    search (--worlds imagined deals each, played on by the player's base policy to the end of
    the deal, or with --label-horizon for that many own turns and then valued by a value
    model) and record the features of the position it leads to, from the deciding seat's view
    (strategies/lookahead/features.py); fit a model of how much better each candidate is than
    the base policy's choice (or, --target value, of a position's value); write it to --out
    with its held-out error, calibration and learning curve, and a report.

    The `learned` strategy plays a model file: name it in a strategy file (base = "learned",
    model = "FILE"); the shipped models (strategies/learned/models/) are rebuilt by the
    commands in docs/learned.md. Ctrl-C keeps the games played; --resume continues.
    """

    from analysis.experiments.learn import LearnSettings
    from analysis.experiments.learn import learn as run_learn
    from analysis.experiments.learn_fit import FitSettings, held_out_headline
    from analysis.reports.build import build_and_write
    from analysis.reports.learn import model_params

    if temperature is not None and loss != "rank":
        raise click.UsageError("--temperature is the rank loss's: give it with --loss rank")
    check_games(games, least=2)
    check_seed(seed)
    check_jobs(jobs)
    folder = report_dir or Path("reports") / out.stem
    check_report_folder(folder)  # refused before the games, not after the fit
    with user_errors("continue with the same command and --resume"):
        player = player or _default_player(rules_spec)
        settings = LearnSettings(rules=rules_spec, player=player, seed=seed, games=games,
                                 sample_rate=sample_rate, explore=explore, worlds=worlds,
                                 label_horizon=label_horizon,
                                 label_model=str(label_model) if label_model else "",
                                 fit=FitSettings(kind=kind, target=target, alpha=alpha,
                                                 hidden=hidden, seed=seed, loss=loss,
                                                 temperature=(FitSettings.temperature
                                                              if temperature is None
                                                              else temperature)))
        show = sys.stderr.isatty() if progress is None else progress
        model = run_learn(settings, out, runs_dir, name=name, resume=resume, jobs=jobs,
                          progress=show, note=note, rounds=rounds, measure=measure)
        _, folder = build_and_write("learn", [], model_params(out), folder.parent,
                                    folder.name)
    held = model.metadata["held_out"]
    click.echo(f"model: {out} ({model.kind}, rules id {model.rules_id}, "
               f"{model.metadata['training']['rows']:,} positions from {games:,} games of "
               f"{model.metadata['training']['player']})")
    click.echo(f"held out ({held['rows']:,} {held['target']} rows): "
               f"{held_out_headline(model.metadata)}")
    for r in model.metadata.get("rounds", []):
        click.echo(f"round {r['round']}: wins {r['win_rate']:.1%} of games against "
                   f"{r['opponent']} (95% CI {r['win_low']:.1%} to {r['win_high']:.1%}; even "
                   f"{r['even']:.1%}), {r['per_deal']:+,.1f} points per deal, "
                   f"{r['shuffles']:,} shuffles in each of {r['seatings']} seatings")
    click.echo(f"report: {folder / 'index.html'}")


def _default_player(rules_spec: str) -> str:
    """tuned where the rules are a profile with a tuned file, else cautious (said aloud)."""
    from analysis.experiments.pairings import rules_and_profile
    from strategies.per_profile import tuned_profiles

    _, profile = rules_and_profile(rules_spec)
    if profile in tuned_profiles():
        return "tuned"
    if not rules_spec.endswith(".toml"):
        raise UserError(f"no player for {rules_spec}: name one with --player")
    return "cautious"

