"""A position typed by a person at the table (docs/positions.md, "A position typed by hand"):
a short TOML file with what a player can see and remembers (own hand, own Foot picked up or
not, each side's melds and books, the pile's top and size, every other seat's card count, the
scores), turned into a view file's fields (``typed_view``) with the rest filled in as the rules
imply, then read and checked like any view (``reading.position_from_dict``).

What a person cannot know is filled in, and the docs say how: the cards under the pile's top
are naturals spread over the unseen ranks (no one remembers them; a search treats them as the
pile's cards); a Foot not picked up holds the rules' Foot size; the stock holds the rest; the
seat before the asker discarded the pile's top; everybody has had a first turn."""

from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from sim.core.cards import JOKER, KIND_INDEX, KIND_NAMES, N_KINDS, RED3, TWO, deck_counts
from sim.core.enums import Decision
from sim.core.profiles import load_rules
from sim.core.rules import Rules, RulesError
from sim.play.positions.schema import FORMAT, PositionError

FOOT_STATES = ("picked up", "not picked up")
BOOK_KINDS = ("clean", "dirty", "wild", "black3")
TOP_LEVEL = {"rules", "seat", "deal", "turn", "decision", "scores", "hand", "foot", "pile",
             "others", "us", "them"}
SIDE_KEYS = {"melds", "books", "red_threes"}


def is_typed(path: Path) -> bool:
    """A typed position is a TOML file; a written one (``position from-trace``) is JSON."""
    return Path(path).suffix.lower() == ".toml"


