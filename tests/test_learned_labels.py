"""Leaf-search labels for ``handfoot learn`` (``--label-horizon``, ``--label-model``): a
recorded candidate's target can be the leaf search's value (the base policy for H of the
seat's own turns, then a value model) instead of rollouts to the end of the deal.

The label is the value model's where the deal goes on past the horizon and the true outcome
where it ends first (a horizon past every deal's end gives exactly the labels to the end); the
labels change nothing else a recording run records, not even the play of a learned seat whose
own model is swapped out while the label is searched; and a label model that cannot serve is
refused in one line before any game is played."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.profiles import PROFILES
from sim.play.recording import record
from sim.runs.storage import Recording, RunError
from strategies.learned.model_file import Model, read_model, write_model
from strategies.lookahead.schema import N_FEATURES
from strategies.per_profile import value_file
from tests.learned_models import learned_file, random_model
from tests.runhelpers import cli

STANDARD = PROFILES["standard"][0]
ELEVEN = PROFILES["eleven"][0]


def shipped_value(profile: str = "standard") -> np.ndarray:
    return read_model(value_file(profile)).flat()


def constant_model(value: float) -> Model:
    """A value model that says ``value`` of every position."""
    return Model(rules_id=STANDARD.rules_id, profile="standard", kind="ridge", target="value",
                 mean=[0.0] * N_FEATURES, scale=[1.0] * N_FEATURES, coef=[0.0] * N_FEATURES,
                 intercept=value)


def test_a_horizon_past_every_deal_s_end_gives_the_labels_to_the_end():
    """With a horizon no deal reaches, every world is played to the end and valued by its
    true outcome: the targets are bit for bit those of labels to the end of the deal."""
    to_end = record(STANDARD, ["tuned"] * 4, 3, 0, 3, 0.05, 0.5, 8)
    past = record(STANDARD, ["tuned"] * 4, 3, 0, 3, 0.05, 0.5, 8, 40, shipped_value())
    assert len(to_end[3]) > 50 and np.std(to_end[3]) > 100.0
    assert np.array_equal(to_end[3], past[3])


def test_the_leaf_label_is_the_value_model_s_where_the_deal_goes_on():
    """A value model that says 777 of every position, one own turn deep: most candidates'
    targets are exactly 777 (every world stopped at the leaf), and the others (where some world
    ended the deal within the turn) are not; labels to the end are never 777."""
    flat = constant_model(777.0).flat()
    leaf = record(STANDARD, ["tuned"] * 4, 3, 0, 3, 0.05, 0.5, 8, 1, flat)[3]
    to_end = record(STANDARD, ["tuned"] * 4, 3, 0, 3, 0.05, 0.5, 8)[3]
    assert np.mean(leaf == 777.0) > 0.8, np.mean(leaf == 777.0)
    assert not (to_end == 777.0).any()


def test_leaf_labels_change_the_targets_and_nothing_else(tmp_path):
    """Seats playing a learned player (its own advantage model in ``w.value_model``, swapped
    out while a label is searched): with leaf labels the deals played, the rows' features and
    what identifies them are the same as with labels to the end; the targets differ."""
    seat = learned_file(tmp_path, STANDARD, any_base=True)
    from strategies.per_profile import resolve_spec

    info = resolve_spec(str(seat), STANDARD)
    to_end = record(STANDARD, [info] * 4, 5, 0, 3, 0.05, 0.5, 6)
    leaf = record(STANDARD, [info] * 4, 5, 0, 3, 0.05, 0.5, 6, 2, shipped_value())
    assert np.array_equal(to_end[0], leaf[0])  # the deals' records
    assert np.array_equal(to_end[1], leaf[1]) and np.array_equal(to_end[2], leaf[2])
    assert np.mean(to_end[3] != leaf[3]) > 0.9


def test_a_recording_s_label_settings_are_checked():
    with pytest.raises(RunError, match="horizon and a value model together"):
        Recording(0.05, 0.5, 8, label_horizon=2)
    with pytest.raises(RunError, match="label horizon must be 0 to"):
        Recording(0.05, 0.5, 8, label_horizon=99, label_model="m", label_model_sha256="ab")
    with pytest.raises(RunError, match="--worlds 1 or more"):
        Recording(0.05, 0.5, 0, label_horizon=2, label_model="m", label_model_sha256="ab")


def learn(capsys, tmp_path, *extra: str) -> tuple[int, str]:
    code, _, err = cli(capsys, "learn", "--out", str(tmp_path / "m.json"), "--games", "400",
                       "--runs-dir", str(tmp_path / "runs"), "--report-dir",
                       str(tmp_path / "rep"), "--jobs", "1", *extra)
    assert "Traceback" not in err and not (tmp_path / "runs").exists(), err
    assert not (tmp_path / "m.json").exists()
    return code, err


def test_a_label_model_that_cannot_serve_is_refused_before_any_game(tmp_path, capsys):
    """An advantage model, a model of other rules, a missing file, and a label model without
    a horizon: each refused in one line with exit code 2, nothing played or written."""
    advantage = tmp_path / "adv.json"
    write_model(advantage, random_model(STANDARD, "mlp", "advantage"))
    other = tmp_path / "eleven.json"
    write_model(other, random_model(ELEVEN, "ridge", "value", profile="eleven"))
    for extra, says in ((["--label-horizon", "2", "--label-model", str(advantage)],
                         "is an advantage model"),
                        (["--label-horizon", "2", "--label-model", str(other)], "rules"),
                        (["--label-horizon", "2", "--label-model", str(tmp_path / "no.json")],
                         "--label-model"),
                        (["--label-model", str(other)], "--label-horizon 1 or more")):
        code, err = learn(capsys, tmp_path, *extra)
        assert code == 2 and says in err, (extra, err)


def test_a_recording_run_keeps_its_label_settings(tmp_path):
    """A recording run's leaf-label settings survive its manifest (written, read back: the
    same spec), and so does a run with labels to the end; the label model's path is where it
    was read, its sha256 is what identifies the run."""
    import dataclasses

    from sim.runs.storage import Run
    from strategies.learned.model_file import file_digest
    from tests.runhelpers import spec_for

    path = value_file("standard")
    for n, recording in enumerate((Recording(0.05, 0.5, 8), Recording(
            0.05, 0.5, 8, label_horizon=3, label_model=str(path),
            label_model_sha256=file_digest(path)))):
        spec = dataclasses.replace(spec_for(10, 5), keep_records=True, recording=recording)
        back = Run.open(Run.create(tmp_path / f"r{n}", spec).path).spec.recording
        assert back == recording and back.label_model == recording.label_model
    moved = dataclasses.replace(recording, label_model="/elsewhere/standard.value.json")
    other = dataclasses.replace(recording, label_model_sha256="0" * 64)
    assert moved == recording and other != recording
