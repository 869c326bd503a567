"""Spread games over cores (joblib + loky) or a dask cluster (its client: sim.runs.on_cluster),
in chunks whose results do not depend on the split, with a progress bar and clean interruption.

Each game's shuffles depend only on (seed, game index), so any chunking and any number of
workers give identical records. numba's cache is warmed in the parent first, so local workers
load the compiled engine instead of compiling their own copies (about 25 s each).

Workers only compute: a chunk comes back as its aggregate and, when records are kept, the bytes
of its Parquet file. The parent alone writes the run folder (sim.runs), so a run killed at any
moment leaves whole files and a manifest that never claims more than is on disk, and a cluster
needs no shared file system.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import logging
import math
import os
import signal
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.rules import Rules
from sim.play.api import play
from sim.runs.signals import SignalHandlers
from sim.runs.storage import ChunkResult, Recording, Run, RunError, RunSpec, now_iso

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

BACKENDS = ("loky", "dask")


class RunnerError(RunError):
    """A backend that cannot be used (unknown, unreachable, without workers)."""


class Interrupted(Exception):  # noqa: N818 - it is an event, not an error
    """The run stopped on Ctrl-C or SIGTERM; the finished chunks are saved in the manifest."""

    def __init__(self, run: Run) -> None:
        self.run = run
        done, total = len(run.done()), len(run.chunks)
        super().__init__(f"interrupted: {done} of {total} chunks are done and kept in "
                         f"{run.path}; finish with `handfoot simulate --resume {run.path}`")


def warm_cache(rules: Rules, seat_strategies: Sequence,
               recording: Recording | None = None) -> None:
    """Compile (or load from the cache) once, before any worker starts (a recording run's
    loop too); from a cold cache the engine compiles in a second process meanwhile
    (``sim.runs.compile_ahead``)."""
    from sim.runs import compile_ahead

    with compile_ahead.engine_beside():
        play(rules, seat_strategies, seed=0, first_game=0, n_games=1)
    if recording is not None:
        from sim.play.recording import label_model_of, record

        record(rules, seat_strategies, 0, 0, 1, recording.sample_rate, recording.explore,
               recording.worlds, recording.label_horizon, label_model_of(recording))


COMPILE_NOTE_SECONDS = 3.0  # a warm-up longer than this compiled something: say so


def compile_first(rules: Rules, seat_strategies: Sequence, recording: Recording | None,
                  progress: bool, note=None) -> float:
    """``warm_cache`` with a status line on stderr while it runs (a first run compiles the
    engine and the seats' strategies for this machine, a minute or more on 2 cores, and
    should not look like a hung terminal) and a note of the seconds when it compiled;
    returns the seconds."""
    start = time.perf_counter()
    if progress:
        from rich.console import Console

        with Console(stderr=True).status("loading the compiled engine and strategies (the "
                                         "first run on a machine compiles them: a minute or "
                                         "more)", spinner="dots"):
            warm_cache(rules, seat_strategies, recording)
    else:
        warm_cache(rules, seat_strategies, recording)
    seconds = time.perf_counter() - start
    if note is not None and seconds > COMPILE_NOTE_SECONDS:
        note(f"compiled the engine and strategies in {seconds:.0f} s (kept in numba's cache: "
             "the next run starts at once)")
    return seconds


# --- One chunk (runs in a worker) ---------------------------------------------------------------

@dataclass(frozen=True)
class ChunkTask:
    rules: Rules
    seats: tuple  # StrategyInfo per seat (or registered names)
    seed: int
    index: int
    first_game: int
    games: int
    keep_records: bool
    recording: Recording | None = None
    models: tuple = ()  # ((path, sha256), flat array) of each model file, for a cluster


def models_of(seats: Sequence, recording: Recording | None = None) -> tuple:
    """The value model of every learned seat (and of a recording run's leaf-search labels),
    read here, so a cluster's workers play from what the client sends them and need no copy
    of the model file (``receive_models``)."""
    from strategies.learned.model_file import flat_for

    keys = dict.fromkeys((info.model, info.model_sha256) for info in seats
                         if getattr(info, "model_sha256", ""))
    if recording is not None and recording.label_horizon:
        keys[(recording.label_model, recording.label_model_sha256)] = None
    return tuple((key, flat_for(*key)) for key in keys)


def receive_models(models: tuple) -> None:
    """Keep the models a client sent where ``flat_for`` looks first: the worker then reads no
    model file (the client checked its sha256 when it read it)."""
    from strategies.learned.model_file import remember_flat

    for (path, sha256), flat in models:
        remember_flat(path, sha256, flat)


def compute_chunk(task: ChunkTask) -> ChunkResult:
    """Play one chunk; return its aggregate and, if kept, its records as zstd Parquet bytes
    (for a recording run, the recorded positions: ``sim.play.recording``)."""
    from sim.core.records import flatten
    from sim.runs.aggregate import aggregate_columns

    receive_models(task.models)

    start = time.perf_counter()
    if task.recording is None:
        rec = play(task.rules, task.seats, task.seed, task.first_game, task.games)
        table = cols = flatten(rec)
    else:
        from sim.play.recording import label_model_of, record, samples_table

        rec, feats, meta, targets = record(task.rules, task.seats, task.seed, task.first_game,
                                           task.games, task.recording.sample_rate,
                                           task.recording.explore, task.recording.worlds,
                                           task.recording.label_horizon,
                                           label_model_of(task.recording))
        cols = flatten(rec)
        table = samples_table(feats, meta, targets)
    agg = aggregate_columns(cols, task.rules.deals_per_game, task.rules.partnerships)
    data = digest = None
    if task.keep_records:
        import polars as pl

        buf = io.BytesIO()
        pl.DataFrame(table).write_parquet(buf, compression="zstd")
        data = buf.getvalue()
        digest = hashlib.sha256(data).hexdigest()
    return ChunkResult(index=task.index, first_game=task.first_game, games=task.games,
                       rows=len(rec), aggregate=agg.to_dict(),
                       seconds=time.perf_counter() - start, data=data, sha256=digest)


# --- Backends -----------------------------------------------------------------------------------

@dataclass
class Backend:
    """Where chunks run: ``workers`` loky processes here, or every thread of a dask cluster."""

    name: str
    workers: int
    client: object | None = None
    address: str | None = None

    def describe(self) -> str:
        if self.name == "dask":
            return f"backend dask {self.address} ({self.workers} worker threads)"
        return f"jobs {self.workers}"

    def map_unordered(self, tasks: Iterable[ChunkTask]) -> Iterator[ChunkResult]:
        """Results as they finish. Tasks are drawn lazily (a few per worker ahead), so a
        caller can stop the supply part-way (``--until-ci``)."""
        if self.name == "loky" and self.workers == 1:
            for task in tasks:  # in this process: no pool to start, same records
                yield compute_chunk(task)
            return
        if self.name == "dask":  # every chunk on a worker, two per worker thread ahead
            from sim.runs import on_cluster

            yield from on_cluster.unordered(self.client, compute_chunk, tasks, 2 * self.workers)
            return
        from joblib import Parallel, delayed, parallel_config

        calls = (delayed(compute_chunk)(task) for task in tasks)
        with parallel_config(backend="loky", initializer=_ignore_sigint):
            yield from Parallel(n_jobs=self.workers, return_as="generator_unordered",
                                batch_size=1, pre_dispatch="2*n_jobs")(calls)


def _ignore_sigint() -> None:
    """In each loky worker: Ctrl-C reaches the whole process group, but only the parent acts on
    it (it saves the manifest, then stops the workers); a worker would print a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.contextmanager
def open_backend(name: str, jobs: int, scheduler: str | None = None,
                 connect_timeout: float = 10.0, rules: Rules | None = None,
                 seats: Sequence = ()) -> Iterator[Backend]:
    """Check and connect a backend before any run folder is touched.

    For dask, connect to the scheduler (failing after ``connect_timeout`` seconds), wait for a
    worker, and warm numba's cache on every worker, which also proves that the workers can
    import handfoot.
    """
    if name not in BACKENDS:
        raise RunnerError(f"unknown backend '{name}' (known: {', '.join(BACKENDS)})")
    if name == "loky":
        if scheduler:
            raise RunnerError("--scheduler needs --backend dask")
        from joblib import cpu_count  # honours CPU affinity and container quotas

        yield Backend("loky", jobs or cpu_count())
        return
    if not scheduler:
        raise RunnerError("--backend dask needs --scheduler ADDRESS (e.g. tcp://10.0.0.5:8786)")
    try:
        from distributed import Client
    except ImportError:
        raise RunnerError("--backend dask needs dask.distributed: "
                          "pip install 'handfoot[cluster]'") from None
    try:
        client = Client(scheduler, timeout=connect_timeout, set_as_default=False)
    except Exception as exc:  # noqa: BLE001 - any failure to connect is the user's address
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise RunnerError(f"cannot reach the dask scheduler at {scheduler} within "
                          f"{connect_timeout:g} s ({reason})") from None
    try:
        try:
            client.wait_for_workers(1, timeout=connect_timeout)
        except Exception:  # noqa: BLE001
            raise RunnerError(f"no dask worker joined the scheduler at {scheduler} within "
                              f"{connect_timeout:g} s") from None
        if rules is not None:
            _warm_workers(client, rules, seats)
        threads = sum(client.ncores().values())
        yield Backend("dask", threads, client=client, address=scheduler)
    finally:
        # After Ctrl-C, transfers still in flight fail as the client closes; the run is
        # already saved, so their tracebacks would only bury the one-line message.
        loggers = [logging.getLogger(name) for name in ("tornado.application", "distributed")]
        levels = [log.level for log in loggers]
        for log in loggers:
            log.setLevel(logging.CRITICAL)
        try:
            client.close()
        finally:
            for log, level in zip(loggers, levels, strict=True):
                log.setLevel(level)


def _warm_workers(client, rules: Rules, seats: Sequence) -> None:
    workers = list(client.scheduler_info()["workers"])
    models = models_of(seats)
    futures = [client.submit(_warm_worker, models, rules, list(seats), workers=[w],
                             pure=False, allow_other_workers=False) for w in workers]
    try:
        client.gather(futures)
    except Exception as exc:  # noqa: BLE001
        raise RunnerError(f"the dask workers cannot run handfoot ({type(exc).__name__}: "
                          f"{exc}); install the same handfoot on every worker") from None


def _warm_worker(models: tuple, rules: Rules, seats: Sequence) -> None:
    receive_models(models)
    warm_cache(rules, seats)


# --- Interrupts ---------------------------------------------------------------------------------

class _Interrupts(SignalHandlers):
    """SIGINT and SIGTERM raise KeyboardInterrupt, except inside ``critical()``, where they wait
    for the block to end, so a chunk file and its manifest entry are written together."""

    def __init__(self) -> None:
        super().__init__()
        self.received = False
        self._depth = 0
        self._pending = False

    def _handle(self, signum, frame) -> None:
        self.received = True
        _SEEN[0] += 1
        if self._depth:
            self._pending = True
        else:
            raise KeyboardInterrupt

    @contextlib.contextmanager
    def critical(self) -> Iterator[None]:
        self._depth += 1
        try:
            yield
        finally:
            self._depth -= 1
        if self._pending and not self._depth:
            self._pending = False
            raise KeyboardInterrupt


_SEEN = [0]  # SIGINT / SIGTERM received by any run of this process


# A test hook: with HANDFOOT_TEST_INTERRUPT_AFTER_CHUNKS=k, the process signals itself right
# after the k-th chunk it stores (counted over every run of the process, so a tuning study is
# stopped part-way too), with HANDFOOT_TEST_INTERRUPT_SIGNAL (SIGINT unless set; SIGTERM, or
# SIGKILL for a crash). The signal takes the path a real one takes: a process that leads its
# process group (a job a terminal started) signals the whole group, workers included, as
# Ctrl-C does; any other signals itself. So a test of Ctrl-C or of a crash stops at the same
# chunk on any machine, instead of racing a clock.
INTERRUPT_AFTER = "HANDFOOT_TEST_INTERRUPT_AFTER_CHUNKS"
INTERRUPT_SIGNAL = "HANDFOOT_TEST_INTERRUPT_SIGNAL"
_STORED = [0]  # chunks stored by any run of this process


def _test_interrupt(run: Run) -> None:
    """After each stored chunk: the hook above, when its variable is set."""
    _STORED[0] += 1
    after = os.environ.get(INTERRUPT_AFTER)
    if not after or _STORED[0] != int(after):
        return
    sig = signal.Signals[os.environ.get(INTERRUPT_SIGNAL, "SIGINT")]
    run.save(force=True)  # the manifest claims the k chunks (its saves are otherwise spaced)
    if os.getpgrp() == os.getpid():
        os.killpg(os.getpid(), sig)
    else:
        signal.raise_signal(sig)


def signals_seen() -> int:
    """How many SIGINT / SIGTERM the runs of this process have received. A loop around many
    runs (tuning) compares it before and after each run: a KeyboardInterrupt raised by the
    signal handler can be swallowed when it lands in a garbage-collection callback, and the
    run then finishes as if nothing had happened."""
    return _SEEN[0]


# --- Progress -----------------------------------------------------------------------------------

class _Progress:
    """A rich progress bar on stderr: games, deals/s, ETA (or the interval width so far)."""

    def __init__(self, enabled: bool, total_games: int | None, deals_per_game: int,
                 target: str | None) -> None:
        self.enabled = enabled
        self.deals_per_game = deals_per_game
        self.target = target
        self.games = 0
        self.start = time.perf_counter()
        self._bar = None
        if enabled:
            from rich.console import Console
            from rich.progress import (
                BarColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
                TimeRemainingColumn,
            )

            done = ("{task.completed:,}/{task.total:,} games" if total_games is not None
                    else "{task.completed:,} games")
            columns = [TextColumn("[progress.description]{task.description}"), BarColumn(),
                       TextColumn(done), TextColumn("{task.fields[rate]}"), TimeElapsedColumn()]
            if total_games is not None:
                columns.append(TimeRemainingColumn())
            self._bar = Progress(*columns, console=Console(stderr=True), transient=True)
            self._task = self._bar.add_task("simulating", total=total_games, rate="")

    def __enter__(self) -> _Progress:
        if self._bar is not None:
            self._bar.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()

    def advance(self, games: int, width: float | None = None) -> None:
        self.games += games
        if self._bar is None:
            return
        elapsed = time.perf_counter() - self.start
        rate = f"{self.games * self.deals_per_game / elapsed:,.0f} deals/s" if elapsed else ""
        fields = {"rate": rate}
        if self.target is not None and width is not None:
            shown = "…" if math.isinf(width) else f"{width:.4g}"
            fields["description"] = f"95% CI width {shown} → {self.target}"
        self._bar.update(self._task, advance=games, **fields)


# --- A whole run --------------------------------------------------------------------------------

@dataclass
class Outcome:
    """What one session of a run did."""

    computed: int  # chunks played in this session
    reused: int  # chunks already done before it
    games_played: int  # games played in this session
    seconds: float
    recomputed: list[str] = field(default_factory=list)  # bad chunk files found on resume
    width: float | None = None  # --until-ci: the interval width reached
    reached: bool | None = None
    deals_played: int = 0

    @property
    def deals_per_second(self) -> float:
        return self.deals_played / self.seconds if self.seconds > 0 else 0.0


class _UntilCI:
    """Merges chunks in index order; the run is the shortest prefix whose interval is narrow
    enough, so where it stops does not depend on which worker finished first."""

    def __init__(self, run: Run) -> None:
        from sim.runs.aggregate import Aggregate

        self.run = run
        self.until = run.spec.until_ci
        self.agg = Aggregate(teams=run.spec.rules.partnerships)
        self.next = 0
        self.stop_after: int | None = None  # last chunk index of the final run
        self.width = math.inf

    def advance(self) -> None:
        chunks = self.run.chunks
        while (self.stop_after is None and self.next < len(chunks)
               and chunks[self.next]["status"] == "done"):
            self.agg = self.agg.merge(self.run.chunk_aggregate(self.next))
            self.width = self.agg.ci_width(self.until.metric)
            if self.width < self.until.width:
                self.stop_after = self.next
            self.next += 1


def execute(run: Run, backend: Backend, progress: bool = False, note=None) -> Outcome:
    """Play every missing chunk of ``run`` (recomputing bad files), saving as chunks finish.

    Raises ``Interrupted`` after saving on Ctrl-C / SIGTERM. ``note`` receives one-line
    messages (bad chunk files found, ...).
    """
    spec = run.spec
    note = note or (lambda message: None)
    recomputed = []
    for index, why in run.problems():
        name = run.chunk_path(index).name
        note(f"{name}: {why}; recomputing it")
        recomputed.append(name)
        run.mark_missing(index)
    reused = len(run.done())
    until = _UntilCI(run) if spec.until_ci is not None else None
    if until is not None:
        until.advance()
    todo = [c for c in run.missing()
            if until is None or until.stop_after is None or c["index"] <= until.stop_after]
    total = None if until is not None else sum(c["games"] for c in todo)
    seats = spec.engine_seats()
    models = models_of(seats, spec.recording) if backend.name == "dask" else ()
    target = None if until is None else f"{spec.until_ci.width:g}"

    def tasks() -> Iterator[ChunkTask]:
        for c in todo:
            if until is not None and until.stop_after is not None and \
                    c["index"] > until.stop_after:
                return
            yield ChunkTask(spec.rules, seats, spec.seed, c["index"], c["first_game"],
                            c["games"], spec.keep_records, spec.recording, models)

    run.set_status("running")
    session = {"started": now_iso(), "backend": backend.name,
               "workers": backend.workers, "computed_chunks": 0}
    run.manifest["sessions"].append(session)
    run.save(force=True)
    start = time.perf_counter()
    computed = games = 0
    with _Interrupts() as interrupts, _Progress(progress, total, spec.rules.deals_per_game,
                                                target) as bar:
        try:
            for result in backend.map_unordered(tasks()):
                with interrupts.critical():
                    if until is not None and until.stop_after is not None and \
                            result.index > until.stop_after:
                        continue  # played past the stopping point: not part of this run
                    run.store(result)
                    computed += 1
                    games += result.games
                    session["computed_chunks"] = computed
                    if until is not None:
                        until.advance()
                    _test_interrupt(run)
                bar.advance(result.games, until.width if until is not None else None)
        except BaseException as exc:
            if not (isinstance(exc, KeyboardInterrupt) or interrupts.received):
                run.set_status("failed")
                session.update(ended=now_iso(), outcome=f"failed: {type(exc).__name__}")
                run.save(force=True)
                raise
            run.set_status("interrupted")
            session.update(ended=now_iso(), outcome="interrupted")
            run.save(force=True)
            raise Interrupted(run) from None
    seconds = time.perf_counter() - start
    outcome = Outcome(computed=computed, reused=reused, games_played=games,
                      seconds=seconds, recomputed=recomputed,
                      deals_played=games * spec.rules.deals_per_game)
    if until is not None:
        info = run.manifest["until_ci"]
        if until.stop_after is not None:
            run.keep_first(until.stop_after + 1)
        info.update(reached=until.stop_after is not None, achieved_width=until.width)
        outcome.width, outcome.reached = until.width, until.stop_after is not None
    missing = run.missing()
    run.set_status("complete" if not missing else "incomplete")
    session.update(ended=now_iso(), outcome=run.manifest["status"], seconds=round(seconds, 3))
    run.save(force=True)
    if missing:  # every task ran, yet a chunk is missing: never report that as complete
        raise RunError(f"{run.path}: {len(missing)} chunks were not computed")
    return outcome


def simulate_to(path: Path, spec: RunSpec | None = None, backend: str | None = None,
                jobs: int = 0, scheduler: str | None = None,
                connect_timeout: float | None = None, progress: bool = False,
                note=None) -> tuple[Run, Outcome, Backend]:
    """Start the run ``spec`` in the new folder ``path``, or with ``spec=None`` finish the run
    already there; returns the run, what this session did, and where it ran (``backend``,
    ``scheduler`` and ``connect_timeout`` as given, else as the command set them:
    ``sim.runs.where``).

    The backend is connected (and, for dask, its workers warmed) before the folder is created
    or locked, so a bad backend leaves every file as it was.
    """
    from sim.runs.where import current

    if backend is None:
        backend, scheduler = current().backend, scheduler or current().scheduler
    connect_timeout = current().connect_timeout if connect_timeout is None else connect_timeout
    existing = Run.open(path) if spec is None else None
    if existing is not None:
        existing.check_engine()
        spec = existing.spec
    elif path.exists():
        raise RunError(f"run folder {path} already exists; finish it with "
                       f"`handfoot simulate --resume {path}` or pick another --name")
    with open_backend(backend, jobs, scheduler, connect_timeout, spec.rules,
                      spec.engine_seats()) as where:
        if where.name == "loky":
            # once, before any worker starts, and with one worker too: so the deals/s of the
            # run leave the compile out, and the user is told what the wait is
            compile_first(spec.rules, spec.engine_seats(), spec.recording, progress, note)
        run = existing if existing is not None else Run.create(path, spec)
        with run.locked():
            outcome = execute(run, where, progress=progress, note=note)
    return run, outcome, where


# --- In memory (tests, small experiments) -------------------------------------------------------

def chunk_bounds(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(start, min(chunk_size, n_games - start)) for start in range(0, n_games, chunk_size)]


def _chunk(rules: Rules, seats: Sequence[str], seed: int, first: int, n: int) -> np.ndarray:
    return play(rules, seats, seed, first, n)


def run_games(rules: Rules, seat_strategies: Sequence[str], seed: int, n_games: int,
              jobs: int = 1, chunk_size: int = 5000, progress: bool = False) -> np.ndarray:
    """Play ``n_games`` games over ``jobs`` loky workers and return every record, in game
    order, without a run folder (``progress`` is accepted and ignored). For runs too big for
    memory, or that must survive Ctrl-C, use ``simulate_to`` / ``handfoot simulate``."""
    from strategies.per_profile import resolve_seats

    seat_strategies = resolve_seats(seat_strategies, rules)
    warm_cache(rules, seat_strategies)
    bounds = chunk_bounds(n_games, chunk_size)
    if jobs == 1:
        results = [_chunk(rules, seat_strategies, seed, first, n) for first, n in bounds]
    else:
        from joblib import Parallel, delayed

        results = Parallel(n_jobs=jobs, backend="loky")(
            delayed(_chunk)(rules, list(seat_strategies), seed, first, n) for first, n in bounds)
    return np.concatenate(results) if results else np.zeros(0)