def read_typed(path: Path) -> dict:
    """The view-file fields of the typed position at ``path`` (one-line PositionError; the
    view reader's, about a partnership's melds and books, say ``us`` and ``them`` as the
    file does: ``side_names``)."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionError(f"{path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"cannot read {path}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PositionError(f"{path} is not valid TOML: {exc}") from None
    return typed_view(data)


def side_names(view: dict) -> dict[str, str]:
    """The view reader's names of the partnerships' fields ("teams[1].") and the typed file's
    ("us.", "them."), for its messages."""
    teams = len(view["teams"])
    mine = view["seat"] % teams
    out = {}
    for t in range(teams):
        i = (t - mine) % teams
        out[f"teams[{t}]."] = "us." if i == 0 else ("them." if teams == 2 else f"them[{i - 1}].")
    return out


def _need(data: dict, key: str, kind: type, where: str = ""):
    if key not in data:
        raise PositionError(f"{where}{key}: missing")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PositionError(f"{where}{key}: must be a whole number (got {value!r})")
    if kind is not int and not isinstance(value, kind):
        raise PositionError(f"{where}{key}: has the wrong type ({type(value).__name__})")
    return value


def _cards(text, field: str) -> list[str]:
    """Cards as written on the table: names separated by spaces or commas ("K K 2 JK")."""
    if isinstance(text, list):
        text = " ".join(str(t) for t in text)
    if not isinstance(text, str):
        raise PositionError(f"{field}: write the cards as text, e.g. \"K K 2\"")
    names = [c.upper() for c in text.replace(",", " ").split()]
    names = ["JK" if c in ("JOKER", "JK") else c for c in names]
    for card in names:
        if card not in KIND_INDEX:
            raise PositionError(f"{field}: unknown card {card!r} (cards are "
                                f"{' '.join(KIND_NAMES)})")
    return names


def _foot(value, field: str) -> bool:
    """True when the Foot has been picked up."""
    if value not in FOOT_STATES:
        raise PositionError(f"{field}: must be \"picked up\" or \"not picked up\" "
                            f"(got {value!r})")
    return value == "picked up"


def typed_view(data: dict) -> dict:
    """A view file's fields from a typed position's; refuses, in one line naming the field,
    what a position cannot hold (the view reader checks the rest: the shoe, the melds)."""
    unknown = sorted(set(data) - TOP_LEVEL)
    if unknown:
        raise PositionError(f"{unknown[0]}: not a field of a typed position (fields: "
                            f"{', '.join(sorted(TOP_LEVEL))})")
    spec = _need(data, "rules", str)
    try:
        rules = load_rules(spec)
    except RulesError as exc:
        raise PositionError(f"rules: {exc}") from None
    players, teams = rules.players, rules.partnerships
    seat = data.get("seat", 0)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise PositionError(f"seat: {seat!r} is not a seat of a {players}-player game")
    deal = _need(data, "deal", int)
    decision = data.get("decision", "pick-up")
    if decision not in Decision.words:
        raise PositionError(f"decision: must be one of {', '.join(Decision.words)} "
                            f"(got {decision!r})")
    turn = data.get("turn", players + 1)
    if isinstance(turn, bool) or not isinstance(turn, int) or turn <= players:
        raise PositionError(f"turn: must be a whole number above {players} (every seat has "
                            f"had a turn; got {turn!r})")
    hand = _cards(_need(data, "hand", (str, list)), "hand")
    on_foot = [False] * players
    on_foot[seat] = _foot(_need(data, "foot", str), "foot")
    others = _others(_need(data, "others", list), seat, players, on_foot)
    scores = _scores(_need(data, "scores", list), teams)
    sides = _sides(data, teams)
    pile = _need(data, "pile", dict, "")
    top = _cards(_need(pile, "top", str, "pile."), "pile.top")
    size = _need(pile, "size", int, "pile.")
    if len(top) != 1:
        raise PositionError(f"pile.top: one card (got {len(top)})")
    if size < 1:
        raise PositionError(f"pile.size: at least 1 when a top card is given (got {size})")
    mine = seat % teams
    team_entries = [sides[(t - mine) % teams] for t in range(teams)]
    seen = _seen(hand, top, team_entries)
    under = _under_pile(rules, seen, size - 1)
    hidden = {s: n for s, n in others.items()}
    foot_hidden = [0 if on_foot[s] else rules.foot_size for s in range(players)]
    unseen_total = int(deck_counts(rules.decks, rules.jokers_per_deck).sum()) - len(hand) \
        - size - sum(len(c) for e in team_entries for c in _entry_cards(e))
    stock = unseen_total - sum(hidden.values()) - sum(foot_hidden)
    if stock < 0:
        raise PositionError(f"others: {sum(hidden.values())} cards in other hands and "
                            f"{sum(foot_hidden)} in Feet not picked up are more than the "
                            f"{unseen_total} cards nobody at the table can see")
    last = [None] * players
    last[(seat - 1) % players] = top[0]
    return {
        "format": FORMAT, "kind": "view", "seat": seat, "profile": spec,
        "rules": rules.to_dict(), "seed": 0, "game": 0, "deal": deal,
        "dealer": (seat - turn) % players, "turn": turn, "to_play": seat,
        "decision": decision, "decider": seat, "asked": False, "granted": False,
        "picked_up": False, "want_out": False,
        "game_scores": [scores[(t - mine) % teams] for t in range(teams)],
        "on_foot": on_foot, "first_turn_done": [True] * players,
        "foot_turn": [1 if f else -1 for f in on_foot], "last_discard": last,
        "hands": [hand if s == seat else {"count": hidden[s]} for s in range(players)],
        "feet": [None if on_foot[s] else {"count": rules.foot_size} for s in range(players)],
        "stock": {"count": stock}, "pile": under + top, "set_aside": [],
        "taken": [[] for _ in range(players)], "known": [[] for _ in range(players)],
        "teams": [_team(e) for e in team_entries],
        "lines_laid": sum(len(e["melds"]) + len(e["books"]) for e in team_entries),
    }


def _others(rows: list, seat: int, players: int, on_foot: list[bool]) -> dict[int, int]:
    """Each other seat's card count, in order of play after the asker; marks their Feet."""
    if len(rows) != players - 1:
        raise PositionError(f"others: {len(rows)} entries for the {players - 1} other seats "
                            "(one per seat, in order of play after yours)")
    out = {}
    for i, row in enumerate(rows):
        where = f"others[{i}]."
        if not isinstance(row, dict):
            raise PositionError(f"others[{i}]: write {{ cards = 9, foot = \"not picked up\" }}")
        s = (seat + 1 + i) % players
        out[s] = _need(row, "cards", int, where)
        if out[s] < 0:
            raise PositionError(f"{where}cards: a seat holds no fewer than 0 cards")
        on_foot[s] = _foot(_need(row, "foot", str, where), f"{where}foot")
        if out[s] == 0 and not on_foot[s]:
            raise PositionError(f"{where}cards: a seat with no cards has picked up its Foot")
    return out


def _scores(scores: list, teams: int) -> list[int]:
    if len(scores) != teams or not all(isinstance(v, int) and not isinstance(v, bool)
                                       for v in scores):
        raise PositionError(f"scores: {teams} whole numbers, your side's first (got "
                            f"{scores!r})")
    return scores


def _sides(data: dict, teams: int) -> list[dict]:
    """The partnerships' tables, the asker's first: ``us`` and ``them`` (a table for one other
    side, an array of tables for more, in order of play)."""
    us = data.get("us", {})
    them = data.get("them", [] if teams > 2 else {})
    them = [them] if isinstance(them, dict) else them
    if not isinstance(us, dict) or not isinstance(them, list):
        raise PositionError("us, them: tables of melds, books and red_threes")
    if len(them) != teams - 1:
        raise PositionError(f"them: {len(them)} other sides for the {teams - 1} of these "
                            "rules (an array of tables, [[them]], for more than one)")
    return [_side(s, name) for s, name in zip([us, *them], ["us", *(
        "them" if teams == 2 else f"them[{i}]" for i in range(teams - 1))], strict=True)]


