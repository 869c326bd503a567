"""Bad input to ``handfoot simulate`` / ``summary``: one line ``handfoot: error: ...``, exit code
2, and every file of an existing run left exactly as it was."""

from __future__ import annotations

import fcntl
import json

import pytest

from sim.runs.storage import MANIFEST
from tests.runhelpers import cli, file_ids, run_in, spec_for


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    path = tmp_path_factory.mktemp("done") / "run"
    run_in(path, spec_for(200, 100, seed=5), jobs=1)
    return path


@pytest.fixture()
def half_done(tmp_path):
    """A run with one of its two chunks done (as after Ctrl-C)."""
    path = tmp_path / "run"
    run_in(path, spec_for(200, 100, seed=5), jobs=1)
    m = json.loads((path / MANIFEST).read_text())
    m["chunks"][1] = {k: m["chunks"][1][k] for k in ("index", "first_game", "games")}
    m["chunks"][1].update(status="missing", computed=0)
    m["status"] = "interrupted"
    (path / MANIFEST).write_text(json.dumps(m))
    (path / "chunk-000001.parquet").unlink()
    return path


def _fails(capsys, says: str, *args: str) -> None:
    code, out, err = cli(capsys, *args)
    assert code == 2, (code, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    assert says in lines[0], lines[0]
    assert "Traceback" not in err


def test_unknown_backend(capsys, tmp_path):
    _fails(capsys, "unknown backend 'spark'", "simulate", "--games", "10", "--backend", "spark",
           "--out-dir", str(tmp_path))
    assert not any(tmp_path.iterdir())  # no run folder was made


def test_unreachable_scheduler(capsys, tmp_path, half_done):
    before = file_ids(half_done)
    # Port 9 (discard) is closed on loopback: the connection is refused until the timeout.
    _fails(capsys, "cannot reach the dask scheduler at tcp://127.0.0.1:9", "simulate",
           "--games", "10", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9",
           "--connect-timeout", "1", "--out-dir", str(tmp_path / "new"))
    assert not (tmp_path / "new").exists()
    _fails(capsys, "cannot reach the dask scheduler", "simulate", "--resume", str(half_done),
           "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9", "--connect-timeout", "1")
    assert file_ids(half_done) == before


def test_scheduler_needs_dask_backend(capsys, tmp_path):
    _fails(capsys, "--scheduler needs --backend dask", "simulate", "--games", "10",
           "--scheduler", "tcp://127.0.0.1:8786", "--out-dir", str(tmp_path))
    _fails(capsys, "--backend dask needs --scheduler", "simulate", "--games", "10",
           "--backend", "dask", "--out-dir", str(tmp_path))


@pytest.mark.parametrize("manifest, says", [
    (None, "no such directory"),
    ("", "no manifest.json"),
    ("{not json", "not a readable"),
    ('{"format": "x"}', "not a handfoot run manifest"),
])
def test_a_folder_that_is_not_a_run(capsys, tmp_path, manifest, says):
    path = tmp_path / "thing"
    if manifest is not None:
        path.mkdir()
        if manifest:
            (path / MANIFEST).write_text(manifest)
    _fails(capsys, says, "simulate", "--resume", str(path))
    _fails(capsys, says, "summary", str(path))


@pytest.mark.parametrize("args, says", [
    (["--seed", "6"], "different seed 6 (the run has 5)"),
    (["--strategy", "random"], "different strategies random (the run has "
                               "greedy/random)"),
    (["--team0", "random"], "different strategies"),
    (["--rules", "eleven"], "different rules eleven"),
    (["--games", "400"], "different --games 400 (the run has 200)"),
    (["--chunk-size", "50"], "different --chunk-size"),
    (["--summary-only"], "different --summary-only"),
    (["--until-ci", "0.1"], "different --until-ci"),
    (["--name", "x"], "--name does not go with --resume"),
])
def test_resume_with_different_settings(capsys, half_done, args, says):
    before = file_ids(half_done)
    _fails(capsys, says, "simulate", "--resume", str(half_done), *args)
    assert file_ids(half_done) == before


def test_resume_with_the_same_settings_is_fine(capsys, half_done):
    code, out, err = cli(capsys, "simulate", "--resume", str(half_done), "--seed", "5",
                         "--team0", "greedy", "--team1", "random", "--games", "200",
                         "--jobs", "1")
    assert code == 0, err
    assert "200 games, 800 deals" in out and "1 chunks were already done" in out


def test_rules_of_another_version_are_refused(capsys, half_done):
    m = json.loads((half_done / MANIFEST).read_text())
    m["rules"]["knobs"]["no_such_knob"] = 1
    (half_done / MANIFEST).write_text(json.dumps(m))
    before = file_ids(half_done)
    _fails(capsys, "unknown rule knob(s) no_such_knob", "simulate", "--resume", str(half_done))
    assert file_ids(half_done) == before
    del m["rules"]["knobs"]["no_such_knob"]
    m["rules"]["rules_id"] = "0123456789ab"  # the knobs no longer hash to the recorded id
    (half_done / MANIFEST).write_text(json.dumps(m))
    before = file_ids(half_done)
    _fails(capsys, "resolve to id", "simulate", "--resume", str(half_done))
    assert file_ids(half_done) == before


def test_another_engine_build_is_refused(capsys, half_done):
    m = json.loads((half_done / MANIFEST).read_text())
    m["engine"]["sources_sha256"] = "feedfacefeedface"
    (half_done / MANIFEST).write_text(json.dumps(m))
    before = file_ids(half_done)
    _fails(capsys, "another engine build", "simulate", "--resume", str(half_done))
    assert file_ids(half_done) == before


def test_a_run_in_use_is_refused(capsys, half_done):
    before = file_ids(half_done)
    with (half_done / ".lock").open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        _fails(capsys, "in use by another handfoot process", "simulate", "--resume",
               str(half_done), "--jobs", "1")
    assert file_ids(half_done) == before


def test_an_existing_name_is_refused(capsys, finished):
    before = file_ids(finished)
    _fails(capsys, "already exists", "simulate", "--games", "10", "--out-dir",
           str(finished.parent), "--name", finished.name)
    assert file_ids(finished) == before


@pytest.mark.parametrize("args, says", [
    (["--until-ci", "0"], "--until-ci must be a positive width"),
    (["--until-ci", "-1"], "--until-ci must be a positive width"),
    (["--metric", "elo"], "Invalid value for '--metric'"),
    (["--connect-timeout", "0"], "--connect-timeout must be positive"),
    (["--chunk-size", "0"], "--chunk-size must be at least 1"),
    (["--name", "a/b"], "--name must be a plain folder name"),
])
def test_bad_options(capsys, tmp_path, args, says):
    _fails(capsys, says, "simulate", "--games", "10", "--out-dir", str(tmp_path), *args)
    assert not any(tmp_path.iterdir())
