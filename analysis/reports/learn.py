"""``handfoot learn``: the report of a fitted value model, how well it predicts held-out deals.

Two figures and their tables, from the model file's metadata alone (no engine, no data): the
calibration (held-out positions sorted by predicted outcome into ten equal bins, mean
predicted against mean realised, which lie on the diagonal for a calibrated model) and the
learning curve (held-out error of the same fit on growing shares of the training games: still
falling at the right means more games would help). Then what the model was fitted on, and the
measured strength of each expert-iteration round where there are some.

The report's parameters name the model file and its sha256 (``model_params``), so
``handfoot report NAME`` rebuilds the page from the same file, read as plain JSON (no engine);
a model file that is gone or has changed since is refused in one line.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import polars as pl  # noqa: E402

from analysis.experiments.learn_fit import held_out_headline  # noqa: E402
from analysis.experiments.pairings import PairRuns  # noqa: E402
from analysis.reports.content import Content, Figure, ReportError, Section  # noqa: E402
from analysis.reports.fmt import View, col  # noqa: E402
from strategies.learned.model_file import file_digest  # noqa: E402

DPI = 110
QUESTION = "How well does the value model predict the outcome of deals it was not fitted on?"


def model_params(path: Path) -> dict:
    """The report's parameters: the model file (resolved) and its sha256 now."""
    path = Path(path).resolve()
    return {"model": str(path), "sha256": file_digest(path)}


def _model_json(params: dict) -> dict:
    """The model file the parameters name, as plain JSON (the report reads only its metadata,
    so a file the model reader would refuse, such as one of an older feature version, still
    has its page); a ``ReportError`` when it is gone, unreadable or no longer the file the
    report was made from."""
    path = Path(params["model"])
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ReportError(f"model file {path} does not exist; make the report again with "
                          "handfoot learn") from None
    except OSError as exc:
        raise ReportError(f"model file {path} cannot be read ({exc})") from None
    digest = hashlib.sha256(data).hexdigest()  # the bytes just read: file_digest would reread
    if digest != params["sha256"]:
        raise ReportError(f"model file {path} has changed since its report was written "
                          f"(sha256 {digest[:12]}, was {params['sha256'][:12]}); make the "
                          "report again with handfoot learn")
    try:
        model = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReportError(f"model file {path} is not valid JSON ({exc})") from None
    if not isinstance(model, dict) or not isinstance(model.get("metadata"), dict):
        raise ReportError(f"{path} is not a handfoot model file")
    return model


def _calibration(bins: list[dict], out: Path) -> str:
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    predicted = [b["predicted"] for b in bins]
    realised = [b["realised"] for b in bins]
    low, high = min(predicted + realised), max(predicted + realised)
    ax.plot([low, high], [low, high], color="0.6", linestyle="--", label="calibrated")
    ax.plot(predicted, realised, marker="o", label="held-out deals")
    ax.set_xlabel("predicted outcome (points, mean of the bin)")
    ax.set_ylabel("realised outcome (points)")
    ax.set_title("Calibration on held-out deals")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "calibration.png", dpi=DPI)
    plt.close(fig)
    return "calibration.png"


def _curve(curve: list[dict], out: Path) -> str:
    fig, ax = plt.subplots(figsize=(5.5, 4.5))
    ax.plot([c["rows"] for c in curve], [c["rmse"] for c in curve], marker="o")
    ax.set_xscale("log")
    ax.set_xlabel("training positions")
    ax.set_ylabel("held-out RMSE (points)")
    ax.set_title("Learning curve")
    fig.tight_layout()
    fig.savefig(out / "learning_curve.png", dpi=DPI)
    plt.close(fig)
    return "learning_curve.png"


def _value(v) -> str:
    return v if isinstance(v, str) else json.dumps(v)


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """The value model's page from its model file (``params``: ``model_params``); figures
    are drawn in ``out`` (none without it)."""
    model = _model_json(params)
    meta = model["metadata"]
    held, training = meta["held_out"], meta["training"]
    curve = meta.get("learning_curve") or []
    rounds = meta.get("rounds") or []
    tables = {
        "calibration.csv": pl.DataFrame(
            held["calibration"], schema={"rows": pl.Int64, "predicted": pl.Float64,
                                         "realised": pl.Float64}),
        "fitted_on.csv": pl.DataFrame(
            [{"what": k, "value": _value(v)} for k, v in
             {"rules id": model["rules_id"], **training, "fit": meta["fit"]}.items()],
            schema={"what": pl.String, "value": pl.String}),
    }
    sections = [
        Section("Calibration", View("calibration.csv", (
            col("positions", "int", "rows"), col("mean predicted", "num", "predicted"),
            col("mean realised", "num", "realised")))),
    ]
    if curve:  # a rank fit has none (the model file says why, shown under Method)
        tables["learning_curve.csv"] = pl.DataFrame(
            curve, schema={"share": pl.Float64, "rows": pl.Int64, "rmse": pl.Float64})
        sections.append(Section("Learning curve", View("learning_curve.csv", (
            col("share of training games", "text", "share"), col("positions", "int", "rows"),
            col("held-out RMSE", "num", "rmse")))))
    if rounds:
        tables["rounds.csv"] = pl.DataFrame(rounds, infer_schema_length=None)
        sections.append(Section("Expert-iteration rounds", View("rounds.csv", (
            col("round", "int", "round"), col("player", "text", "player"),
            col("against", "text", "opponent"),
            col("wins (95% CI)", "pct_ci", "win_rate", "win_low", "win_high"),
            col("points per deal", "pts", "per_deal"), col("shuffles", "int", "shuffles"),
            col("seatings", "int", "seatings")))))
    sections.append(Section("Fitted on", View("fitted_on.csv", (
        col("what", "text", "what"), col("value", "text", "value"))), in_summary=False))
    answer = [f"Held out ({held['rows']:,} positions of {training['held_out_games']:,} "
              f"games): {held_out_headline(meta)}."]
    shipped = meta.get("shipped_round")
    if shipped and shipped.get("of", 1) > 1:
        answer.append(f"The file holds round {shipped['round']} of {shipped['of']}: "
                      f"{shipped['why']}.")
    figures = []
    if out is not None:
        figures.append(Figure(_calibration(held["calibration"], out), "Calibration",
                              "Held-out positions sorted by predicted outcome into ten equal "
                              "bins: mean predicted against mean realised (on the diagonal "
                              "for a calibrated model)."))
        if curve:
            figures.append(Figure(_curve(curve, out), "Learning curve",
                                  "Held-out error of the same fit on growing shares of the "
                                  "training games (still falling at the right: more games "
                                  "would help)."))
    method = [
        f"The model is fitted on the positions of the first "
        f"{training['games'] - training['held_out_games']:,} games and measured on those of "
        f"the last {training['held_out_games']:,} (held out): RMSE, mean absolute error and "
        "R² of what it predicts there.",
        "Calibration: the held-out positions sorted by predicted outcome into ten equal bins, "
        "each bin's mean predicted outcome against its mean realised one.",
        ("Learning curve: the same fit on growing shares of the training games, each measured "
         "on the same held-out positions." if curve else
         f"Learning curve: {meta.get('learning_curve_skipped', 'none in the model file')}."),
        f"Model file: {params['model']} (sha256 {params['sha256']}); the report is rebuilt "
        "from it alone and refused once it changes.",
    ]
    return Content(title=f"Value model for {model.get('profile') or model['rules_id']} "
                         f"({model['kind']})",
                   question=QUESTION, answer=answer, sections=sections, tables=tables,
                   figures=figures, method=method)
