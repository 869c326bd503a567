"""The end of a deal: its score events, and its row of the per-deal record (sim.core.records)."""

from __future__ import annotations

from sim.core.enums import Ending
from sim.core.records import SEAT_BASE, TEAM_BASE, DealField, SeatField, TeamField
from sim.core.rules import MAX_SEATS, MAX_TEAMS
from sim.engine import events as ev
from sim.engine.jit import njit
from sim.engine.layout import (
    N_BOOK_TYPES,
    S_DEALER,
    S_ENDED,
    S_OUT_SEAT,
    S_PLAYERS,
    S_TEAMS,
    S_TURN,
)
from sim.engine.scoring import N_PARTS, score_parts


@njit(cache=True)
def team_col(field: int, team: int) -> int:
    return TEAM_BASE + field * MAX_TEAMS + team


@njit(cache=True)
def seat_col(field: int, seat: int) -> int:
    return SEAT_BASE + field * MAX_SEATS + seat


@njit(cache=True)
def finish_deal(g, t, game: int, deal: int, out_row, parts) -> None:
    """Score the deal (R-S) and fill one record row."""
    out_row[DealField.GAME] = game
    out_row[DealField.DEAL] = deal
    out_row[DealField.DEALER] = g.sc[S_DEALER]
    out_row[DealField.TURNS] = g.sc[S_TURN]
    reason = g.sc[S_ENDED]
    out_row[DealField.END_REASON] = reason
    out_row[DealField.TRUNCATED] = 1 if reason == Ending.TRUNCATED else 0
    out_row[DealField.OUT_SEAT] = g.sc[S_OUT_SEAT]
    ev.emit(t, ev.EV_END, 0, reason, 0, 0, 0)
    for team in range(g.sc[S_TEAMS]):
        score = score_parts(g, team, parts)
        e = ev.emit(t, ev.EV_SCORE, team, parts[0], parts[1], parts[2], parts[3])
        if e >= 0:
            t.ev[e, 6] = parts[4]
            t.ev[e, 7] = parts[5]
        out_row[team_col(TeamField.SCORE, team)] = score
        for p in range(N_PARTS):
            out_row[team_col(TeamField.SCORE + 1 + p, team)] = parts[p]
        for b in range(N_BOOK_TYPES):
            out_row[team_col(TeamField.BOOKS_CLEAN + b, team)] = g.books[team, b]
        out_row[team_col(TeamField.OPEN_TURN, team)] = g.open_turn[team]
        out_row[team_col(TeamField.PICKUPS, team)] = g.pickups[team]
    for seat in range(g.sc[S_PLAYERS]):
        out_row[seat_col(SeatField.FOOT_TURN, seat)] = g.foot_turn[seat]
