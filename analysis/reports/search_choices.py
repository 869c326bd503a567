"""The search player's own choice at the branched positions of ``ask hold-wild``, in numbers and
words (the rows: analysis.experiments.search_choice).

At each asked position the strong player's line melds some wilds; the search's line melds as
many (it melds them too), fewer (it holds some back) or none. The share holding gets a Wilson
interval clustered by game (positions of one game are not independent); joined to the
branched positions by where they were (the situation must match too), the value of holding
there (hold minus meld, played on by the strong player) is shown where the search held and
where it melded, so the reader sees whether the search holds where holding pays.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analysis.reports.fmt import View, col, pct, pts
from analysis.statistics.holding import (
    F_DEAL,
    F_GAME,
    F_HOLD,
    F_MELD,
    F_SEAT,
    F_TURN,
    F_WILDS_HELD,
    F_WILDS_MELDED,
    MIN_PER_GROUP,
    N_FEATURES,
    SITUATIONS,
    Collected,
    hold_effect,
)
from analysis.statistics.intervals import clustered_mean

CSV = "search_choices.csv"


def joined(choices: pl.DataFrame, c: Collected) -> tuple[pl.DataFrame, np.ndarray]:
    """The asked positions that match a branched position of ``c`` (same game, deal, turn and
    seat, same wilds in hand and in the line), and those branched rows, in the same order."""
    index = {(int(r[F_GAME]), int(r[F_DEAL]), int(r[F_TURN]), int(r[F_SEAT])): i
             for i, r in enumerate(c.rows)}
    keep, rows = [], []
    for k, r in enumerate(choices.iter_rows(named=True)):
        i = index.get((int(r["game"]), int(r["deal"]), int(r["turn"]), int(r["seat"])))
        if i is None:
            continue
        b = c.rows[i]
        if int(b[F_WILDS_HELD]) == int(r["wilds_held"]) and \
                int(b[F_WILDS_MELDED]) == int(r["player_wilds"]):
            keep.append(k)
            rows.append(b)
    return choices[keep], (np.array(rows) if rows else np.zeros((0, N_FEATURES)))


def _share(mask: np.ndarray, games: np.ndarray) -> tuple[float, float, float]:
    """Share of ``mask`` with a 95% interval clustered by game (a share is the mean of a 0/1
    value; clipped to 0..1)."""
    share, low, high = clustered_mean(mask.astype(np.float64), games)
    return float(share), max(0.0, float(low)), min(1.0, float(high))


def table(found: Sequence[tuple[str, str, pl.DataFrame, np.ndarray]]) -> pl.DataFrame:
    """One row per rule set and situation: positions asked, the share where the search holds
    back some of the player's wilds (95% CI), where it holds them all, and holding minus
    melding where it held and where it melded."""
    out = []
    for group, player, choices, branched in found:
        if choices.height == 0:
            continue
        held = (choices["search_wilds"] < choices["player_wilds"]).to_numpy()
        none = (choices["search_wilds"] == 0).to_numpy()
        games = choices["game"].to_numpy()
        d = branched[:, F_HOLD] - branched[:, F_MELD]
        cases = [("all positions asked", "all", np.ones(len(held), dtype=bool))]
        for name, column, bins in SITUATIONS:
            for label, low, high in bins:
                cases.append((name, label, (branched[:, column] >= low) &
                              (branched[:, column] <= high)))
        for situation, case, mask in cases:
            if mask.sum() < (1 if case == "all" else MIN_PER_GROUP):
                continue
            share, low, high = _share(held[mask], games[mask])
            row = {"group": group, "player": player, "situation": situation, "case": case,
                   "positions": int(mask.sum()), "search_holds": share, "holds_low": low,
                   "holds_high": high, "search_holds_all": float(none[mask].mean())}
            for tag, where in (("held", mask & held), ("melded", mask & ~held)):
                if where.sum() >= 2:
                    e = hold_effect(tag, tag, d[where], games[where])
                    row.update({f"value_{tag}": e.mean, f"value_{tag}_low": e.low,
                                f"value_{tag}_high": e.high, f"n_{tag}": e.positions})
                else:
                    row.update({f"value_{tag}": None, f"value_{tag}_low": None,
                                f"value_{tag}_high": None, f"n_{tag}": int(where.sum())})
            out.append(row)
    return pl.DataFrame(out, infer_schema_length=None)


def view() -> View:
    return View(CSV, (
        col("rules", "text", "group"), col("situation", "text", "situation"),
        col("case", "text", "case"), col("positions", "int", "positions"),
        col("search holds some back (95% CI)", "pct_ci", "search_holds", "holds_low",
            "holds_high"),
        col("search holds all", "pct", "search_holds_all"),
        col("holding - melding where it held (95% CI)", "pts_ci", "value_held",
            "value_held_low", "value_held_high"),
        col("... where it melded (95% CI)", "pts_ci", "value_melded", "value_melded_low",
            "value_melded_high")))


def words(rows: pl.DataFrame, asked: int, search: str) -> list[str]:
    """One paragraph per rule set, from the overall row and the situations where the search
    holds most and least."""
    out = []
    for group in dict.fromkeys(rows["group"].to_list()):
        mine = rows.filter(pl.col("group") == group).to_dicts()
        top = mine[0]
        player = top["player"]
        text = (f"The search's own choice under {group}: at {top['positions']:,} of the "
                f"positions where {player} would meld a wild (of {asked:,} asked), {search} "
                f"holds back some of those wilds in {pct(top['search_holds'])} (95% CI "
                f"{pct(top['holds_low'])} to {pct(top['holds_high'])}) and all of them in "
                f"{pct(top['search_holds_all'])}.")
        if top["value_held"] is not None and top["value_melded"] is not None:
            text += (f" Where it held, holding there (played on by {player}) was worth "
                     f"{pts(top['value_held'], 0, signed=True)} points per decision (95% CI "
                     f"{pts(top['value_held_low'], 0, signed=True)} to "
                     f"{pts(top['value_held_high'], 0, signed=True)}); where it melded, "
                     f"{pts(top['value_melded'], 0, signed=True)} (95% CI "
                     f"{pts(top['value_melded_low'], 0, signed=True)} to "
                     f"{pts(top['value_melded_high'], 0, signed=True)}).")
        cases = mine[1:]
        if cases:
            most = max(cases, key=lambda r: r["search_holds"])
            least = min(cases, key=lambda r: r["search_holds"])
            text += (f" By situation it holds most often at '{most['case']}' "
                     f"({pct(most['search_holds'])} of {most['positions']:,}) and least often "
                     f"at '{least['case']}' ({pct(least['search_holds'])} of "
                     f"{least['positions']:,}).")
        out.append(text)
    return out


def read_all(paths: Sequence[str], collected: Sequence[Collected]
             ) -> list[tuple[str, str, pl.DataFrame, np.ndarray]]:
    """Each file of choices joined to the branched positions of its group."""
    from analysis.experiments.search_choice_cache import read_choices

    by_group = {c.profile: c for c in collected}
    out = []
    for path in paths:
        meta, rows = read_choices(Path(path))
        c = by_group.get(meta["group"])
        if c is None:
            continue
        choices, branched = joined(rows, c)
        out.append((meta["group"], meta["player"], choices, branched))
    return out
