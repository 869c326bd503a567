"""The rule for when holding a wild pays (analysis.statistics.hold_rule), in words and as a
table: every sentence is generated from the held-out figures, never written by hand."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from analysis.reports.fmt import View, col, pts
from analysis.statistics.hold_rule import METHOD, Leaf

CSV = "hold_rule.csv"


def _figure(leaf: Leaf) -> str:
    e = leaf.held_out
    return (f"{pts(e.mean, 0, signed=True)} points a decision on held-out games, 95% CI "
            f"{pts(e.low, 0, signed=True)} to {pts(e.high, 0, signed=True)}")


def words(leaves: Sequence[Leaf], group: str) -> str:
    """One paragraph for ``group`` (the rule set and player): where holding pays held out of
    sample, or that nowhere did, and where it costs most and least."""
    head = f"When does holding pay, under {group}? "
    if not leaves:
        return head + "Too few branched positions to fit and check a rule."
    pays = [leaf for leaf in leaves if leaf.verdict == "pays"]
    costs = [leaf for leaf in leaves if leaf.verdict == "costs"]
    level = [leaf for leaf in leaves if leaf.verdict == "no rule"]
    if pays:
        text = head + "Holding pays " + "; and ".join(
            f"{leaf.words} ({_figure(leaf)})" for leaf in pays) + "."
    else:
        text = head + "No situation where holding pays held out of sample."
    if costs:
        worst = min(costs, key=lambda leaf: leaf.held_out.mean)
        text += f" It costs most {worst.words} ({_figure(worst)})"
        if len(costs) > 1:
            best = max(costs, key=lambda leaf: leaf.held_out.mean)
            text += f", least of the situations where it costs {best.words} ({_figure(best)})"
        text += "."
    if level:
        text += " No measurable difference " + "; or ".join(
            f"{leaf.words} ({_figure(leaf)})" for leaf in level) + "."
    return text + f" (Found by {METHOD}.)"


def table(found: Sequence[tuple[str, str, Sequence[Leaf]]]) -> pl.DataFrame:
    """One row per rule set, player and situation of its tree."""
    out = [{"group": group, "player": player, "situation": leaf.words,
            "verdict": leaf.verdict, "positions_fitted": leaf.fitted.positions,
            "fitted": leaf.fitted.mean, "fitted_low": leaf.fitted.low,
            "fitted_high": leaf.fitted.high, "positions_held_out": leaf.held_out.positions,
            "held_out": leaf.held_out.mean, "held_out_low": leaf.held_out.low,
            "held_out_high": leaf.held_out.high}
           for group, player, leaves in found for leaf in leaves]
    return pl.DataFrame(out, infer_schema_length=None)


def view() -> View:
    return View(CSV, (
        col("rules", "text", "group"), col("player", "text", "player"),
        col("situation", "text", "situation"), col("rule", "text", "verdict"),
        col("holding - melding, fitted half (95% CI)", "pts_ci", "fitted", "fitted_low",
            "fitted_high"),
        col("held-out half (95% CI)", "pts_ci", "held_out", "held_out_low", "held_out_high"),
        col("held-out positions", "int", "positions_held_out")))
