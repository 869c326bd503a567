"""Checked mode: card conservation after every action, and proof that a hook left the game
record alone. Both cost a pass over the state, so they run only when ``S_CHECKED`` is set."""

from __future__ import annotations

import numpy as np

from sim.core.cards import JOKER, N_KINDS, N_RANKS, RANK_KIND, RED3, TWO
from sim.engine.jit import njit
from sim.engine.layout import (
    M_JOKER,
    M_NAT,
    M_TWO,
    S_CHECKED,
    S_FROZEN_N,
    S_PILE_N,
    S_PLAYERS,
    S_STOCK_N,
    S_TEAMS,
)


@njit(inline="always")
def check_conservation(g) -> None:
    """Every card of the shoe is in exactly one place, in checked mode. The engine checks
    after every action: the mode's test is compiled into each caller, so unchecked play (a
    search's rollouts too) pays one compare per action rather than a call."""
    if g.sc[S_CHECKED] != 0:
        _count_cards(g)


@njit(cache=True)
def _count_cards(g) -> None:
    """``check_conservation``'s count: raises if a card is missing or duplicated."""
    counts = np.zeros(N_KINDS, dtype=np.int64)
    for seat in range(g.sc[S_PLAYERS]):
        for k in range(N_KINDS):
            if g.hand[seat, k] < 0 or g.foot[seat, k] < 0:
                raise AssertionError("conservation: negative card count")
            counts[k] += g.hand[seat, k] + g.foot[seat, k]
    for i in range(g.sc[S_STOCK_N]):
        counts[g.stock[i]] += 1
    for i in range(g.sc[S_PILE_N]):
        counts[g.pile[i]] += 1
    for i in range(g.sc[S_FROZEN_N]):
        counts[g.frozen[i]] += 1
    for team in range(g.sc[S_TEAMS]):
        for rank in range(N_RANKS):
            kind = RANK_KIND[rank]
            if kind >= 0:
                counts[kind] += g.meld[team, rank, M_NAT]
            counts[TWO] += g.meld[team, rank, M_TWO]
            counts[JOKER] += g.meld[team, rank, M_JOKER]
        for k in range(N_KINDS):
            counts[k] += g.booked[team, k]
        counts[RED3] += g.red3[team]
    for k in range(N_KINDS):
        if counts[k] != g.deck[k]:
            raise AssertionError("conservation: a card is missing or duplicated")


@njit(cache=True)
def _same(a, b) -> bool:
    x = a.ravel()
    y = b.ravel()
    for i in range(x.shape[0]):
        if x[i] != y[i]:
            return False
    return True


@njit(cache=True)
def same_position(a, b) -> bool:
    """Every field of two game records is equal."""
    return (_same(a.rules, b.rules) and _same(a.sc, b.sc) and _same(a.hand, b.hand)
            and _same(a.foot, b.foot) and _same(a.on_foot, b.on_foot)
            and _same(a.first_turn_done, b.first_turn_done) and _same(a.stock, b.stock)
            and _same(a.pile, b.pile) and _same(a.frozen, b.frozen) and _same(a.meld, b.meld)
            and _same(a.books, b.books) and _same(a.rank_books, b.rank_books)
            and _same(a.booked, b.booked) and _same(a.melded_value, b.melded_value)
            and _same(a.red3, b.red3) and _same(a.grab22, b.grab22)
            and _same(a.game_score, b.game_score) and _same(a.taken, b.taken)
            and _same(a.known, b.known) and _same(a.pickups, b.pickups)
            and _same(a.opened, b.opened) and _same(a.open_turn, b.open_turn)
            and _same(a.foot_turn, b.foot_turn) and _same(a.deck, b.deck)
            and _same(a.last_discard, b.last_discard)
            and _same(a.rng, b.rng))
