"""Where the games of a command run: this machine's cores (loky) or a dask.distributed cluster.

``simulate`` takes ``--backend dask --scheduler ADDRESS``; every other command that plays games
(compare, ladder, guide, ask hold-wild, sweep, rules-compare, tune, learn) plays them through
``analysis.experiments.playing.ensure_run`` and ``sim.runs.runner.simulate_to``, many runs
deep. Rather than thread three options through every layer, the command sets them once for
its whole body (``use``) and ``simulate_to`` reads them (``current``) when it is not told. The
records do not depend on where a chunk is played, so nothing else changes."""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass


@dataclass(frozen=True)
class Where:
    """A backend name, the dask scheduler's address (dask only), the seconds to wait for
    the scheduler and a worker, and the cluster's worker threads when it was reached (0:
    not known; runs size their chunks by it)."""

    backend: str = "loky"
    scheduler: str | None = None
    connect_timeout: float = 10.0
    workers: int = 0


HERE = Where()
_CURRENT: contextvars.ContextVar[Where | None] = contextvars.ContextVar("where", default=None)


def current() -> Where:
    """Where the runs started now play their chunks (this machine, unless ``use`` says)."""
    return _CURRENT.get() or HERE


@contextlib.contextmanager
def use(where: Where) -> Iterator[Where]:
    """Play every run started inside the block on ``where``."""
    token = _CURRENT.set(where)
    try:
        yield where
    finally:
        _CURRENT.reset(token)
