"""Catching SIGINT and SIGTERM for the length of a ``with`` block, and putting the previous
handlers back after it: the runner's interrupt handling and the tuning loop's stop flag both
need exactly this, each with its own reaction (``_handle``)."""

from __future__ import annotations

import signal
import threading


class SignalHandlers:
    """A context manager that sends SIGINT and SIGTERM to ``self._handle`` inside the block.
    Signals can only be caught in the main thread; elsewhere it does nothing."""

    def __init__(self) -> None:
        self._saved: dict[int, object] = {}

    def __enter__(self):
        if threading.current_thread() is threading.main_thread():
            for sig in (signal.SIGINT, signal.SIGTERM):
                self._saved[sig] = signal.signal(sig, self._handle)
        return self

    def __exit__(self, *exc) -> None:
        for sig, handler in self._saved.items():
            signal.signal(sig, handler)

    def _handle(self, signum, frame) -> None:
        raise NotImplementedError
