"""What every command that answers a question with a report shares: its notes on stderr, the
check of its common options, the folder its runs go in, and the last step (build the report
of its kind, write it when named, print the answer).

The report kinds are those of analysis.reports.kinds; a command names its kind and this module
does the rest, so every command prints and writes its report the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from pathlib import Path

import click

from sim.cli.options import check_games, check_jobs, check_report_name, check_seed


def note(message: str) -> None:
    """A note for the user (a run played again, say) on stderr, apart from the answer."""
    click.echo(f"handfoot: {message}", err=True)


def check_common(games: int, seed: int, jobs: int, name: str | None) -> None:
    """Refuse the shared options of an analysis command before any game is played."""
    check_games(games, least=2)
    check_seed(seed)
    check_jobs(jobs)
    check_report_name(name)


def runs_root(runs_dir: Path, command: str, name: str | None) -> Path:
    """runs/<report name>/, so a report's runs are found (and reused) by its name; without a
    report, a new runs/<command>-<timestamp>/."""
    if name is not None:
        return runs_dir / name
    base = f"{command}-{datetime.now():%Y%m%d-%H%M%S}"
    path, n = runs_dir / base, 1
    while path.exists():
        n += 1
        path = runs_dir / f"{base}-{n}"
    return path


def finish(kind: str, pairs: Sequence, params: dict, name: str | None, reports_dir: Path,
           root: Path, extra: tuple[str, ...] = ()) -> None:
    """Analyse the runs as report ``kind`` (analysis.reports.kinds), write reports/NAME when
    a name is given, and print the answer, ``extra`` lines and where the runs and the report
    are."""
    from analysis.reports.build import build, build_and_write

    if name is not None:
        content, path = build_and_write(kind, list(pairs), params, reports_dir, name)
    else:
        content, path = build(kind, list(pairs), params, None), None
    click.echo(content.terminal())
    click.echo("")
    for line in extra:
        click.echo(line)
    click.echo(f"runs: {root}/ ({sum(p.seatings for p in pairs)} run folders)")
    if path is not None:
        click.echo(f"report: {path / 'index.html'}")
