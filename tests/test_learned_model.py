"""Model files (strategies/learned/model_file.py), the compiled model (value.py) and what a
model is fitted on (sim/play/recording.py, analysis/experiments/learn_fit.py): a file
round-trips; the engine's prediction from the flat array is numpy's (``predict_inputs``) for
every kind and target, and, for a model scikit-learn fitted on a real outcome, scikit-learn's
own; an advantage model's target is a candidate's value minus its own decision's base
candidate's (so a better candidate scores above the base), and a recorded target is the
outcome for the deciding seat's side. A model file that cannot be used is refused in one line
with exit code 2, naming why, wherever it is met: in a strategy file a comparison plays, as
``handfoot learn --out`` (which then leaves the file as it was), or when it has changed since
the run that plays it began."""

from __future__ import annotations

import json
import os

import numpy as np
import polars as pl
import pytest

from analysis.experiments.learn import read_rows
from analysis.experiments.learn_fit import (
    OUTPUT_SCALE,
    FitSettings,
    Rows,
    fit,
    held_out_errors,
    predict_inputs,
)
from sim.core.capacity import MAX_FEATURES, MODEL_SCRATCH, VALUE_MODEL_SLOTS
from sim.core.profiles import PROFILES
from sim.play.api import seats_for_teams
from sim.play.recording import M_DEAL, M_GAME, M_INDEX, M_SEAT, record
from sim.runs.storage import MANIFEST, Recording, RunSpec
from strategies.learned import model_file
from strategies.learned.model_file import (
    ModelError,
    dumps,
    file_digest,
    read_model,
    write_model,
)
from strategies.lookahead.schema import FEATURE_VERSION, N_FEATURES
from strategies.lookahead.value import (
    advantage_base,
    candidate_score,
    is_folded,
    model_value,
)
from strategies.registry import REGISTRY
from strategies.search.rollout import GAME_WIN_WEIGHT
from tests.learned_models import learned_file, random_model
from tests.runhelpers import cli, file_ids, manifest, run_in, spec_for

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


# --- What is fitted, and what the engine computes from it ----------------------------------------

GOOD, BAD, BENT = 17, 40, 63  # feature slots the synthetic outcome rewards, punishes, bends


def outcome(x: np.ndarray) -> np.ndarray:
    """A position's synthetic value in points: one feature raises it, one lowers it, one
    through a kink (so a network has something to bend); the rest are ignored."""
    return 40.0 * x[:, GOOD] - 25.0 * x[:, BAD] + 15.0 * np.abs(x[:, BENT])


def decisions(rng, n: int, sizes: tuple[int, ...] = (4,), luck: float = 0.0,
              few: bool = False) -> Rows:
    """``n`` decisions, each of a size drawn from ``sizes``, the base first: the others differ
    from it in a few features (as candidates do: always ``GOOD`` and ``BAD`` among them) or
    in all of them (every other one; none with ``few``). A row's target is ``outcome`` plus
    its decision's luck (normal, sd ``luck``), the same for every candidate of the decision
    (as the search's worlds are); each decision is a game of its own."""
    x, index, games, lucks = [], [], [], []
    for d in range(n):
        size = int(rng.choice(sizes))
        base = rng.normal(0.0, 30.0, N_FEATURES)
        draw = rng.normal(0.0, luck) if luck else 0.0
        for c in range(size):
            if c == 0:
                row = base
            elif few or (d + c) % 2:
                row = base.copy()
                slots = np.union1d(rng.choice(N_FEATURES, size=c * 3, replace=False),
                                   [GOOD, BAD])
                row[slots] += rng.normal(0.0, 10.0, len(slots))
            else:
                row = rng.normal(0.0, 30.0, N_FEATURES)
            x.append(row)
            index.append(c)
            games.append(d)
            lucks.append(draw)
    x = np.array(x)
    return Rows(x, outcome(x) + np.array(lucks), np.array(games), np.array(index))


