"""``handfoot learn`` on a small budget: the same seed and games give the same model file bit
for bit whatever --jobs, and Ctrl-C keeps the chunks played, writes no model, and --resume
finishes the same file.

600 games in 3 chunks of 200, a position recorded at 0.8% of the decisions (about 7,000
rows), each candidate's target searched over 2 imagined deals, a network of 8 units."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sim.runs.runner import INTERRUPT_AFTER
from sim.runs.storage import Run
from strategies.learned.model_file import read_model
from tests.runhelpers import cli, start_cli

ARGS = ("learn", "--rules", "standard", "--games", "600", "--seed", "5", "--sample-rate",
        "0.008", "--worlds", "2", "--hidden", "8", "--no-progress")
CHUNKS = 3


def learn_args(root: Path, name: str, jobs: int, *extra: str) -> list[str]:
    return [*ARGS, "--out", str(root / f"{name}.json"), "--name", name, "--jobs", str(jobs),
            "--runs-dir", str(root / "runs"), "--report-dir", str(root / "reports" / name),
            *extra]


def learn_in_process(*args: str) -> int:
    from sim.cli import main

    try:
        main(list(args))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> bytes:
    """The model file of an uninterrupted run on one worker."""
    root = tmp_path_factory.mktemp("learn")
    assert learn_in_process(*learn_args(root, "one", 1)) == 0
    out = root / "one.json"
    model = read_model(out, "fc5f850d308a")
    assert model.kind == "mlp" and model.target == "advantage" and model.hidden == 8
    training = model.metadata["training"]
    assert training["games"] == 600 and training["seed"] == 5 and training["worlds"] == 2
    assert training["training_rows"] > 2000 and model.metadata["held_out"]["rows"] > 100
    assert len(Run.open(root / "runs" / "one").chunks) == CHUNKS
    assert (root / "reports" / "one" / "index.html").is_file()
    return out.read_bytes()


def test_jobs_do_not_change_the_model_file(reference, tmp_path, capsys):
    code, out, err = cli(capsys, *learn_args(tmp_path, "two", 2))
    assert code == 0, err
    assert "model:" in out and "held out" in out
    assert (tmp_path / "two.json").read_bytes() == reference
    manifest = json.loads((tmp_path / "runs" / "two" / "manifest.json").read_text())
    assert manifest["status"] == "complete" and manifest["recording"]["worlds"] == 2


def test_another_seed_gives_another_model(reference, tmp_path, capsys):
    """So the equalities here are not those of a file that ignores its games."""
    args = learn_args(tmp_path, "other", 1)
    args[args.index("--seed") + 1] = "6"
    code, _, err = cli(capsys, *args)
    assert code == 0, err
    assert (tmp_path / "other.json").read_bytes() != reference


def test_ctrl_c_keeps_the_games_and_resume_finishes_the_same_file(reference, tmp_path,
                                                                  capsys, monkeypatch):
    """SIGINT to the process group right after the first chunk is stored (the runner's test
    hook), exit code 130, no model file; then --resume plays the rest: the same bytes."""
    args = learn_args(tmp_path, "cut", 1)
    monkeypatch.setenv(INTERRUPT_AFTER, "1")
    proc = start_cli(*args, cwd=tmp_path)
    monkeypatch.delenv(INTERRUPT_AFTER)  # the resume below runs in this process
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    last = err.strip().splitlines()[-1]
    assert last.startswith("handfoot: interrupted") and "--resume" in last, err
    assert not (tmp_path / "cut.json").exists()
    run = Run.open(tmp_path / "runs" / "cut")
    assert len(run.done()) == 1 and len(run.chunks) == CHUNKS
    assert run.manifest["status"] == "interrupted"
    code, _, err = cli(capsys, *args, "--resume")
    assert code == 0, err
    assert (tmp_path / "cut.json").read_bytes() == reference
    assert Run.open(tmp_path / "runs" / "cut").manifest["status"] == "complete"
