"""The dask backend: the same job on a dask.distributed cluster (a ``dask scheduler`` and two
``dask worker`` processes on 127.0.0.1, started by the tests and stopped by their pids:
``tests.dask_processes``) gives the records of the local backend."""

from __future__ import annotations

import pytest

from tests.conftest import scaled
from tests.runhelpers import cli, manifest, records, run_in, spec_for

distributed = pytest.importorskip("distributed")

from tests.dask_processes import process_cluster  # noqa: E402 (needs distributed)


@pytest.fixture(scope="module")
def cluster():
    with process_cluster(workers=2) as c:
        yield c


def test_dask_cluster_gives_the_local_records(tmp_path, cluster):
    spec = spec_for(600, 75, seed=12)
    run_in(tmp_path / "local", spec, jobs=2)
    run = run_in(tmp_path / "dask", spec, backend="dask", scheduler=cluster.address,
                 connect_timeout=30)
    assert records(tmp_path / "dask").equals(records(tmp_path / "local"))
    assert run.manifest["sessions"][-1]["backend"] == "dask"
    assert run.manifest["sessions"][-1]["workers"] == 2


def test_dask_from_the_command_line(tmp_path, capsys, cluster):
    code, out, err = cli(capsys, "simulate", "--games", "200", "--chunk-size", "50",
                         "--backend", "dask", "--scheduler", cluster.address,
                         "--out-dir", str(tmp_path), "--name", "run", "--no-progress")
    assert code == 0, err
    assert f"backend dask {cluster.address} (2 worker threads)" in out
    assert "200 games, 800 deals" in out
    local = tmp_path / "local"
    run_in(local, spec_for(200, 50, seed=1, teams=("greedy", "greedy")), jobs=1)
    assert records(tmp_path / "run").equals(records(local))


def _run_records(root) -> dict:
    """Every run folder under ``root`` (by its path below it) and its records."""
    from pathlib import Path

    return {str(m.parent.relative_to(root)): records(m.parent)
            for m in sorted(Path(root).rglob("manifest.json"))}


def test_compare_on_the_cluster_gives_the_local_records(tmp_path, capsys, cluster):
    """``compare`` (like every command that plays through many runs: ``sim.runs.where``) takes
    ``--backend dask --scheduler``; its runs hold the records the local backend plays."""
    base = ["compare", "greedy", "random", "--games", "60", "--seed", "3", "--no-progress",
            "--report", "gr"]
    code, _, err = cli(capsys, *base, "--jobs", "1", "--runs-dir", str(tmp_path / "local"),
                       "--reports-dir", str(tmp_path / "rl"))
    assert code == 0, err
    code, out, err = cli(capsys, *base, "--backend", "dask", "--scheduler",
                         cluster.address, "--connect-timeout", "30",
                         "--runs-dir", str(tmp_path / "dask"), "--reports-dir",
                         str(tmp_path / "rd"))
    assert code == 0, err
    local, dask = _run_records(tmp_path / "local"), _run_records(tmp_path / "dask")
    assert local and local.keys() == dask.keys()
    for name, frame in local.items():
        assert dask[name].equals(frame), name
    sessions = [manifest(tmp_path / "dask" / name)["sessions"][-1] for name in dask]
    assert {s["backend"] for s in sessions} == {"dask"}


def test_a_command_given_an_unreachable_scheduler_stops_in_one_line(tmp_path, capsys):
    code, _, err = cli(capsys, "compare", "greedy", "random", "--games", "4", "--backend",
                       "dask", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1",
                       "--runs-dir", str(tmp_path / "runs"))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "cannot reach the dask scheduler" in lines[0], err
    assert not (tmp_path / "runs").exists()  # refused before anything was played


def test_a_worker_plays_from_the_models_the_client_sent(tmp_path, monkeypatch):
    """No shared file system: a chunk task carries the learned seats' models, so a worker
    whose disk has no model file plays the chunk the local backend plays."""
    from sim.core.profiles import PROFILES
    from sim.play.api import seats_for_teams
    from sim.runs.runner import ChunkTask, compute_chunk, models_of
    from strategies.learned import model_file
    from strategies.per_profile import resolve_spec
    from strategies.registry import StrategyError
    from tests.learned_models import learned_file

    rules = PROFILES["standard"][0]
    strategy = learned_file(tmp_path, rules, name="sent")
    info = resolve_spec(str(strategy), rules)
    seats = tuple(seats_for_teams([info, "greedy"], rules.players))
    here = compute_chunk(ChunkTask(rules, seats, 4, 0, 0, 2, True))
    models = models_of(seats)
    assert [key for key, _ in models] == [(info.model, info.model_sha256)]
    (tmp_path / "sent-model.json").unlink()  # the worker's disk: no model file
    monkeypatch.setattr(model_file, "_FLAT_CACHE", {})  # a fresh worker
    with pytest.raises(StrategyError, match="cannot be read"):
        compute_chunk(ChunkTask(rules, seats, 4, 0, 0, 2, True))
    there = compute_chunk(ChunkTask(rules, seats, 4, 0, 0, 2, True, None, models))
    assert there.sha256 == here.sha256 and there.aggregate == here.aggregate


