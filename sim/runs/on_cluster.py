"""Work submitted to a dask.distributed cluster with its client.

The dask backend once went through joblib's dask backend. That backend runs every call in the
calling process when the cluster has one worker thread (joblib treats one thread as "no
parallelism"), and a list of one call likewise: the client played the games, and a model file
or strategy file missing on the client machine failed there. Submitting with the client itself
runs every call on a worker; a worker lost mid-call has its calls run again by the scheduler,
since the client still holds their futures."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Iterator, Sequence


def unordered(client, fn: Callable, tasks: Iterable, ahead: int) -> Iterator:
    """``fn(task)`` for every task, on the workers, yielded as they finish. At most ``ahead``
    are in flight and ``tasks`` is drawn lazily, so a caller that stops reading (``--until-ci``
    reached) stops the supply; whatever is still in flight is cancelled."""
    from distributed import as_completed

    supply = iter(tasks)
    finished = as_completed(loop=client.loop)
    in_flight: set = set()

    def submit_next() -> None:
        for task in supply:
            future = client.submit(fn, task, pure=False)
            in_flight.add(future)
            finished.add(future)
            return

    try:
        for _ in range(max(ahead, 1)):
            submit_next()
        for future in finished:
            in_flight.discard(future)
            result = future.result()
            submit_next()
            yield result
    finally:
        if in_flight:
            client.cancel(list(in_flight))


def ordered(client, fn: Callable, calls: Sequence[tuple]) -> list:
    """``fn(*args)`` for every ``args`` in ``calls``, on the workers, in the order given."""
    futures = [client.submit(fn, *args, pure=False) for args in calls]
    try:
        return client.gather(futures)
    finally:
        client.cancel([f for f in futures if not f.done()])


class Spread:
    """Where a command's own chunks of work run (not runs: hold-wild's branched positions,
    the search's choices): ``workers`` of this machine (joblib) or of the cluster (``client``).
    ``models`` are the model files a chunk's call must carry to a cluster worker (one that
    joined after the warm-up has not been sent them); none on this machine."""

    def __init__(self, workers: int, client=None, models: tuple = ()) -> None:
        self.workers, self.client, self.models = workers, client, models

    def map(self, fn: Callable, calls: Sequence[tuple]) -> list:
        """``fn(*args)`` for every ``args`` in ``calls``, in the order given."""
        if self.client is not None:
            return ordered(self.client, fn, calls)
        from joblib import Parallel, delayed

        return Parallel(n_jobs=min(self.workers, len(calls)))(delayed(fn)(*a) for a in calls)


@contextlib.contextmanager
def workers(rules, seats: Sequence, jobs: int) -> Iterator[Spread]:
    """This machine's cores (``jobs``, 0 for all), or, when the command plays on a cluster
    (``sim.runs.where``), every thread of the cluster, its workers warmed for ``seats`` and sent
    their models."""
    from joblib import cpu_count

    from sim.runs.where import current

    where = current()
    if where.backend != "dask":
        yield Spread(cpu_count() if jobs <= 0 else jobs)
        return
    from sim.runs.runner import models_of, open_backend

    with open_backend("dask", 0, where.scheduler, where.connect_timeout, rules, seats) as b:
        yield Spread(b.workers, b.client, models_of(seats))
