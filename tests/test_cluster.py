"""The dask backend: the same job on a dask.distributed cluster (here a LocalCluster of two
worker processes on loopback) gives the records of the local backend."""

from __future__ import annotations

import pytest

from tests.runhelpers import cli, records, run_in, spec_for

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as c:
        yield c


def test_dask_cluster_gives_the_local_records(tmp_path, cluster):
    spec = spec_for(600, 75, seed=12)
    run_in(tmp_path / "local", spec, jobs=2)
    run = run_in(tmp_path / "dask", spec, backend="dask", scheduler=cluster.scheduler_address,
                 connect_timeout=30)
    assert records(tmp_path / "dask").equals(records(tmp_path / "local"))
    assert run.manifest["sessions"][-1]["backend"] == "dask"
    assert run.manifest["sessions"][-1]["workers"] == 2


def test_dask_from_the_command_line(tmp_path, capsys, cluster):
    code, out, err = cli(capsys, "simulate", "--games", "200", "--chunk-size", "50",
                         "--backend", "dask", "--scheduler", cluster.scheduler_address,
                         "--out-dir", str(tmp_path), "--name", "run", "--no-progress")
    assert code == 0, err
    assert f"backend dask {cluster.scheduler_address} (2 worker threads)" in out
    assert "200 games, 800 deals" in out
    local = tmp_path / "local"
    run_in(local, spec_for(200, 50, seed=1, teams=("greedy", "greedy")), jobs=1)
    assert records(tmp_path / "run").equals(records(local))