def engine_predictions(flat: np.ndarray, rows: Rows, target: str) -> tuple[list, list]:
    """The compiled model's predictions for the rows of ``rows.design(target)``, from the raw
    features as the player has them: ``model_value`` per row, and the player's own path
    (``advantage_base`` once per decision, then ``candidate_score`` per candidate)."""
    z = np.zeros(2 * MAX_FEATURES)
    acc = np.zeros(MODEL_SCRATCH)
    feats = np.zeros(MAX_FEATURES)
    base = np.zeros(MAX_FEATURES)
    got, player = [], []
    for r in range(len(rows.y)):
        if rows.index[r] == 0:
            base[:N_FEATURES] = rows.x[r]
            if is_folded(flat):
                advantage_base(flat, base, acc)
            if target == "advantage":
                continue  # the base candidate has no row of its own
        feats[:N_FEATURES] = rows.x[r]
        got.append(model_value(flat, feats, base, z))
        player.append(candidate_score(flat, feats, base, acc))
    return got, player


def close(got, want: np.ndarray) -> bool:
    """Equal to 1e-9 of the largest prediction (the engine's sums run in another order)."""
    return bool(np.allclose(got, want, rtol=1e-9, atol=1e-9 * np.max(np.abs(want))))


@pytest.mark.parametrize("kind, target", KINDS_TARGETS)
def test_the_compiled_model_predicts_what_numpy_does(kind, target):
    """``model_value`` on the flat array, and the player's own path, equal ``predict_inputs``
    on the model's inputs (for an advantage model: the candidate's features, then their
    change from the base candidate's, as ``Rows.design`` builds them), for random weights
    whose units are on and off (the conversion from a real fit: the test below)."""
    model = random_model(STANDARD, kind, target, hidden=12, seed=5)
    flat = model.flat()
    data = decisions(np.random.default_rng(11), 10)
    inputs, _ = data.design(target)
    want = predict_inputs(model, inputs)
    got, player = engine_predictions(flat, data, target)
    assert len(got) == len(want) == (40 if target == "value" else 30)
    assert is_folded(flat) == (kind == "mlp" and target == "advantage")
    assert close(got, want), np.max(np.abs(np.array(got) - want))
    assert close(player, want), np.max(np.abs(np.array(player) - want))
    assert np.std(want) > 1.0  # not a constant
    if kind == "mlp":  # some units were off and some on, so the rectifier was exercised
        zs = (inputs - np.asarray(model.mean)) / np.asarray(model.scale)
        pre = zs @ np.asarray(model.hidden_weights).T + np.asarray(model.hidden_bias)
        assert (pre > 0).any() and (pre < 0).any()


@pytest.fixture()
def sklearn_fits(monkeypatch) -> list:
    """Each scikit-learn estimator ``fit`` fits while the test runs, with the inputs and
    targets it was given."""
    from sklearn.linear_model import Ridge
    from sklearn.neural_network import MLPRegressor

    seen = []
    for cls in (Ridge, MLPRegressor):
        def spy(self, x, y, _original=cls.fit):
            seen.append((self, np.array(x), np.array(y)))
            return _original(self, x, y)

        monkeypatch.setattr(cls, "fit", spy)
    return seen


@pytest.mark.parametrize("kind, target", KINDS_TARGETS)
def test_the_engine_predicts_what_the_fitted_scikit_learn_model_does(kind, target, tmp_path,
                                                                     sklearn_fits):
    """``learn_fit.fit`` on decisions with a real outcome (and each decision's luck), written
    as a model file and read back: the compiled model's predictions from the raw features
    (both paths) are scikit-learn's own ``predict`` on the standardised inputs it was fitted
    on, in points, to 1e-9; so are numpy's (``predict_inputs``, the held-out figures). A
    conversion that transposed the weights, lost the output scale or an intercept, or
    recorded other standardisation than the one fitted on, fails."""
    rows = decisions(np.random.default_rng(11), 120, luck=300.0)
    fitted = fit(rows, FitSettings(kind=kind, target=target, hidden=12), STANDARD.rules_id,
                 "standard")
    path = tmp_path / "m.json"
    write_model(path, fitted)
    model = read_model(path, STANDARD.rules_id)
    [(estimator, z, fitted_on)] = sklearn_fits
    inputs, y = rows.design(target)
    unit = OUTPUT_SCALE if kind == "mlp" else 1.0  # the network is fitted in thousands
    assert z.shape == inputs.shape and np.allclose(fitted_on * unit, y)
    want = estimator.predict(z) * unit
    got, player = engine_predictions(model.flat(), rows, target)
    assert len(got) == len(want) == len(y)
    assert close(got, want), np.max(np.abs(np.array(got) - want))
    assert close(player, want), np.max(np.abs(np.array(player) - want))
    assert close(predict_inputs(model, inputs), want)
    # A real fit: targets of hundreds of points, predictions that follow them
    assert np.std(y) > 100.0 and np.corrcoef(want, y)[0, 1] > 0.8, np.corrcoef(want, y)
    if kind == "mlp":  # units on and off: the rectifier was exercised
        pre = z @ estimator.coefs_[0] + estimator.intercepts_[0]
        assert (pre > 0).any() and (pre < 0).any()


