"""The report of a fitted value model (``handfoot learn``): how well it predicts held-out deals.

Two figures and their tables, from the model file's metadata alone (no engine, no data): the
calibration (held-out positions sorted by predicted outcome into ten equal bins, mean
predicted against mean realised, which lie on the diagonal for a calibrated model) and the
learning curve (held-out error of the same fit on growing shares of the training games: still
falling at the right means more games would help). Then what the model was fitted on, and the
measured strength of each expert-iteration round where there are some.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402

DPI = 110


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


def _table(header: list[str], rows: list[list]) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
                   for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def write_report(model, folder: Path) -> Path:
    """Write ``folder/index.html`` and its figures for ``model`` (a model file's ``Model``);
    returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    meta = model.metadata
    held = meta["held_out"]
    training = meta["training"]
    calibration = _calibration(held["calibration"], folder)
    curve = _curve(meta["learning_curve"], folder) if meta["learning_curve"] else None
    rounds = meta.get("rounds", [])
    parts = [
        f"<h1>Value model for {html.escape(model.profile or model.rules_id)} "
        f"({html.escape(model.kind)})</h1>",
        f"<p><strong>Held out ({held['rows']:,} positions of {training['held_out_games']:,} "
        f"games): RMSE {held['rmse']:,.1f} points, mean absolute error {held['mae']:,.1f}, "
        f"R² {held['r2']:.3f}.</strong></p>",
        f'<img src="{calibration}" alt="calibration">',
        f'<img src="{curve}" alt="learning curve">' if curve else "",
        "<h2>Calibration</h2>",
        _table(["positions", "mean predicted", "mean realised"],
               [[b["rows"], f"{b['predicted']:,.1f}", f"{b['realised']:,.1f}"]
                for b in held["calibration"]]),
        "<h2>Learning curve</h2>",
        _table(["share of training games", "positions", "held-out RMSE"],
               [[c["share"], f"{c['rows']:,}", f"{c['rmse']:,.1f}"]
                for c in meta["learning_curve"]]),
    ]
    if rounds:
        parts += ["<h2>Expert-iteration rounds</h2>",
                  _table(["round", "player", "against", "wins (95% CI)", "points per deal",
                          "shuffles x seatings"],
                         [[r["round"], r["player"], r["opponent"],
                           f"{r['win_rate']:.1%} ({r['win_low']:.1%} to {r['win_high']:.1%})",
                           f"{r['per_deal']:+,.1f}", f"{r['shuffles']:,} x {r['seatings']}"]
                          for r in rounds])]
    parts += ["<h2>Fitted on</h2>",
              f"<pre>{html.escape(json.dumps({'rules id': model.rules_id, **training, 'fit': meta['fit']}, indent=1))}</pre>"]  # noqa: E501
    page = ("<!doctype html><html><head><meta charset='utf-8'><title>Value model</title>"
            "<style>body{font-family:sans-serif;max-width:60rem;margin:2rem auto;}"
            "img{max-width:48%;}table{border-collapse:collapse;}"
            "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right;}</style></head>"
            "<body>" + "\n".join(parts) + "</body></html>\n")
    path = folder / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