def test_the_branched_positions_of_hold_wild_are_the_same_on_the_cluster(cluster):
    """``ask hold-wild`` collects its branched positions in chunks of games through joblib:
    on the cluster (``sim.runs.where.use``) the rows are those of this machine."""
    import numpy as np

    from analysis.experiments.holding import collect
    from sim.core.profiles import PROFILES
    from sim.runs.where import Where, use

    rules = PROFILES["standard"][0]
    seats = ["tuned"] * rules.players
    here, games_here = collect(rules, seats, 40, seed=2, jobs=1, games_per_chunk=4)
    with distributed.Client(cluster.address) as client, \
            distributed.get_task_stream(client=client) as stream, \
            use(Where("dask", cluster.address, 30.0)):
        there, games_there = collect(rules, seats, 40, seed=2, jobs=1, games_per_chunk=4)
    assert len(here) >= 40 and games_here == games_there
    assert np.array_equal(here, there)
    played = [t for t in stream.data if t["key"].startswith("_chunk-")]
    assert len(played) >= 1  # on a worker, even a round of one chunk


def test_a_cluster_of_one_thread_plays_on_its_worker_not_on_the_client(tmp_path):
    """A cluster with one worker thread still plays every chunk there (joblib's dask backend
    would have played them all in the client: ``sim.runs.on_cluster``)."""
    spec = spec_for(120, 30, seed=8)
    run_in(tmp_path / "local", spec, jobs=1)
    with process_cluster(workers=1) as c, distributed.Client(c.address) as client, \
            distributed.get_task_stream(client=client) as stream:
        run = run_in(tmp_path / "dask", spec, backend="dask", scheduler=c.address,
                     connect_timeout=30)
    chunks = [t for t in stream.data if t["key"].startswith("compute_chunk-")]
    assert len(chunks) == len(run.chunks) == 4
    assert run.manifest["sessions"][-1]["workers"] == 1
    assert records(tmp_path / "dask").equals(records(tmp_path / "local"))


def test_a_worker_killed_in_the_middle_of_a_run_loses_nothing(tmp_path, monkeypatch):
    """One of two workers is killed (SIGKILL) as the first chunk is stored: dask plays its
    chunks again elsewhere, and the run holds every chunk once, with the local records."""
    import os
    import signal

    from sim.runs.storage import Run

    spec = spec_for(400, 20, seed=21)
    run_in(tmp_path / "local", spec, jobs=1)
    with process_cluster(workers=2) as c:
        victim = c.worker_pids[0]
        store = Run.store
        killed = []

        def store_then_kill(self, result):
            store(self, result)
            if not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        monkeypatch.setattr(Run, "store", store_then_kill)
        run = run_in(tmp_path / "dask", spec, backend="dask", scheduler=c.address,
                     connect_timeout=30)
    assert killed == [victim]
    assert len(run.done()) == len(run.chunks) == 20 and not run.missing()
    assert records(tmp_path / "dask").equals(records(tmp_path / "local"))