@pytest.mark.parametrize("kind", ["ridge", "mlp"])
def test_an_advantage_model_scores_a_better_candidate_above_the_base(kind):
    """Fitted on decisions where ``GOOD`` raises a candidate's value (each decision with
    luck of thousands of points, shared by its candidates), an advantage model says, through
    the player's path and on average over held-out bases, that a candidate raising ``GOOD``
    (by 400 points of outcome) beats the base by more than the player's margin and one
    lowering it loses by as much, and its choices on held-out decisions leave the base and
    gain. A target of the base minus the candidate fails."""
    rng = np.random.default_rng(3)
    train = decisions(rng, 600, luck=2000.0, few=True)
    test = decisions(rng, 100, luck=2000.0, few=True)
    model = fit(train, FitSettings(kind=kind, target="advantage", hidden=16),
                STANDARD.rules_id, "standard")
    flat = model.flat()
    margin = REGISTRY["learned"].params["margin"]
    base = np.zeros(MAX_FEATURES)
    acc = np.zeros(MODEL_SCRATCH)
    scores = {10.0: [], -10.0: []}
    for r in np.flatnonzero(test.index == 0):
        base[:N_FEATURES] = test.x[r]
        advantage_base(flat, base, acc)
        for step, got in scores.items():
            feats = base.copy()
            feats[GOOD] += step
            got.append(candidate_score(flat, feats, base, acc))
    up, down = np.array(scores[10.0]), np.array(scores[-10.0])
    assert up.mean() > margin and down.mean() < -margin, (up.mean(), down.mean())
    assert (up > down).mean() > 0.9, (up > down).mean()
    choice = next(c for c in held_out_errors(model, test)["choices"] if c["margin"] == margin)
    assert choice["left_base"] > 0.2 and choice["gain_per_decision"] > 100.0, choice


def test_the_advantage_target_is_over_the_base_of_the_candidates_own_decision():
    """Decisions of 2 to 5 candidates, each with its own luck (thousands of points, the same
    for its candidates): each row of the advantage design is a candidate but the base, with
    its features, their change from its own decision's base (zero outside the few features
    it changes) and its value minus that base's, so the luck cancels exactly; the same once
    whole games are kept (the held-out split). A base taken from another row fails."""
    rows = decisions(np.random.default_rng(7), 60, sizes=(2, 3, 4, 5), luck=5000.0)
    value = outcome(rows.x)
    for kept in (rows, rows.subset(rows.games >= 25)):
        inputs, y = kept.design("advantage")
        own, change, gain = [], [], []
        for r in range(len(kept.y)):  # each decision's rows: its base, then the others
            if kept.index[r] == 0:
                b = r
                continue
            own.append(kept.x[r])
            change.append(kept.x[r] - kept.x[b])
            gain.append(outcome(kept.x[[r]])[0] - outcome(kept.x[[b]])[0])
        assert len(y) == len(gain) == int((kept.index > 0).sum())
        assert np.array_equal(inputs[:, :N_FEATURES], own)
        wrong = np.flatnonzero((inputs[:, N_FEATURES:] != change).any(axis=1))
        assert len(wrong) == 0, f"{len(wrong)} of {len(y)} rows changed from another base"
        assert np.allclose(y, gain, atol=1e-6), np.max(np.abs(y - gain))
    few = inputs[:, N_FEATURES:] != 0  # the candidates that change a few features
    assert 0 < (few.sum(axis=1) <= 20).sum() < len(y) and len(set(rows.index)) == 5
    assert np.std(value) > 1000 and np.std(rows.y - value) > 1000  # luck to cancel


