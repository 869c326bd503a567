"""The report of a fitted value model (``handfoot learn``): how well it predicts held-out deals.

Two figures and their tables, from the model file's metadata alone (no engine, no data): the
calibration (held-out positions sorted by predicted outcome into ten equal bins, mean
predicted against mean realised, which lie on the diagonal for a calibrated model) and the
learning curve (held-out error of the same fit on growing shares of the training games: still
falling at the right means more games would help). Then what the model was fitted on, and the
measured strength of each expert-iteration round where there are some.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

from analysis.reports import templating  # noqa: E402
from analysis.reports.fmt import Table  # noqa: E402

DPI = 110


@dataclass(frozen=True)
class _Figure:
    file: str
    title: str
    caption: str


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


def _table(header: list[str], rows: list[list]) -> Table:
    return Table(header, [[str(v) for v in row] for row in rows], [False] * len(header))


def write_report(model, folder: Path) -> Path:
    """Write ``folder/index.html`` (the template learn.html.j2) and its figures for ``model``
    (a model file's ``Model``); returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = model.metadata
    held = meta["held_out"]
    training = meta["training"]
    figures = [_Figure(_calibration(held["calibration"], folder), "Calibration",
                       "Held-out positions sorted by predicted outcome into ten equal bins: "
                       "mean predicted against mean realised (on the diagonal for a "
                       "calibrated model).")]
    if meta["learning_curve"]:
        figures.append(_Figure(_curve(meta["learning_curve"], folder), "Learning curve",
                               "Held-out error of the same fit on growing shares of the "
                               "training games (still falling at the right: more games would "
                               "help)."))
    sections = [
        ("Calibration", _table(["positions", "mean predicted", "mean realised"],
                               [[b["rows"], f"{b['predicted']:,.1f}", f"{b['realised']:,.1f}"]
                                for b in held["calibration"]])),
        ("Learning curve", _table(["share of training games", "positions", "held-out RMSE"],
                                  [[c["share"], f"{c['rows']:,}", f"{c['rmse']:,.1f}"]
                                   for c in meta["learning_curve"]])),
    ]
    rounds = meta.get("rounds", [])
    if rounds:
        sections.append(("Expert-iteration rounds", _table(
            ["round", "player", "against", "wins (95% CI)", "points per deal",
             "shuffles x seatings"],
            [[r["round"], r["player"], r["opponent"],
              f"{r['win_rate']:.1%} ({r['win_low']:.1%} to {r['win_high']:.1%})",
              f"{r['per_deal']:+,.1f}", f"{r['shuffles']:,} x {r['seatings']}"]
             for r in rounds])))
    page = templating.render(
        "learn.html.j2", title=f"Value model for {model.profile or model.rules_id} "
                               f"({model.kind})",
        held_out=(f"Held out ({held['rows']:,} positions of {training['held_out_games']:,} "
                  f"games): RMSE {held['rmse']:,.1f} points, mean absolute error "
                  f"{held['mae']:,.1f}, R² {held['r2']:.3f}."),
        figures=figures, sections=sections,
        fitted_on=json.dumps({"rules id": model.rules_id, **training, "fit": meta["fit"]},
                             indent=1))
    path = folder / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
