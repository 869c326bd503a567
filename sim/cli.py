"""The ``handfoot`` command line (click)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from sim.profiles import load_rules
from sim.rules import Rules, RulesError
from strategies.registry import REGISTRY, StrategyError, get

_STRATS = ", ".join(sorted(REGISTRY))


class UserError(click.ClickException):
    """A mistake in the command line: one line on stderr, exit code 2."""

    exit_code = 2


def _check_games(games: int) -> None:
    if games < 1:
        raise UserError(f"--games must be at least 1 (got {games})")


def _check_seed(seed: int) -> None:
    if seed < 0 or seed >= 2**63:
        raise UserError(f"--seed must be in 0..2**63-1 (got {seed})")


def _team_strategies(strategy: str | None, team0: str | None, team1: str | None) -> list[str]:
    if strategy is not None and (team0 is not None or team1 is not None):
        raise UserError("give either --strategy or --team0/--team1, not both")
    names = [strategy, strategy] if strategy is not None else [team0 or "greedy",
                                                               team1 or "greedy"]
    for name in names:
        get(name)
    return names


def _rules(name: str) -> Rules:
    return load_rules(name)


def _play_options(func):
    """Options shared by every command that plays games."""
    options = [
        click.option("--seed", "-s", type=int, default=1, show_default=True,
                      help="Root seed: the same seed gives the same results."),
        click.option("--strategy", default=None, help=f"Strategy for every seat ({_STRATS})."),
        click.option("--team0", default=None, help="Strategy of partnership 0 (seats 0, 2)."),
        click.option("--team1", default=None, help="Strategy of partnership 1 (seats 1, 3)."),
        click.option("--rules", "rules_name", default="standard", show_default=True,
                     help="Rule profile."),
    ]
    for option in reversed(options):
        func = option(func)
    return func


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def app() -> None:
    """Monte Carlo simulator for the card game Hand and Foot."""


@app.command(epilog="Example: handfoot simulate --games 20000 --team0 greedy --team1 random "
             "--jobs 2")
@click.option("--games", "-n", type=int, default=20_000, show_default=True,
              help="Complete 4-deal games to play.")
@_play_options
@click.option("--jobs", "-j", type=int, default=0, show_default=True,
              help="Worker processes (0: one per core).")
@click.option("--chunk-size", type=int, default=5000, show_default=True,
              help="Games per chunk of work.")
def simulate(games: int, seed: int, strategy: str | None, team0: str | None,
             team1: str | None, rules_name: str, jobs: int, chunk_size: int) -> None:
    """Play games and print each partnership's win rate, scores, deal lengths and books."""
    from analysis.summary import format_summary, summarize
    from sim.api import seats_for_teams
    from sim.runner import run_games

    _check_games(games)
    _check_seed(seed)
    if jobs < 0:
        raise UserError(f"--jobs must be 0 (one per core) or more (got {jobs})")
    if chunk_size < 1:
        raise UserError(f"--chunk-size must be at least 1 (got {chunk_size})")
    teams = _team_strategies(strategy, team0, team1)
    rules = _rules(rules_name)
    n_jobs = jobs or (os.cpu_count() or 1)
    records = run_games(rules, seats_for_teams(teams, rules.players), seed, games,
                        jobs=n_jobs, chunk_size=chunk_size, progress=sys.stderr.isatty())
    click.echo(f"rules: {rules_name} ({rules.rules_id}); seed {seed}; jobs {n_jobs}")
    click.echo(format_summary(summarize(records, rules.deals_per_game, teams)))


@app.command(epilog="Example: handfoot trace --games 2 --seed 7 --out deals.jsonl")
@click.option("--out", "-o", type=click.Path(path_type=Path), required=True,
              help="JSON Lines file to write.")
@click.option("--games", "-n", type=int, default=1, show_default=True, help="Games to trace.")
@_play_options
def trace(out: Path, games: int, seed: int, strategy: str | None, team0: str | None,
          team1: str | None, rules_name: str) -> None:
    """Write every event of some games as JSON Lines (the trace format)."""
    from sim.api import seats_for_teams
    from sim.trace import trace_games, write_jsonl

    _check_games(games)
    _check_seed(seed)
    teams = _team_strategies(strategy, team0, team1)
    rules = _rules(rules_name)
    try:
        handle = out.open("w", encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write --out {out}: {exc.strerror}") from None
    with handle:
        lines = trace_games(rules, seats_for_teams(teams, rules.players), seed, 0, games)
        n = write_jsonl(lines, handle)
    click.echo(f"wrote {n} lines for {games} games to {out}")


def main(argv: list[str] | None = None) -> None:
    """Entry point: user mistakes become one line on stderr and exit code 2."""
    args = sys.argv[1:] if argv is None else argv
    try:
        app.main(args=args or ["--help"], prog_name="handfoot", standalone_mode=False)
    except (RulesError, StrategyError) as exc:
        _fail(str(exc))
    except click.UsageError as exc:
        _fail(exc.format_message())
    except click.ClickException as exc:
        _fail(exc.format_message(), exc.exit_code)
    except click.Abort:
        print("handfoot: interrupted", file=sys.stderr)
        sys.exit(130)


def _fail(message: str, code: int = 2) -> None:
    print(f"handfoot: error: {message}", file=sys.stderr)
    sys.exit(code)


if __name__ == "__main__":
    main()
