"""Writing a game record as a position's JSON form: the whole truth, or one seat's view
(docs/positions.md)."""

from __future__ import annotations

import numpy as np

from sim.core.cards import (
    KIND_NAMES,
    RANK_KIND,
    RANK_NAMES,
)
from sim.core.enums import NO_DECISION, Decision
from sim.core.profiles import profile_name
from sim.core.rules import Rules
from sim.engine.layout import (
    M_JOKER,
    M_NAT,
    M_TWO,
    S_ASKED,
    S_DEAL,
    S_DEALER,
    S_DECIDER,
    S_DECISION,
    S_FROZEN_N,
    S_GAME,
    S_GRANTED,
    S_LINE,
    S_PICKED_UP,
    S_PILE_N,
    S_SEAT,
    S_SEED,
    S_STOCK_N,
    S_TURN,
    S_WANT_OUT,
)
from sim.play.positions.schema import BOOK_TYPES, FORMAT, PositionError, card_names


def _seq(arr: np.ndarray, n: int) -> list[str]:
    return [KIND_NAMES[int(k)] for k in arr[:n]]


def position_dict(g, rules: Rules, view: int | None = None) -> dict:
    """The JSON form of the game record ``g``: the truth, or seat ``view``'s view of it."""
    players, teams = rules.players, rules.partnerships
    sc = g["sc"]
    out: dict = {
        "format": FORMAT,
        "kind": "truth" if view is None else "view",
        "profile": profile_name(rules),
        "rules": rules.to_dict(),
        "seed": int(sc[S_SEED]), "game": int(sc[S_GAME]), "deal": int(sc[S_DEAL]),
        "dealer": int(sc[S_DEALER]), "turn": int(sc[S_TURN]), "to_play": int(sc[S_SEAT]),
        "decision": Decision.words[int(sc[S_DECISION])] if sc[S_DECISION] != NO_DECISION else None,
        "decider": int(sc[S_DECIDER]),
        "asked": bool(sc[S_ASKED]), "granted": bool(sc[S_GRANTED]),
        "picked_up": bool(sc[S_PICKED_UP]), "want_out": bool(sc[S_WANT_OUT]),
        "game_scores": [int(v) for v in g["game_score"][:teams]],
        "on_foot": [bool(v) for v in g["on_foot"][:players]],
        "first_turn_done": [bool(v) for v in g["first_turn_done"][:players]],
        "pile": _seq(g["pile"], int(sc[S_PILE_N])),
        "set_aside": _seq(g["frozen"], int(sc[S_FROZEN_N])),
        "taken": [card_names(g["taken"][s]) for s in range(players)],
        "known": [card_names(g["known"][s]) for s in range(players)],
        "foot_turn": [int(v) for v in g["foot_turn"][:players]],
        "last_discard": [None if k < 0 else KIND_NAMES[int(k)]
                         for k in g["last_discard"][:players]],
        "teams": [_team_dict(g, team) for team in range(teams)],
        "lines_laid": int(sc[S_LINE]),
    }
    if view is None:
        out["hands"] = [card_names(g["hand"][s]) for s in range(players)]
        out["feet"] = [None if g["on_foot"][s] else card_names(g["foot"][s])
                       for s in range(players)]
        n = int(sc[S_STOCK_N])
        out["stock"] = _seq(g["stock"][:n][::-1], n)  # the next card drawn first
        out["deal_stream"] = str(int(g["rng"][0]))
    else:
        if not 0 <= view < players:
            raise PositionError(f"seat: {view} is not a seat of a {players}-player game")
        out["seat"] = view
        out["hands"] = [card_names(g["hand"][s]) if s == view else
                        {"count": int(g["hand"][s].sum())} for s in range(players)]
        out["feet"] = [None if g["on_foot"][s] else {"count": int(g["foot"][s].sum())}
                       for s in range(players)]
        out["stock"] = {"count": int(sc[S_STOCK_N])}
    return out


def _team_dict(g, team: int) -> dict:
    melds = []
    for rank in range(len(RANK_NAMES)):
        m = g["meld"][team, rank]
        if m.sum():
            kind = RANK_KIND[rank]
            cards = ([KIND_NAMES[kind]] * int(m[M_NAT]) if kind >= 0 else []) \
                + ["2"] * int(m[M_TWO]) + ["JK"] * int(m[M_JOKER])
            melds.append({"rank": RANK_NAMES[rank], "cards": cards})
    books = {name: int(g["books"][team, i]) for name, i in BOOK_TYPES.items()}
    closed = {RANK_NAMES[r]: int(n) for r, n in enumerate(g["rank_books"][team]) if n}
    return {"opened": bool(g["opened"][team]), "open_turn": int(g["open_turn"][team]),
            "pickups": int(g["pickups"][team]),
            "melds": melds, "books": books, "closed_books_by_rank": closed,
            "cards_in_books": card_names(g["booked"][team]), "red3": int(g["red3"][team])}
