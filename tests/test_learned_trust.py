"""The learned pipeline bound to what it was fitted on (issue 28's findings 1, 2, 3, 5, 6).

* A model records the base policy it was fitted against; a learned seat over another base is
  refused in one line naming both, unless its strategy file says ``any_base = true``; the
  shipped models' bases are the shipped tuned files (a re-tune fails here until the models are
  refitted).
* Expert iteration plays the trained player's own choice at the recorded decisions: with no
  exploring, a recording run's games are the player's own games, record for record.
* A recording run made by another engine build or feature version is refused, not refitted.
* Branched games keep the game score from deal to deal, as the game loop does.
* A model whose evaluation would write past the work area's scratch is refused when read.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from sim.core.capacity import MAX_FEATURES, MAX_HIDDEN, MODEL_SCRATCH
from sim.core.profiles import PROFILES
from sim.core.rules import Rules
from strategies.learned.model_file import (
    ModelError,
    check_fits,
    file_digest,
    read_model,
    write_model,
)
from strategies.lookahead.schema import ADVANTAGE, MLP, VALUE, scratch_needed
from strategies.per_profile import learned_file, learned_profiles, resolve_spec, tuned_file
from strategies.registry import StrategyError, load
from tests.learned_models import random_model
from tests.runhelpers import cli

STANDARD = Rules()


def _tuned_params(profile: str) -> dict[str, float]:
    info = load(str(tuned_file(profile)))
    return {k: float(v) for k, v in info.params.items()}


def _fitted_on(folder: Path, base: str, params: dict[str, float], any_base: bool = False) -> Path:
    """A strategy file playing a model fitted (so its file says) against ``tuned``'s vector of
    standard, over the base policy ``base``."""
    model = random_model(STANDARD, profile="standard")
    model.base_policy = {"spec": "tuned", "params": params,
                         "tuned_sha256": file_digest(tuned_file("standard"))}
    write_model(folder / "fitted.json", model)
    lines = ['base = "learned"', 'model = "fitted.json"', f'base_policy = "{base}"']
    if any_base:
        lines.append("any_base = true")
    path = folder / f"over-{base}{'-any' if any_base else ''}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path


# --- 1. a model is bound to its base -----------------------------------------------------------

def test_a_learned_seat_over_another_base_is_refused_naming_both(tmp_path):
    tuned = _tuned_params("standard")
    same = _fitted_on(tmp_path, "tuned", tuned)
    assert resolve_spec(str(same), STANDARD).base_params == pytest.approx(tuned)
    other = _fitted_on(tmp_path, "cautious", tuned)
    with pytest.raises(StrategyError) as err:
        resolve_spec(str(other), STANDARD)
    line = str(err.value)
    assert "\n" not in line and "fitted against base policy tuned" in line, line
    assert "cautious" in line and "any_base = true" in line, line


def test_any_base_plays_the_model_over_another_base(tmp_path):
    path = _fitted_on(tmp_path, "cautious", _tuned_params("standard"), any_base=True)
    info = resolve_spec(str(path), STANDARD)
    assert info.any_base and info.base_policy == "cautious"


def test_a_model_without_a_recorded_base_is_refused(tmp_path):
    write_model(tmp_path / "old.json", random_model(STANDARD, profile="standard"))
    (tmp_path / "old.toml").write_text('base = "learned"\nmodel = "old.json"\n')
    with pytest.raises(StrategyError, match="does not record the base policy"):
        resolve_spec(str(tmp_path / "old.toml"), STANDARD)


def test_compare_refuses_a_model_fitted_on_another_base_in_one_line(tmp_path, capsys):
    other = _fitted_on(tmp_path, "cautious", _tuned_params("standard"))
    code, _, err = cli(capsys, "compare", str(other), "tuned", "--games", "2", "--jobs", "1",
                       "--runs-dir", str(tmp_path / "runs"), "--reports-dir",
                       str(tmp_path / "reports"))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "fitted against base policy" in lines[0], err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "reports").exists()


@pytest.mark.parametrize("profile", learned_profiles())
def test_each_shipped_model_was_fitted_on_the_shipped_tuned_file(profile):
    """A re-tune (``handfoot tune`` rewriting strategies/tuned/<profile>.toml) fails here until
    the profile's models and its ladder are refitted and re-measured (docs/design.md)."""
    model = read_model(learned_file(profile))
    assert model.base_policy["spec"] == "tuned"
    assert model.base_policy["params"] == _tuned_params(profile)
    assert model.base_policy["tuned_sha256"] == file_digest(tuned_file(profile))
    value = learned_file(profile).with_suffix(".value.json")
    if value.is_file():
        assert read_model(value).base_policy["params"] == _tuned_params(profile)


