"""Work submitted to a dask.distributed cluster with its client.

The dask backend once went through joblib's dask backend. That backend runs every call in the
calling process when the cluster has one worker thread (joblib treats one thread as "no
parallelism"), and a list of one call likewise: the client played the games, and a model file
or strategy file missing on the client machine failed there. Submitting with the client itself
runs every call on a worker; a worker lost mid-call has its calls run again by the scheduler,
since the client still holds their futures."""

from __future__ import annotations

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