# --- What is recorded ----------------------------------------------------------------------------

def realised_outcomes(records: np.ndarray, meta: np.ndarray, rules) -> np.ndarray:
    """Per recorded row, its deal's outcome for the deciding seat's side, from the deal
    records: the side's deal score minus the best other side's; in the last deal, the game
    margin, plus or minus ``GAME_WIN_WEIGHT`` for winning or losing the game."""
    teams = rules.partnerships
    score = {(int(r["game"]), int(r["deal"])): r["score"].astype(np.float64) for r in records}
    out = []
    for game, deal, seat in meta[:, [M_GAME, M_DEAL, M_SEAT]]:
        last = deal == rules.deals_per_game
        points = (sum(score[(game, d)] for d in range(1, deal + 1)) if last
                  else score[(game, deal)])
        own = seat % teams
        margin = points[own] - max(points[t] for t in range(teams) if t != own)
        out.append(margin + (np.sign(margin) * GAME_WIN_WEIGHT if last else 0.0))
    return np.array(out)


def test_a_recorded_target_is_the_outcome_for_the_deciding_seats_side():
    """Unsearched (``worlds = 0``), a row's target is its deal's realised outcome for the
    deciding seat's side, exactly; searched (the mean over imagined deals), the base
    candidate's target follows that outcome (it is played: no exploring). A target from
    another side's view fails both."""
    players = ["tuned"] * STANDARD.players
    records, _, meta, targets = record(STANDARD, players, 3, 0, 6, 0.05, 0.0, 0)
    real = realised_outcomes(records, meta, STANDARD)
    assert len(targets) > 100 and np.std(real) > 100
    assert np.array_equal(targets, real), np.max(np.abs(targets - real))
    records, _, meta, targets = record(STANDARD, players, 3, 0, 12, 0.05, 0.0, 2)
    base = meta[:, M_INDEX] == 0
    real = realised_outcomes(records, meta, STANDARD)
    assert base.sum() > 100 and len(targets) > 2 * base.sum()
    r = np.corrcoef(targets[base], real[base])[0, 1]
    assert r > 0.5, r


def test_recorded_rows_read_back_keep_each_candidate_with_its_own_decisions_base(tmp_path):
    """A recording run of two chunks, its rows read back as ``handfoot learn`` reads them:
    the decisions, found from each one's count of candidates alone, are runs of rows of one
    (game, deal, seat, turn, decision), the base first; the advantage design's rows are the
    others, each with its change from its own decision's base and its target minus that
    base's."""
    seats = tuple(seats_for_teams(["tuned"], STANDARD.players))
    spec = RunSpec(rules=STANDARD, profile="standard", team_strategies=("tuned",),
                   seat_strategies=seats, seed=4, games=8, chunk_size=4, keep_records=True,
                   recording=Recording(0.05, 0.5, 2))
    run = run_in(tmp_path / "rec", spec)
    assert len(run.chunks) == 2
    rows = read_rows(run)
    table = pl.concat([pl.read_parquet(run.chunk_path(c["index"])) for c in run.chunks])
    keys = table.select(["game", "deal", "seat", "turn", "decision"]).to_numpy()
    count, index = table["candidates"].to_numpy(), table["index"].to_numpy()
    assert np.array_equal(rows.y, table["target"].to_numpy()) and len(rows.y) > 100
    alt, bases, sizes = [], [], set()
    start = 0
    while start < len(count):
        size = int(count[start])
        block = slice(start, start + size)
        assert size > 1 and np.array_equal(index[block], np.arange(size)), start
        assert (keys[block] == keys[start]).all() and (count[block] == size).all(), start
        alt.extend(range(start + 1, start + size))
        bases.extend([start] * (size - 1))
        sizes.add(size)
        start += size
    inputs, y = rows.design("advantage")
    assert len(sizes) > 1 and len(y) == len(alt)
    assert np.array_equal(inputs[:, :N_FEATURES], rows.x[alt])
    wrong = (inputs[:, N_FEATURES:] != rows.x[alt] - rows.x[bases]).any(axis=1)
    wrong |= y != rows.y[alt] - rows.y[bases]
    assert not wrong.any(), f"{wrong.sum()} of {len(y)} rows against another base"
    assert np.std(y) > 10 and (inputs[:, N_FEATURES:] == 0).mean() > 0.5  # few features change


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


