"""The ``handfoot`` command line (click)."""

from __future__ import annotations

import sys
from datetime import datetime
from pathlib import Path

import click
from click.core import ParameterSource

from sim.cli.errors import Stopped, UserError, run_group
from sim.cli.options import (
    check_games,
    check_jobs,
    check_seed,
    rules_option,
    seed_option,
    strategy_options,
)
from sim.core.profiles import load_rules, profile_name
from sim.core.rules import Rules
from sim.runs.storage import Run, RunSpec, UntilCI
from strategies.per_profile import PER_PROFILE, check_spec, resolve_seats
from strategies.registry import REGISTRY

_STRATS = ", ".join(sorted([*REGISTRY, *PER_PROFILE]))


def _team_strategies(strategy: str | None, team0: str | None, team1: str | None) -> list[str]:
    if strategy is not None and (team0 is not None or team1 is not None):
        raise UserError("give either --strategy or --team0/--team1, not both")
    if strategy is not None and "," in strategy:
        names = [part.strip() for part in strategy.split(",")]  # one per seat
    elif strategy is not None:
        names = [strategy]  # every seat
    elif team0 is not None or team1 is not None:
        names = [team0 or "greedy", team1 or "greedy"]
    else:
        names = ["greedy"]
    for name in names:
        check_spec(name)  # a registered name or a strategy file; refused here, before any play
    return names


def _rules(name: str) -> Rules:
    return load_rules(name)


def _play_options(func):
    """Options shared by every command that plays games."""
    for option in reversed([seed_option(), strategy_options(_STRATS),
                            rules_option("rules_name")]):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def app() -> None:
    """Monte Carlo simulator for the card game Hand and Foot."""


@app.command(epilog="Example: handfoot simulate --games 20000 --team0 greedy --team1 random "
             "--jobs 2")
@click.option("--games", "-n", type=int, default=None,
              help="Complete 4-deal games to play  [default: 20000; with --until-ci the most "
                   "to play, default 10,000,000]")
@_play_options
@click.option("--jobs", "-j", type=int, default=0, show_default=True,
              help="Worker processes (0: one per core).")
@click.option("--chunk-size", type=int, default=5000, show_default=True,
              help="Games per chunk of work (one Parquet file each).")
@click.option("--out-dir", type=click.Path(path_type=Path), default=Path("runs"),
              show_default=True, help="Folder that holds run folders.")
@click.option("--name", default=None,
              help="Run folder name  [default: <timestamp>-<rules id>]")
@click.option("--resume", type=click.Path(path_type=Path), default=None,
              help="Finish the missing chunks of this run folder.")
@click.option("--summary-only", is_flag=True,
              help="Keep only per-chunk aggregates, no per-deal records (for huge runs).")
@click.option("--backend", default="loky", show_default=True,
              help="Where chunks run: loky (this machine) or dask (a dask.distributed cluster).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --backend dask).")
@click.option("--connect-timeout", type=float, default=10.0, show_default=True,
              help="Seconds to wait for the dask scheduler and a worker.")
@click.option("--until-ci", type=float, default=None, metavar="WIDTH",
              help="Add chunks until the 95% interval of --metric is narrower than WIDTH.")
@click.option("--metric", type=click.Choice(["win-rate", "score-diff"]), default="win-rate",
              show_default=True,
              help="For --until-ci: partnership 0's game win rate, or the mean per-game score "
                   "difference team0 - team1 (points).")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr  [default: when stderr is a terminal]")