# Every command of issue 31's Build 1: its runs (and the files it writes) on the cluster equal
# those of the local backend; small in `make test`, larger in `make conformance`. (compare at a
# fixed size: above.)
GAMES = str(scaled(60, 3))
COMMANDS = {
    "compare --sprt": ["compare", "greedy", "random", "--sprt", "0,5", "--seed", "2",
                       "--report", "sp"],
    "compare --until-ci": ["compare", "greedy", "random", "--until-ci", "0.3", "--seed", "2",
                           "--report", "uc"],
    "sweep": ["sweep", "--strategy", "tactician", "--param", "keep_pairs=0,1", "--against",
              "greedy", "--games", GAMES, "--seed", "2", "--report", "sw"],
    "rules-compare": ["rules-compare", "standard", "eleven", "--strong", "tactician",
                      "--games", GAMES, "--seed", "2", "--report", "rc"],
    "ladder": ["ladder", "--strategies", "greedy,random,cautious", "--games", GAMES, "--seed",
               "2", "--report", "lad"],
    "guide": ["guide", "--rules", "standard", "--player", "tuned", "--games", GAMES, "--seed",
              "2", "--report", "g"],
    "ask hold-wild": ["ask", "hold-wild", "--rules", "standard", "--player", "cautious",
                      "--games", GAMES, "--positions", str(scaled(1000, 40)),
                      "--search-positions", str(scaled(200, 12)), "--report", "hw"],
    "tune": ["tune", "tactician", "--against", "greedy", "--seed", "4", "--first-rung", "8",
             "--rungs", "2", "--reduction", "3", "--startup", "4", "--params",
             "hold_wilds,go_out", "--budget", "400", "--remeasure", "10", "--report", "t",
             "--out", "OUT.toml"],
    "learn": ["learn", "--rules", "standard", "--games", str(scaled(1000, 80)), "--seed", "3",
              "--sample-rate", "0.05", "--worlds", "0", "--target", "value", "--kind", "ridge",
              "--player", "cautious", "--rounds", "2", "--measure", str(scaled(60, 6)),
              "--name", "ei", "--out", "OUT.json"],
}


def _written(root) -> dict:
    """What a command left under ``root``, read back: every run's records, every other Parquet
    file (branched positions, the search's choices), each report's CSV tables (its figures)
    and the model or strategy file it was told to write (``OUT``)."""
    from pathlib import Path

    import polars as pl

    from sim.runs.storage import Run

    out = {}
    for m in sorted(Path(root, "runs").rglob("manifest.json")):
        run = Run.open(m.parent)  # a tuning trial's runs keep only each chunk's aggregate
        out[f"run {m.parent.relative_to(root)}"] = records(m.parent) if \
            run.spec.keep_records else [c["aggregate"] for c in run.manifest["chunks"]]
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = str(path.relative_to(root))
        if path.suffix == ".parquet" and not path.name.startswith("chunk-"):
            out[rel] = pl.read_parquet(path)
        elif path.suffix == ".csv":
            out[rel] = pl.read_csv(path)
        elif path.name.startswith("OUT"):
            out[rel] = path.read_bytes()
    return out


def _play(args: list[str], root, extra: list[str], capsys, monkeypatch) -> dict:
    """Run a command in ``root`` (its runs and reports below it) and read back what it wrote."""
    root.mkdir()
    monkeypatch.chdir(root)
    dirs = (["--runs-dir", "runs", "--report-dir", "report"] if args[0] == "learn" else
            ["--runs-dir", "runs", "--reports-dir", "reports"])
    code, _, err = cli(capsys, *args, *dirs, "--no-progress", *extra)
    assert code == 0, err
    return _written(root)


def _on(address: str) -> list[str]:
    return ["--backend", "dask", "--scheduler", address, "--connect-timeout", "30"]


def _assert_same(local: dict, dask: dict) -> None:
    assert any(key.startswith("run ") for key in local)
    assert local.keys() == dask.keys()
    for key, value in local.items():
        same = value.equals(dask[key]) if hasattr(value, "equals") else value == dask[key]
        assert same, key


# The commands whose small run costs most (each plays its own searches or fits) are checked
# only under `make conformance` (CI runs it, at full size); `make test` keeps the rest, which go
# through the same `sim.runs.where` as they do.
CONFORMANCE_ONLY = ("ask hold-wild", "learn", "tune", "guide")


@pytest.mark.conformance
@pytest.mark.parametrize("command", [
    pytest.param(c, marks=pytest.mark.conformance_only) if c in CONFORMANCE_ONLY else c
    for c in COMMANDS])
def test_every_command_on_the_cluster_writes_what_it_writes_here(command, tmp_path, capsys,
                                                                 monkeypatch, cluster):
    written = {}
    for where, extra in (("local", ["--jobs", "1"]), ("dask", _on(cluster.address))):
        with distributed.Client(cluster.address) as client, \
                distributed.get_task_stream(client=client) as stream:
            written[where] = _play(COMMANDS[command], tmp_path / where, extra, capsys,
                                   monkeypatch)
        on_workers = [t["key"] for t in stream.data if t["key"].startswith("compute_chunk-")]
        assert bool(on_workers) == (where == "dask")  # the dask pass played on the workers
        if command == "ask hold-wild" and where == "dask":  # its own chunks there too
            keys = {t["key"].rsplit("-", 5)[0] for t in stream.data}
            assert {"_chunk", "_ask_chunk"} <= keys, keys
    _assert_same(written["local"], written["dask"])



