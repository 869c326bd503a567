"""Fitting a value model on recorded positions, and measuring it on held-out deals.

The data are the rows of a recording run (``sim.play.recording``): the features of the
position after a decision, from the deciding seat's view, and the deal's outcome for that
seat's side. Whole games are held out (the last ``held_out`` share of the game indices), so no
held-out row shares a deal with a training row. Features are standardised on the training rows;
ridge regression (scikit-learn's, exact Cholesky solve) or a one-hidden-layer network of
rectified units (scikit-learn's ``MLPRegressor``, seeded) is fitted on them, single-threaded so
the same rows give the same numbers bit for bit. The fitted numbers go into a
``strategies.learned.model_file.Model``, which the engine evaluates from a flat array.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from strategies.learned.model_file import Model

KINDS = ("ridge", "mlp")
TARGETS = ("advantage", "value")
LOSSES = ("regression", "rank")
OUTPUT_SCALE = 1000.0  # the network is fitted on outcomes in thousands of points
CALIBRATION_BINS = 10
CURVE_SHARES = (0.125, 0.25, 0.5, 1.0)
MARGINS = (0.0, 25.0, 50.0, 100.0)


class FitError(ValueError):
    """Data that cannot be fitted (too few rows); the message says what would do."""


@dataclass(frozen=True)
class FitSettings:
    kind: str = "mlp"
    target: str = "advantage"
    alpha: float = 1.0  # ridge penalty
    hidden: int = 32  # network units
    max_iter: int = 80  # network epochs at most (early stopping on a tenth of the rows)
    seed: int = 1
    loss: str = "regression"  # or "rank": refined on each decision's order (learn_rank)
    temperature: float = 50.0  # points: the softmax temperature of the rank loss

    def describe(self) -> dict:
        if self.kind == "ridge":
            return {"kind": "ridge", "target": self.target, "alpha": self.alpha}
        out = {"kind": "mlp", "target": self.target, "hidden": self.hidden,
               "max_iter": self.max_iter, "seed": self.seed}
        if self.loss == "rank":  # a regression fit's record is as it was before rank existed
            from analysis.experiments.learn_rank import settings as rank_settings

            out.update(loss="rank", temperature=self.temperature, **rank_settings())
        return out


@dataclass(frozen=True)
class Rows:
    """Recorded rows: features, target, game index and the candidate's place in its decision
    (0: the base policy's choice, whose row comes first)."""

    x: np.ndarray
    y: np.ndarray
    games: np.ndarray
    index: np.ndarray

    @staticmethod
    def concat(parts: list[Rows]) -> Rows:
        """Rows of several runs one after another (each keeps its decisions whole and in
        order, which ``design`` needs)."""
        return Rows(np.concatenate([p.x for p in parts]), np.concatenate([p.y for p in parts]),
                    np.concatenate([p.games for p in parts]),
                    np.concatenate([p.index for p in parts]))

    def subset(self, keep: np.ndarray) -> Rows:
        """Rows of whole decisions (``keep`` must keep or drop a decision's rows together)."""
        return Rows(self.x[keep], self.y[keep], self.games[keep], self.index[keep])

    def design(self, target: str) -> tuple[np.ndarray, np.ndarray]:
        """Inputs and targets a model of ``target`` is fitted on: a value model, every row as
        it is; an advantage model, every candidate but the base, its features and their change
        from the base candidate's, and its target minus the base candidate's."""
        if target == "value":
            return self.x, self.y
        base = self.base()
        alt = self.index > 0
        return (np.hstack([self.x[alt], self.x[alt] - self.x[base[alt]]]),
                self.y[alt] - self.y[base[alt]])

    def base(self) -> np.ndarray:
        """Per row: the row of its decision's base candidate."""
        return np.arange(len(self.y)) - self.index


def _standardise(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[scale < 1e-9] = 1.0  # an input constant in the data: left as it is
    return mean, scale


def fit(rows: Rows, settings: FitSettings, rules_id: str, profile: str) -> Model:
    """A model of the rows' targets (``settings.target``) from their features."""
    from threadpoolctl import threadpool_limits

    check_loss(settings)
    x, y = rows.design(settings.target)
    mean, scale = _standardise(x)
    z = (x - mean) / scale
    common = {"rules_id": rules_id, "profile": profile, "target": settings.target,
              "mean": mean.tolist(), "scale": scale.tolist()}
    with threadpool_limits(limits=1):
        if settings.kind == "ridge":
            from sklearn.linear_model import Ridge

            reg = Ridge(alpha=settings.alpha, solver="cholesky").fit(z, y)
            return Model(kind="ridge", coef=reg.coef_.tolist(),
                         intercept=float(reg.intercept_), **common)
        import warnings

        from sklearn.exceptions import ConvergenceWarning
        from sklearn.neural_network import MLPRegressor

        net = MLPRegressor(hidden_layer_sizes=(settings.hidden,), random_state=settings.seed,
                           max_iter=settings.max_iter, early_stopping=True,
                           validation_fraction=0.1, n_iter_no_change=5)
        start = np.ones(len(y), dtype=bool)
        if settings.loss == "rank":  # the games the refinement keeps aside stay unseen
            from analysis.experiments.learn_rank import aside

            start = ~aside(rows.games)[rows.index > 0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            net.fit(z[start], y[start] / OUTPUT_SCALE)
    w1, w2 = net.coefs_
    b1, b2 = net.intercepts_
    hidden_w, hidden_b = w1.T, b1
    out_w, out_b = w2[:, 0] * OUTPUT_SCALE, float(b2[0] * OUTPUT_SCALE)
    metadata = {}
    if settings.loss == "rank":
        from analysis.experiments.learn_rank import refine

        with threadpool_limits(limits=1):
            hidden_w, hidden_b, out_w, out_b, report = refine(
                hidden_w, hidden_b, out_w, out_b, z, rows.index, rows.y - rows.y[rows.base()],
                rows.games, settings.temperature)
        metadata = {"rank_fit": report}
    return Model(kind="mlp", hidden_weights=hidden_w.tolist(), hidden_bias=hidden_b.tolist(),
                 output_weights=out_w.tolist(), output_bias=out_b, metadata=metadata,
                 **common)


def check_loss(settings: FitSettings) -> None:
    """Refuse, in one line, a loss that is unknown or that cannot fit this model."""
    if settings.loss not in LOSSES:
        raise FitError(f"unknown loss '{settings.loss}' (known: {', '.join(LOSSES)})")
    if settings.loss == "rank" and (settings.kind, settings.target) != ("mlp", "advantage"):
        raise FitError("--loss rank fits an advantage network: use it with --kind mlp and "
                       "--target advantage")


def predict_inputs(model: Model, inputs: np.ndarray) -> np.ndarray:
    """The model's predictions for rows of inputs (``Rows.design``), in numpy (the engine
    computes the same from its flat array: ``strategies.lookahead.value``; a test proves they
    agree)."""
    z = (inputs - np.asarray(model.mean)) / np.asarray(model.scale)
    if model.kind == "ridge":
        return z @ np.asarray(model.coef) + model.intercept
    hidden = np.maximum(z @ np.asarray(model.hidden_weights).T + np.asarray(model.hidden_bias),
                        0.0)
    return hidden @ np.asarray(model.output_weights) + model.output_bias


def held_out_errors(model: Model, rows: Rows) -> dict:
    """On held-out rows: RMSE, mean absolute error and R² of what the model predicts, the
    calibration table (rows sorted by prediction into ``CALIBRATION_BINS`` equal bins: mean
    predicted against mean realised), and the choices it would make: per decision, the mean
    gain in target of the best-scored candidate over the base policy's choice when it leads by
    more than a margin (``choices``)."""
    inputs, realised = rows.design(model.target)
    predicted = predict_inputs(model, inputs)
    err = predicted - realised
    var = float(np.var(realised))
    order = np.argsort(predicted, kind="stable")
    bins = []
    for part in np.array_split(order, CALIBRATION_BINS):
        if len(part):
            bins.append({"rows": int(len(part)),
                         "predicted": round(float(predicted[part].mean()), 3),
                         "realised": round(float(realised[part].mean()), 3)})
    return {"target": model.target, "rows": int(len(realised)),
            "rmse": round(float(math.sqrt(np.mean(err ** 2))), 3),
            "mae": round(float(np.mean(np.abs(err))), 3),
            "r2": round(1.0 - float(np.mean(err ** 2)) / var, 5) if var > 0 else 0.0,
            "calibration": bins, "choices": choices(model, rows)}


HEADLINE_MARGIN = MARGINS[1]  # the margin of the choices figure a rank fit's headline quotes


def held_out_headline(metadata: dict) -> str:
    """What a fit is judged by, in one line, from its model file's metadata: RMSE, mean
    absolute error and R² for a regression fit; for a rank fit, which is fitted to choose and
    not to predict the advantage's size, the gain of its choices over the base policy's per
    held-out decision first."""
    held = metadata["held_out"]
    errors = (f"RMSE {held['rmse']:,.1f} points, mean absolute error {held['mae']:,.1f}, "
              f"R² {held['r2']:.3f}")
    if metadata["fit"].get("loss", "regression") != "rank":
        return errors
    pick = next(c for c in held["choices"] if c["margin"] == HEADLINE_MARGIN)
    return (f"its choices gain {pick['gain_per_decision']:+,.1f} points a decision over the "
            f"base policy's, leaving it at {pick['left_base']:.1%} of "
            f"{pick['decisions']:,} decisions (by a lead of over {HEADLINE_MARGIN:g} points); "
            f"as a predictor of the advantage's size: {errors}")


def choices(model: Model, rows: Rows) -> list[dict]:
    """For each margin of ``MARGINS``: the share of decisions where the model leaves the base
    policy's choice, and the mean gain per decision in the target (the search's value) of its
    choices over the base policy's. The target is noisy, the mean over many decisions is
    not."""
    if model.target == "advantage":
        inputs, _ = rows.design("advantage")
        scores = np.zeros(len(rows.y))
        scores[rows.index > 0] = predict_inputs(model, inputs)
    else:
        scores = predict_inputs(model, rows.x)
    starts = np.flatnonzero(rows.index == 0)
    ends = np.append(starts[1:], len(rows.y))
    multi = [(s, e) for s, e in zip(starts, ends, strict=True) if e - s > 1]
    out = []
    for margin in MARGINS:
        left = 0
        gain = 0.0
        for s, e in multi:
            gains = scores[s:e] - scores[s]
            c = int(np.argmax(gains))
            if c > 0 and gains[c] > margin:
                left += 1
                gain += rows.y[s + c] - rows.y[s]
        out.append({"margin": margin, "decisions": len(multi),
                    "left_base": round(left / max(len(multi), 1), 4),
                    "gain_per_decision": round(float(gain) / max(len(multi), 1), 3)})
    return out


def learning_curve(train: Rows, test: Rows, settings: FitSettings, rules_id: str,
                   profile: str, full: Model) -> list[dict]:
    """Held-out RMSE of the same fit on the first 1/8, 1/4 and 1/2 of the training games, and
    of ``full``, the fit on all of them."""
    out = []
    last = int(train.games.max()) + 1 if len(train.games) else 0
    inputs, realised = test.design(settings.target)
    for share in CURVE_SHARES:
        if share == 1.0:
            rmse = float(np.sqrt(np.mean((predict_inputs(full, inputs) - realised) ** 2)))
            out.append({"share": share, "rows": int(len(train.y)), "rmse": round(rmse, 3)})
            continue
        part = train.subset(train.games < max(1, int(round(last * share))))
        if len(part.design(settings.target)[1]) < 2 * inputs.shape[1]:
            continue
        model = fit(part, settings, rules_id, profile)
        rmse = float(np.sqrt(np.mean((predict_inputs(model, inputs) - realised) ** 2)))
        out.append({"share": share, "rows": int(len(part.y)), "rmse": round(rmse, 3)})
    return out