def simulate(games: int | None, seed: int, strategy: str | None, team0: str | None,
             team1: str | None, rules_name: str, jobs: int, chunk_size: int, out_dir: Path,
             name: str | None, resume: Path | None, summary_only: bool, backend: str,
             scheduler: str | None, connect_timeout: float, until_ci: float | None,
             metric: str, progress: bool | None) -> None:
    """Play games in chunks over every core (or a dask cluster) into a run folder, then print
    each partnership's win rate, scores, deal lengths and books.

    A run folder holds one Parquet file per chunk and manifest.json; Ctrl-C keeps finished
    chunks and --resume finishes the rest, with records identical to an uninterrupted run.
    """
    from analysis.reports.summary import format_summary, summary_from_aggregate
    from sim.runs.runner import Interrupted, simulate_to

    check_jobs(jobs)
    if connect_timeout <= 0:
        raise UserError(f"--connect-timeout must be positive (got {connect_timeout:g})")
    if resume is not None:
        run = _open_for_resume(resume, click.get_current_context())
        spec = run.spec
    else:
        spec = _new_spec(games, seed, strategy, team0, team1, rules_name, chunk_size,
                         summary_only, until_ci, metric)
        if name is not None and (not name or "/" in name or name in (".", "..")):
            raise UserError(f"--name must be a plain folder name (got {name!r})")
        path = out_dir / (name or _default_name(out_dir, spec.rules.rules_id))
    show = sys.stderr.isatty() if progress is None else progress

    def note(message: str) -> None:
        click.echo(f"handfoot: {message}", err=True)

    try:
        run, outcome, where = simulate_to(resume if resume is not None else path,
                                          None if resume is not None else spec, backend, jobs,
                                          scheduler, connect_timeout, progress=show, note=note)
    except Interrupted as exc:
        raise Stopped(str(exc)) from None
    kept = "Parquet (zstd)" if spec.keep_records else "summary only"
    click.echo(f"rules: {spec.profile} ({spec.rules.rules_id}); seed {spec.seed}; "
               f"{where.describe()}")
    click.echo(f"run: {run.path} ({len(run.chunks)} chunks, {kept}); played "
               f"{outcome.games_played:,} games in {outcome.seconds:.1f} s "
               f"({outcome.deals_per_second:,.0f} deals/s)"
               + (f"; {outcome.reused} chunks were already done" if outcome.reused else ""))
    if spec.until_ci is not None:
        what = ("partnership 0's game win rate" if spec.until_ci.metric == "win-rate"
                else "mean score difference per game")
        if outcome.reached:
            click.echo(f"until-ci: 95% interval of {what} is {outcome.width:.4g} wide "
                       f"(< {spec.until_ci.width:g}) after {len(run.chunks)} chunks")
        else:
            click.echo(f"until-ci: not reached: 95% interval of {what} is {outcome.width:.4g}"
                       f" wide after all {len(run.chunks)} chunks (--games {spec.games:,})")
    click.echo(format_summary(summary_from_aggregate(run.aggregate(),
                                                     list(spec.team_strategies))))


@app.command(epilog="Example: handfoot summary runs/20250101-120000-c5d8a19d195d")
@click.argument("run_dir", type=click.Path(path_type=Path))
def summary(run_dir: Path) -> None:
    """Check every chunk file of a run against its checksum and print its summary, computed
    from the Parquet records (or from the per-chunk aggregates of a --summary-only run)."""
    from analysis.reports.summary import format_summary, summary_from_aggregate
    from sim.runs.aggregate import aggregate_columns, merge_all

    run = Run.open(run_dir)
    spec = run.spec
    if not run.done():
        raise UserError(f"{run_dir} has no finished chunks yet")
    if spec.keep_records:
        import polars as pl

        run.verify()  # every file, by name, before anything is read
        teams = spec.rules.partnerships

        def chunk_aggregates():
            for index in run.done():
                frame = pl.scan_parquet(run.chunk_path(index)).collect()
                cols = {c: frame[c].to_numpy() for c in frame.columns}
                yield aggregate_columns(cols, spec.rules.deals_per_game, teams)

        agg = merge_all(chunk_aggregates(), teams)
        source = f"{len(run.done())} chunk files verified (sha256) and read"
    else:
        agg = run.aggregate()
        source = f"aggregates of {len(run.done())} chunks (--summary-only)"
    click.echo(f"rules: {spec.profile} ({spec.rules.rules_id}); seed {spec.seed}")
    click.echo(f"run: {run.path} ({run.manifest['status']}; {source})")
    click.echo(format_summary(summary_from_aggregate(agg, list(spec.team_strategies))))


def _new_spec(games: int | None, seed: int, strategy: str | None, team0: str | None,
              team1: str | None, rules_name: str, chunk_size: int, summary_only: bool,
              until_ci: float | None, metric: str) -> RunSpec:
    from sim.play.api import seats_for_teams

    if games is None:
        games = 20_000 if until_ci is None else 10_000_000
    check_games(games)
    check_seed(seed)
    if chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1 (got {chunk_size})")
    until = None
    if until_ci is not None:
        if not until_ci > 0 or until_ci != until_ci:
            raise UserError(f"--until-ci must be a positive width (got {until_ci:g})")
        until = UntilCI(until_ci, metric)
    teams = _team_strategies(strategy, team0, team1)
    rules = _rules(rules_name)
    seats = tuple(seats_for_teams(teams, rules.players))
    # Seat s plays for partnership s mod partnerships, so partnership t's strategy is seat t's.
    return RunSpec(rules=rules, profile=_profile(rules_name, rules),
                   team_strategies=seats[: rules.partnerships], seat_strategies=seats,
                   seed=seed, games=games, chunk_size=chunk_size,
                   keep_records=not summary_only, until_ci=until)


def _profile(rules_name: str, rules: Rules) -> str:
    """The profile the rules equal, else the rule file they came from."""
    name = profile_name(rules)
    return name if name != "custom" else f"custom ({rules_name})"


def _default_name(out_dir: Path, rules_id: str) -> str:
    base = f"{datetime.now():%Y%m%d-%H%M%S}-{rules_id}"
    name, n = base, 1
    while (out_dir / name).exists():
        n += 1
        name = f"{base}-{n}"
    return name


