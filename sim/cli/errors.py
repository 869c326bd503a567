"""The command line's one error type: a user's mistake is one line on stderr and exit code 2;
an interrupted run is one line and exit code 130. Errors of the layers below that name a
user's mistake (a bad rule file, an unknown strategy, a run folder in the way) become
``UserError`` in ``user_errors``; anything else is a bug and keeps its traceback."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import click


class UserError(click.ClickException):
    """A mistake in the command line or its files: one line on stderr, exit code 2."""

    exit_code = 2


class Stopped(click.ClickException):
    """Ctrl-C or SIGTERM during a run: finished chunks are kept; exit code 130."""

    exit_code = 130


def _mistakes() -> tuple[type[Exception], ...]:
    from analysis.experiments.learn import LearnError
    from analysis.experiments.learn_fit import FitError
    from analysis.experiments.pairings import PlayError
    from analysis.experiments.sequential import SprtInputError
    from analysis.experiments.tune_study import TuneError
    from analysis.reports.content import ReportError
    from analysis.statistics.paired import PairingError
    from sim.core.rules import RulesError
    from sim.play.positions import PositionError
    from sim.runs.replay import ReplayError
    from sim.runs.storage import RunError
    from sim.runs.trace import TraceError
    from strategies.learned.model_file import ModelError
    from strategies.registry import StrategyError

    return (RulesError, StrategyError, RunError, PairingError, ReportError, PlayError,
            PositionError, SprtInputError, ReplayError, TuneError, TraceError, LearnError,
            FitError, ModelError)


def _interrupted() -> tuple[type[BaseException], ...]:
    """The runner's ``Interrupted``, if the runner was loaded: only a command that played can
    have been interrupted, and a command that plays nothing (``handfoot report``) must not
    load the runner, which loads the compiled engine, just to name the exception. Evaluated
    when an exception is being handled, so by then the runner is loaded if it ran."""
    runner = sys.modules.get("sim.runs.runner")
    return (runner.Interrupted,) if runner is not None else ()


@contextlib.contextmanager
def user_errors(resume_hint: str = "run the same command again to finish") -> Iterator[None]:
    """Every error that names a user's mistake becomes ``UserError``; an interrupted run
    becomes ``Stopped`` with what was kept."""
    try:
        yield
    except _interrupted() as exc:
        run = exc.run
        raise Stopped(f"interrupted: {len(run.done())} of {len(run.chunks)} chunks of "
                      f"{run.path} are kept; {resume_hint}") from None
    except _mistakes() as exc:
        raise UserError(str(exc)) from None


def fail(message: str, code: int = 2) -> None:
    print(f"handfoot: error: {message}", file=sys.stderr)
    sys.exit(code)


def run_group(group: click.Group, argv: list[str] | None) -> None:
    """Run a click group with handfoot's conventions: mistakes are one line and exit 2."""
    args = sys.argv[1:] if argv is None else argv
    try:
        with user_errors():
            group.main(args=args or ["--help"], prog_name="handfoot", standalone_mode=False)
    except Stopped as exc:
        print(f"handfoot: {exc.format_message()}", file=sys.stderr)
        sys.exit(exc.exit_code)
    except click.UsageError as exc:
        fail(exc.format_message())
    except click.ClickException as exc:
        fail(exc.format_message(), exc.exit_code)
    except click.Abort:
        print("handfoot: interrupted", file=sys.stderr)
        sys.exit(130)
