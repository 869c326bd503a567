"""Cutting a position from a trace: the trace's decisions are replayed through the engine
itself, so a position exists only if the engine accepts every move up to it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

import numpy as np

from sim.core.cards import (
    KIND_INDEX,
    KIND_NAMES,
    RANK_INDEX,
    RANK_KIND,
)
from sim.core.enums import NO_DECISION, Decision
from sim.core.profiles import rules_from_knobs
from sim.core.rules import RulesError
from sim.engine.layout import (
    S_DECIDER,
    S_DECISION,
    S_TURN,
    W_ENTRIES,
    W_LINES,
)
from sim.play.positions.schema import PositionError
from sim.play.positions.writing import position_dict


def _entries(melds: list[dict]) -> np.ndarray:
    out = np.zeros((len(melds), 5), dtype=np.int32)
    for i, meld in enumerate(melds):
        rank = RANK_INDEX[meld["rank"]]
        c = Counter(meld["cards"])
        kind = RANK_KIND[rank]
        out[i] = (rank, c[KIND_NAMES[kind]] if kind >= 0 else 0, c["2"], c["JK"],
                  1 if meld.get("book") else 0)
    return out


ENGINE_LINES = {"red3", "foot", "freeze", "restock", "end", "game", "out"}


class _Cursor:
    """The trace lines of one deal, consumed decision by decision."""

    def __init__(self, lines: list[dict]) -> None:
        self.lines = lines
        self.i = 0

    def skip_engine_lines(self) -> None:
        while self.i < len(self.lines) and self.lines[self.i]["type"] in ENGINE_LINES:
            self.i += 1

    def peek(self) -> dict | None:
        self.skip_engine_lines()
        return self.lines[self.i] if self.i < len(self.lines) else None

    def take(self) -> dict:
        line = self.peek()
        if line is None:
            raise PositionError("the trace ends before the position")
        self.i += 1
        return line

    def meld_lines(self, seat: int) -> list[dict]:
        """Consecutive meld lines of ``seat`` (engine lines between them end the run)."""
        out = []
        while self.i < len(self.lines) and self.lines[self.i]["type"] == "meld" \
                and self.lines[self.i]["seat"] == seat:
            out.append(self.lines[self.i])
            self.i += 1
        return out

    def turn_ends_out(self, seat: int) -> bool:
        """From here, this seat's turn ends by going out (melds, maybe a discard, then out)."""
        j = self.i
        while j < len(self.lines):
            kind = self.lines[j]["type"]
            if kind == "out":
                return True
            if kind in ("meld", "red3") or (kind == "discard" and j + 1 < len(
                    self.lines) and self.lines[j + 1]["type"] == "out"):
                j += 1
                continue
            return False
        return False


def _propose_lines(w, melds_lines: list[dict]) -> None:
    w["sc"][W_LINES] = 0
    w["sc"][W_ENTRIES] = 0
    n = 0
    for line in melds_lines:
        entries = _entries(line["melds"])
        w["prop"][n : n + len(entries)] = entries
        n += len(entries)
        w["prop_line_end"][w["sc"][W_LINES]] = n
        w["sc"][W_LINES] += 1
    w["sc"][W_ENTRIES] = n


