"""The rule set as data: a typed, validated ``Rules`` and its packed int32 form for numba.

One compiled engine serves every rule set because the engine reads these knobs from an int32
array at run time (DESIGN.md). Field names are the public knob names: they appear in traces
(TRACE.md ``rules``), in ``handfoot rules show`` and in rule files, so keep them stable.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import dataclass, field, fields

import numpy as np

from sim import cards

# Indices into the packed int32 rules array read by the numba engine.
R_PLAYERS = 0
R_PARTNERSHIPS = 1
R_DECKS = 2
R_JOKERS_PER_DECK = 3
R_HAND_SIZE = 4
R_FOOT_SIZE = 5
R_OPEN_MIN = 6  # 4 consecutive slots, one per deal (R-O1)
R_DEALS = 10
R_PICKUP_SIZE = 11
R_MAX_MELD = 12
R_CLEAN_BONUS = 13
R_DIRTY_BONUS = 14
R_WILD_BONUS = 15
R_RED3_BONUS = 16
R_RED3_PENALTY = 17
R_OUT_BONUS = 18
R_OUT_CLEAN = 19
R_OUT_DIRTY = 20
R_OUT_WILD = 21
R_TOTAL_CARDS = 22
N_RULE_SLOTS = 32

MAX_SEATS = 6
MAX_TEAMS = 6


class RulesError(ValueError):
    """A rule set that cannot be played; the message names the knob and the reason."""


@dataclass(frozen=True)
class Rules:
    """Every knob of the game. Defaults are the ``standard`` profile (RULES.md sections 1-10)."""

    players: int = field(default=4, metadata={"doc": "number of players (R-D1)"})
    partnerships: int = field(
        default=2, metadata={"doc": "partnerships; seat s plays for partnership s mod this (R-D1)"}
    )
    decks: int = field(default=5, metadata={"doc": "54-card decks in the shoe (R-C1)"})
    jokers_per_deck: int = field(default=2, metadata={"doc": "jokers in each deck (R-C1)"})
    hand_size: int = field(default=13, metadata={"doc": "cards in each Hand (R-D2)"})
    foot_size: int = field(default=13, metadata={"doc": "cards in each Foot (R-D2)"})
    opening_minimums: tuple[int, int, int, int] = field(
        default=(50, 90, 120, 150),
        metadata={"doc": "points a partnership's first melds need in deals 1..4 (R-O1)"},
    )
    deals_per_game: int = field(default=4, metadata={"doc": "deals in a game (R-D5)"})
    pickup_size: int = field(
        default=7, metadata={"doc": "cards taken from the top of the discard pile (R-PU)"}
    )
    clean_book_bonus: int = field(default=500, metadata={"doc": "bonus per clean book (R-S4)"})
    dirty_book_bonus: int = field(default=300, metadata={"doc": "bonus per dirty book (R-S4)"})
    wild_book_bonus: int = field(default=1500, metadata={"doc": "bonus per wild book (R-S4)"})
    red3_bonus: int = field(default=100, metadata={"doc": "per red three exposed (R-S3)"})
    red3_penalty: int = field(
        default=100, metadata={"doc": "per red three left hidden in a Hand or Foot (R-S3)"}
    )
    going_out_bonus: int = field(default=100, metadata={"doc": "for going out (R-S5)"})
    out_clean_books: int = field(default=2, metadata={"doc": "clean books needed to go out (R-G1)"})
    out_dirty_books: int = field(default=2, metadata={"doc": "dirty books needed to go out (R-G1)"})
    out_wild_books: int = field(default=1, metadata={"doc": "wild books needed to go out (R-G1)"})

    def __post_init__(self) -> None:
        validate(self)

    @property
    def total_cards(self) -> int:
        return int(cards.deck_counts(self.decks, self.jokers_per_deck).sum())

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
        arr[R_MAX_MELD] = 7
        arr[R_CLEAN_BONUS] = self.clean_book_bonus
        arr[R_DIRTY_BONUS] = self.dirty_book_bonus
        arr[R_WILD_BONUS] = self.wild_book_bonus
        arr[R_RED3_BONUS] = self.red3_bonus
        arr[R_RED3_PENALTY] = self.red3_penalty
        arr[R_OUT_BONUS] = self.going_out_bonus
        arr[R_OUT_CLEAN] = self.out_clean_books
        arr[R_OUT_DIRTY] = self.out_dirty_books
        arr[R_OUT_WILD] = self.out_wild_books
        arr[R_TOTAL_CARDS] = self.total_cards
        return arr


def _require(ok: bool, knob: str, reason: str) -> None:
    if not ok:
        raise RulesError(f"rule '{knob}': {reason}")


def validate(rules: Rules) -> None:
    """Refuse rule sets that cannot be played, naming the knob; never fix them silently."""
    for f in fields(rules):
        value = getattr(rules, f.name)
        if f.name == "opening_minimums":
            _require(
                isinstance(value, tuple) and len(value) == 4,
                f.name,
                "must be a list of 4 integers, one per deal",
            )
            for v in value:
                _require(
                    isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= 10_000,
                    f.name,
                    f"{v!r} is not an integer in 0..10000",
                )
        else:
            _require(
                isinstance(value, int) and not isinstance(value, bool),
                f.name,
                f"{value!r} is not an integer",
            )
    # This engine version plays 4 players in 2 partnerships (R-D1); other seatings are
    # the house-rules issue's work and are refused rather than half-played.
    _require(rules.players == 4, "players", "only 4 players are supported so far")
    _require(rules.partnerships == 2, "partnerships", "only 2 partnerships are supported so far")
    _require(1 <= rules.decks <= 8, "decks", "must be in 1..8")
    _require(0 <= rules.jokers_per_deck <= 4, "jokers_per_deck", "must be in 0..4")
    _require(rules.hand_size >= 1, "hand_size", "must be at least 1")
    _require(rules.foot_size >= 1, "foot_size", "must be at least 1")
    _require(rules.deals_per_game == 4, "deals_per_game", "a game is 4 deals (R-D5)")
    _require(rules.pickup_size >= 1, "pickup_size", "must be at least 1")
    for knob in (
        "clean_book_bonus",
        "dirty_book_bonus",
        "wild_book_bonus",
        "red3_bonus",
        "red3_penalty",
        "going_out_bonus",
        "out_clean_books",
        "out_dirty_books",
        "out_wild_books",
    ):
        _require(0 <= getattr(rules, knob) <= 100_000, knob, "must be in 0..100000")
    needed = rules.players * (rules.hand_size + rules.foot_size) + 1
    _require(
        needed <= rules.total_cards,
        "decks",
        f"{rules.total_cards} cards cannot deal {rules.players} x "
        f"({rules.hand_size} + {rules.foot_size}) + 1 = {needed}",
    )


PROFILES: dict[str, tuple[Rules, str]] = {
    "standard": (Rules(), "RULES.md sections 1-10 [sources 000, 001, 003, 004]"),
}


def get_profile(name: str) -> Rules:
    if name not in PROFILES:
        known = ", ".join(sorted(PROFILES))
        raise RulesError(f"unknown rule profile '{name}' (known: {known})")
    return PROFILES[name][0]


def profile_name(rules: Rules) -> str:
    """The profile a rule set equals, or 'custom'."""
    for name, (preset, _) in PROFILES.items():
        if preset == rules:
            return name
    return "custom"


def replace(rules: Rules, **changes) -> Rules:
    return dataclasses.replace(rules, **changes)
