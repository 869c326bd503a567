"""``handfoot strategies`` and strategy specs (names or files) on the command line."""

from __future__ import annotations

import subprocess
import sys

from sim.runs.lineup import PER_PROFILE
from strategies.registry import REGISTRY, load


def handfoot(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "sim.cli", *args], capture_output=True,
                          text=True, timeout=300)


def test_strategies_list():
    result = handfoot("strategies", "list")
    assert result.returncode == 0, result.stderr
    names = [line.split()[0] for line in result.stdout.strip().splitlines()]
    assert names == list(REGISTRY) + list(PER_PROFILE)


def test_strategies_show_is_a_strategy_file(tmp_path):
    for name in ("tactician", "cautious", "greedy"):
        result = handfoot("strategies", "show", name)
        assert result.returncode == 0, result.stderr
        path = tmp_path / f"{name}.toml"
        path.write_text(result.stdout)
        assert load(str(path)).params == REGISTRY[name].params


def test_a_strategy_file_plays_for_a_partnership(tmp_path):
    path = tmp_path / "hoarder.toml"
    path.write_text('base = "tactician"\nhold_wilds = 2\n')
    result = handfoot("simulate", "--games", "20", "--jobs", "1", "--team0", str(path),
                      "--team1", "greedy", "--out-dir", str(tmp_path / "runs"))
    assert result.returncode == 0, result.stderr
    bad = tmp_path / "bad.toml"
    bad.write_text('base = "tactician"\nhold_wilds = 7\n')
    result = handfoot("simulate", "--games", "20", "--team0", str(bad), "--out-dir",
                      str(tmp_path / "runs"))
    assert result.returncode == 2 and "outside 0..3" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_one_strategy_per_seat(tmp_path):
    result = handfoot("simulate", "--games", "20", "--jobs", "1", "--strategy",
                      "greedy,random,cautious,random", "--out-dir", str(tmp_path / "runs"))
    assert result.returncode == 0, result.stderr
    result = handfoot("simulate", "--games", "20", "--strategy", "greedy,random,cautious",
                      "--out-dir", str(tmp_path / "runs"))
    assert result.returncode == 2 and "3 strategies for 4 seats" in result.stderr
    out = tmp_path / "t.jsonl"
    result = handfoot("trace", "--strategy", "cautious,greedy,random,tactician", "--out",
                      str(out))
    assert result.returncode == 0, result.stderr


def test_individual_play_with_three_players(tmp_path):
    rules = tmp_path / "three.toml"
    rules.write_text('base = "simpson"\nplayers = 3\npartnerships = 3\ndecks = 4\n')
    for extra in ([], ["--strategy", "cautious"], ["--strategy", "greedy,random,tactician"]):
        result = handfoot("simulate", "--games", "30", "--jobs", "1", "--rules", str(rules),
                          "--out-dir", str(tmp_path / "runs"), *extra)
        assert result.returncode == 0, result.stderr
        assert "   2  " in result.stdout  # a line for the third player