def test_the_ladder_was_measured_with_the_shipped_files():
    from strategies.ladder import measured_with, play_fingerprints

    for profile in learned_profiles():
        assert measured_with(profile) == play_fingerprints(profile), profile


# --- 2. expert iteration plays the trained player ----------------------------------------------

def test_recording_without_exploring_plays_the_learned_players_own_games(tmp_path):
    """explore = 0: every recorded decision plays the seat's own choice, so the games are the
    learned player's, record for record (the code before played the base policy's move there,
    which a learned player leaves often)."""
    from sim.play.api import play
    from sim.play.recording import META_COLUMNS, record

    model = random_model(STANDARD, profile="standard")
    model.base_policy = {"spec": "tuned", "params": _tuned_params("standard"),
                         "tuned_sha256": ""}
    write_model(tmp_path / "m.json", model)
    (tmp_path / "l.toml").write_text('base = "learned"\nmodel = "m.json"\n')
    seats = [load(str(tmp_path / "l.toml"))] * 4
    records, _, meta, _ = record(STANDARD, seats, 3, 0, 2, 0.3, 0.0, 0)
    assert np.array_equal(records, play(STANDARD, seats, 3, 0, 2))
    index = meta[:, META_COLUMNS.index("index")]
    assert len(index) > 50 and (index != 0).sum() > 0, "the learned player never left its base"


# --- 3. stale recording runs -------------------------------------------------------------------

LEARN = ("learn", "--rules", "standard", "--games", "80", "--seed", "3", "--sample-rate",
         "0.05", "--worlds", "0", "--target", "value", "--kind", "ridge", "--jobs", "1",
         "--no-progress")


def _learn(capsys, tmp_path: Path, out: str) -> tuple[int, str, str]:
    return cli(capsys, *LEARN, "--out", str(tmp_path / out), "--name", "rec", "--runs-dir",
               str(tmp_path / "runs"), "--report-dir", str(tmp_path / "report"))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    from tests.test_learn import learn_in_process

    root = tmp_path_factory.mktemp("stale")
    args = [*LEARN, "--out", str(root / "first.json"), "--name", "rec", "--runs-dir",
            str(root / "runs"), "--report-dir", str(root / "report")]
    assert learn_in_process(*args) == 0
    return root


def _copy_run(recorded: Path, tmp_path: Path) -> Path:
    import shutil

    shutil.copytree(recorded / "runs", tmp_path / "runs")
    return tmp_path / "runs" / "rec" / "manifest.json"


@pytest.mark.parametrize("spoil", ["engine build", "feature version", "feature order"])
def test_learn_refuses_a_stale_recording_run(spoil, recorded, tmp_path, capsys):
    manifest = _copy_run(recorded, tmp_path)
    data = json.loads(manifest.read_text())
    if spoil == "engine build":
        data["engine"]["sources_sha256"] = "0" * 16
    elif spoil == "feature version":
        data["recording"]["feature_version"] += 1
    else:
        data["recording"]["feature_digest"] = "f" * 64
    manifest.write_text(json.dumps(data))
    code, _, err = _learn(capsys, tmp_path, "again.json")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1, err
    assert ("another engine build" if spoil == "engine build" else "features of version") \
        in lines[0], err
    assert not (tmp_path / "again.json").exists() and not (tmp_path / "report").exists()