# Where each command loses a worker: compare (three chunks a seating, eight at size) as its
# first chunk is stored; ask hold-wild when the first of a round of the search's choices (a
# game a worker) is back and the other is still being played on the worker then killed.
KILLED = {
    "compare": (["compare", "tuned", "greedy", "--games", str(scaled(50_000, 420)), "--seed",
                 "6", "--report", "k"], "store"),
    "ask hold-wild": (COMMANDS["ask hold-wild"], "gather"),
}


@pytest.mark.conformance
@pytest.mark.conformance_only  # 29 s: `make test` kills a worker mid-simulate (above)
@pytest.mark.parametrize("command", list(KILLED))
def test_a_worker_killed_in_the_middle_of_a_command_loses_nothing(command, tmp_path, capsys,
                                                                  monkeypatch):
    """One of two workers is SIGKILLed mid-command: the scheduler plays its work again on the
    other, and the command writes what it writes on this machine (nothing lost, nothing
    counted twice: the runs hold each chunk once)."""
    import os
    import signal
    import time

    from sim.runs.storage import Run

    args, when = KILLED[command]
    local = _play(args, tmp_path / "local", ["--jobs", "1"], capsys, monkeypatch)
    killed: list[int] = []
    with process_cluster(workers=2) as c:
        victim = c.worker_pids[0]

        def kill_once() -> None:
            if not killed:
                os.kill(victim, signal.SIGKILL)
                killed.append(victim)

        if when == "store":
            store = Run.store

            def store_then_kill(self, result):
                store(self, result)
                kill_once()

            monkeypatch.setattr(Run, "store", store_then_kill)
        else:
            gather = distributed.Client.gather

            def gather_after_a_kill(self, futures, *a, **k):
                own = isinstance(futures, list) and len(futures) > 1 and all(
                    str(getattr(f, "key", "")).startswith("_ask_chunk-") for f in futures)
                if own and not killed:  # a round of the search's choices, not the warm-up
                    while not any(f.done() for f in futures):
                        time.sleep(0.01)
                    kill_once()
                return gather(self, futures, *a, **k)

            monkeypatch.setattr(distributed.Client, "gather", gather_after_a_kill)
        dask = _play(args, tmp_path / "dask", _on(c.address), capsys, monkeypatch)
    assert killed == [victim]
    _assert_same(local, dask)
    for m in (tmp_path / "dask" / "runs").rglob("manifest.json"):
        run = Run.open(m.parent)
        assert len(run.done()) == len(run.chunks) and not run.missing(), m.parent


@pytest.mark.conformance
def test_ctrl_c_on_the_cluster_then_the_same_command_finishes_it(tmp_path, capsys, monkeypatch,
                                                                 cluster):
    """Ctrl-C (SIGINT to the command's process group, right after its second chunk is stored:
    the runner's test hook) stops a compare on the cluster with exit code 130 and the kept
    chunks named; the same command again finishes it there, each chunk played once, with the
    records of this machine."""
    from sim.runs.runner import INTERRUPT_AFTER
    from sim.runs.storage import Run
    from tests.runhelpers import start_cli

    args = ["compare", "greedy", "random", "--games", str(scaled(6000, 600)), "--seed", "7",
            "--report", "cc"]
    local = _play(args, tmp_path / "local", ["--jobs", "1"], capsys, monkeypatch)
    root = tmp_path / "dask"
    root.mkdir()
    monkeypatch.chdir(root)
    dirs = ["--runs-dir", "runs", "--reports-dir", "reports", "--no-progress",
            *_on(cluster.address)]
    monkeypatch.setenv(INTERRUPT_AFTER, "2")
    proc = start_cli(*args, *dirs, cwd=root)
    monkeypatch.delenv(INTERRUPT_AFTER)  # the second try below runs in this process
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "the same command again" in err, err
    stopped = [Run.open(m.parent) for m in (root / "runs").rglob("manifest.json")]
    assert any(r.manifest["status"] == "interrupted" for r in stopped)
    assert sum(len(r.done()) for r in stopped) < sum(len(r.chunks) for r in stopped)
    code, _, err = cli(capsys, *args, *dirs)
    assert code == 0, err
    _assert_same(local, _written(root))
    for m in (root / "runs").rglob("manifest.json"):
        run = Run.open(m.parent)
        assert run.manifest["status"] == "complete" and not run.missing(), m.parent
        assert len(run.done()) == len(run.chunks), m.parent
