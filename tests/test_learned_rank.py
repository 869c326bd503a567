"""The rank loss of an advantage network (analysis/experiments/learn_rank.py, ``handfoot learn
--loss rank``): its gradient is the loss's; a decision's target distribution and weight are
what the docstring says; from the order alone it teaches a network to choose; the engine
plays what numpy predicts; the fit is the same bit for bit; and a rank loss asked of a model
it cannot fit is refused before anything is played."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from analysis.experiments.learn_fit import FitSettings, Rows, fit, predict_inputs
from analysis.experiments.learn_rank import groups, loss_and_gradient, refine
from sim.core.profiles import PROFILES
from tests.runhelpers import cli
from tests.test_learned_model import close, decisions, engine_predictions, outcome

STANDARD = PROFILES["standard"][0]


def test_the_gradient_is_the_loss_s():
    """Central differences of the loss agree with its gradient in every kind of weight (a
    wrong sign, a missing rectifier mask or a dropped weight fails)."""
    rng = np.random.default_rng(5)
    index = np.array([0, 1, 2, 0, 1, 0, 1, 2, 3])
    advantage = np.where(index == 0, 0.0, rng.normal(0.0, 80.0, len(index)))
    grp = groups(index, advantage, 40.0)
    hidden, inputs = 4, 3
    z = rng.normal(size=(int((index > 0).sum()), inputs))
    theta = rng.normal(0.0, 0.7, hidden * (inputs + 2) + 1)
    _, grad = loss_and_gradient(theta, z, grp, hidden, 40.0)
    eps = 1e-6
    for k in range(len(theta)):
        up, down = theta.copy(), theta.copy()
        up[k] += eps
        down[k] -= eps
        numeric = (loss_and_gradient(up, z, grp, hidden, 40.0)[0]
                   - loss_and_gradient(down, z, grp, hidden, 40.0)[0]) / (2 * eps)
        assert abs(numeric - grad[k]) < 1e-6 + 1e-5 * abs(numeric), (k, numeric, grad[k])
    assert np.abs(grad).max() > 1e-3  # not a flat point


def test_a_decision_s_target_and_weight():
    """Each decision's target sums to one and favours its best candidate more at a lower
    temperature; a decision whose candidates are all equal, or that has one candidate, has
    weight 0; the weights of the others are their spread (best minus mean), mean 1."""
    index = np.array([0, 1, 2, 0, 0, 1, 0, 1])
    advantage = np.array([0.0, 100.0, -50.0, 0.0, 0.0, 0.0, 0.0, 20.0])
    warm, cold = groups(index, advantage, 100.0), groups(index, advantage, 10.0)
    for g in (warm, cold):
        assert np.allclose(np.add.reduceat(g.target, g.starts), 1.0)
    assert cold.target[1] > warm.target[1] > 1 / 3
    spread = np.array([100.0 - 50.0 / 3, 0.0, 0.0, 10.0])
    assert np.allclose(warm.weight, spread / spread[[0, 3]].mean())
    assert list(warm.scored) == [False, True, True, False, False, True, False, True]


def regret(model, rows: Rows) -> float:
    """Mean true loss per decision of the model's choice against its best candidate."""
    inputs, _ = rows.design("advantage")
    scores = np.zeros(len(rows.y))
    scores[rows.index > 0] = predict_inputs(model, inputs)
    true = outcome(rows.x)
    starts = np.flatnonzero(rows.index == 0)
    ends = np.append(starts[1:], len(rows.y))
    return float(np.mean([true[s:e].max() - true[s + int(np.argmax(scores[s:e]))]
                          for s, e in zip(starts, ends, strict=True)]))