def test_learn_reuses_a_fresh_recording_run_and_records_its_provenance(recorded, tmp_path,
                                                                        capsys):
    from sim.runs.storage import engine_build

    _copy_run(recorded, tmp_path)
    code, _, err = _learn(capsys, tmp_path, "again.json")
    assert code == 0, err
    again = (tmp_path / "again.json").read_bytes()
    assert again == (recorded / "first.json").read_bytes()
    model = read_model(tmp_path / "again.json")
    assert model.metadata["provenance"]["engine_build"] == engine_build()
    assert model.base_policy["spec"] == "tuned"
    assert model.base_policy["params"] == _tuned_params("standard")


def test_another_fit_of_the_same_recording_keeps_the_first_fits_round_files(recorded, tmp_path,
                                                                           capsys):
    """A value model fitted from the advantage model's recording run (the shipped value model
    is made that way) once overwrote round 1's model file of the run, which later rounds and
    measurements read; each fit now names its round files by its target and kind."""
    _copy_run(recorded, tmp_path)
    runs = tmp_path / "runs"
    first = (runs / "rec-value-ridge-round1.json").read_bytes()
    args = [a if a != "ridge" else "mlp" for a in LEARN]
    code, _, err = cli(capsys, *args, "--hidden", "4", "--out", str(tmp_path / "mlp.json"),
                       "--name", "rec", "--runs-dir", str(runs), "--report-dir",
                       str(tmp_path / "report"))
    assert code == 0, err
    assert (runs / "rec-value-ridge-round1.json").read_bytes() == first
    assert read_model(runs / "rec-value-mlp-round1.json").kind == "mlp"


# --- 5. branched games keep the game score -----------------------------------------------------

@pytest.mark.parametrize("profile", ["standard", "eleven"])
def test_branched_games_carry_the_game_score_as_play_does(profile):
    """collect_holds plays the real game on with the strategy's own choices: after its games the
    game score is the one the game loop reaches (the code before left it at 0 to 0, so deals 2
    to 4 were branched from positions real play never reaches)."""
    from sim.play import branching as br
    from sim.play.api import make_table, play, run_compiled

    rules = PROFILES[profile][0]
    seats = ["cautious"] * rules.players
    played = make_table(rules, seats)
    play(rules, seats, 11, 0, 3, table=played)
    branched = make_table(rules, seats)
    out = np.zeros((3 * 400, br.N_FEATURES))
    run_compiled(branched, lambda *r: br.collect_holds(*r, 11, 0, 3, out))
    want = played.records()[0]["game_score"]
    assert np.abs(want).sum() > 0
    assert np.array_equal(branched.records()[0]["game_score"], want)


# --- 6. the model scratch ----------------------------------------------------------------------

def test_the_scratch_holds_the_largest_model_a_file_may_have():
    from sim.engine.layout import WORK_DTYPE

    assert WORK_DTYPE["model_in"].shape == (MODEL_SCRATCH,)
    assert MODEL_SCRATCH >= MAX_HIDDEN + 2 * MAX_FEATURES
    # A folded network of 32 units on 180 features fits the model slots and writes 392 numbers
    # of scratch: past the 2 x 192 the work area had before the bound was checked.
    assert scratch_needed(MLP, ADVANTAGE, 180, 32) > 2 * MAX_FEATURES
    check_fits("x.json", MLP, ADVANTAGE, 180, 32)  # fits now: no error


@pytest.mark.parametrize("kind,target,features,hidden,says", [
    (MLP, ADVANTAGE, 180, MAX_HIDDEN + 1, "hidden units"),
    (MLP, ADVANTAGE, MAX_FEATURES + 1, 8, "features"),
    (MLP, VALUE, 133, 4000, "hidden units"),
])
def test_a_model_past_the_work_area_is_refused(kind, target, features, hidden, says):
    with pytest.raises(ModelError, match=says):
        check_fits("big.json", kind, target, features, hidden)


def test_a_model_file_with_too_many_hidden_units_is_refused_when_read(tmp_path):
    write_model(tmp_path / "big.json", random_model(STANDARD, hidden=MAX_HIDDEN + 1))
    with pytest.raises(ModelError, match="hidden units"):
        read_model(tmp_path / "big.json")


# --- 3 (build). expert iteration: every round over round 1's base, DAgger, the best round ------

