"""The rule set as data: every knob declared once, with its type, range, meaning and rule ids.

One compiled engine serves every rule set because the engine reads these knobs from an int32
array at run time (docs/design.md). Each field of ``Rules`` carries a ``KnobSpec``: packing into
that array, validation, ``handfoot rules show`` and the knob table of docs/rules.md are all
derived from it, so adding a knob is one field here plus the kernel code that reads it. Field
names are the public knob names: they appear in traces (docs/trace.md), in ``rules show`` and
in rule files, so keep them stable.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field, fields

import numpy as np

from sim.core import cards

MAX_SEATS = 6
MAX_TEAMS = 6
GROWING_CAP = 1000  # "no size cap": larger than any meld can get


class RulesError(ValueError):
    """A rule set that cannot be played; the message names the knob and the reason."""


@dataclass(frozen=True)
class KnobSpec:
    """What a knob means and how it is checked and packed.

    ``low``/``high`` bound integers (and every element of a per-deal tuple); ``choices`` lists
    a string knob's values, packed as their index; booleans pack as 0/1, floats as parts per
    million (``scale``).
    """

    doc: str
    rule_ids: tuple[str, ...]
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] = ()
    scale: int = 1


def _knob(default, doc: str, rule_ids: str, low=None, high=None, choices=(), scale=1):
    spec = KnobSpec(doc, tuple(rule_ids.split()), low, high, tuple(choices), scale)
    return field(default=default, metadata={"knob": spec})


@dataclass(frozen=True)
class Rules:
    """Every knob of the game. Defaults are the ``standard`` profile (docs/rules.md 1-10)."""

    players: int = _knob(4, "number of players", "R-D1", 2, MAX_SEATS)
    partnerships: int = _knob(2, "partnerships; seat s plays for s mod this; equal to players: "
                                 "individual play", "R-D1 R-V2", 2, MAX_TEAMS)
    decks: int = _knob(5, "54-card decks in the shoe", "R-C1 R-V1", 1, 8)
    jokers_per_deck: int = _knob(2, "jokers in each deck", "R-C1", 0, 4)
    hand_size: int = _knob(13, "cards in each Hand", "R-D2", 1, 30)
    foot_size: int = _knob(13, "cards in each Foot", "R-D2", 1, 30)
    deals_per_game: int = _knob(4, "deals in a game", "R-D5", 4, 4)
    opening_minimums: tuple[int, int, int, int] = _knob(
        (50, 90, 120, 150), "points a partnership's first melds need in deals 1-4", "R-O1",
        0, 10_000)
    deal4_concealed_book: bool = _knob(
        False, "deal 4 opens with a concealed book instead of points", "R-V5")
    starting_card: str = _knob(
        "bury", "a starting red three or wild: bury, keep (left in the pile), none (no "
                "starting card)", "R-D3 R-X4 R-V10", choices=("bury", "keep", "none"))
    pickup_size: int = _knob(7, "cards taken from the top of the discard pile", "R-PU5", 1, 50)
    pickup_rule: str = _knob(
        "top", "top: top pickup_size (all if fewer); whole: the whole pile; exact: exactly "
               "pickup_size, only when the pile holds that many", "R-PU5",
        choices=("top", "whole", "exact"))
    wild_top_pickup: bool = _knob(True, "a two or joker on top may be taken with a pair of it",
                                  "R-PU2 R-T5")
    wild_ratio: str = _knob("double", "double: naturals >= 2 x wilds; more: naturals > wilds",
                            "R-M3 R-X13", choices=("double", "more"))
    max_wilds_per_meld: int = _knob(0, "hard cap on wilds in a meld; 0: only the ratio limits",
                                    "R-M3", 0, 10)
    books: str = _knob("closed", "closed: melds stop at 7; grow: one meld per rank, a book at 7 "
                                 "that keeps growing; naturals: completed books accept more "
                                 "naturals", "R-M6 R-M7 R-V3 R-V4",
                       choices=("closed", "grow", "naturals"))
    wild_melds: bool = _knob(True, "melds of wilds only are allowed", "R-M4")
    black3_melds: bool = _knob(False, "black threes may form melds, no wilds, -5 each", "R-M5 R-V7")
    red3_rule: str = _knob("expose", "expose: exposed and replaced; discard: held and "
                                     "discarded as soon as possible", "R-T3 R-V6",
                           choices=("expose", "discard"))
    red3_bonus: int = _knob(100, "per red three exposed", "R-S3 R-X9", 0, 10_000)
    red3_penalty: int = _knob(100, "per red three left in a Hand or Foot", "R-S3 R-V6",
                              0, 10_000)
    clean_book_bonus: int = _knob(500, "bonus per clean book", "R-S4", 0, 100_000)
    dirty_book_bonus: int = _knob(300, "bonus per dirty book", "R-S4 R-V7", 0, 100_000)
    wild_book_bonus: int = _knob(1500, "bonus per wild book", "R-S4", 0, 100_000)
    going_out_bonus: int = _knob(100, "for going out", "R-S5", 0, 100_000)
    out_clean_books: tuple[int, int, int, int] = _knob(
        (2, 2, 2, 2), "clean books needed to go out, deals 1-4", "R-G1", 0, 20)
    out_dirty_books: tuple[int, int, int, int] = _knob(
        (2, 2, 2, 2), "dirty books needed to go out, deals 1-4", "R-G1", 0, 20)
    out_wild_books: tuple[int, int, int, int] = _knob(
        (1, 1, 1, 1), "wild books needed to go out, deals 1-4", "R-G1", 0, 20)
    final_discard_required: bool = _knob(False, "going out must end with a discard", "R-G3")
    partner_foot_required: bool = _knob(
        True, "partners must have picked up their Foot before going out", "R-G2 R-X15 R-V9")
    wild_discard: str = _knob("pair", "pair: a discarded wild needs a pair of it to be taken; "
                                      "freeze: it sets the pile aside", "R-T5 R-V8",
                              choices=("pair", "freeze"))
    grab22_bonus: int = _knob(0, "bonus for grabbing exactly 22 cards when self-dealing",
                              "R-V11", 0, 100_000)
    grab22_chance: float = _knob(0.0, "chance per player and deal of that grab", "R-V11",
                                 0.0, 1.0, scale=1_000_000)

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
        """The int32 array the numba engine reads (indices ``R_*`` below)."""
        arr = np.zeros(N_RULE_SLOTS, dtype=np.int32)
        for f in fields(self):
            start, width = SLOTS[f.name]
            arr[start : start + width] = _encode(f, getattr(self, f.name))
        arr[R_TOTAL_CARDS] = self.total_cards
        arr[R_MAX_MELD] = GROWING_CAP if self.books == "grow" else 7
        return arr


def knob_spec(name: str) -> KnobSpec:
    return KNOBS[name].metadata["knob"]


def _encode(f: dataclasses.Field, value) -> list[int] | int:
    spec: KnobSpec = f.metadata["knob"]
    if spec.choices:
        return spec.choices.index(value)
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, float):
        return round(value * spec.scale)
    return int(value)


def _width(f: dataclasses.Field) -> int:
    return len(f.default) if isinstance(f.default, tuple) else 1


KNOBS: dict[str, dataclasses.Field] = {f.name: f for f in fields(Rules)}

# Slots of the packed array: every knob in field order, then values derived from knobs.
SLOTS: dict[str, tuple[int, int]] = {}
_next = 0
for _f in fields(Rules):
    SLOTS[_f.name] = (_next, _width(_f))
    _next += _width(_f)
R_TOTAL_CARDS = _next  # cards in the shoe
R_MAX_MELD = _next + 1  # 7, or GROWING_CAP where books grow
N_RULE_SLOTS = _next + 2


def slot(name: str) -> int:
    return SLOTS[name][0]


# Indices the kernels read (numba freezes module globals at compile time).
R_PLAYERS = slot("players")
R_PARTNERSHIPS = slot("partnerships")
R_DECKS = slot("decks")
R_JOKERS_PER_DECK = slot("jokers_per_deck")
R_HAND_SIZE = slot("hand_size")
R_FOOT_SIZE = slot("foot_size")
R_DEALS = slot("deals_per_game")
R_OPEN_MIN = slot("opening_minimums")  # 4 slots, one per deal
R_CONCEALED_DEAL4 = slot("deal4_concealed_book")
R_STARTING_CARD = slot("starting_card")
R_PICKUP_SIZE = slot("pickup_size")
R_PICKUP_RULE = slot("pickup_rule")
R_WILD_TOP_PICKUP = slot("wild_top_pickup")
R_WILD_RATIO = slot("wild_ratio")
R_MAX_WILDS = slot("max_wilds_per_meld")
R_BOOKS = slot("books")
R_WILD_MELDS = slot("wild_melds")
R_BLACK3_MELDS = slot("black3_melds")
R_RED3_RULE = slot("red3_rule")
R_RED3_BONUS = slot("red3_bonus")
R_RED3_PENALTY = slot("red3_penalty")
R_CLEAN_BONUS = slot("clean_book_bonus")
R_DIRTY_BONUS = slot("dirty_book_bonus")
R_WILD_BONUS = slot("wild_book_bonus")
R_OUT_BONUS = slot("going_out_bonus")
R_OUT_CLEAN = slot("out_clean_books")  # 4 slots
R_OUT_DIRTY = slot("out_dirty_books")  # 4 slots
R_OUT_WILD = slot("out_wild_books")  # 4 slots
R_FINAL_DISCARD = slot("final_discard_required")
R_PARTNER_FOOT = slot("partner_foot_required")
R_WILD_DISCARD = slot("wild_discard")
R_GRAB22_BONUS = slot("grab22_bonus")
R_GRAB22_PPM = slot("grab22_chance")  # chance in parts per million


def _code(knob: str, value: str) -> int:
    return knob_spec(knob).choices.index(value)


# Codes of the string knobs, as packed.
STARTING_BURY, STARTING_KEEP, STARTING_NONE = (_code("starting_card", v) for v in
                                               ("bury", "keep", "none"))
PICKUP_TOP, PICKUP_WHOLE, PICKUP_EXACT = (_code("pickup_rule", v) for v in
                                          ("top", "whole", "exact"))
RATIO_DOUBLE, RATIO_MORE = (_code("wild_ratio", v) for v in ("double", "more"))
BOOKS_CLOSED, BOOKS_GROW, BOOKS_NATURALS = (_code("books", v) for v in
                                            ("closed", "grow", "naturals"))
RED3_EXPOSE, RED3_DISCARD = (_code("red3_rule", v) for v in ("expose", "discard"))
WILD_DISCARD_PAIR, WILD_DISCARD_FREEZE = (_code("wild_discard", v) for v in ("pair", "freeze"))

CHOICES: dict[str, tuple[str, ...]] = {name: knob_spec(name).choices for name in KNOBS
                                       if knob_spec(name).choices}


def knob_type(f: dataclasses.Field) -> str:
    """The knob's type in words, for ``rules show`` and docs."""
    spec: KnobSpec = f.metadata["knob"]
    if spec.choices:
        return " / ".join(spec.choices)
    if isinstance(f.default, bool):
        return "true / false"
    if isinstance(f.default, tuple):
        return f"{len(f.default)} integers {spec.low:g}..{spec.high:g}"
    if isinstance(f.default, float):
        return f"number {spec.low:g}..{spec.high:g}"
    return f"integer {spec.low:g}..{spec.high:g}"