def _proposal(g, w, cursor: _Cursor, individual: bool) -> int:
    """The trace's answer to the engine's pending decision, put in ``w.prop``."""
    decision = int(g["sc"][S_DECISION])
    seat = int(g["sc"][S_DECIDER])
    _propose_lines(w, [])
    if decision == Decision.PICK_UP:
        line = cursor.take()
        if line["type"] == "draw":
            return 0
        if line["type"] != "pickup":
            raise PositionError(f"trace line {line['type']!r} where seat {seat} draws or "
                                "picks up")
        entries = _entries(line["melds"])
        w["prop"][: len(entries)] = entries
        return len(entries)
    if decision == Decision.MELD:
        cursor.skip_engine_lines()
        if individual and g["on_foot"][seat] and cursor.turn_ends_out(seat):
            return 1  # every meld of the turn goes with the going out
        _propose_lines(w, cursor.meld_lines(seat))
        nxt = cursor.peek()
        return 1 if nxt is not None and nxt["type"] == "ask" and nxt["seat"] == seat else 0
    if decision == Decision.GRANT:
        line = cursor.take()
        if line["type"] != "ask":
            raise PositionError(f"trace line {line['type']!r} where an ask was expected")
        return 1 if line["granted"] else 0
    if decision == Decision.GO_OUT:
        cursor.skip_engine_lines()
        _propose_lines(w, cursor.meld_lines(seat))
        nxt = cursor.peek()
        if nxt is not None and nxt["type"] == "discard" and nxt["seat"] == seat:
            cursor.take()
            return KIND_INDEX[nxt["card"]]
        return -1
    if decision == Decision.DISCARD:
        line = cursor.take()
        if line["type"] != "discard":
            raise PositionError(f"trace line {line['type']!r} where seat {seat} discards")
        return KIND_INDEX[line["card"]]
    raise PositionError("no decision pending")


def deal_lines(lines: Iterable[dict], game: int, deal: int) -> tuple[list[dict], list[int]]:
    """The lines of one deal, and the deal scores of the game's earlier deals, summed."""
    scores: list[int] | None = None
    out: list[dict] = []
    current = None
    for line in lines:
        if line.get("type") == "deal":
            current = (line.get("game"), line.get("deal"))
        if current is None or current[0] != game:
            continue
        if current[1] == deal:
            out.append(line)
        elif current[1] < deal and line.get("type") == "end":
            scores = list(line["scores"]) if scores is None else \
                [a + b for a, b in zip(scores, line["scores"], strict=True)]
    if not out:
        raise PositionError(f"the trace has no game {game}, deal {deal}")
    return out, scores or []


def position_from_trace(lines: Iterable[dict], game: int, deal: int, turn: int,
                        decision: str = "pick-up") -> tuple:
    """The game at turn ``turn`` of a traced deal when its first ``decision`` is pending
    (``pick-up``: the turn's start): (rules, Table).

    The deal is dealt again from the trace's seed (and checked against its deal line), then
    every decision of the trace is handed to the engine, which applies it as in play."""
    from sim.engine.flow import apply_decision, deal_cards, ended, first_turn, next_turn
    from sim.play.api import make_table

    if decision not in Decision.words:
        raise PositionError(f"decision: one of {', '.join(Decision.words)} (got {decision!r})")
    wanted = Decision.words.index(decision)
    mine, earlier = deal_lines(lines, game, deal)
    head = mine[0]
    try:
        rules = rules_from_knobs(head["rules"])
    except RulesError as exc:
        raise PositionError(f"the trace's rules: {exc}") from None
    table = make_table(rules, ["greedy"] * rules.players)
    g, w, t = table.g, table.w, table.t
    for team, total in enumerate(earlier[: rules.partnerships]):
        g["game_score"][team] = total
    deal_cards(g, w, t, int(head["seed"]), game, deal)
    dealt = position_dict(g, rules)
    players = rules.players
    if (dealt["hands"] != [sorted(h, key=KIND_NAMES.index) for h in head["hands"]]
            or dealt["feet"] != [sorted(f, key=KIND_NAMES.index) for f in head["feet"]]
            or dealt["pile"] != head["discard"] or dealt["stock"] != head["stock"]
            or len(head["hands"]) != players):
        raise PositionError("the trace's deal line is not the deal its seed gives "
                            "(a trace of another engine build?)")
    first_turn(g, t)
    cursor = _Cursor(mine[1:])
    individual = rules.individual
    while not ended(g):
        if g["sc"][S_DECISION] == NO_DECISION:
            next_turn(g, t)
            continue
        if int(g["sc"][S_TURN]) == turn and int(g["sc"][S_DECISION]) == wanted:
            return rules, table
        if int(g["sc"][S_TURN]) > turn:
            break
        apply_decision(g, w, t, _proposal(g, w, cursor, individual))
    raise PositionError(f"deal {deal} of game {game} has no {decision} decision in turn "
                        f"{turn} (it ends before, or the turn has none)")
