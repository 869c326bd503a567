"""One record per deal: the compiled loop fills int64 rows; Python views them as a numpy
structured array sized to the rule set's partnerships and seats."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.rules import MAX_SEATS, MAX_TEAMS

C_GAME = 0
C_DEAL = 1
C_DEALER = 2
C_TURNS = 3
C_END = 4
C_TRUNCATED = 5
C_OUT_SEAT = 6
_TEAM_BASE = 7

# Per-partnership fields: the score, its parts in TRACE.md's breakdown order, books by type.
T_SCORE = 0
T_MELDED = 1
T_LEFT = 2
T_RED3 = 3
T_BOOKS = 4
T_OUT = 5
T_GRAB22 = 6
T_BOOKS_CLEAN = 7
T_BOOKS_DIRTY = 8
T_BOOKS_WILD = 9
T_BOOKS_BLACK3 = 10
T_OPEN_TURN = 11
TEAM_FIELDS = ("score", "melded", "left", "red3", "books", "out", "grab22", "books_clean",
               "books_dirty", "books_wild", "books_black3", "open_turn")
_N_TEAM_FIELDS = len(TEAM_FIELDS)

_SEAT_BASE = _TEAM_BASE + _N_TEAM_FIELDS * MAX_TEAMS
S_FOOT_TURN = 0
SEAT_FIELDS = ("foot_turn",)
N_COLUMNS = _SEAT_BASE + len(SEAT_FIELDS) * MAX_SEATS

END_REASONS = {1: "out", 2: "stock", 3: "truncated"}


@njit(cache=True)
def team_col(field: int, team: int) -> int:
    return _TEAM_BASE + field * MAX_TEAMS + team


@njit(cache=True)
def seat_col(field: int, seat: int) -> int:
    return _SEAT_BASE + field * MAX_SEATS + seat


def record_dtype(teams: int, players: int) -> np.dtype:
    """The per-deal record; per-partnership fields are arrays of length ``teams``."""
    return np.dtype(
        [
            ("seed", np.int64),
            ("game", np.int64),
            ("deal", np.int8),
            ("dealer", np.int8),
            ("turns", np.int16),
            ("end_reason", np.int8),  # 1 out, 2 stock, 3 truncated (END_REASONS)
            ("out_seat", np.int8),  # -1 when nobody went out
            ("truncated", np.bool_),
            ("score", np.int32, (teams,)),
            ("melded", np.int32, (teams,)),
            ("left", np.int32, (teams,)),
            ("red3", np.int32, (teams,)),
            ("books", np.int32, (teams,)),
            ("out", np.int32, (teams,)),
            ("grab22", np.int32, (teams,)),
            ("books_clean", np.int16, (teams,)),
            ("books_dirty", np.int16, (teams,)),
            ("books_wild", np.int16, (teams,)),
            ("books_black3", np.int16, (teams,)),
            ("open_turn", np.int16, (teams,)),  # turn of the partnership's opening, -1 none
            ("foot_turn", np.int16, (players,)),  # turn each seat picked up its Foot, -1 none
        ]
    )


def to_records(rows: np.ndarray, seed: int, teams: int, players: int) -> np.ndarray:
    """View the engine's raw rows as structured records."""
    rec = np.zeros(rows.shape[0], dtype=record_dtype(teams, players))
    rec["seed"] = seed
    rec["game"] = rows[:, C_GAME]
    rec["deal"] = rows[:, C_DEAL]
    rec["dealer"] = rows[:, C_DEALER]
    rec["turns"] = rows[:, C_TURNS]
    rec["end_reason"] = rows[:, C_END]
    rec["out_seat"] = rows[:, C_OUT_SEAT]
    rec["truncated"] = rows[:, C_TRUNCATED] != 0
    for field_index, name in enumerate(TEAM_FIELDS):
        start = team_col(field_index, 0)
        rec[name] = rows[:, start : start + teams]
    start = seat_col(S_FOOT_TURN, 0)
    rec["foot_turn"] = rows[:, start : start + players]
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
