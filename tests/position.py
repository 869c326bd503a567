"""Build constructed positions (stacked decks) to test rules through the engine's functions."""

from __future__ import annotations

from collections import Counter

import numpy as np

from sim.core.cards import JOKER, KIND_INDEX, N_KINDS, RANK_INDEX, RANK_KIND, TWO
from sim.core.rules import Rules
from sim.state import (
    M_JOKER,
    M_NAT,
    M_TWO,
    S_DEAL,
    S_PILE_N,
    S_STOCK_N,
    S_TURN,
    new_state,
)
from strategies.registry import resolve_seats


def counts(cards: list[str]) -> np.ndarray:
    out = np.zeros(N_KINDS, dtype=np.int32)
    for name in cards:
        out[KIND_INDEX[name]] += 1
    return out


def position(
    hands: dict[int, list[str]] | None = None,
    feet: dict[int, list[str]] | None = None,
    on_foot: tuple[int, ...] = (),
    melds: list[tuple[int, str, list[str]]] | None = None,
    books: dict[int, tuple[int, int, int]] | None = None,
    pile: list[str] | None = None,
    stock: list[str] | None = None,
    opened: tuple[int, ...] = (),
    deal: int = 1,
    strategies: tuple[str, ...] = ("greedy",) * 4,
    rules: Rules | None = None,
    checked: bool = True,
    trace: bool = False,
) -> np.ndarray:
    """A state array; ``stock`` lists the next card drawn first, ``pile`` bottom to top.

    Seats without a given Foot get a dummy Foot of 13 fours so R-G2 and scoring see a Foot.
    The shoe composition is whatever was placed, so conservation checks hold.
    """
    rules = rules or Rules()
    ids, params = resolve_seats(list(strategies), rules.players, 16)
    arr = new_state(rules.packed(), ids, params, trace=trace, checked=checked)
    st = arr[0]
    st["sc"][S_DEAL] = deal
    st["sc"][S_TURN] = 1
    st["first_turn_done"][:] = 1
    st["open_turn"][:] = -1
    st["foot_turn"][:] = -1
    st["sc"][12] = -1  # S_OUT_SEAT
    placed: Counter[str] = Counter()
    for seat in range(rules.players):
        cards = (hands or {}).get(seat, [])
        st["hand"][seat] = counts(cards)
        placed.update(cards)
        if seat in on_foot:
            st["on_foot"][seat] = 1
            st["foot_turn"][seat] = 0
        else:
            foot = (feet or {}).get(seat, ["4"] * 13)
            st["foot"][seat] = counts(foot)
            placed.update(foot)
    for team, rank, cards in melds or []:
        r = RANK_INDEX[rank]
        c = counts(cards)
        st["meld"][team, r, M_NAT] = c[RANK_KIND[r]] if RANK_KIND[r] >= 0 else 0
        st["meld"][team, r, M_TWO] = c[TWO]
        st["meld"][team, r, M_JOKER] = c[JOKER]
        placed.update(cards)
    for team, (clean, dirty, wild) in (books or {}).items():
        st["books"][team] = (clean, dirty, wild, 0)
        # Book cards for conservation: clean books of kings, dirty of queens + a two, wild 2s.
        st["booked"][team, KIND_INDEX["K"]] += 7 * clean
        st["booked"][team, KIND_INDEX["Q"]] += 6 * dirty
        st["booked"][team, TWO] += dirty + 7 * wild
        placed.update({"K": 7 * clean, "Q": 6 * dirty, "2": dirty + 7 * wild})
    for team in opened:
        st["opened"][team] = 1
        st["open_turn"][team] = 0
    pile = pile or []
    for i, name in enumerate(pile):
        st["pile"][i] = KIND_INDEX[name]
    st["sc"][S_PILE_N] = len(pile)
    placed.update(pile)
    stock = stock or []
    for i, name in enumerate(reversed(stock)):
        st["stock"][i] = KIND_INDEX[name]
    st["sc"][S_STOCK_N] = len(stock)
    placed.update(stock)
    st["deck"] = counts(list(placed.elements()))
    return arr


def entries(*melds: tuple[str, list[str]]) -> tuple[np.ndarray, int]:
    """Meld entries from (rank, cards) pairs, as the engine's primitives take them."""
    out = np.zeros((64, 5), dtype=np.int32)
    for i, (rank, cards) in enumerate(melds):
        c = counts(cards)
        r = RANK_INDEX[rank]
        kind = RANK_KIND[r]
        out[i] = (r, c[kind] if kind >= 0 else 0, c[TWO], c[JOKER], 0)
    return out, len(melds)


def held(arr: np.ndarray, seat: int) -> Counter[str]:
    from sim.core.cards import KIND_NAMES

    return Counter({KIND_NAMES[k]: int(n) for k, n in enumerate(arr[0]["hand"][seat]) if n})
