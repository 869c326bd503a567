"""Options every command shares, declared once, and their checks (one-line errors)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path

import click

from sim.cli.errors import UserError


def _apply(options: list) -> Callable:
    def decorate(func):
        for option in reversed(options):
            func = option(func)
        return func

    return decorate


def seed_option(help_text: str = "Root seed: the same seed gives the same results."):
    return click.option("--seed", "-s", type=int, default=1, show_default=True, help=help_text)


def jobs_option():
    return click.option("--jobs", "-j", type=int, default=0, show_default=True,
                        help="Worker processes (0: one per core).")


def rules_option(dest: str = "rules_spec"):
    return click.option("--rules", dest, default="standard", show_default=True,
                        help="Rule profile (see `handfoot rules list`) or rule file (TOML).")


def progress_option():
    return click.option("--progress/--no-progress", default=None,
                        help="Progress on stderr  [default: when stderr is a terminal]")


def strategy_options(names: str):
    """--strategy (every seat, or one per seat), --team0, --team1."""
    return _apply([
        click.option("--strategy", default=None,
                     help=f"Strategy (a name: {names}; or a .toml file) for every seat, or a "
                          "comma-separated list with one per seat."),
        click.option("--team0", default=None,
                     help="Strategy (name or .toml file) of partnership 0 (seats 0, 2)."),
        click.option("--team1", default=None,
                     help="Strategy (name or .toml file) of partnership 1 (seats 1, 3)."),
    ])


def allow_oracle_option():
    return click.option("--allow-oracle", is_flag=True,
                        help="Allow a strategy that sees hidden cards (oracle): a measuring "
                             "ceiling, never a fair opponent.")


def player_options():
    """--player (repeatable) and --allow-oracle: who an answer is about (the shipped ladder's
    strongest fast players by default; analysis.experiments.players)."""
    return _apply([
        click.option("--player", "players", multiple=True, metavar="NAME|FILE",
                     help="A strong player to measure with (a name or a strategy file); repeat "
                          "for several  [default: the two strongest fast players measured for "
                          "the rules (strategies/ladder.toml: learned, then tuned); for a rule "
                          "file, a tuned and a learned player built for it once (kept under "
                          "--runs-dir/players/ and reused), the stronger first]"),
        allow_oracle_option(),
        build_scale_option(),
    ])


def build_scale_option():
    return click.option("--build-scale", type=click.FloatRange(0.01, 20.0), default=1.0,
                        show_default=True, metavar="X",
                        help="For rules without a shipped ladder (a rule file): scale the "
                             "budget of building their strong players once (tune 40,000 "
                             "games, learn 20,000 games, match 600 shuffles) by X. Players "
                             "kept from a build at another scale, or by another engine build "
                             "or feature version, are refused, not reused or rebuilt over: "
                             "give the scale they were built at, or delete their folder "
                             "(the error names both).")


def analysis_options(default_games: int):
    """Options of the commands that play paired comparisons and write reports."""
    return _apply([
        click.option("--games", "-n", type=int, default=default_games, show_default=True,
                     help="Shuffles per comparison, each played once per seating of A (2x "
                          "this many games with two partnerships, Nx with N)."),
        seed_option("Root seed: every comparison plays the same shuffles."),
        jobs_option(),
        click.option("--report", "report_name", default=None, metavar="NAME",
                     help="Also write reports/NAME/ (index.html, summary.md, plots, CSV, "
                          "manifest); runs go to runs/NAME/."),
        click.option("--runs-dir", type=click.Path(path_type=Path), default=Path("runs"),
                     show_default=True, help="Folder that holds run folders."),
        click.option("--reports-dir", type=click.Path(path_type=Path), default=Path("reports"),
                     show_default=True, help="Folder that holds reports."),
        click.option("--rerun", is_flag=True,
                     help="Replace the runs of an earlier command of the same name instead "
                          "of reusing (or resuming) them."),
        progress_option(),
    ])


def cluster_options():
    """--backend, --scheduler and --connect-timeout, as ``simulate`` has them, for a command
    that plays its games through many runs: the command's whole body plays on that backend
    (``sim.runs.where``). The scheduler is reached once before anything is played, so a wrong
    address is one line, not a failure after the first runs."""
    options = [
        click.option("--backend", type=click.Choice(["loky", "dask"]), default="loky",
                     show_default=True,
                     help="Where the games run: loky (this machine's cores) or dask (a "
                          "dask.distributed cluster; the records are the same)."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="dask scheduler address, e.g. tcp://10.0.0.5:8786 (with --backend "
                          "dask)."),
        click.option("--connect-timeout", type=float, default=10.0, show_default=True,
                     help="Seconds to wait for the dask scheduler and a worker."),
    ]

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapper(*args, backend: str, scheduler: str | None, connect_timeout: float,
                    **kwargs):
            from sim.runs.runner import RunnerError, open_backend
            from sim.runs.where import Where, use

            if connect_timeout <= 0:
                raise UserError(f"--connect-timeout must be positive (got {connect_timeout:g})")
            try:
                with open_backend(backend, 0, scheduler, connect_timeout) as reached:
                    workers = reached.workers  # reachable, with a worker: or one line now
            except RunnerError as exc:
                raise UserError(str(exc)) from None
            with use(Where(backend, scheduler, connect_timeout,
                           workers if backend == "dask" else 0)):
                return func(*args, **kwargs)

        return _apply(options)(wrapper)

    return decorate


def check_games(games: int, least: int = 1) -> None:
    if games < least:
        raise UserError(f"--games must be at least {least} (got {games})")


def check_seed(seed: int) -> None:
    if seed < 0 or seed >= 2**63:
        raise UserError(f"--seed must be in 0..2**63-1 (got {seed})")


def check_jobs(jobs: int) -> None:
    if jobs < 0:
        raise UserError(f"--jobs must be 0 (one per core) or more (got {jobs})")


def check_report_name(name: str | None) -> None:
    from analysis.reports.writer import check_name

    if name is not None:
        try:
            check_name(name)
        except ValueError as exc:
            raise UserError(str(exc)) from None


def check_report_folder(folder: Path) -> None:
    """A report folder a command will write at its end, checked before it plays: a plain
    name, and empty, absent or a handfoot report (the work would otherwise be lost at the
    last step)."""
    from analysis.reports.writer import check_replaceable

    check_report_name(folder.name)
    try:
        check_replaceable(folder)
    except ValueError as exc:
        raise UserError(str(exc)) from None