def _format(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def knob_table_markdown() -> str:
    """The knob table of docs/rules.md, generated here so it cannot drift from the code."""
    lines = ["| knob | values | standard | meaning | rules |", "| --- | --- | --- | --- | --- |"]
    for name, f in KNOBS.items():
        spec: KnobSpec = f.metadata["knob"]
        lines.append(f"| `{name}` | {knob_type(f)} | `{_format(f.default)}` | {spec.doc} | "
                     f"{', '.join(spec.rule_ids)} |")
    return "\n".join(lines) + "\n"


# --- validation ---------------------------------------------------------------------------


def _fail(knob: str, reason: str) -> None:
    raise RulesError(f"rule '{knob}': {reason}")


def _require(ok: bool, knob: str, reason: str) -> None:
    if not ok:
        _fail(knob, reason)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_type(f: dataclasses.Field, value) -> None:
    spec: KnobSpec = f.metadata["knob"]
    default = f.default
    if spec.choices:
        _require(value in spec.choices, f.name,
                 f"must be one of {', '.join(spec.choices)} (got {value!r})")
    elif isinstance(default, tuple):
        _require(isinstance(value, tuple) and len(value) == len(default)
                 and all(_is_int(v) for v in value), f.name,
                 f"must be a list of {len(default)} integers, one per deal (got {value!r})")
    elif isinstance(default, bool):
        _require(isinstance(value, bool), f.name, f"must be true or false (got {value!r})")
    elif isinstance(default, int):
        _require(_is_int(value), f.name, f"must be an integer (got {value!r})")
    elif isinstance(default, float):
        _require(isinstance(value, int | float) and not isinstance(value, bool), f.name,
                 f"must be a number (got {value!r})")


def _check_range(f: dataclasses.Field, value) -> None:
    spec: KnobSpec = f.metadata["knob"]
    if spec.low is None or isinstance(value, bool):
        return
    for v in value if isinstance(value, tuple) else (value,):
        _require(spec.low <= v <= spec.high, f.name,
                 f"{v} is outside {spec.low:g}..{spec.high:g}")


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
    for f in fields(rules):
        _check_type(f, getattr(rules, f.name))
    for f in fields(rules):
        _check_range(f, getattr(rules, f.name))
    _check_coherence(rules)


def replace(rules: Rules, **changes) -> Rules:
    return dataclasses.replace(rules, **changes)
