"""Scoring a deal (R-S1..R-S6), part by part as docs/trace.md's ``breakdown`` lists them."""

from __future__ import annotations

import numpy as np

from sim.core.cards import CARD_VALUE, N_KINDS, RED3
from sim.core.enums import Book
from sim.core.rules import (
    R_CLEAN_BONUS,
    R_DIRTY_BONUS,
    R_OUT_BONUS,
    R_RED3_BONUS,
    R_RED3_PENALTY,
    R_WILD_BONUS,
)
from sim.engine.jit import njit
from sim.engine.layout import S_OUT_SEAT, S_PLAYERS, S_TEAMS
from sim.engine.legal import team_of

P_MELDED = 0
P_LEFT = 1
P_RED3 = 2
P_BOOKS = 3
P_OUT = 4
P_GRAB22 = 5  # the exact-22 bonus (R-V11), written in traces only where the knob is on
N_PARTS = 6


@njit(cache=True)
def _parts(g, team: int):
    """The parts of ``team``'s deal score, in ``P_*`` order, as a tuple (no array to
    allocate: a search scores every rollout it plays)."""
    players = g.sc[S_PLAYERS]
    teams = g.sc[S_TEAMS]
    left = 0
    hidden_red3 = 0
    for seat in range(team, players, teams):
        for k in range(N_KINDS):
            n = g.hand[seat, k] + g.foot[seat, k]  # R-S2: an unpicked Foot counts in full
            left += n * CARD_VALUE[k]
        hidden_red3 += g.hand[seat, RED3] + g.foot[seat, RED3]
    melded = g.melded_value[team]  # R-S1
    red3 = g.red3[team] * g.rules[R_RED3_BONUS] - hidden_red3 * g.rules[R_RED3_PENALTY]
    books = (
        g.books[team, Book.CLEAN] * g.rules[R_CLEAN_BONUS]
        + g.books[team, Book.DIRTY] * g.rules[R_DIRTY_BONUS]
        + g.books[team, Book.WILD] * g.rules[R_WILD_BONUS]
        + g.books[team, Book.BLACK3] * g.rules[R_DIRTY_BONUS]  # R-V7
    )  # R-S4
    out_seat = g.sc[S_OUT_SEAT]
    out = g.rules[R_OUT_BONUS] if out_seat >= 0 and team_of(g, out_seat) == team else 0
    return (np.int64(melded), np.int64(-left), np.int64(red3), np.int64(books), np.int64(out),
            np.int64(g.grab22[team]))


@njit(cache=True)
def score_parts(g, team: int, parts) -> int:
    """Fill ``parts[P_*]`` for ``team`` and return the deal score (their sum)."""
    if parts.shape[0] < N_PARTS:
        raise ValueError("score_parts needs an array of N_PARTS slots")
    values = _parts(g, team)
    total = 0
    for i in range(N_PARTS):
        parts[i] = values[i]
        total += values[i]
    return total


@njit(cache=True)
def deal_score(g, team: int) -> int:
    """``team``'s deal score as ``score_parts`` adds it up, without the parts."""
    values = _parts(g, team)
    total = 0
    for i in range(N_PARTS):
        total += values[i]
    return total
