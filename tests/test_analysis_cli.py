"""The analysis commands: a strategy against itself sits at 50%, runs are reused, resumed,
grown and refused as they should be, and every user mistake is one line with exit code 2."""

from __future__ import annotations

import dataclasses
import json

import polars as pl
import pytest

from analysis.experiments import until
from analysis.experiments.pairings import Pairing, Side
from analysis.experiments.playing import ensure_run, grow_run, run_spec
from analysis.statistics.paired import analyse_pair
from sim.runs.runner import simulate_to
from sim.runs.storage import Run
from tests.runhelpers import cli


def handfoot(capsys, *args: str) -> tuple[int, str, str]:
    return cli(capsys, *args)


def dirs(tmp_path) -> list[str]:
    return ["--runs-dir", str(tmp_path / "runs"), "--reports-dir", str(tmp_path / "reports"),
            "--jobs", "1"]


def test_a_strategy_against_itself_sits_at_fifty_percent(tmp_path, capsys):
    """Paired, a strategy against itself is exactly even: both orientations play the same
    shuffles with the same strategies, so they are the same games. (Whether one orientation
    alone sits at 50% is a statistical question: tests/test_engine_properties.py asks it with a
    tolerance derived to fail at 45%.)"""
    code, out, err = handfoot(capsys, "compare", "greedy", "greedy", "--games", "60",
                              "--report", "self", *dirs(tmp_path))
    assert code == 0, err
    row = pl.read_csv(tmp_path / "reports" / "self" / "results.csv").row(0, named=True)
    assert row["win_rate"] == row["win_low"] == row["win_high"] == 0.5
    assert row["diff_game"] == 0 and row["p_value"] == 1.0
    assert "the same strategy" in out
    ab, ba = (Run.open(tmp_path / "runs" / "self" / f"compare-{o}") for o in ("ab", "ba"))
    assert ab.scan().sort(["game", "deal"]).collect().equals(
        ba.scan().sort(["game", "deal"]).collect())
    assert ab.aggregate().games == 60


@pytest.mark.parametrize("args, says", [
    (["compare", "greedy", "nope"], "unknown strategy 'nope'"),
    (["compare", "greedy", "random", "--games", "1"], "--games must be at least 2"),
    (["compare", "greedy", "random", "--sprt", "5,0"], "wrong order"),
    (["compare", "greedy", "random", "--sprt", "5"], "LOW,HIGH"),
    (["compare", "greedy", "random", "--sprt", "0,60"], "outside (0, 1)"),
    (["compare", "greedy", "random", "--sprt", "0,5", "--alpha", "0.7"], "alpha"),
    (["compare", "greedy", "random", "--sprt", "0,5", "--until-ci", "0.1"], "not both"),
    (["compare", "oracle", "greedy"], "--allow-oracle"),
    (["compare", "pimc", "oracle-hands"], "--allow-oracle"),
    (["compare", "tuned", "greedy", "--rules", "custom3.toml"], "not a named profile"),
    (["compare", "greedy", "random", "--rules", "nope"], "unknown rule profile"),
    (["compare", "greedy", "random", "--report", "a/b"], "plain folder name"),
    (["compare", "greedy", "random", "--until-ci", "-1"], "positive width"),
    (["sweep", "--strategy", "tactician", "--param", "hold_wilds"], "NAME=V1,V2"),
    (["sweep", "--strategy", "tactician", "--param", "hold_wilds=0,9"], "outside 0..3"),
    (["sweep", "--strategy", "tactician", "--param", "nope=1"], "unknown parameter 'nope'"),
    (["sweep", "--strategy", "greedy", "--param", "hold_wilds=1"], "takes no parameters"),
    (["rules-compare", "standard", "standard"], "given twice"),
    (["report", "missing"], "no report 'missing'"),
    (["sweep", "--strategy", "tactician", "--param", "hold_wilds=1", "--against", "oracle"],
     "--allow-oracle"),
    (["sweep", "--strategy", "tactician", "--param", "hold_wilds=1", "--against",
      "oracle-hands"], "--allow-oracle"),
    (["ladder", "--strategies", "greedy,oracle-hands"], "--allow-oracle"),
    (["ask", "what"], "No such command"),
])
def test_mistakes_are_one_line_with_exit_code_2(tmp_path, capsys, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "custom3.toml").write_text("players = 3\npartnerships = 3\n")
    code, out, err = handfoot(capsys, *args, *(dirs(tmp_path) if args[0] != "report" else
                                               ["--reports-dir", str(tmp_path)]))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    assert says in lines[0]


def _pairing(a: str = "greedy", b: str = "random") -> Pairing:
    return Pairing(key="t", a=Side(a, a), b=Side(b, b), rules="standard", group="standard")


def test_runs_are_reused_resumed_and_refused(tmp_path):
    spec = run_spec(_pairing(), 0, seed=5, games=40, chunk_size=20)
    path = tmp_path / "t-ab"
    ensure_run(path, spec, jobs=1)
    first = (path / "chunk-000000.parquet").stat().st_mtime_ns
    ensure_run(path, spec, jobs=1)  # same spec: read as it is
    assert (path / "chunk-000000.parquet").stat().st_mtime_ns == first
    manifest = json.loads((path / "manifest.json").read_text())
    manifest["chunks"][1].update(status="missing")
    (path / "manifest.json").write_text(json.dumps(manifest))
    ensure_run(path, spec, jobs=1)  # unfinished: resumed
    assert Run.open(path).missing() == []
    other = dataclasses.replace(spec, seed=6)
    with pytest.raises(ValueError, match="holds a different run: seed 5"):
        ensure_run(path, other, jobs=1)
    ensure_run(path, other, jobs=1, rerun=True)
    assert Run.open(path).spec.seed == 6


def test_a_grown_run_equals_a_run_played_at_its_full_length(tmp_path):
    spec = run_spec(_pairing(), 0, seed=3, games=30, chunk_size=10)
    simulate_to(tmp_path / "grown", spec, jobs=1)
    grow_run(tmp_path / "grown", 50)
    assert len(Run.open(tmp_path / "grown").done()) == 3  # kept, not replayed
    simulate_to(tmp_path / "grown", None, jobs=1)
    simulate_to(tmp_path / "full", dataclasses.replace(spec, games=50), jobs=1)
    grown = Run.open(tmp_path / "grown").scan().sort(["game", "deal"]).collect()
    full = Run.open(tmp_path / "full").scan().sort(["game", "deal"]).collect()
    assert grown.equals(full)


def test_until_ci_grows_the_runs_until_the_interval_is_narrow(tmp_path, monkeypatch):
    monkeypatch.setattr(until, "PILOT", 100)
    monkeypatch.setattr(until, "CHUNK", 50)
    outcome = until.play_until(_pairing("tactician", "greedy"), tmp_path, seed=2, target=0.09,
                               metric="win-rate", most=2000, jobs=1, progress=False)
    assert outcome.reached and outcome.width < 0.09 and outcome.rounds >= 2
    result, _ = analyse_pair(outcome.runs.ab, outcome.runs.ba)
    assert result.win_high - result.win_low == outcome.width
    assert Run.open(outcome.runs.ab).spec.games == result.games > 100
