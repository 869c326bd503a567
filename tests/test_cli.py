"""The command line: summaries, traces, and one-line errors with exit code 2 for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sim.core.rules import Rules
from tests.runhelpers import check_played, cli, records


def handfoot(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True,
                          text=True, timeout=300)


@pytest.mark.parametrize(
    "args, says",
    [
        (["simulate", "--games", "0"], "--games must be at least 1"),
        (["simulate", "--seed", "-1"], "--seed must be"),
        (["simulate", "--strategy", "nope"], "unknown strategy 'nope'"),
        (["simulate", "--team1", "nope"], "unknown strategy 'nope'"),
        (["simulate", "--games", "abc"], "not a valid integer"),
        (["simulate", "--rules", "nope"], "unknown rule profile"),
        (["simulate", "--jobs", "-3"], "--jobs"),
        (["trace", "--out", "/nonexistent-dir/x.jsonl"], "cannot write --out"),
        (["trace", "--games", "0", "--out", "x.jsonl"], "--games must be at least 1"),
        (["frobnicate"], "No such command"),
    ],
)
def test_bad_input_gets_one_line_and_exit_code_2(args, says, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    code, _, err = cli(capsys, *args)
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:")
    assert says in lines[0]


def test_a_real_process_fails_in_one_line_without_a_traceback():
    result = handfoot("simulate", "--games", "0")
    assert result.returncode == 2
    assert result.stderr.strip() == "handfoot: error: --games must be at least 1 (got 0)", \
        result.stderr


def test_simulate_prints_the_summary(tmp_path, capsys):
    code, out, err = cli(capsys, "simulate", "--games", "200", "--team0", "greedy", "--team1",
                         "random", "--jobs", "1", "--out-dir", str(tmp_path))
    assert code == 0, err
    for needle in ("200 games, 800 deals", "95% CI (Wilson)", "deal length in turns",
                   "greedy", "random", f"run: {tmp_path}/"):
        assert needle in out
    (run,) = tmp_path.iterdir()  # the run folder: one Parquet chunk and the manifest
    assert sorted(p.name for p in run.iterdir() if not p.name.startswith(".")) == \
        ["chunk-000000.parquet", "manifest.json"]
    check_played(run, ["greedy", "random"] * 2, Rules(), 200)
    ends = records(run)["end_reason"]
    out_share, stock_share = (ends == 1).mean(), (ends == 2).mean()
    assert out_share + stock_share == 1
    assert (f"deals ended by going out: {out_share:.1%}, by the stock running out: "
            f"{stock_share:.1%}, truncated: 0") in out


def test_trace_writes_json_lines(tmp_path):
    path = tmp_path / "t.jsonl"
    result = handfoot("trace", "--games", "1", "--seed", "3", "--out", str(path))
    assert result.returncode == 0, result.stderr
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    assert lines[0]["type"] == "deal" and lines[-1]["type"] == "game"
    assert sum(1 for x in lines if x["type"] == "end") == 4


def test_help_has_examples():
    result = handfoot("simulate", "--help")
    assert result.returncode == 0 and "Example: handfoot simulate" in result.stdout
    assert handfoot().returncode == 0
