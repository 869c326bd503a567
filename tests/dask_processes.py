"""A dask.distributed cluster as a user runs one: a ``dask scheduler`` process and ``dask
worker`` processes, all on 127.0.0.1, started here and stopped by their process ids.

A ``LocalCluster`` runs its scheduler inside the test process, so it cannot show that a
command reaches a scheduler it shares nothing with. Every wait here is bounded, and each
process is also told to end by itself (the scheduler after ten idle minutes, a worker a
minute after its scheduler is gone), so a test that dies before its clean-up leaves nothing
running for long."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

START_TIMEOUT = 90.0  # seconds for the scheduler to write its address and the workers to join


@dataclass(frozen=True)
class ProcessCluster:
    """The scheduler's address and each worker's process id (a worker without a nanny: killing
    the pid loses that worker for good)."""

    address: str
    worker_pids: tuple[int, ...]
    scheduler_pid: int


def _dask() -> str:
    """The ``dask`` command of this interpreter's environment."""
    return str(Path(sys.executable).with_name("dask"))


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM, then SIGKILL if it has not ended within 10 s."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGTERM)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)


def _wait_for(predicate, what: str, procs: list[subprocess.Popen], logs: Path) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while not predicate():
        dead = [p for p in procs if p.poll() is not None]
        if dead or time.monotonic() > deadline:
            text = "\n".join(f"--- {log.name}\n{log.read_text()[-2000:]}"
                             for log in sorted(logs.glob("*.log")))
            raise RuntimeError(f"the dask cluster did not start ({what}):\n{text}")
        time.sleep(0.2)


@contextlib.contextmanager
def process_cluster(workers: int = 2, threads: int = 1) -> Iterator[ProcessCluster]:
    """A scheduler and ``workers`` worker processes of ``threads`` threads each, ready (every
    worker joined) when this yields; all stopped, by pid, when it returns."""
    from distributed import Client

    procs: list[subprocess.Popen] = []
    with tempfile.TemporaryDirectory(prefix="handfoot-dask-") as tmp:
        tmp_path = Path(tmp)
        address_file = tmp_path / "scheduler.json"
        try:
            with open(tmp_path / "scheduler.log", "w") as log:
                procs.append(subprocess.Popen(
                    [_dask(), "scheduler", "--host", "127.0.0.1", "--port", "0",
                     "--no-dashboard", "--scheduler-file", str(address_file),
                     "--idle-timeout", "600"],
                    stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
            _wait_for(address_file.exists, "no scheduler address", procs, tmp_path)
            _wait_for(lambda: "address" in json.loads(address_file.read_text() or "{}"),
                      "no scheduler address", procs, tmp_path)
            address = json.loads(address_file.read_text())["address"]
            for i in range(workers):
                with open(tmp_path / f"worker-{i}.log", "w") as log:
                    procs.append(subprocess.Popen(
                        [_dask(), "worker", address, "--host", "127.0.0.1", "--nthreads",
                         str(threads), "--no-nanny", "--no-dashboard", "--name", f"w{i}",
                         "--death-timeout", "60", "--local-directory", str(tmp_path)],
                        stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
            with Client(address, timeout=START_TIMEOUT) as client:
                _wait_for(lambda: len(client.nthreads()) >= workers,
                          f"fewer than {workers} workers joined", procs, tmp_path)
            yield ProcessCluster(address, tuple(p.pid for p in procs[1:]), procs[0].pid)
        finally:
            for proc in reversed(procs):  # the workers, then the scheduler
                _stop(proc)
