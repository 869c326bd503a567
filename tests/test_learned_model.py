"""Model files (strategies/learned/model_file.py) and the compiled model (value.py): a file
round-trips, the engine's prediction from the flat array is numpy's (``predict_inputs``) for
every kind and target, and a model file that cannot be used is refused in one line with exit
code 2, naming why, wherever it is met: in a strategy file a comparison plays, or as
``handfoot learn --out`` (which then leaves the file as it was)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from analysis.experiments.learn_fit import Rows, predict_inputs
from sim.core.capacity import MAX_FEATURES, VALUE_MODEL_SLOTS
from sim.core.profiles import PROFILES
from strategies.learned.model_file import ModelError, dumps, read_model, write_model
from strategies.learned.schema import FEATURE_VERSION, N_FEATURES
from strategies.learned.value import (
    advantage_base,
    candidate_score,
    is_folded,
    model_value,
)
from tests.learned_models import learned_file, random_model
from tests.runhelpers import cli

STANDARD = PROFILES["standard"][0]
ELEVEN = PROFILES["eleven"][0]
KINDS_TARGETS = [(k, t) for k in ("ridge", "mlp") for t in ("value", "advantage")]


@pytest.mark.parametrize("kind, target", KINDS_TARGETS)
def test_a_model_file_round_trips(kind, target, tmp_path):
    model = random_model(ELEVEN, kind, target, seed=3, profile="eleven")
    path = tmp_path / "m.json"
    write_model(path, model)
    back = read_model(path, ELEVEN.rules_id)
    assert back == model
    assert dumps(back) == path.read_text()  # the same model, the same bytes
    assert np.array_equal(back.flat(), model.flat())
    assert back.flat().shape[0] <= VALUE_MODEL_SLOTS
    assert not list(tmp_path.glob("*.tmp"))  # written atomically, nothing left beside it


def decisions(rng, n: int) -> Rows:
    """``n`` decisions of 4 candidates each, the base first: the others differ from it in a
    few features (as candidates do) or in all of them."""
    x = []
    for d in range(n):
        base = rng.normal(0.0, 30.0, N_FEATURES)
        x.append(base)
        for c in range(1, 4):
            if (d + c) % 2:
                changed = base.copy()
                slots = rng.choice(N_FEATURES, size=c * 3, replace=False)
                changed[slots] += rng.normal(0.0, 10.0, len(slots))
                x.append(changed)
            else:
                x.append(rng.normal(0.0, 30.0, N_FEATURES))
    rows = 4 * n
    return Rows(np.array(x), np.zeros(rows), np.zeros(rows, dtype=np.int64),
                np.tile([0, 1, 2, 3], n))


@pytest.mark.parametrize("kind, target", KINDS_TARGETS)
def test_the_compiled_model_predicts_what_numpy_does(kind, target):
    """``model_value`` on the flat array, and the player's own path (``advantage_base`` once
    per decision, then ``candidate_score`` per candidate), equal ``predict_inputs`` on the
    model's inputs (for an advantage model: the candidate's features, then their change from
    the base candidate's, as ``Rows.design`` builds them)."""
    model = random_model(STANDARD, kind, target, hidden=12, seed=5)
    flat = model.flat()
    data = decisions(np.random.default_rng(11), 10)
    inputs, _ = data.design(target)
    want = predict_inputs(model, inputs)
    z = np.zeros(2 * MAX_FEATURES)
    acc = np.zeros(2 * MAX_FEATURES)
    feats = np.zeros(MAX_FEATURES)
    base = np.zeros(MAX_FEATURES)
    got, player = [], []
    for r in range(len(data.y)):
        if data.index[r] == 0:
            base[:N_FEATURES] = data.x[r]
            if is_folded(flat):
                advantage_base(flat, base, acc)
            if target == "advantage":
                continue  # the base candidate has no row of its own
        feats[:N_FEATURES] = data.x[r]
        got.append(model_value(flat, feats, base, z))
        player.append(candidate_score(flat, feats, base, acc))
    assert len(got) == len(want) == (40 if target == "value" else 30)
    assert is_folded(flat) == (kind == "mlp" and target == "advantage")
    assert np.allclose(got, want, rtol=1e-9, atol=1e-6), np.max(np.abs(np.array(got) - want))
    assert np.allclose(player, want, rtol=1e-9, atol=1e-6), \
        np.max(np.abs(np.array(player) - want))
    assert np.std(want) > 1.0  # not a constant
    if kind == "mlp":  # some units were off and some on, so the rectifier was exercised
        zs = (inputs - np.asarray(model.mean)) / np.asarray(model.scale)
        pre = zs @ np.asarray(model.hidden_weights).T + np.asarray(model.hidden_bias)
        assert (pre > 0).any() and (pre < 0).any()


