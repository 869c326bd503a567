"""The rule set as data: a typed, validated ``Rules`` and its packed int32 form for numba.

One compiled engine serves every rule set because the engine reads these knobs from an int32
array at run time (DESIGN.md). Field names are the public knob names: they appear in traces
(TRACE.md ``rules``), in ``handfoot rules show`` and in rule files, so keep them stable.
Every knob of RULES.md section 11 is here, with the standard profile's value as default.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field, fields

import numpy as np

from sim import cards

MAX_SEATS = 6
MAX_TEAMS = 6

# Indices into the packed int32 rules array read by the numba engine.
R_PLAYERS = 0
R_PARTNERSHIPS = 1
R_DECKS = 2
R_JOKERS_PER_DECK = 3
R_HAND_SIZE = 4
R_FOOT_SIZE = 5
R_OPEN_MIN = 6  # 4 slots, one per deal (R-O1)
R_DEALS = 10
R_PICKUP_SIZE = 11
R_MAX_MELD = 12  # 7, or a large number where books grow
R_CLEAN_BONUS = 13
R_DIRTY_BONUS = 14
R_WILD_BONUS = 15
R_RED3_BONUS = 16
R_RED3_PENALTY = 17
R_OUT_BONUS = 18
R_OUT_CLEAN = 19  # 4 slots, one per deal
R_OUT_DIRTY = 23  # 4 slots
R_OUT_WILD = 27  # 4 slots
R_TOTAL_CARDS = 31
R_CONCEALED_DEAL4 = 32
R_STARTING_CARD = 33  # STARTING_* codes
R_PICKUP_RULE = 34  # PICKUP_* codes
R_WILD_TOP_PICKUP = 35
R_WILD_RATIO = 36  # RATIO_* codes
R_MAX_WILDS = 37  # 0: no cap beyond the ratio
R_BOOKS = 38  # BOOKS_* codes
R_WILD_MELDS = 39
R_BLACK3_MELDS = 40
R_RED3_RULE = 41  # RED3_* codes
R_FINAL_DISCARD = 42
R_PARTNER_FOOT = 43
R_WILD_DISCARD = 44  # WILD_DISCARD_* codes
R_GRAB22_BONUS = 45
R_GRAB22_PPM = 46  # chance in parts per million
N_RULE_SLOTS = 48

STARTING_BURY, STARTING_KEEP, STARTING_NONE = 0, 1, 2
PICKUP_TOP, PICKUP_WHOLE, PICKUP_EXACT = 0, 1, 2
RATIO_DOUBLE, RATIO_MORE = 0, 1
BOOKS_CLOSED, BOOKS_GROW, BOOKS_NATURALS = 0, 1, 2
RED3_EXPOSE, RED3_DISCARD = 0, 1
WILD_DISCARD_PAIR, WILD_DISCARD_FREEZE = 0, 1

CHOICES: dict[str, tuple[str, ...]] = {
    "starting_card": ("bury", "keep", "none"),
    "pickup_rule": ("top", "whole", "exact"),
    "wild_ratio": ("double", "more"),
    "books": ("closed", "grow", "naturals"),
    "red3_rule": ("expose", "discard"),
    "wild_discard": ("pair", "freeze"),
}
GROWING_CAP = 1000  # "no size cap": larger than any meld can get


class RulesError(ValueError):
    """A rule set that cannot be played; the message names the knob and the reason."""


def _knob(default, doc: str):
    return field(default=default, metadata={"doc": doc})


@dataclass(frozen=True)
class Rules:
    """Every knob of the game. Defaults are the ``standard`` profile (RULES.md sections 1-10)."""

    players: int = _knob(4, "number of players, 2-6 (R-D1)")
    partnerships: int = _knob(2, "partnerships; seat s plays for s mod this; = players: "
                                 "individual play (R-D1, R-V2)")
    decks: int = _knob(5, "54-card decks in the shoe (R-C1, R-V1)")
    jokers_per_deck: int = _knob(2, "jokers in each deck (R-C1)")
    hand_size: int = _knob(13, "cards in each Hand (R-D2)")
    foot_size: int = _knob(13, "cards in each Foot (R-D2)")
    deals_per_game: int = _knob(4, "deals in a game (R-D5)")
    opening_minimums: tuple[int, int, int, int] = _knob(
        (50, 90, 120, 150), "points a partnership's first melds need in deals 1-4 (R-O1)")
    deal4_concealed_book: bool = _knob(
        False, "deal 4 opens with a concealed book instead of points (R-V5)")
    starting_card: str = _knob(
        "bury", "a starting red three or wild: bury, keep (left in the pile), none (no "
                "starting card; R-D3, R-V10)")
    pickup_size: int = _knob(7, "cards taken from the top of the discard pile (R-PU)")
    pickup_rule: str = _knob(
        "top", "top: top pickup_size (all if fewer); whole: the whole pile; exact: exactly "
               "pickup_size, only when the pile holds that many")
    wild_top_pickup: bool = _knob(True, "a two or joker on top may be taken with a pair of it "
                                        "(R-PU2)")
    wild_ratio: str = _knob("double", "double: naturals >= 2 x wilds (R-M3); more: naturals > "
                                      "wilds")
    max_wilds_per_meld: int = _knob(0, "hard cap on wilds in a meld; 0: only the ratio limits")
    books: str = _knob("closed", "closed: melds stop at 7 (R-M6); grow: one meld per rank, a "
                                 "book at 7 that keeps growing (R-V3); naturals: completed "
                                 "books accept more naturals (R-V4)")
    wild_melds: bool = _knob(True, "melds of wilds only are allowed (R-M4)")
    black3_melds: bool = _knob(False, "black threes may form melds, no wilds, -5 each (R-V7)")
    red3_rule: str = _knob("expose", "expose: exposed and replaced (R-T3); discard: held and "
                                     "discarded as soon as possible (R-V6)")
    red3_bonus: int = _knob(100, "per red three exposed (R-S3)")
    red3_penalty: int = _knob(100, "per red three left in a Hand or Foot (R-S3, R-V6)")
    clean_book_bonus: int = _knob(500, "bonus per clean book (R-S4)")
    dirty_book_bonus: int = _knob(300, "bonus per dirty book (R-S4)")
    wild_book_bonus: int = _knob(1500, "bonus per wild book (R-S4)")
    going_out_bonus: int = _knob(100, "for going out (R-S5)")
    out_clean_books: tuple[int, int, int, int] = _knob(
        (2, 2, 2, 2), "clean books needed to go out, deals 1-4 (R-G1)")
    out_dirty_books: tuple[int, int, int, int] = _knob(
        (2, 2, 2, 2), "dirty books needed to go out, deals 1-4 (R-G1)")
    out_wild_books: tuple[int, int, int, int] = _knob(
        (1, 1, 1, 1), "wild books needed to go out, deals 1-4 (R-G1)")
    final_discard_required: bool = _knob(False, "going out must end with a discard (R-G3)")
    partner_foot_required: bool = _knob(
        True, "partners must have picked up their Foot before going out (R-G2, R-V9)")
    wild_discard: str = _knob("pair", "pair: a discarded wild needs a pair of it (R-T5); "
                                      "freeze: it sets the pile aside (R-V8)")
    grab22_bonus: int = _knob(0, "bonus for grabbing exactly 22 cards when self-dealing "
                                 "(R-V11)")
    grab22_chance: float = _knob(0.0, "chance per player and deal of that grab (R-V11)")

    def __post_init__(self) -> None:
        validate(self)

    @property
    def total_cards(self) -> int:
        return int(cards.deck_counts(self.decks, self.jokers_per_deck).sum())

    @property
    def individual(self) -> bool:
        return self.partnerships == self.players

    def to_dict(self) -> dict:
        """Knob names and values, as traces and ``rules show`` print them."""
        out = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @property
    def rules_id(self) -> str:
        """A stable short hash of the resolved knobs, echoed by every output."""
        blob = json.dumps(self.to_dict(), sort_keys=True).encode()
        return hashlib.sha256(blob).hexdigest()[:12]

    def packed(self) -> np.ndarray:
        """The int32 array the numba engine reads (indices ``R_*`` above)."""
        arr = np.zeros(N_RULE_SLOTS, dtype=np.int32)
        arr[R_PLAYERS] = self.players
        arr[R_PARTNERSHIPS] = self.partnerships
        arr[R_DECKS] = self.decks
        arr[R_JOKERS_PER_DECK] = self.jokers_per_deck
        arr[R_HAND_SIZE] = self.hand_size
        arr[R_FOOT_SIZE] = self.foot_size
        arr[R_OPEN_MIN : R_OPEN_MIN + 4] = self.opening_minimums
        arr[R_DEALS] = self.deals_per_game
        arr[R_PICKUP_SIZE] = self.pickup_size
        arr[R_MAX_MELD] = GROWING_CAP if self.books == "grow" else 7
        arr[R_CLEAN_BONUS] = self.clean_book_bonus
        arr[R_DIRTY_BONUS] = self.dirty_book_bonus
        arr[R_WILD_BONUS] = self.wild_book_bonus
        arr[R_RED3_BONUS] = self.red3_bonus
        arr[R_RED3_PENALTY] = self.red3_penalty
        arr[R_OUT_BONUS] = self.going_out_bonus
        arr[R_OUT_CLEAN : R_OUT_CLEAN + 4] = self.out_clean_books
        arr[R_OUT_DIRTY : R_OUT_DIRTY + 4] = self.out_dirty_books
        arr[R_OUT_WILD : R_OUT_WILD + 4] = self.out_wild_books
        arr[R_TOTAL_CARDS] = self.total_cards
        arr[R_CONCEALED_DEAL4] = int(self.deal4_concealed_book)
        arr[R_STARTING_CARD] = CHOICES["starting_card"].index(self.starting_card)
        arr[R_PICKUP_RULE] = CHOICES["pickup_rule"].index(self.pickup_rule)
        arr[R_WILD_TOP_PICKUP] = int(self.wild_top_pickup)
        arr[R_WILD_RATIO] = CHOICES["wild_ratio"].index(self.wild_ratio)
        arr[R_MAX_WILDS] = self.max_wilds_per_meld
        arr[R_BOOKS] = CHOICES["books"].index(self.books)
        arr[R_WILD_MELDS] = int(self.wild_melds)
        arr[R_BLACK3_MELDS] = int(self.black3_melds)
        arr[R_RED3_RULE] = CHOICES["red3_rule"].index(self.red3_rule)
        arr[R_FINAL_DISCARD] = int(self.final_discard_required)
        arr[R_PARTNER_FOOT] = int(self.partner_foot_required)
        arr[R_WILD_DISCARD] = CHOICES["wild_discard"].index(self.wild_discard)
        arr[R_GRAB22_BONUS] = self.grab22_bonus
        arr[R_GRAB22_PPM] = round(self.grab22_chance * 1_000_000)
        return arr


def _fail(knob: str, reason: str) -> None:
    raise RulesError(f"rule '{knob}': {reason}")


def _require(ok: bool, knob: str, reason: str) -> None:
    if not ok:
        _fail(knob, reason)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_types(rules: Rules) -> None:
    for f in fields(rules):
        value = getattr(rules, f.name)
        default = f.default
        if isinstance(default, tuple):
            _require(isinstance(value, tuple) and len(value) == len(default) and all(
                _is_int(v) for v in value), f.name,
                f"must be a list of {len(default)} integers, one per deal (got {value!r})")
        elif isinstance(default, bool):
            _require(isinstance(value, bool), f.name, f"must be true or false (got {value!r})")
        elif isinstance(default, int):
            _require(_is_int(value), f.name, f"must be an integer (got {value!r})")
        elif isinstance(default, float):
            _require(isinstance(value, int | float) and not isinstance(value, bool), f.name,
                     f"must be a number (got {value!r})")
        elif isinstance(default, str):
            choices = CHOICES[f.name]
            _require(value in choices, f.name,
                     f"must be one of {', '.join(choices)} (got {value!r})")


def _check_ranges(rules: Rules) -> None:
    ranges = {
        "players": (2, MAX_SEATS), "partnerships": (2, MAX_TEAMS), "decks": (1, 8),
        "jokers_per_deck": (0, 4), "hand_size": (1, 30), "foot_size": (1, 30),
        "deals_per_game": (4, 4), "pickup_size": (1, 50), "max_wilds_per_meld": (0, 10),
        "red3_bonus": (0, 10_000), "red3_penalty": (0, 10_000),
        "clean_book_bonus": (0, 100_000), "dirty_book_bonus": (0, 100_000),
        "wild_book_bonus": (0, 100_000), "going_out_bonus": (0, 100_000),
        "grab22_bonus": (0, 100_000),
    }
    for knob, (low, high) in ranges.items():
        value = getattr(rules, knob)
        _require(low <= value <= high, knob, f"{value} is outside {low}..{high}")
    for knob in ("opening_minimums", "out_clean_books", "out_dirty_books", "out_wild_books"):
        for value in getattr(rules, knob):
            _require(0 <= value <= 10_000 if knob == "opening_minimums" else 0 <= value <= 20,
                     knob, f"{value} is out of range")
    _require(0.0 <= rules.grab22_chance <= 1.0, "grab22_chance", "must be in 0..1")


def _check_coherence(rules: Rules) -> None:
    players, teams = rules.players, rules.partnerships
    _require(teams <= players, "partnerships", f"{teams} partnerships for {players} players")
    _require(players % teams == 0, "partnerships",
             f"{teams} partnerships do not divide {players} players")
    _require(teams == players or players // teams in (2, 3), "partnerships",
             "partnerships hold 2 or 3 players (or play individually)")
    needed = players * (rules.hand_size + rules.foot_size) + 1
    _require(needed <= rules.total_cards, "decks",
             f"{rules.total_cards} cards cannot deal {players} x ({rules.hand_size} + "
             f"{rules.foot_size}) + 1 = {needed}")
    if not rules.wild_melds:
        _require(max(rules.out_wild_books) == 0, "out_wild_books",
                 "wild books are required to go out while wild_melds is false")
    deck = cards.deck_counts(rules.decks, rules.jokers_per_deck)
    naturals = int(deck[: cards.N_NATURALS].sum())
    wilds = int(deck[cards.TWO] + deck[cards.JOKER])
    max_wilds = 2 if rules.wild_ratio == "double" else 3
    if rules.max_wilds_per_meld:
        max_wilds = min(max_wilds, rules.max_wilds_per_meld)
    for d in range(4):
        clean, dirty, wild = (rules.out_clean_books[d], rules.out_dirty_books[d],
                              rules.out_wild_books[d])
        need_naturals = 7 * clean + (7 - max_wilds) * dirty
        need_wilds = dirty + 7 * wild
        _require(need_naturals <= naturals and need_wilds <= wilds, "out_clean_books",
                 f"deal {d + 1}: {clean} clean + {dirty} dirty + {wild} wild books cannot be "
                 f"made from {naturals} naturals and {wilds} wilds")


def validate(rules: Rules) -> None:
    """Refuse rule sets that cannot be played, naming the knob; never fix them silently."""
    _check_types(rules)
    _check_ranges(rules)
    _check_coherence(rules)


def replace(rules: Rules, **changes) -> Rules:
    return dataclasses.replace(rules, **changes)