def test_the_order_alone_teaches_the_network_to_choose():
    """From near-zero weights (a network that chooses almost at random), refined on the rank
    loss alone, on decisions whose candidates' values carry noise of their own: the loss on
    the games it kept aside falls, it stops past its start, and on held-out decisions its
    choices lose under half of what choosing at random loses. A gradient of the wrong sign,
    or targets that are not the searched advantages, fails."""
    rng = np.random.default_rng(8)
    train, test = (decisions(rng, n, luck=0.0, few=True) for n in (900, 300))
    noise = rng.normal(0.0, 100.0, len(train.y))
    train = Rows(train.x, train.y + np.where(train.index > 0, noise, 0.0), train.games,
                 train.index)
    regression = fit(train, FitSettings(kind="mlp", target="advantage", hidden=8, seed=2),
                     STANDARD.rules_id, "standard")
    inputs, _ = train.design("advantage")
    z = (inputs - np.asarray(regression.mean)) / np.asarray(regression.scale)
    base = np.arange(len(train.y)) - train.index
    start = np.random.default_rng(1)
    w1, b1, w2, b2, report = refine(start.normal(0.0, 0.05, (8, inputs.shape[1])),
                                    np.zeros(8), start.normal(0.0, 0.5, 8), 0.0, z,
                                    train.index, train.y - train.y[base], train.games, 50.0)
    assert report["aside_loss"] < report["aside_loss_start"] and report["kept_iteration"] > 0
    ranked = dataclasses.replace(regression, hidden_weights=w1.tolist(),
                                 hidden_bias=b1.tolist(), output_weights=w2.tolist(),
                                 output_bias=b2)
    random = float(np.mean([outcome(test.x[test.games == d]).max()
                            - outcome(test.x[test.games == d]).mean()
                            for d in np.unique(test.games)]))
    assert regret(ranked, test) < 0.5 * random, (regret(ranked, test), random)


def test_the_engine_plays_what_numpy_predicts_and_the_fit_repeats_bit_for_bit():
    """A rank-fitted network is an ordinary advantage network: the compiled model's scores
    (both paths) are numpy's; fitted twice on the same rows it is the same numbers."""
    rows = decisions(np.random.default_rng(4), 200, luck=500.0)
    settings = FitSettings(kind="mlp", target="advantage", hidden=6, loss="rank")
    model = fit(rows, settings, STANDARD.rules_id, "standard")
    again = fit(rows, settings, STANDARD.rules_id, "standard")
    assert np.array_equal(model.flat(), again.flat())
    regression = fit(rows, FitSettings(kind="mlp", target="advantage", hidden=6),
                     STANDARD.rules_id, "standard")
    assert not np.array_equal(model.flat(), regression.flat())  # the refinement ran
    report = model.metadata["rank_fit"]
    assert report["kept_iteration"] > 0 and report["aside_loss"] < report["aside_loss_start"]
    want = predict_inputs(model, rows.design("advantage")[0])
    got, player = engine_predictions(model.flat(), rows, "advantage")
    assert close(got, want) and close(player, want)
    assert settings.describe()["loss"] == "rank"
    assert "loss" not in FitSettings().describe()  # regression fits record what they did


@pytest.mark.parametrize("extra", [["--kind", "ridge"], ["--target", "value"],
                                   ["--loss", "regression", "--temperature", "20"]])
def test_a_rank_loss_it_cannot_fit_is_refused_before_any_game(extra, tmp_path, capsys):
    code, _, err = cli(capsys, "learn", "--out", str(tmp_path / "m.json"), "--games", "400",
                       "--loss", "rank", *extra, "--runs-dir", str(tmp_path / "runs"),
                       "--report-dir", str(tmp_path / "rep"), "--jobs", "1")
    assert code == 2 and "--loss rank" in err and "Traceback" not in err, err
    assert not (tmp_path / "runs").exists() and not (tmp_path / "m.json").exists()


def test_a_rank_fit_is_headlined_by_its_choices_and_a_regression_fit_by_its_errors():
    from analysis.experiments.learn_fit import HEADLINE_MARGIN, held_out_headline

    choices = [{"margin": m, "decisions": 900, "left_base": 0.1 + m / 1000,
                "gain_per_decision": 3.0 + m} for m in (0.0, HEADLINE_MARGIN, 50.0)]
    held = {"rmse": 321.5, "mae": 250.25, "r2": 0.4321, "choices": choices}
    regression = held_out_headline({"held_out": held, "fit": {"hidden": 8}})
    assert regression == "RMSE 321.5 points, mean absolute error 250.2, R² 0.432"
    rank = held_out_headline({"held_out": held, "fit": {"hidden": 8, "loss": "rank"}})
    assert rank.startswith(f"its choices gain +{3.0 + HEADLINE_MARGIN:.1f} points a decision")
    assert f"{0.1 + HEADLINE_MARGIN / 1000:.1%} of 900 decisions" in rank
    assert rank.endswith(regression)  # the errors still said, after what it was fitted for
