"""Imagined worlds: a copy of the game in which everything one seat cannot see is dealt anew.

What a seat may know (docs/design.md, "Positions"): its own held cards, the table (melds,
books, exposed red threes), the pile and the piles set aside, the cards each seat is known to
hold (taken from the pile and not since melded or discarded), how many cards every hand, Foot
and the stock hold, and the scores. What it cannot see — the rest of the other hands, every
unpicked Foot (its own too) and the stock's contents and order — is, in a world, the same
multiset of unseen cards dealt at random into the same places in the same numbers.

The unseen multiset is computed from the visible cards only (the shoe minus everything the
seat can see), so two games that differ only in hidden cards give the same worlds.
"""

from __future__ import annotations

import numpy as np

from sim.core.cards import JOKER, N_KINDS, N_RANKS, RANK_KIND, RED3, TWO
from sim.engine import rng
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
from sim.engine.legal import foot_count, held_count
from sim.engine.position import copy_position

# An oracle-hands world's stock order is drawn from a stream apart from its key's other uses.
STOCK_SALT = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True)
def unseen_counts(g, seat: int, out) -> int:
    """Cards ``seat`` cannot see, by kind, into ``out``; returns how many."""
    for k in range(N_KINDS):
        out[k] = g.deck[k] - g.hand[seat, k]
    for s in range(g.sc[S_PLAYERS]):
        if s != seat:
            for k in range(N_KINDS):
                out[k] -= g.known[s, k]
    for i in range(g.sc[S_PILE_N]):
        out[g.pile[i]] -= 1
    for i in range(g.sc[S_FROZEN_N]):
        out[g.frozen[i]] -= 1
    for team in range(g.sc[S_TEAMS]):
        for rank in range(N_RANKS):
            kind = RANK_KIND[rank]
            if kind >= 0:
                out[kind] -= g.meld[team, rank, M_NAT]
            out[TWO] -= g.meld[team, rank, M_TWO]
            out[JOKER] -= g.meld[team, rank, M_JOKER]
        for k in range(N_KINDS):
            out[k] -= g.booked[team, k]
        out[RED3] -= g.red3[team]
    total = 0
    for k in range(N_KINDS):
        if out[k] < 0:
            raise AssertionError("unseen cards: the visible cards exceed the shoe")
        total += out[k]
    return total


@njit(cache=True)
def _hidden_total(g, seat: int) -> int:
    """How many cards sit in the places ``seat`` cannot see (from the visible counts)."""
    total = g.sc[S_STOCK_N]
    for s in range(g.sc[S_PLAYERS]):
        if s != seat:
            total += held_count(g, s)
            for k in range(N_KINDS):
                total -= g.known[s, k]
        total += foot_count(g, s)
    return total


@njit(cache=True)
def deal_world(g, w, seat: int, dst, index: int, key) -> None:
    """``dst[index]`` becomes ``g`` with everything ``seat`` cannot see dealt anew from the
    generator state ``key`` (and the deal's own stream re-keyed from it, for restocks)."""
    copy_position(dst, index, g)
    world = dst[index]
    counts = w.tmp_booked  # scratch of N_KINDS ints
    total = unseen_counts(g, seat, counts)
    if total != _hidden_total(g, seat):
        raise AssertionError("unseen cards do not fill the hidden places")
    n = 0
    for k in range(N_KINDS):  # lay the unseen cards out in kind order, then shuffle
        for _ in range(counts[k]):
            w.pool[n] = k
            n += 1
    w.rng[rng.STREAM_WORLD] = key
    rng.shuffle(w.rng, rng.STREAM_WORLD, w.pool, n)
    world.rng[rng.STREAM_DEAL] = rng.next_u64(w.rng, rng.STREAM_WORLD)
    i = 0
    for s in range(g.sc[S_PLAYERS]):
        if s == seat:
            continue
        unknown = held_count(g, s)
        for k in range(N_KINDS):
            world.hand[s, k] = g.known[s, k]
            unknown -= g.known[s, k]
        for _ in range(unknown):
            world.hand[s, w.pool[i]] += 1
            i += 1
    for s in range(g.sc[S_PLAYERS]):
        if g.on_foot[s] == 0:
            size = foot_count(g, s)
            for k in range(N_KINDS):
                world.foot[s, k] = 0
            for _ in range(size):
                world.foot[s, w.pool[i]] += 1
                i += 1
    for j in range(g.sc[S_STOCK_N]):
        world.stock[j] = w.pool[i]
        i += 1
    world.sc[S_CHECKED] = 0


@njit(cache=True)
def copy_truth(g, dst, index: int, key) -> None:
    """``dst[index]`` becomes ``g`` as it is (the hidden cards included), its deal stream
    re-keyed from ``key``: the world an ``oracle`` searches (it sees hidden cards)."""
    copy_position(dst, index, g)
    state = dst[index].rng
    state[rng.STREAM_DEAL] = key
    rng.next_u64(state, rng.STREAM_DEAL)
    dst[index].sc[S_CHECKED] = 0


@njit(cache=True)
def copy_truth_but_stock(g, w, dst, index: int, key) -> None:
    """``dst[index]`` becomes ``g`` with the true hands and Feet but the stock's cards in an
    order drawn from ``key`` alone (the cards laid out by kind, then shuffled, so the true order
    leaves no trace), and the deal stream re-keyed: the world an ``oracle-hands`` searches, a
    ceiling for inference (no player can know the stock's order)."""
    copy_truth(g, dst, index, key)
    stock = dst[index].stock
    counts = w.tmp_booked  # scratch of N_KINDS ints
    for k in range(N_KINDS):
        counts[k] = 0
    n = g.sc[S_STOCK_N]
    for j in range(n):
        counts[g.stock[j]] += 1
    j = 0
    for k in range(N_KINDS):
        for _ in range(counts[k]):
            stock[j] = k
            j += 1
    w.rng[rng.STREAM_WORLD] = rng.mix64(key ^ STOCK_SALT)
    rng.shuffle(w.rng, rng.STREAM_WORLD, stock, n)
