"""Positions as files: a game at a decision point, as the whole truth or as one seat's view.

The JSON form is documented in docs/positions.md. A *truth* file holds every card where it
lies (other hands, unpicked Feet, the stock in order); a *view* file holds what one seat may
know (its own cards, the table, the pile, cards others are known to hold, and counts of the
rest). Reading either gives a game record the engine can play on: a view's hidden places are
filled with its unseen cards in a fixed order, which a search deals anew in every world anyway.

Positions are cut from traces by replaying the trace's decisions through the engine itself
(``position_from_trace``), so a position exists only if the engine accepts every move up to it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.core.cards import (
    JOKER,
    KIND_INDEX,
    KIND_NAMES,
    N_KINDS,
    RANK_INDEX,
    RANK_KIND,
    RANK_NAMES,
    TWO,
    WILD_RANK,
    deck_counts,
)
from sim.core.profiles import profile_name, rules_from_knobs
from sim.core.rules import Rules, RulesError
from sim.engine.layout import (
    BOOK_BLACK3,
    BOOK_CLEAN,
    BOOK_DIRTY,
    BOOK_WILD,
    D_DISCARD,
    D_GO_OUT,
    D_GRANT,
    D_MELD,
    D_NONE,
    D_PICKUP,
    DECISION_NAMES,
    M_JOKER,
    M_NAT,
    M_TWO,
    S_ASKED,
    S_DEAL,
    S_DEALER,
    S_DECIDER,
    S_DECISION,
    S_ENDED,
    S_FROZEN_N,
    S_GAME,
    S_GRANTED,
    S_LINE,
    S_OUT_SEAT,
    S_PICKED_UP,
    S_PILE_N,
    S_SEAT,
    S_SEED,
    S_STOCK_N,
    S_TURN,
    S_WANT_OUT,
    W_ENTRIES,
    W_LINES,
)

FORMAT = "handfoot-position/1"
BOOK_TYPES = {"clean": BOOK_CLEAN, "dirty": BOOK_DIRTY, "wild": BOOK_WILD, "black3": BOOK_BLACK3}


class PositionError(ValueError):
    """A position file that cannot be a real position; the message names the field."""


# --- writing ------------------------------------------------------------------------------------


def _cards(counts: np.ndarray) -> list[str]:
    return [KIND_NAMES[k] for k in range(N_KINDS) for _ in range(int(counts[k]))]


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
        "decision": DECISION_NAMES[int(sc[S_DECISION])] if sc[S_DECISION] != D_NONE else None,
        "decider": int(sc[S_DECIDER]),
        "asked": bool(sc[S_ASKED]), "granted": bool(sc[S_GRANTED]),
        "picked_up": bool(sc[S_PICKED_UP]), "want_out": bool(sc[S_WANT_OUT]),
        "game_scores": [int(v) for v in g["game_score"][:teams]],
        "on_foot": [bool(v) for v in g["on_foot"][:players]],
        "first_turn_done": [bool(v) for v in g["first_turn_done"][:players]],
        "pile": _seq(g["pile"], int(sc[S_PILE_N])),
        "set_aside": _seq(g["frozen"], int(sc[S_FROZEN_N])),
        "taken": [_cards(g["taken"][s]) for s in range(players)],
        "known": [_cards(g["known"][s]) for s in range(players)],
        "foot_turn": [int(v) for v in g["foot_turn"][:players]],
        "teams": [_team_dict(g, team) for team in range(teams)],
        "lines_laid": int(sc[S_LINE]),
    }
    if view is None:
        out["hands"] = [_cards(g["hand"][s]) for s in range(players)]
        out["feet"] = [None if g["on_foot"][s] else _cards(g["foot"][s])
                       for s in range(players)]
        n = int(sc[S_STOCK_N])
        out["stock"] = _seq(g["stock"][:n][::-1], n)  # the next card drawn first
        out["deal_stream"] = str(int(g["rng"][0]))
    else:
        if not 0 <= view < players:
            raise PositionError(f"seat: {view} is not a seat of a {players}-player game")
        out["seat"] = view
        out["hands"] = [_cards(g["hand"][s]) if s == view else
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
            "cards_in_books": _cards(g["booked"][team]), "red3": int(g["red3"][team])}


def write_position(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


# --- reading ------------------------------------------------------------------------------------


@dataclass
class Position:
    """A position read from a file: its rules, a game record, and whose view it is (None for
    the truth)."""

    rules: Rules
    game: np.ndarray
    view: int | None

    @property
    def g(self):
        return self.game[0]


def _need(data: dict, key: str, kind: type | tuple, where: str = ""):
    field = f"{where}{key}"
    if key not in data:
        raise PositionError(f"{field}: missing")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PositionError(f"{field}: must be a whole number (got {value!r})")
    if kind is not int and not isinstance(value, kind):
        raise PositionError(f"{field}: has the wrong type ({type(value).__name__})")
    return value


def _counts(cards, field: str) -> np.ndarray:
    if not isinstance(cards, list):
        raise PositionError(f"{field}: must be a list of card names")
    out = np.zeros(N_KINDS, dtype=np.int32)
    for card in cards:
        if card not in KIND_INDEX:
            raise PositionError(f"{field}: unknown card {card!r} (cards are "
                                f"{' '.join(KIND_NAMES)})")
        out[KIND_INDEX[card]] += 1
    return out


def _per_seat(data: dict, key: str, players: int) -> list:
    value = _need(data, key, list)
    if len(value) != players:
        raise PositionError(f"{key}: {len(value)} entries for {players} seats")
    return value


def read_position(path: Path) -> Position:
    """A position file, checked: one-line ``PositionError`` naming the field otherwise."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionError(f"{path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PositionError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PositionError(f"{path}: a position is a JSON object")
    return position_from_dict(data)


def position_from_dict(data: dict) -> Position:
    from sim.engine.layout import new_game

    if data.get("format") != FORMAT:
        raise PositionError(f"format: must be \"{FORMAT}\" (got {data.get('format')!r})")
    kind = _need(data, "kind", str)
    if kind not in ("truth", "view"):
        raise PositionError(f"kind: must be \"truth\" or \"view\" (got {kind!r})")
    try:
        rules = rules_from_knobs(_need(data, "rules", dict))
    except RulesError as exc:
        raise PositionError(f"rules: {exc}") from None
    players, teams = rules.players, rules.partnerships
    game = new_game(rules.packed())
    g = game[0]
    sc = g["sc"]
    for key, slot in (("seed", S_SEED), ("game", S_GAME), ("deal", S_DEAL),
                      ("dealer", S_DEALER), ("turn", S_TURN), ("to_play", S_SEAT),
                      ("decider", S_DECIDER), ("lines_laid", S_LINE)):
        sc[slot] = _need(data, key, int)
    if not 1 <= sc[S_DEAL] <= rules.deals_per_game:
        raise PositionError(f"deal: {sc[S_DEAL]} is not a deal of the game (1-4)")
    for key in ("dealer", "to_play", "decider"):
        if not 0 <= data[key] < players:
            raise PositionError(f"{key}: seat {data[key]} is out of range 0..{players - 1}")
    decision = data.get("decision")
    if decision not in DECISION_NAMES:
        raise PositionError(f"decision: must be one of {', '.join(DECISION_NAMES)} "
                            f"(got {decision!r})")
    sc[S_DECISION] = DECISION_NAMES.index(decision)
    for key, slot in (("asked", S_ASKED), ("granted", S_GRANTED), ("picked_up", S_PICKED_UP),
                      ("want_out", S_WANT_OUT)):
        sc[slot] = int(bool(_need(data, key, bool)))
    sc[S_ENDED] = 0
    sc[S_OUT_SEAT] = -1
    scores = _per_seat(data, "game_scores", teams) if teams else []
    g["game_score"][:teams] = scores
    for s, flag in enumerate(_per_seat(data, "on_foot", players)):
        g["on_foot"][s] = int(bool(flag))
    for s, flag in enumerate(_per_seat(data, "first_turn_done", players)):
        g["first_turn_done"][s] = int(bool(flag))
    for s, turn in enumerate(_per_seat(data, "foot_turn", players)):
        g["foot_turn"][s] = turn
    pile = _counts(_need(data, "pile", list), "pile")
    g["pile"][: len(data["pile"])] = [KIND_INDEX[c] for c in data["pile"]]
    sc[S_PILE_N] = len(data["pile"])
    g["frozen"][: len(data["set_aside"])] = [KIND_INDEX[c] for c in
                                             _need(data, "set_aside", list)]
    sc[S_FROZEN_N] = len(data["set_aside"])
    seen = pile + _counts(data["set_aside"], "set_aside")
    for s, cards in enumerate(_per_seat(data, "taken", players)):
        g["taken"][s] = _counts(cards, f"taken[{s}]")
    for s, cards in enumerate(_per_seat(data, "known", players)):
        g["known"][s] = _counts(cards, f"known[{s}]")
    for team, entry in enumerate(_per_seat(data, "teams", teams)):
        seen += _read_team(g, team, entry, rules)
    view = data.get("seat") if kind == "view" else None
    hidden = _read_hands(g, data, kind, view, players)
    deck = deck_counts(rules.decks, rules.jokers_per_deck)
    g["deck"] = deck
    total = seen + hidden[0]
    if kind == "truth":
        over = [KIND_NAMES[k] for k in range(N_KINDS) if total[k] != deck[k]]
        if over:
            raise PositionError(f"hands, feet, stock, pile and table: the cards do not add up "
                                f"to the shoe ({', '.join(over)} wrong)")
        sc[S_STOCK_N] = len(data["stock"])
        g["rng"][0] = int(_need(data, "deal_stream", str))
    else:
        _fill_hidden(g, data, view, players, deck - total, hidden[1])
    if not g["hand"][: players].any() and not g["foot"][:players].any():
        raise PositionError("hands: nobody holds a card")
    return Position(rules, game, view)


def _read_team(g, team: int, entry: dict, rules: Rules) -> np.ndarray:
    from sim.core.cards import BLACK3_RANK

    where = f"teams[{team}]."
    seen = np.zeros(N_KINDS, dtype=np.int32)
    g["opened"][team] = int(bool(_need(entry, "opened", bool, where)))
    g["open_turn"][team] = _need(entry, "open_turn", int, where)
    g["pickups"][team] = _need(entry, "pickups", int, where)
    g["red3"][team] = _need(entry, "red3", int, where)
    seen[KIND_INDEX["R3"]] += g["red3"][team]
    value = 0
    for i, meld in enumerate(_need(entry, "melds", list, where)):
        rank_name = meld.get("rank") if isinstance(meld, dict) else None
        if rank_name not in RANK_INDEX:
            raise PositionError(f"{where}melds[{i}].rank: unknown rank {rank_name!r}")
        rank = RANK_INDEX[rank_name]
        c = _counts(meld.get("cards"), f"{where}melds[{i}].cards")
        kind = RANK_KIND[rank]
        nat = int(c[kind]) if kind >= 0 else 0
        wilds = int(c[TWO] + c[JOKER])
        if nat + wilds != int(c.sum()):
            raise PositionError(f"{where}melds[{i}]: cards of another rank in a meld of "
                                f"{rank_name}")
        if rank != WILD_RANK and wilds and not _ratio_ok(rules, nat, wilds):
            raise PositionError(f"{where}melds[{i}]: {nat} naturals and {wilds} wilds break "
                                f"the wild ratio ({rules.wild_ratio})")
        if nat + wilds < 3 or (rules.books != "grow" and nat + wilds >= 7):
            raise PositionError(f"{where}melds[{i}]: an unfinished meld holds 3-6 cards "
                                f"(got {nat + wilds})")
        g["meld"][team, rank] = (nat, c[TWO], c[JOKER])
        seen += c
        value += (-5 * nat if rank == BLACK3_RANK else nat * _card_value(kind)) \
            + 20 * int(c[TWO]) + 50 * int(c[JOKER])
    books = _need(entry, "books", dict, where)
    for name, i in BOOK_TYPES.items():
        g["books"][team, i] = _need(books, name, int, f"{where}books.")
    for rank_name, n in _need(entry, "closed_books_by_rank", dict, where).items():
        if rank_name not in RANK_INDEX:
            raise PositionError(f"{where}closed_books_by_rank: unknown rank {rank_name!r}")
        g["rank_books"][team, RANK_INDEX[rank_name]] = n
    booked = _counts(_need(entry, "cards_in_books", list, where), f"{where}cards_in_books")
    if rules.books != "grow" and booked.sum() < 7 * g["books"][team].sum():
        raise PositionError(f"{where}cards_in_books: {booked.sum()} cards cannot make "
                            f"{g['books'][team].sum()} books")
    g["booked"][team] = booked
    seen += booked
    for k in range(N_KINDS):
        value += int(booked[k]) * (-5 if KIND_NAMES[k] == "B3" else _card_value(k))
    g["melded_value"][team] = value
    return seen


def _card_value(kind: int) -> int:
    from sim.core.cards import CARD_VALUE

    return int(CARD_VALUE[kind])


def _ratio_ok(rules: Rules, naturals: int, wilds: int) -> bool:
    if rules.max_wilds_per_meld and wilds > rules.max_wilds_per_meld:
        return False
    return naturals >= 2 * wilds if rules.wild_ratio == "double" else naturals > wilds


def _read_hands(g, data: dict, kind: str, view, players: int) -> tuple[np.ndarray, dict]:
    """Visible held cards (all of them in a truth file) and, for a view, the hidden counts."""
    total = np.zeros(N_KINDS, dtype=np.int32)
    counts: dict = {"hands": [], "feet": [], "stock": 0}
    hands = _per_seat(data, "hands", players)
    feet = _per_seat(data, "feet", players)
    if kind == "view" and (not isinstance(view, int) or not 0 <= view < players):
        raise PositionError(f"seat: {view!r} is not a seat of a {players}-player game")
    for s in range(players):
        if kind == "truth" or s == view:
            c = _counts(hands[s], f"hands[{s}]")
            g["hand"][s] = c
            total += c
            counts["hands"].append(0)
        else:
            n = _need(hands[s], "count", int, f"hands[{s}].") if isinstance(hands[s], dict) \
                else None
            if n is None:
                raise PositionError(f"hands[{s}]: a view holds only the count of another hand")
            known = g["known"][s]
            if known.sum() > n:
                raise PositionError(f"known[{s}]: more known cards than the hand holds")
            g["hand"][s] = known
            total += known
            counts["hands"].append(n - int(known.sum()))
        if bool(g["on_foot"][s]) != (feet[s] is None):
            raise PositionError(f"feet[{s}]: must be null exactly when on_foot[{s}] is true")
        if feet[s] is None:
            counts["feet"].append(0)
        elif kind == "truth":
            c = _counts(feet[s], f"feet[{s}]")
            g["foot"][s] = c
            total += c
            counts["feet"].append(0)
        else:
            counts["feet"].append(_need(feet[s], "count", int, f"feet[{s}]."))
    if kind == "truth":
        stock = _counts(_need(data, "stock", list), "stock")
        total += stock
        g["stock"][: len(data["stock"])] = [KIND_INDEX[c] for c in reversed(data["stock"])]
    else:
        counts["stock"] = _need(_need(data, "stock", dict), "count", int, "stock.")
    return total, counts


def _fill_hidden(g, data: dict, view: int, players: int, unseen: np.ndarray,
                 counts: dict) -> None:
    """Put a view's unseen cards in the hidden places, in kind order (a search re-deals
    them): they must fill exactly the hidden counts."""
    if (unseen < 0).any():
        wrong = [KIND_NAMES[k] for k in range(N_KINDS) if unseen[k] < 0]
        raise PositionError(f"hands, pile and table: more cards than the shoe holds "
                            f"({', '.join(wrong)})")
    places = sum(counts["hands"]) + sum(counts["feet"]) + counts["stock"]
    if places != int(unseen.sum()):
        raise PositionError(f"hands, feet and stock counts: {places} hidden places for "
                            f"{int(unseen.sum())} unseen cards of the shoe")
    pool = iter(_cards(unseen))
    for s in range(players):
        for _ in range(counts["hands"][s]):
            g["hand"][s, KIND_INDEX[next(pool)]] += 1
        for _ in range(counts["feet"][s]):
            g["foot"][s, KIND_INDEX[next(pool)]] += 1
    stock = [KIND_INDEX[c] for c in pool]
    g["stock"][: len(stock)] = stock
    g["sc"][S_STOCK_N] = len(stock)


# --- cutting positions from traces ---------------------------------------------------------------


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
    if decision == D_PICKUP:
        line = cursor.take()
        if line["type"] == "draw":
            return 0
        if line["type"] != "pickup":
            raise PositionError(f"trace line {line['type']!r} where seat {seat} draws or "
                                "picks up")
        entries = _entries(line["melds"])
        w["prop"][: len(entries)] = entries
        return len(entries)
    if decision == D_MELD:
        cursor.skip_engine_lines()
        if individual and g["on_foot"][seat] and cursor.turn_ends_out(seat):
            return 1  # every meld of the turn goes with the going out
        _propose_lines(w, cursor.meld_lines(seat))
        nxt = cursor.peek()
        return 1 if nxt is not None and nxt["type"] == "ask" and nxt["seat"] == seat else 0
    if decision == D_GRANT:
        line = cursor.take()
        if line["type"] != "ask":
            raise PositionError(f"trace line {line['type']!r} where an ask was expected")
        return 1 if line["granted"] else 0
    if decision == D_GO_OUT:
        cursor.skip_engine_lines()
        _propose_lines(w, cursor.meld_lines(seat))
        nxt = cursor.peek()
        if nxt is not None and nxt["type"] == "discard" and nxt["seat"] == seat:
            cursor.take()
            return KIND_INDEX[nxt["card"]]
        return -1
    if decision == D_DISCARD:
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

    if decision not in DECISION_NAMES:
        raise PositionError(f"decision: one of {', '.join(DECISION_NAMES)} (got {decision!r})")
    wanted = DECISION_NAMES.index(decision)
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
        if g["sc"][S_DECISION] == D_NONE:
            next_turn(g, t)
            continue
        if int(g["sc"][S_TURN]) == turn and int(g["sc"][S_DECISION]) == wanted:
            return rules, table
        if int(g["sc"][S_TURN]) > turn:
            break
        apply_decision(g, w, t, _proposal(g, w, cursor, individual))
    raise PositionError(f"deal {deal} of game {game} has no {decision} decision in turn "
                        f"{turn} (it ends before, or the turn has none)")


def read_trace(path: Path) -> Iterator[dict]:
    try:
        handle = Path(path).open(encoding="utf-8")
    except OSError as exc:
        raise PositionError(f"cannot read trace {path}: {exc.strerror}") from None
    with handle:
        for number, text in enumerate(handle, 1):
            if text.strip():
                try:
                    yield json.loads(text)
                except json.JSONDecodeError as exc:
                    raise PositionError(f"{path}:{number}: not JSON ({exc.msg})") from None
