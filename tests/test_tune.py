"""``handfoot tune``: the same seed gives the same trials, Ctrl-C then --resume finishes the
same study, the held-out re-measure is in the report, and bad requests are one line with exit
code 2. The studies are tiny (a few hundred games against greedy) so the machinery, not the
tuning, is what is tested."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import polars as pl
import pytest

from analysis.experiments.pairings import rules_and_profile
from analysis.experiments.tune import run_study
from analysis.experiments.tune_study import TuneSettings, read_trials
from sim.runs.runner import INTERRUPT_AFTER
from tests.runhelpers import cli, start_cli

KNOBS = ("hold_wilds", "black3_block", "go_out", "min_pile")
SETTINGS = TuneSettings(strategy="tactician", rules="standard",
                        rules_id=rules_and_profile("standard")[0].rules_id, against="greedy",
                        seed=4, first_rung=8, rungs=2, reduction=3, startup=4, params=KNOBS,
                        budget=560, remeasure=10)
CLI_ARGS = ["tune", "tactician", "--against", "greedy", "--seed", "4", "--first-rung", "8",
            "--rungs", "2", "--reduction", "3", "--startup", "4", "--params",
            ",".join(KNOBS), "--budget", "560", "--remeasure", "10", "--jobs", "1"]


def trial_list(records) -> list[dict]:
    return [asdict(t) for t in records]


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory) -> list[dict]:
    folder = tmp_path_factory.mktemp("tune") / "study"
    outcome = run_study(SETTINGS, folder, jobs=1, progress=False)
    assert outcome.spent <= SETTINGS.budget
    assert outcome.best is not None and len(outcome.trials) >= 8
    return trial_list(outcome.trials)


def test_the_same_seed_gives_the_same_trials(uninterrupted, tmp_path):
    again = run_study(SETTINGS, tmp_path / "again", jobs=1, progress=False)
    assert trial_list(again.trials) == uninterrupted
    states = {t["state"] for t in uninterrupted}
    assert "complete" in states and "pruned" in states  # it raced
    first = uninterrupted[0]  # the defaults come first
    assert first["params"] == {"hold_wilds": 0, "black3_block": 1, "go_out": 0, "min_pile": 1}


# Inside the second trial's first rung: the first trial (the defaults) plays both rungs, 24
# games per seating in chunks of 4 (12 chunks); the second's first rung is 2 per seating.
INTERRUPT_AT_CHUNK = 14


def test_sigint_then_resume_finishes_the_same_study(uninterrupted, tmp_path, capsys,
                                                    monkeypatch):
    """Ctrl-C part-way (SIGINT to the process group right after the 14th chunk is stored, by
    the runner's test hook, so on any machine it lands at the same point of the same trial),
    then --resume: the same trials as the uninterrupted study, and its report."""
    dirs = ["--runs-dir", str(tmp_path / "runs"), "--reports-dir", str(tmp_path / "reports"),
            "--report", "t"]
    monkeypatch.setenv(INTERRUPT_AFTER, str(INTERRUPT_AT_CHUNK))
    proc = start_cli(*CLI_ARGS, *dirs, cwd=tmp_path)
    monkeypatch.delenv(INTERRUPT_AFTER)  # the resume below runs in this process
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("handfoot: interrupted") and "--resume" in last, err
    _, partial = read_trials(tmp_path / "runs" / "t")
    assert 0 < len(partial) < len(uninterrupted)  # stopped part-way
    stopped = [m.parent.name for m in (tmp_path / "runs" / "t" / "trials").glob("*/manifest.json")
               if json.loads(m.read_text())["status"] == "interrupted"]
    assert len(stopped) == 1, stopped  # inside a trial's run, which the resume finishes
    monkeypatch.chdir(tmp_path)
    code, out, err = cli(capsys, *CLI_ARGS, *dirs, "--resume", "--out", "t.toml")
    assert code == 0, err
    _, resumed = read_trials(tmp_path / "runs" / "t")
    assert trial_list(resumed) == uninterrupted
    # The report leads with the held-out re-measure against the defaults (fresh seed).
    assert "Held out" in (tmp_path / "reports" / "t" / "summary.md").read_text()
    results = pl.read_csv(tmp_path / "reports" / "t" / "results.csv")
    assert results["value"].to_list() == ["defaults", "against"]
    assert (results["games"] == SETTINGS.remeasure).all()
    manifest = json.loads((tmp_path / "reports" / "t" / "manifest.json").read_text())
    assert {r["seed"] for r in manifest["runs"]} == {SETTINGS.seed + 1}
    text = (tmp_path / "t.toml").read_text()
    assert 'base = "tactician"' in text and "# held out (seed 5" in text


@pytest.mark.parametrize("args, says", [
    (["tune", "greedy", "--budget", "100000"], "has no parameters to tune"),
    (["tune", "tactician", "--budget", "100000", "--params", "hold_wilds,nope"],
     "unknown parameter 'nope'"),
    (["tune", "tactician", "--budget", "100"], "too small to measure anything"),
    (["tune", "tactician", "--budget", "100000", "--resume"], "holds no tuning study"),
    (["tune", "tactician", "--budget", "100000", "--against", "oracle"], "--allow-oracle"),
    (["tune", "tactician", "--budget", "100000", "--first-rung", "1"], "--first-rung"),
])
def test_bad_requests_are_one_line_with_exit_code_2(tmp_path, capsys, args, says):
    code, _, err = cli(capsys, *args, "--runs-dir", str(tmp_path / "runs"), "--reports-dir",
                       str(tmp_path / "reports"))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    assert says in lines[0]
    assert not (tmp_path / "runs").exists() or not any(Path(tmp_path / "runs").iterdir())