def test_rounds_play_over_round_ones_base_keep_every_rounds_data_and_ship_the_best(tmp_path,
                                                                                   capsys):
    """``learn --player cautious --rounds 2 --measure N`` on standard: round 2's learned player
    plays over cautious (the code before wrote no base for a profile, so round 2 played over
    tuned), its model is fitted on both rounds' rows, and the file written is the round whose
    measured win rate is highest, saying so."""
    from tests.test_learn import learn_in_process

    args = [*LEARN, "--player", "cautious", "--rounds", "2", "--measure", "6", "--out",
            str(tmp_path / "m.json"), "--name", "ei", "--runs-dir", str(tmp_path / "runs"),
            "--report-dir", str(tmp_path / "report")]
    assert learn_in_process(*args) == 0
    round2 = load(str(tmp_path / "runs" / "ei-value-ridge-round2.toml"))
    assert round2.base_policy == "cautious"
    cautious = {k: float(v) for k, v in load("cautious").params.items()}
    second = read_model(tmp_path / "runs" / "ei-value-ridge-round2.json")
    first = read_model(tmp_path / "runs" / "ei-value-ridge-round1.json")
    assert second.base_policy["params"] == cautious == first.base_policy["params"]
    assert first.metadata["training"]["data_rounds"] == 1
    assert second.metadata["training"]["data_rounds"] == 2
    assert second.metadata["training"]["training_rows"] > first.metadata["training"][
        "training_rows"]
    shipped = read_model(tmp_path / "m.json")
    rounds = shipped.metadata["rounds"]
    assert [r["round"] for r in rounds] == [1, 2]
    best = max(rounds, key=lambda r: (r["win_rate"], -r["round"]))["round"]
    assert shipped.metadata["shipped_round"]["round"] == best
    assert "best measured round" in shipped.metadata["shipped_round"]["why"]
    written = first if best == 1 else second
    assert shipped.flat().tobytes() == written.flat().tobytes()


def test_the_same_command_at_a_later_commit_only_refits(tmp_path, capsys, monkeypatch):
    """Running the documented ``--rounds --measure`` command again from another commit refits
    the same numbers: each round's model file is kept (only its provenance would differ), so its
    measured games are reused and the command succeeds. The code before rewrote the round's
    file, its player no longer matched the measured run, and the command was refused."""
    import analysis.experiments.learn as experiment
    from tests.test_learn import learn_in_process

    args = [*LEARN, "--rounds", "2", "--measure", "4", "--out", str(tmp_path / "m.json"),
            "--name", "again", "--runs-dir", str(tmp_path / "runs")]
    assert learn_in_process(*args, "--report-dir", str(tmp_path / "r1")) == 0
    first = (tmp_path / "runs" / "again-value-ridge-round1.json").read_bytes()
    monkeypatch.setattr(experiment, "_commit", lambda: "0" * 40)  # a later commit
    capsys.readouterr()
    assert learn_in_process(*args, "--report-dir", str(tmp_path / "r2")) == 0, capsys.readouterr()
    assert (tmp_path / "runs" / "again-value-ridge-round1.json").read_bytes() == first
    assert read_model(tmp_path / "m.json").metadata["provenance"]["commit"] == "0" * 40


def test_a_round_model_is_rewritten_only_when_its_numbers_change(tmp_path):
    from analysis.experiments.learn import write_round_model
    from sim.core.rules import Rules
    from tests.learned_models import random_model

    model = random_model(Rules())
    path = tmp_path / "round1.json"
    assert write_round_model(path, model) is True
    before = path.read_bytes()
    model.metadata["provenance"] = {"commit": "f" * 40}
    assert write_round_model(path, model) is False and path.read_bytes() == before
    model.output_bias += 1.0
    assert write_round_model(path, model) is True and path.read_bytes() != before


def test_best_round_is_the_highest_measured_win_rate_and_the_last_without_measures():
    from analysis.experiments.learn import best_round

    history = [{"round": 1, "win_rate": 0.43}, {"round": 2, "win_rate": 0.41},
               {"round": 3, "win_rate": 0.43}]
    assert best_round(history, 3) == 1
    assert best_round([], 3) == 3