def test_read_model_refuses_other_rules_by_both_ids(tmp_path):
    path = tmp_path / "m.json"
    write_model(path, random_model(ELEVEN, profile="eleven"))
    with pytest.raises(ModelError) as err:
        read_model(path, STANDARD.rules_id)
    assert ELEVEN.rules_id in str(err.value) and STANDARD.rules_id in str(err.value)
    assert read_model(path).rules_id == ELEVEN.rules_id  # with no rules asked: read


# --- Bad model files where they are met --------------------------------------------------------

def _garbage(path):
    path.write_bytes(b"\x00\x17 not a model \xff\xfe" * 20)


def _truncated(path):
    text = path.read_text()
    path.write_text(text[: len(text) // 2])


def _other_version(path):
    data = json.loads(path.read_text())
    data["feature_version"] = FEATURE_VERSION + 1
    path.write_text(json.dumps(data))


def _damaged_numbers(path):
    data = json.loads(path.read_text())
    data["mean"] = data["mean"][:-1]
    path.write_text(json.dumps(data))


BAD_FILES = {  # how the model file is spoiled -> what the message says
    "other rules": (None, f"is for rules id {ELEVEN.rules_id}"),
    "garbage": (_garbage, "cannot be read"),
    "truncated": (_truncated, "truncated or corrupt"),
    "other feature version": (_other_version, f"feature version {FEATURE_VERSION + 1}"),
    "damaged numbers": (_damaged_numbers, "'mean' is not"),
}


def one_error_line(code: int, err: str) -> str:
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    return lines[0]


@pytest.mark.parametrize("case", list(BAD_FILES))
def test_compare_refuses_a_bad_model_in_one_line(case, tmp_path, capsys):
    spoil, says = BAD_FILES[case]
    rules = ELEVEN if case == "other rules" else STANDARD
    strategy = learned_file(tmp_path, rules, name="mine")
    if spoil is not None:
        spoil(tmp_path / "mine-model.json")
    code, _, err = cli(capsys, "compare", str(strategy), "greedy", "--rules", "standard",
                       "--games", "2", "--jobs", "1", "--runs-dir", str(tmp_path / "runs"),
                       "--reports-dir", str(tmp_path / "reports"))
    line = one_error_line(code, err)
    assert says in line and "mine-model.json" in line, line
    if case == "other rules":
        assert STANDARD.rules_id in line, line
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").rglob("*.parquet"))


def test_garbage_that_is_text_is_not_json(tmp_path, capsys):
    strategy = learned_file(tmp_path, STANDARD, name="mine")
    (tmp_path / "mine-model.json").write_text("this is { not a model\n")
    code, _, err = cli(capsys, "compare", str(strategy), "greedy", "--games", "2", "--jobs",
                       "1", "--runs-dir", str(tmp_path / "runs"), "--reports-dir",
                       str(tmp_path / "reports"))
    line = one_error_line(code, err)
    assert "truncated or corrupt" in line and "not valid JSON" in line, line


def _learn(capsys, tmp_path, out, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "learn", "--rules", "standard", "--out", str(out), "--jobs", "1",
               "--runs-dir", str(tmp_path / "runs"), "--report-dir", str(tmp_path / "report"),
               "--no-progress", *extra)


def _identity(path) -> tuple[bytes, int, int]:
    st = os.stat(path)
    return path.read_bytes(), st.st_ino, st.st_mtime_ns


@pytest.mark.parametrize("existing", ["none", "same rules", "garbage"])
def test_learn_with_too_few_games_is_one_line_and_writes_nothing(existing, tmp_path, capsys):
    out = tmp_path / "model.json"
    if existing == "same rules":
        write_model(out, random_model(STANDARD, profile="standard"))
    elif existing == "garbage":
        _garbage(out)
    before = _identity(out) if out.exists() else None
    code, _, err = _learn(capsys, tmp_path, out, "--games", "10")
    line = one_error_line(code, err)
    assert "too few games" in line and "--games" in line, line
    assert (_identity(out) if out.exists() else None) == before
    assert not (tmp_path / "runs").exists() and not (tmp_path / "report").exists()


def test_learn_refuses_an_out_file_holding_another_rules_model(tmp_path, capsys):
    out = tmp_path / "eleven.json"
    write_model(out, random_model(ELEVEN, profile="eleven"))
    before = _identity(out)
    code, _, err = _learn(capsys, tmp_path, out, "--games", "200")
    line = one_error_line(code, err)
    assert ELEVEN.rules_id in line and STANDARD.rules_id in line and "--out" in line, line
    assert _identity(out) == before
    assert not (tmp_path / "runs").exists() and not (tmp_path / "report").exists()
