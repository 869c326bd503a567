"""The per-deal record, declared once: field names, types, scope, meaning and aggregation.

The compiled loop fills int64 rows whose column offsets come from this table; Python views
them as a numpy structured array sized to the rule set's partnerships and seats, flattens
them to Parquet columns, and the run storage's aggregates read the fields marked here. Adding
a metric is one ``RecordField`` plus the kernel line that writes it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.enums import Book, enumeration
from sim.core.rules import MAX_SEATS, MAX_TEAMS


@dataclass(frozen=True)
class RecordField:
    """One field of the per-deal record.

    ``scope``: ``deal`` (one value), ``team`` (one per partnership) or ``seat`` (one per seat).
    ``aggregate``: what the mergeable per-chunk summary keeps of a team field: ``sum`` or
    ``sum+sumsq`` (for a mean and its spread); empty when it keeps nothing.
    """

    name: str
    dtype: type
    scope: str
    doc: str
    aggregate: str = ""


RECORD_FIELDS: tuple[RecordField, ...] = (
    RecordField("seed", np.int64, "deal", "root seed of the run (written by Python)"),
    RecordField("game", np.int64, "deal", "game index"),
    RecordField("deal", np.int8, "deal", "deal number 1..4"),
    RecordField("dealer", np.int8, "deal", "dealer's seat"),
    RecordField("turns", np.int16, "deal", "turns played"),
    RecordField("end_reason", np.int8, "deal", "how the deal ended (sim.core.enums.Ending)"),
    RecordField("out_seat", np.int8, "deal", "seat that went out, -1 when nobody did"),
    RecordField("truncated", np.bool_, "deal", "hit the turn cap"),
    RecordField("score", np.int32, "team", "deal score", "sum+sumsq"),
    RecordField("melded", np.int32, "team", "card values melded (R-S1)"),
    RecordField("left", np.int32, "team", "card values left in Hands and Feet (R-S2)"),
    RecordField("red3", np.int32, "team", "red threes, exposed and hidden (R-S3)"),
    RecordField("books", np.int32, "team", "book bonuses (R-S4)"),
    RecordField("out", np.int32, "team", "going-out bonus (R-S5)"),
    RecordField("grab22", np.int32, "team", "exact-22 bonus (R-V11)"),
    RecordField("books_clean", np.int16, "team", "clean books", "sum"),
    RecordField("books_dirty", np.int16, "team", "dirty books", "sum"),
    RecordField("books_wild", np.int16, "team", "wild books", "sum"),
    RecordField("books_black3", np.int16, "team", "black-three books (R-V7)"),
    RecordField("open_turn", np.int16, "team", "turn of the partnership's opening, -1 none"),
    RecordField("pickups", np.int16, "team", "discard-pile pick-ups", "sum"),
    RecordField("foot_turn", np.int16, "seat", "turn each seat picked up its Foot, -1 none"),
)

DEAL_FIELDS = tuple(f.name for f in RECORD_FIELDS if f.scope == "deal" and f.name != "seed")
TEAM_FIELDS = tuple(f.name for f in RECORD_FIELDS if f.scope == "team")
SEAT_FIELDS = tuple(f.name for f in RECORD_FIELDS if f.scope == "seat")

# Raw int64 row layout: deal fields (without the seed), then each team field for MAX_TEAMS
# partnerships, then each seat field for MAX_SEATS seats.
TEAM_BASE = len(DEAL_FIELDS)
SEAT_BASE = TEAM_BASE + len(TEAM_FIELDS) * MAX_TEAMS
N_COLUMNS = SEAT_BASE + len(SEAT_FIELDS) * MAX_SEATS

# Each scope's fields by index, named after the fields themselves (``TeamField.SCORE``): the
# compiled record writer (sim.engine.finish) reads them as constants.
DealField = enumeration("DealField", DEAL_FIELDS)
TeamField = enumeration("TeamField", TEAM_FIELDS)
SeatField = enumeration("SeatField", SEAT_FIELDS)
# The writer stores the score's parts after the score, in docs/trace.md's breakdown order, and
# the four book counts in the order of sim.core.enums.Book.
assert TEAM_FIELDS[TeamField.SCORE + 1 : TeamField.SCORE + 7] == (
    "melded", "left", "red3", "books", "out", "grab22")
assert TEAM_FIELDS[TeamField.BOOKS_CLEAN : TeamField.BOOKS_CLEAN + len(Book)] == tuple(
    f"books_{word}" for word in Book.words)

def team_column(field: int, team: int) -> int:
    return TEAM_BASE + field * MAX_TEAMS + team


def seat_column(field: int, seat: int) -> int:
    return SEAT_BASE + field * MAX_SEATS + seat


def record_dtype(teams: int, players: int) -> np.dtype:
    """The per-deal record; team fields are arrays of length ``teams``, seat fields of
    ``players``."""
    parts = []
    for f in RECORD_FIELDS:
        if f.scope == "deal":
            parts.append((f.name, f.dtype))
        else:
            parts.append((f.name, f.dtype, (teams if f.scope == "team" else players,)))
    return np.dtype(parts)


def to_records(rows: np.ndarray, seed: int, teams: int, players: int) -> np.ndarray:
    """View the engine's raw rows as structured records."""
    rec = np.zeros(rows.shape[0], dtype=record_dtype(teams, players))
    rec["seed"] = seed
    for i, name in enumerate(DEAL_FIELDS):
        rec[name] = rows[:, i] != 0 if name == "truncated" else rows[:, i]
    for i, name in enumerate(TEAM_FIELDS):
        start = team_column(i, 0)
        rec[name] = rows[:, start : start + teams]
    for i, name in enumerate(SEAT_FIELDS):
        start = seat_column(i, 0)
        rec[name] = rows[:, start : start + players]
    return rec


def flatten(rec: np.ndarray) -> dict[str, np.ndarray]:
    """Flat columns (``score_0``, ``score_1`` ...) for data frames and Parquet."""
    cols: dict[str, np.ndarray] = {}
    for name in rec.dtype.names:
        values = rec[name]
        if values.ndim == 1:
            cols[name] = values
        else:
            for i in range(values.shape[1]):
                cols[f"{name}_{i}"] = values[:, i]
    return cols


def aggregated_team_fields(kind: str) -> tuple[str, ...]:
    """Team fields whose per-chunk aggregate keeps ``kind`` (``sum`` or ``sumsq``)."""
    return tuple(f.name for f in RECORD_FIELDS if f.scope == "team"
                 and kind in f.aggregate.split("+"))