def test_a_run_whose_model_file_changed_since_it_began_is_refused_in_one_line(
        tmp_path, capsys, monkeypatch):
    """A run of a learned strategy file against greedy, stopped with a chunk to play (as after
    Ctrl-C); the model file is then refitted (another model in its place). ``simulate
    --resume`` refuses in one line naming the file and both sha256s, and plays nothing; with
    the file put back it finishes. (In a new process: nothing read yet.)"""
    strategy = learned_file(tmp_path, STANDARD, name="mine")
    model = tmp_path / "mine-model.json"
    path = tmp_path / "run"
    run_in(path, spec_for(2, 1, seed=5, teams=(str(strategy), "greedy")), jobs=1)
    m = manifest(path)
    m["chunks"][1] = {k: m["chunks"][1][k] for k in ("index", "first_game", "games")}
    m["chunks"][1].update(status="missing", computed=0)
    m["status"] = "interrupted"
    (path / MANIFEST).write_text(json.dumps(m))
    (path / "chunk-000001.parquet").unlink()
    recorded = m["strategies"]["played"][0]["model_sha256"]
    assert recorded == file_digest(model)
    first = model.read_bytes()
    write_model(model, random_model(STANDARD, seed=1))  # refitted since the run began
    chunks = {name: ids for name, ids in file_ids(path).items() if name.endswith(".parquet")}
    monkeypatch.setattr(model_file, "_FLAT_CACHE", {})
    code, _, err = cli(capsys, "simulate", "--resume", str(path), "--jobs", "1")
    line = one_error_line(code, err)
    assert "has changed since this strategy was set up" in line, line
    assert "mine-model.json" in line and recorded[:12] in line, line
    assert file_digest(model)[:12] in line, line
    after = manifest(path)  # nothing played, the manifest untouched: refused before it opens
    assert after["chunks"] == m["chunks"] and after["sessions"] == m["sessions"]
    assert {n: i for n, i in file_ids(path).items() if n.endswith(".parquet")} == chunks
    model.write_bytes(first)
    code, _, err = cli(capsys, "simulate", "--resume", str(path), "--jobs", "1")
    assert code == 0, err
    assert manifest(path)["status"] == "complete"


@pytest.mark.parametrize("name", ["standard.json", "simpson.json", "standard.value.json"])
def test_subnormal_weights_flushed_to_zero_predict_the_same_bits(name):
    """The shipped networks hold weights below the smallest normal double (each costs a
    hundred cycles a product on x86); ``flat`` zeroes them, and the engine's predictions on
    real-scale decisions are the same to the last bit with them and without."""
    path = model_file.Path(model_file.__file__).parent / "models" / name
    model = model_file.read_model(path)
    flushed = model.flat()
    raw = model.layout()
    tiny = np.finfo(np.float64).tiny
    assert ((np.abs(raw) < tiny) & (raw != 0)).sum() > 100  # the case exists in what ships
    assert not ((np.abs(flushed) < tiny) & (flushed != 0)).any()
    data = decisions(np.random.default_rng(23), 40)
    target = model.target
    got, player = engine_predictions(flushed, data, target)
    want, want_player = engine_predictions(raw, data, target)
    assert np.array(got).view(np.int64).tolist() == np.array(want).view(np.int64).tolist()
    assert np.array(player).view(np.int64).tolist() == \
        np.array(want_player).view(np.int64).tolist()
    assert np.std(want) > 0.1
