"""The deal loop: composes the primitives with strategy decisions, and plays whole games.

Python callers use ``sim.api``; this module is the compiled core. Every illegal request from a
strategy raises: the engine never silently skips or repairs a move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim import events as ev
from sim.cards import JOKER, N_KINDS, N_RANKS, RANK_KIND, RED3, TWO
from sim.deal import setup_deal
from sim.melds import OK, held_count
from sim.pickup import apply_pickup, red3_to_expose
from sim.records import (
    C_DEAL,
    C_DEALER,
    C_END,
    C_GAME,
    C_OUT_SEAT,
    C_TRUNCATED,
    C_TURNS,
    S_FOOT_TURN,
    T_BOOKS_CLEAN,
    T_OPEN_TURN,
    T_SCORE,
    seat_col,
    team_col,
)
from sim.rules import R_DEALS
from sim.scoring import N_PARTS, score_parts
from sim.state import (
    END_NONE,
    END_STOCK,
    END_TRUNCATED,
    M_JOKER,
    M_NAT,
    M_TWO,
    N_BOOK_TYPES,
    S_ASKED,
    S_CHECKED,
    S_DEALER,
    S_ENDED,
    S_ERROR,
    S_FROZEN_N,
    S_GRANTED,
    S_OUT_SEAT,
    S_PICKED_UP,
    S_PILE_N,
    S_PLAYERS,
    S_SEAT,
    S_STOCK_N,
    S_TEAMS,
    S_TURN,
    TURN_CAP,
)
from sim.turn import discard, draw, expose_red3, go_out, pick_up_foot, stock_can_draw
from strategies import dispatch
from strategies.toolkit import may_go_out


@njit(cache=True)
def check_conservation(st) -> None:
    """Checked mode: every card of the shoe is in exactly one place after every action."""
    if st.sc[S_CHECKED] == 0:
        return
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for seat in range(st.sc[S_PLAYERS]):
        for k in range(N_KINDS):
            if st.hand[seat, k] < 0 or st.foot[seat, k] < 0:
                raise AssertionError("conservation: negative card count")
            counts[k] += st.hand[seat, k] + st.foot[seat, k]
    for i in range(st.sc[S_STOCK_N]):
        counts[st.stock[i]] += 1
    for i in range(st.sc[S_PILE_N]):
        counts[st.pile[i]] += 1
    for i in range(st.sc[S_FROZEN_N]):
        counts[st.frozen[i]] += 1
    for team in range(st.sc[S_TEAMS]):
        for rank in range(N_RANKS):
            kind = RANK_KIND[rank]
            if kind >= 0:
                counts[kind] += st.meld[team, rank, M_NAT]
            counts[TWO] += st.meld[team, rank, M_TWO]
            counts[JOKER] += st.meld[team, rank, M_JOKER]
        for k in range(N_KINDS):
            counts[k] += st.booked[team, k]
        counts[RED3] += st.red3[team]
    for k in range(N_KINDS):
        if counts[k] != st.deck[k]:
            raise AssertionError("conservation: a card is missing or duplicated")


@njit(cache=True)
def ended(st) -> bool:
    return st.sc[S_ENDED] != END_NONE


@njit(cache=True)
def _permission(st, seat: int) -> bool:
    """R-G3, R-V9: in partnerships the next partner in turn order answers (an ``ask`` line);
    in individual play nobody is asked."""
    players = st.sc[S_PLAYERS]
    teams = st.sc[S_TEAMS]
    st.sc[S_ASKED] = 1
    if teams == players:
        st.sc[S_GRANTED] = 1
        return True
    partner = (seat + teams) % players
    granted = dispatch.grant(st, partner, seat)
    st.sc[S_GRANTED] = 1 if granted else 0
    ev.emit(st, ev.EV_ASK, seat, 1 if granted else 0, 0, 0, 0)
    return granted


@njit(cache=True)
def _discard(st, seat: int, kind: int) -> None:
    reason = discard(st, seat, kind)
    if reason != OK:
        st.sc[S_ERROR] = reason
        raise RuntimeError("strategy chose an illegal discard (reason in sc[S_ERROR])")
    check_conservation(st)


@njit(cache=True)
def _meld_and_go_out(st, seat: int) -> bool:
    """The melding part of a turn, including the Foot at once (R-F2) and going out.

    Returns True when the turn is over (the player went out or the deal ended)."""
    while True:
        if held_count(st, seat) == 0 and st.on_foot[seat] == 0:
            pick_up_foot(st, seat)  # R-F2, R-X5: the turn goes on from the Foot
            check_conservation(st)
            if ended(st):
                return True
        want_out = dispatch.meld_phase(st, seat)
        check_conservation(st)
        if held_count(st, seat) == 0 and st.on_foot[seat] == 0:
            continue
        if want_out == 1 and st.sc[S_ASKED] == 0:
            if not may_go_out(st, seat):
                raise RuntimeError("strategy asked to go out while not allowed to")
            if _permission(st, seat):
                last = dispatch.go_out(st, seat)
                check_conservation(st)
                if last >= 0:
                    _discard(st, seat, last)
                if held_count(st, seat) != 0:
                    raise RuntimeError("granted player failed to go out")
                go_out(st, seat)  # R-G3
                return True
            continue
        return False


@njit(cache=True)
def play_turn(st, seat: int) -> None:
    st.sc[S_SEAT] = seat
    st.sc[S_GRANTED] = 0
    st.sc[S_ASKED] = 0
    st.sc[S_PICKED_UP] = 0
    if st.first_turn_done[seat] == 0:  # R-X8: starting-Hand red threes, before the turn
        st.first_turn_done[seat] = 1
        expose_red3(st, seat, st.hand[seat, RED3])
        check_conservation(st)
        if ended(st):
            return
    if held_count(st, seat) == 0 and st.on_foot[seat] == 0:
        pick_up_foot(st, seat)  # R-F3, R-X10
        check_conservation(st)
        if ended(st):
            return
    n = dispatch.choose_pickup(st, seat)
    if n > 0:
        reason = apply_pickup(st, seat, st.entries, n)
        if reason != OK:
            st.sc[S_ERROR] = reason
            raise RuntimeError("strategy chose an illegal pick-up (reason in sc[S_ERROR])")
        check_conservation(st)
        expose_red3(st, seat, red3_to_expose(st, seat))  # a kept starting red three (R-T3)
        check_conservation(st)
        if ended(st):
            return
    else:
        if not stock_can_draw(st):  # R-E1, R-X2, R-X17; a frozen pile comes back first (R-V8)
            st.sc[S_ENDED] = END_STOCK
            return
        draw(st, seat)
        check_conservation(st)
        if ended(st):
            return
    if _meld_and_go_out(st, seat):
        return
    _discard(st, seat, dispatch.choose_discard(st, seat))


@njit(cache=True)
def play_deal(st, seed: int, game: int, deal: int, out_row, parts) -> None:
    """Play one deal from the shuffle to the score; fill one record row."""
    setup_deal(st, seed, game, deal)
    check_conservation(st)
    players = st.sc[S_PLAYERS]
    seat = (st.sc[S_DEALER] + 1) % players  # R-D4
    while True:
        st.sc[S_TURN] += 1
        if st.sc[S_TURN] > TURN_CAP:
            st.sc[S_TURN] = TURN_CAP
            st.sc[S_ENDED] = END_TRUNCATED
            break
        play_turn(st, seat)
        if ended(st):
            break
        seat = (seat + 1) % players
    _finish(st, game, deal, out_row, parts)


@njit(cache=True)
def _finish(st, game: int, deal: int, out_row, parts) -> None:
    out_row[C_GAME] = game
    out_row[C_DEAL] = deal
    out_row[C_DEALER] = st.sc[S_DEALER]
    out_row[C_TURNS] = st.sc[S_TURN]
    reason = st.sc[S_ENDED]
    out_row[C_END] = reason
    out_row[C_TRUNCATED] = 1 if reason == END_TRUNCATED else 0
    out_row[C_OUT_SEAT] = st.sc[S_OUT_SEAT]
    ev.emit(st, ev.EV_END, 0, reason, 0, 0, 0)
    for team in range(st.sc[S_TEAMS]):
        score = score_parts(st, team, parts)
        e = ev.emit(st, ev.EV_SCORE, team, parts[0], parts[1], parts[2], parts[3])
        if e >= 0:
            st.ev[e, 6] = parts[4]
            st.ev[e, 7] = parts[5]
        out_row[team_col(T_SCORE, team)] = score
        for p in range(N_PARTS):
            out_row[team_col(T_SCORE + 1 + p, team)] = parts[p]
        for b in range(N_BOOK_TYPES):
            out_row[team_col(T_BOOKS_CLEAN + b, team)] = st.books[team, b]
        out_row[team_col(T_OPEN_TURN, team)] = st.open_turn[team]
    for seat in range(st.sc[S_PLAYERS]):
        out_row[seat_col(S_FOOT_TURN, seat)] = st.foot_turn[seat]


@njit(cache=True)
def play_games(st, seed: int, first_game: int, n_games: int, out) -> None:
    """Play games first_game .. first_game + n_games - 1; one row of ``out`` per deal."""
    deals = st.rules[R_DEALS]
    parts = np.zeros(N_PARTS, dtype=np.int64)
    row = 0
    teams = st.sc[S_TEAMS]
    for g in range(first_game, first_game + n_games):
        st.game_score[:] = 0
        for d in range(1, deals + 1):
            play_deal(st, seed, g, d, out[row], parts)
            for team in range(teams):
                st.game_score[team] += out[row, team_col(T_SCORE, team)]
            row += 1

