"""Build constructed positions (stacked decks) to test rules through the engine's functions.

``position(...)`` returns a ``Position``: the engine's ``Table`` (game record, work area,
trace, hooks) that also indexes like the game record array (``pos[0]["hand"]``), with the
engine's primitives as methods so tests read like the rules they check.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np

from sim.core.cards import JOKER, KIND_INDEX, KIND_NAMES, N_KINDS, RANK_INDEX, RANK_KIND, TWO
from sim.core.rules import Rules
from sim.engine.layout import M_JOKER, M_NAT, M_TWO, S_DEAL, S_OUT_SEAT, S_PILE_N, S_STOCK_N, S_TURN
from sim.play.api import Table, make_table, run_compiled


@dataclass
class Position(Table):
    """A Table for tests: ``pos[0]`` is the game record, primitives are methods."""

    def __getitem__(self, index: int):
        return self.game[index]

    def lay(self, seat: int, entries: np.ndarray, n: int) -> int:
        from sim.engine.actions import lay_line

        return lay_line(self.g, self.w, self.t, seat, entries, n)

    def discard(self, seat: int, kind: int) -> int:
        from sim.engine.actions import discard

        return discard(self.g, self.t, seat, kind)

    def pickup(self, seat: int, entries: np.ndarray, n: int) -> int:
        from sim.engine.actions import apply_pickup

        return apply_pickup(self.g, self.w, self.t, seat, entries, n)

    def check_pickup(self, seat: int, entries: np.ndarray, n: int) -> int:
        from sim.engine.legal import check_pickup

        return check_pickup(self.g, self.w, seat, entries, n)

    def play_turn(self, seat: int) -> None:
        """``seat`` plays one whole turn with its strategy, from the turn's start."""
        from sim.play.loop import play_turn

        run_compiled(self, play_turn, seat)

    def lines(self, seed: int = 0, game: int = 0) -> list[dict]:
        """The trace lines of what happened so far (a position made with ``trace=True``)."""
        from sim.runs.trace import decode

        return list(decode(self.t, self.rules, seed, game))


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
) -> Position:
    """A position; ``stock`` lists the next card drawn first, ``pile`` bottom to top.

    Seats without a given Foot get a dummy Foot of 13 fours so R-G2 and scoring see a Foot.
    The shoe composition is whatever was placed, so conservation checks hold.
    """
    rules = rules or Rules()
    strategies = tuple(strategies)[: rules.players] + ("greedy",) * (rules.players
                                                                     - len(strategies))
    table = make_table(rules, list(strategies), trace=trace, checked=checked)
    pos = Position(**table.__dict__)
    st = pos.game[0]
    st["sc"][S_DEAL] = deal
    st["sc"][S_TURN] = 0
    st["first_turn_done"][:] = 1
    st["open_turn"][:] = -1
    st["foot_turn"][:] = -1
    st["sc"][S_OUT_SEAT] = -1
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
    return pos


def entries(*melds: tuple[str, list[str]]) -> tuple[np.ndarray, int]:
    """Meld entries from (rank, cards) pairs, as the engine's primitives take them."""
    out = np.zeros((64, 5), dtype=np.int32)
    for i, (rank, cards) in enumerate(melds):
        c = counts(cards)
        r = RANK_INDEX[rank]
        kind = RANK_KIND[r]
        out[i] = (r, c[kind] if kind >= 0 else 0, c[TWO], c[JOKER], 0)
    return out, len(melds)


def held(pos: Position, seat: int) -> Counter[str]:
    return Counter({KIND_NAMES[k]: int(n) for k, n in enumerate(pos[0]["hand"][seat]) if n})
