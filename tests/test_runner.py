"""Run folders: identical records for any worker count and chunk size, interruption and resume
without recomputing finished chunks, corrupted chunk files caught by checksum, --until-ci."""

from __future__ import annotations

import json
import signal

import numpy as np
import pytest

from analysis.reports.summary import summarize, summary_from_aggregate
from sim.play.api import play
from sim.runs.aggregate import Aggregate
from sim.runs.runner import INTERRUPT_AFTER, INTERRUPT_SIGNAL
from sim.runs.storage import CorruptChunkError, Run, UntilCI, chunk_name
from tests.runhelpers import (
    RULES,
    TEAMS,
    cli,
    file_ids,
    manifest,
    records,
    run_in,
    spec_for,
    start_cli,
)

GAMES = 600


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted run in this process: 600 games in 4 chunks."""
    path = tmp_path_factory.mktemp("ref") / "run"
    run_in(path, spec_for(GAMES, 150), jobs=1)
    return records(path)


@pytest.mark.parametrize("jobs, chunk_size", [(1, 75), (2, 75), (2, 250), (4, 75)])
def test_records_identical_for_any_jobs_and_chunk_size(tmp_path, reference, jobs, chunk_size):
    path = tmp_path / "run"
    run = run_in(path, spec_for(GAMES, chunk_size), jobs=jobs)
    assert records(path).equals(reference)
    assert run.manifest["status"] == "complete"
    assert len(list(path.glob("chunk-*.parquet"))) == -(-GAMES // chunk_size)


def test_records_are_the_engines_and_the_summary_is_theirs(tmp_path, reference):
    rec = play(RULES, ["greedy", "random"] * 2, 9, 0, GAMES)
    assert np.array_equal(reference["score_0"].to_numpy(), rec["score"][:, 0])
    assert np.array_equal(reference["turns"].to_numpy(), rec["turns"])
    path = tmp_path / "run"
    run = run_in(path, spec_for(GAMES, 75), jobs=1)
    assert summary_from_aggregate(run.aggregate(), list(TEAMS)) == \
        summarize(rec, 4, list(TEAMS))
    m = manifest(path)
    assert m["rules"]["rules_id"] == RULES.rules_id and m["rules"]["profile"] == "standard"
    assert m["rules"]["knobs"] == RULES.to_dict()
    assert m["strategies"]["seats"] == ["greedy", "random"] * 2 and m["seed"] == 9
    assert m["chunking"] == {"chunk_size": 75, "chunks": 8}
    assert {"numpy", "numba", "polars", "joblib"} <= set(m["versions"])
    for c in m["chunks"]:
        assert c["status"] == "done" and c["rows"] == 4 * c["games"] and len(c["sha256"]) == 64


def test_summary_only_keeps_aggregates_only(tmp_path, reference):
    path = tmp_path / "run"
    run = run_in(path, spec_for(GAMES, 150, keep_records=False), jobs=1)
    assert not list(path.glob("*.parquet"))
    full = run_in(tmp_path / "full", spec_for(GAMES, 150), jobs=1)
    assert run.aggregate() == full.aggregate()


KILL_GAMES, KILL_CHUNK, KILL_AFTER = 2000, 200, 3


@pytest.fixture(scope="module")
def kill_reference(tmp_path_factory):
    path = tmp_path_factory.mktemp("kref") / "run"
    run_in(path, spec_for(KILL_GAMES, KILL_CHUNK, seed=3), jobs=1)
    return records(path)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_killed_run_resumes_to_identical_records(tmp_path, capsys, kill_reference, sig,
                                                 monkeypatch):
    """Ctrl-C (SIGINT to the whole process group) or a crash (SIGKILL) right after the third
    chunk is stored, then --resume: the same records, the finished chunks not rewritten. The
    runner's test hook sends the signal at that chunk (``INTERRUPT_AFTER``), so the test stops
    at the same point on any machine instead of racing the run."""
    args = ["simulate", "--games", str(KILL_GAMES), "--chunk-size", str(KILL_CHUNK), "--seed",
            "3", "--team0", "greedy", "--team1", "random", "--jobs", "2", "--out-dir",
            str(tmp_path), "--name", "run", "--no-progress"]
    path = tmp_path / "run"
    monkeypatch.setenv(INTERRUPT_AFTER, str(KILL_AFTER))
    monkeypatch.setenv(INTERRUPT_SIGNAL, sig.name)
    proc = start_cli(*args, cwd=tmp_path)
    monkeypatch.delenv(INTERRUPT_AFTER)  # the resume below runs in this process
    monkeypatch.delenv(INTERRUPT_SIGNAL)
    out, err = proc.communicate(timeout=180)
    before = manifest(path)
    assert before["status"] != "complete", (before["status"], err)
    done = [c for c in before["chunks"] if c["status"] == "done"]
    assert len(done) == KILL_AFTER < len(before["chunks"]), [c["index"] for c in done]
    if sig == signal.SIGINT:
        assert proc.returncode == 130, err
        assert before["status"] == "interrupted"
        assert "--resume" in err and "Traceback" not in err
    else:
        assert proc.returncode == -signal.SIGKILL, err
    kept = {name: ids for name, ids in file_ids(path).items()
            if name in {chunk_name(c["index"]) for c in done}}

    code, out, err = cli(capsys, "simulate", "--resume", str(path), "--jobs", "2")
    assert code == 0, err
    assert f"{KILL_GAMES:,} games, {4 * KILL_GAMES:,} deals" in out
    assert records(path).equals(kill_reference)
    after = file_ids(path)
    assert all(after[name] == ids for name, ids in kept.items())  # not rewritten
    m = manifest(path)
    assert m["status"] == "complete"
    assert all(c["computed"] == 1 for c in m["chunks"])
    assert m["sessions"][-1]["computed_chunks"] == len(m["chunks"]) - len(done)


def test_corrupted_chunks_are_named_and_recomputed(tmp_path, capsys, reference):
    path = tmp_path / "run"
    run_in(path, spec_for(GAMES, 150), jobs=1)
    truncated, flipped, deleted = (path / chunk_name(i) for i in (1, 2, 3))
    data = truncated.read_bytes()
    truncated.write_bytes(data[: len(data) // 2])
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0xFF
    flipped.write_bytes(bytes(data))
    deleted.unlink()
    untouched = file_ids(path)[chunk_name(0)]

    with pytest.raises(CorruptChunkError) as exc:
        Run.open(path).scan()
    for name in (truncated.name, flipped.name, deleted.name):
        assert name in str(exc.value)
    code, out, err = cli(capsys, "summary", str(path))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("handfoot: error:")
    assert truncated.name in err and flipped.name in err and deleted.name in err

    code, out, err = cli(capsys, "simulate", "--resume", str(path), "--jobs", "1")
    assert code == 0, err
    for name in (truncated.name, flipped.name, deleted.name):
        assert f"{name}: " in err and "recomputing" in err
    assert records(path).equals(reference)
    assert file_ids(path)[chunk_name(0)] == untouched
    assert [c["computed"] for c in manifest(path)["chunks"]] == [1, 2, 2, 2]
    code, out, err = cli(capsys, "summary", str(path))
    assert code == 0 and "600 games, 2,400 deals" in out and "4 chunk files verified" in out


@pytest.mark.parametrize("metric, width", [("win-rate", 0.2), ("score-diff", 3000.0)])
def test_until_ci_stops_within_one_chunk_of_the_width(tmp_path, metric, width):
    until = UntilCI(width, metric)
    runs = [run_in(tmp_path / f"j{jobs}", spec_for(20_000, 10, seed=4, until_ci=until),
                   jobs=jobs) for jobs in (1, 2)]
    run = runs[0]
    n = len(run.chunks)
    assert 2 <= n < 100
    widths = []
    agg = Aggregate(teams=2)
    for index in range(n):
        agg = agg.merge(run.chunk_aggregate(index))
        widths.append(agg.ci_width(metric))
    assert widths[-1] < width <= min(widths[:-1])  # the first prefix narrow enough
    assert run.manifest["until_ci"]["reached"] is True
    assert run.manifest["games"] == 10 * n
    for other in runs[1:]:  # where it stops does not depend on the workers
        assert len(other.chunks) == n
        assert sorted(p.name for p in other.path.glob("*.parquet")) == \
            [chunk_name(i) for i in range(n)]
        assert records(other.path).equals(records(run.path))


def test_strategy_files_are_recorded_and_not_reread(tmp_path):
    """The manifest keeps each seat's strategy as played (kernel and parameters): a resume
    (or a cluster worker) does not need the strategy file, nor see later edits to it."""
    strategy = tmp_path / "holder.toml"
    strategy.write_text('base = "tactician"\nhold_wilds = 1\n')
    spec = spec_for(200, 50, seed=8, teams=(str(strategy), "greedy"))
    full = run_in(tmp_path / "full", spec, jobs=1)
    played = manifest(full.path)["strategies"]["played"]
    assert played[0]["params"]["hold_wilds"] == 1 and played[1]["name"] == "greedy"

    path = tmp_path / "part"
    run_in(path, spec, jobs=1)
    m = manifest(path)
    m["chunks"][2] = {"index": 2, "first_game": 100, "games": 50, "status": "missing",
                      "computed": 0}
    (path / "manifest.json").write_text(json.dumps(m))
    (path / chunk_name(2)).unlink()
    strategy.write_text('base = "tactician"\nhold_wilds = 2\n')  # edited after the run began
    run_in(path, None, jobs=1)
    assert records(path).equals(records(full.path))
    strategy.unlink()
    assert Run.open(path).spec.engine_seats()[0].params["hold_wilds"] == 1