def _open_for_resume(path: Path, ctx: click.Context) -> Run:
    """The run to finish; options that define results must match it or be left out."""
    run = Run.open(path)
    spec = run.spec
    given = {p for p in ctx.params
             if ctx.get_parameter_source(p) in (ParameterSource.COMMANDLINE,
                                                ParameterSource.ENVIRONMENT)}
    p = ctx.params
    for option in ("name", "out_dir"):
        if option in given:
            raise UserError(f"--{option.replace('_', '-')} does not go with --resume "
                            "(the run folder is given)")
    differs = []

    def check(what: str, wanted, has) -> None:
        if wanted != has:
            differs.append(f"{what} {wanted} (the run has {has})")

    if "seed" in given:
        check("seed", p["seed"], spec.seed)
    if given & {"strategy", "team0", "team1"}:
        from sim.play.api import seats_for_teams

        teams = _team_strategies(p["strategy"], p["team0"], p["team1"])
        wanted = resolve_seats(seats_for_teams(teams, spec.rules.players), spec.rules)
        if [i.played for i in wanted] != [i.played for i in spec.engine_seats()]:
            differs.append(f"strategies {'/'.join(teams)} (the run has "
                           f"{'/'.join(spec.team_strategies)})")
    if "rules_name" in given:
        rules = _rules(p["rules_name"])
        check("rules", f"{p['rules_name']} ({rules.rules_id})",
              f"{spec.profile} ({spec.rules.rules_id})")
    if "games" in given:
        check("--games", p["games"], spec.games)
    if "chunk_size" in given:
        check("--chunk-size", p["chunk_size"], spec.chunk_size)
    if "summary_only" in given:
        check("--summary-only", p["summary_only"], not spec.keep_records)
    if "until_ci" in given:
        check("--until-ci", p["until_ci"], spec.until_ci and spec.until_ci.width)
    if "metric" in given:
        check("--metric", p["metric"], spec.until_ci and spec.until_ci.metric)
    if differs:
        raise UserError(f"cannot resume {path} with a different {'; '.join(differs)}; "
                        "start a new run instead")
    return run


@app.command(epilog="Example: handfoot trace --games 2 --seed 7 --out deals.jsonl")
@click.option("--out", "-o", type=click.Path(path_type=Path), required=True,
              help="JSON Lines file to write.")
@click.option("--games", "-n", type=int, default=1, show_default=True, help="Games to trace.")
@_play_options
def trace(out: Path, games: int, seed: int, strategy: str | None, team0: str | None,
          team1: str | None, rules_name: str) -> None:
    """Write every event of some games as JSON Lines (the trace format)."""
    from sim.play.api import seats_for_teams
    from sim.runs.trace import trace_games, write_jsonl

    check_games(games)
    check_seed(seed)
    teams = _team_strategies(strategy, team0, team1)
    rules = _rules(rules_name)
    seats = resolve_seats(seats_for_teams(teams, rules.players), rules)
    try:
        handle = out.open("w", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write --out {out}: {exc.strerror}") from None
    with handle:
        lines = trace_games(rules, seats, seed, 0, games)
        n = write_jsonl(lines, handle)
    click.echo(f"wrote {n} lines for {games} games to {out}")


@app.command(epilog="Example: handfoot trace --games 1 --out t.jsonl && handfoot replay "
                    "t.jsonl --deal 2")
@click.argument("trace_file", type=click.Path(path_type=Path))
@click.option("--game", "-g", type=int, default=0, show_default=True, help="Game index.")
@click.option("--deal", "-d", type=int, default=1, show_default=True, help="Deal 1-4.")
def replay(trace_file: Path, game: int, deal: int) -> None:
    """Tell one deal of a trace turn by turn in plain words: who drew, picked up what, melded
    what, asked, went out, and the score."""
    from sim.runs.replay import tell
    from sim.runs.trace import read_trace

    for sentence in tell(read_trace(trace_file), game, deal):
        click.echo(sentence)


def _add_groups() -> None:
    """``rules``, ``strategies`` and the analysis commands live in their own modules."""
    from sim.cli.analysis import COMMANDS  # compare, sweep, rules-compare, report, ask
    from sim.cli.guide import guide
    from sim.cli.learn import learn
    from sim.cli.position import position
    from sim.cli.rules import rules
    from sim.cli.strategies import strategies
    from sim.cli.study import ladder, tune

    app.add_command(ladder)
    app.add_command(tune)
    app.add_command(rules)
    app.add_command(strategies)
    app.add_command(position)
    app.add_command(guide)
    app.add_command(learn)
    for command in COMMANDS:
        app.add_command(command)


_add_groups()


def main(argv: list[str] | None = None) -> None:
    """Entry point: user mistakes become one line on stderr and exit code 2."""
    run_group(app, argv)


if __name__ == "__main__":
    main()