def _side(side: dict, name: str) -> dict:
    if not isinstance(side, dict):
        raise PositionError(f"{name}: a table of melds, books and red_threes")
    unknown = sorted(set(side) - SIDE_KEYS)
    if unknown:
        raise PositionError(f"{name}.{unknown[0]}: not a field (fields: melds, books, "
                            "red_threes)")
    melds = [_cards(m, f"{name}.melds[{i}]") for i, m in enumerate(side.get("melds", []))]
    for i, cards in enumerate(melds):
        if len({c for c in cards if c not in ("2", "JK")}) > 1:
            raise PositionError(f"{name}.melds[{i}]: cards of more than one rank in a meld "
                                f"({' '.join(cards)})")
    books = [_book(b, f"{name}.books[{i}]") for i, b in enumerate(side.get("books", []))]
    red = side.get("red_threes", 0)
    if isinstance(red, bool) or not isinstance(red, int) or red < 0:
        raise PositionError(f"{name}.red_threes: a whole number (got {red!r})")
    return {"melds": melds, "books": books, "red3": red}


def _book(text, field: str) -> tuple[str, list[str]]:
    """A closed book as written: its cards ("K K K K K 2 2"), or its kind and rank ("clean K",
    "dirty 7": six naturals and a 2; "wild": seven 2s; "black3": seven black threes)."""
    if not isinstance(text, str):
        raise PositionError(f"{field}: write a book as \"clean K\", \"dirty 7\", \"wild\" or "
                            "its cards")
    words = text.split()
    if words and words[0].lower() in BOOK_KINDS:
        kind = words[0].lower()
        if kind in ("wild", "black3"):
            return kind, ["2" if kind == "wild" else "B3"] * 7
        rank = _cards(" ".join(words[1:]), field)
        if len(rank) != 1 or KIND_INDEX[rank[0]] in (TWO, JOKER, RED3):
            raise PositionError(f"{field}: a {kind} book names one natural rank, e.g. "
                                f"\"{kind} K\"")
        return kind, rank * 7 if kind == "clean" else rank * 6 + ["2"]
    cards = _cards(text, field)
    naturals = sorted({c for c in cards if c not in ("2", "JK")})
    if len(cards) < 7 or len(naturals) > 1:
        raise PositionError(f"{field}: a closed book is 7 or more cards of one rank and "
                            f"wilds (got {text!r})")
    if not naturals:
        return "wild", cards
    if naturals == ["B3"]:
        return "black3", cards
    return ("clean" if len(set(cards)) == 1 else "dirty"), cards


def _entry_cards(entry: dict) -> list[list[str]]:
    return [*entry["melds"], *(cards for _, cards in entry["books"]), ["R3"] * entry["red3"]]


def _seen(hand: list[str], top: list[str], entries: list[dict]) -> np.ndarray:
    seen = np.zeros(N_KINDS, dtype=np.int64)
    for card in [*hand, *top, *(c for e in entries for cards in _entry_cards(e)
                                for c in cards)]:
        seen[KIND_INDEX[card]] += 1
    return seen


def _under_pile(rules: Rules, seen: np.ndarray, n: int) -> list[str]:
    """``n`` cards for under the pile's top: naturals (no wild, no three: a person rarely
    remembers them, and a card that changes who may take the pile is not guessed), spread over
    the ranks as the unseen cards are, the most plentiful first."""
    left = deck_counts(rules.decks, rules.jokers_per_deck).astype(np.int64) - seen
    over = [KIND_NAMES[k] for k in range(N_KINDS) if left[k] < 0]
    if over:
        raise PositionError(f"hand, pile and table: more cards than the shoe holds "
                            f"({', '.join(over)})")
    natural = [k for k in range(N_KINDS) if KIND_NAMES[k] not in ("2", "JK", "R3", "B3")]
    out: list[str] = []
    pool = left.copy()
    while len(out) < n:
        k = max(natural, key=lambda k: (pool[k], -k))
        if pool[k] == 0:
            raise PositionError(f"pile.size: {n + 1} cards in the pile are more than the "
                                "shoe's unseen cards can make")
        out.append(KIND_NAMES[k])
        pool[k] -= 1
    return out


def _team(entry: dict) -> dict:
    """A partnership's view-file table from its typed melds and books."""
    books = {kind: sum(1 for k, _ in entry["books"] if k == kind) for kind in BOOK_KINDS}
    by_rank: dict[str, int] = {}
    for kind, cards in entry["books"]:
        if kind in ("clean", "dirty"):
            rank = next(c for c in cards if c not in ("2", "JK"))
            by_rank[rank] = by_rank.get(rank, 0) + 1
    melds = []
    for cards in entry["melds"]:
        naturals = sorted({c for c in cards if c not in ("2", "JK")})
        melds.append({"rank": naturals[0] if naturals else "W", "cards": cards})
    opened = bool(entry["melds"] or entry["books"])
    return {"opened": opened, "open_turn": 1 if opened else -1, "pickups": 0,
            "melds": melds, "books": books, "closed_books_by_rank": by_rank,
            "cards_in_books": [c for _, cards in entry["books"] for c in cards],
            "red3": entry["red3"]}
