"""Rule knobs (docs/rules.md section 11) as the checker reads them from a `deal` line's
`rules` object.

Every number and switch the checker uses comes from a `Profile`, never from a literal in the
checking code and never from the profile's *name*: a trace names its profile (`standard`,
`eleven`, ..., `custom`) but the knobs of its `rules` object are what the referee plays by, so
custom rule files are checked as well as the named profiles. `STANDARD` (sections 1-10) is only
the fallback for a `standard` deal line that carries no `rules` object (hand-written traces).

The knob names and values are those of docs/trace.md's `rules` object:
players, partnerships, decks, jokers_per_deck, hand_size, foot_size, deals_per_game,
opening_minimums, deal4_concealed_book, starting_card, pickup_size, pickup_rule, wild_top_pickup,
wild_ratio, max_wilds_per_meld, books, wild_melds, black3_melds, red3_rule, red3_bonus,
red3_penalty, clean_book_bonus, dirty_book_bonus, wild_book_bonus, going_out_bonus,
out_clean_books, out_dirty_books, out_wild_books, final_discard_required, partner_foot_required,
wild_discard, grab22_bonus, grab22_chance.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import BLACK3, BLACK3_BOOK, CLEAN, DIRTY, JOKER, NATURALS, RED3, TWO, WILD


def _frozen(d: dict) -> Mapping:
    return MappingProxyType(dict(d))


# Card values (R-C3); a red three has no card value (R-S3). Knob-independent.
_VALUES = _frozen(
    {
        **{n: 5 for n in ("4", "5", "6", "7")},
        **{n: 10 for n in ("8", "9", "10", "J", "Q", "K")},
        "A": 20,
        TWO: 20,
        JOKER: 50,
        BLACK3: 5,
        RED3: 0,
    }
)
# Values of *melded* cards (R-S1, opening R-O1): a melded black three counts -5 (R-V7).
_MELD_VALUES = _frozen({**_VALUES, BLACK3: -5})

STARTING_CARDS = ("bury", "keep", "none")
PICKUP_RULES = ("top", "whole", "exact")
WILD_RATIOS = ("double", "more")
BOOK_RULES = ("closed", "grow", "naturals")
RED3_RULES = ("expose", "discard")
WILD_DISCARDS = ("pair", "freeze")


@dataclass(frozen=True)
class Profile:
    """One rule set: the knobs of a `rules` object (defaults: the `standard` profile)."""

    name: str
    players: int = 4  # R-D1 (2-6, R-V2)
    partnerships: int = 2  # seat s plays for partnership s mod partnerships
    decks: int = 5  # R-C1, R-V1
    jokers_per_deck: int = 2  # R-C1
    hand_size: int = 13  # R-D2
    foot_size: int = 13  # R-D2
    deals_per_game: int = 4  # R-D5
    opening_minimums: tuple[int, ...] = (50, 90, 120, 150)  # R-O1
    deal4_concealed_book: bool = False  # R-V5
    starting_card: str = "bury"  # R-D3 ("bury"), "keep", "none" (R-V10)
    pickup_size: int = 7  # section 5 intro
    pickup_rule: str = "top"  # "top" min(size, pile), "whole" pile, "exact" size when pile >= size
    wild_top_pickup: bool = True  # R-T5 / R-PU2; False: a top two or joker is never taken
    wild_ratio: str = "double"  # R-M3: "double" naturals >= 2 x wilds, "more" naturals > wilds
    max_wilds_per_meld: int = 0  # hard cap when > 0
    books: str = "closed"  # R-M6 "closed", R-V3 "grow", R-V4 "naturals"
    wild_melds: bool = True  # R-M4
    black3_melds: bool = False  # R-V7
    red3_rule: str = "expose"  # R-T3 "expose", R-V6 "discard"
    red3_bonus: int = 100  # R-S3
    red3_penalty: int = 100  # R-S3, R-V6
    clean_book_bonus: int = 500  # R-S4
    dirty_book_bonus: int = 300  # R-S4
    wild_book_bonus: int = 1500  # R-S4
    going_out_bonus: int = 100  # R-S5
    out_clean_books: tuple[int, ...] = (2, 2, 2, 2)  # R-G1 per deal
    out_dirty_books: tuple[int, ...] = (2, 2, 2, 2)
    out_wild_books: tuple[int, ...] = (1, 1, 1, 1)
    final_discard_required: bool = False  # R-G3
    partner_foot_required: bool = True  # R-G2
    wild_discard: str = "pair"  # R-T5 "pair", R-V8 "freeze"
    grab22_bonus: int = 0  # R-V11
    grab22_chance: float = 0.0  # R-V11 (not checkable: the event is random)
    # fixed rules of every rule set (not knobs)
    pickup_pair: int = 2  # R-PU2: held cards of the top card's kind
    draw_size: int = 2  # R-T2, R-X2
    min_meld: int = 3  # R-M2, R-M4, R-V7
    book_size: int = 7  # R-M6: a book from 7 cards (also the size cap where books close)
    min_cards_on_foot: int = 2  # R-G4
    values: Mapping[str, int] = field(default_factory=lambda: _VALUES)
    meld_values: Mapping[str, int] = field(default_factory=lambda: _MELD_VALUES)

    def __deepcopy__(self, memo: dict) -> Profile:
        return self  # immutable: states holding it can be deep-copied

    # -- derived -----------------------------------------------------------------------------
    @property
    def individual(self) -> bool:
        """R-V2, R-V9: everybody plays for themselves (no partners, no `ask`)."""
        return self.partnerships == self.players

    @property
    def deck(self) -> Mapping[str, int]:
        """Cards of each kind in one deck (R-C1, R-C2)."""
        return _frozen(
            {**{n: 4 for n in NATURALS}, TWO: 4, JOKER: self.jokers_per_deck, RED3: 2, BLACK3: 2}
        )

    @property
    def start_discard(self) -> int:
        """Cards in the discard pile at the deal line (R-D3; none under R-V10)."""
        return 0 if self.starting_card == "none" else 1

    @property
    def book_bonus(self) -> Mapping[str, int]:
        """R-S4 by book kind; a black-three book earns the dirty bonus (R-V7)."""
        return _frozen(
            {
                CLEAN: self.clean_book_bonus,
                DIRTY: self.dirty_book_bonus,
                WILD: self.wild_book_bonus,
                BLACK3_BOOK: self.dirty_book_bonus,
            }
        )

    @property
    def red3_exposed(self) -> int:
        return self.red3_bonus  # R-S3: each exposed red three

    @property
    def red3_hidden(self) -> int:
        return -self.red3_penalty  # R-S3, R-V6: each red three left in a Hand or Foot

    @property
    def out_bonus(self) -> int:
        return self.going_out_bonus  # R-S5

    @property
    def exposes_red3(self) -> bool:
        return self.red3_rule == "expose"

    @property
    def freezes(self) -> bool:
        return self.wild_discard == "freeze"

    def full_deck(self) -> Counter:
        """Every card of the game (R-C1: 5 decks = 270 cards in standard)."""
        return Counter({k: n * self.decks for k, n in self.deck.items()})

    def opening_minimum(self, deal: int) -> int:
        """R-O1 minimum for deal number `deal` (1-based)."""
        return self.opening_minimums[(deal - 1) % len(self.opening_minimums)]

    def books_needed(self, deal: int) -> Mapping[str, int]:
        """R-G1 for deal number `deal`: books of each kind needed to go out."""
        k = (deal - 1) % len(self.out_clean_books)
        return _frozen(
            {
                CLEAN: self.out_clean_books[k],
                DIRTY: self.out_dirty_books[k],
                WILD: self.out_wild_books[k],
            }
        )

    def concealed_opening(self, deal: int) -> bool:
        """R-V5: this deal opens with a concealed book, not with points."""
        return self.deal4_concealed_book and deal == 4

    def ratio_ok(self, naturals: int, wilds: int) -> bool:
        """R-M3 (wild_ratio) and the hard cap max_wilds_per_meld."""
        if self.max_wilds_per_meld > 0 and wilds > self.max_wilds_per_meld:
            return False
        if self.wild_ratio == "more":
            return wilds == 0 or naturals > wilds
        return naturals >= 2 * wilds

    def ratio_text(self) -> str:
        rule = "naturals > wilds" if self.wild_ratio == "more" else "naturals >= 2 x wilds"
        if self.max_wilds_per_meld > 0:
            rule += f", at most {self.max_wilds_per_meld} wild(s)"
        return rule

    def dealer(self, deal: int) -> int:
        """R-X16: dealer of deal k is seat (players - 1 + k - 1) mod players."""
        return (self.players - 1 + deal - 1) % self.players

    def stock_size(self) -> int:
        """R-D3: cards left in the stock after the deal and the turned card."""
        total = sum(self.full_deck().values())
        return total - self.players * (self.hand_size + self.foot_size) - self.start_discard

    # -- rules objects -----------------------------------------------------------------------
    def to_rules(self) -> dict:
        """The `rules` object of this profile (JSON types: lists, not tuples)."""
        return {
            k: list(v) if isinstance(v, tuple) else v
            for k, v in ((k, getattr(self, k)) for k in KNOBS)
        }

    @classmethod
    def from_rules(cls, name: str, rules: Mapping[str, object]) -> tuple[Profile, list[str], bool]:
        """Read a `rules` object: (profile, problems, fatal).

        A missing knob takes the standard value (and is a problem); an unknown knob is a
        problem; a knob of the wrong type or out of range is fatal (the deal cannot be judged).
        """
        problems: list[str] = []
        fatal = False
        values: dict[str, object] = {}
        base = STANDARD
        for knob, check in KNOBS.items():
            if knob not in rules:
                problems.append(f"rules object lacks knob {knob!r}; using {getattr(base, knob)!r}")
                continue
            value = rules[knob]
            err = check(value, rules)
            if err:
                problems.append(f"knob {knob}={value!r}: {err}")
                fatal = True
                continue
            values[knob] = tuple(value) if isinstance(value, list) else value
        for knob in rules:
            if knob not in KNOBS:
                problems.append(f"unknown knob {knob!r}: the referee does not know this rule")
        if fatal:
            return base, problems, True
        prof = dataclasses.replace(base, name=name, **values)
        n = prof.deals_per_game
        for knob in ("opening_minimums", "out_clean_books", "out_dirty_books", "out_wild_books"):
            if len(getattr(prof, knob)) != n:
                problems.append(f"knob {knob} must list {n} numbers (deals_per_game)")
                fatal = True
        if prof.players % prof.partnerships:
            problems.append(
                f"{prof.players} players cannot sit as {prof.partnerships} equal partnerships"
            )
            fatal = True
        return prof, problems, fatal


def _int(lo: int, hi: int | None = None):  # noqa: ANN202
    def check(v: object, _: Mapping) -> str | None:
        if not isinstance(v, int) or isinstance(v, bool):
            return "must be an integer"
        if v < lo or (hi is not None and v > hi):
            return f"must be in {lo}..{hi if hi is not None else ''}"
        return None

    return check


def _bool(v: object, _: Mapping) -> str | None:
    return None if isinstance(v, bool) else "must be true or false"


def _one_of(*options: str):  # noqa: ANN202
    def check(v: object, _: Mapping) -> str | None:
        return None if v in options else f"must be one of {', '.join(options)}"

    return check


def _ints(v: object, _: Mapping) -> str | None:
    if not isinstance(v, list | tuple) or not all(
        isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in v
    ):
        return "must be a list of non-negative integers"
    return None


def _partnerships(v: object, rules: Mapping) -> str | None:
    err = _int(1, 6)(v, rules)
    players = rules.get("players")
    if err is None and isinstance(players, int) and v > players:  # type: ignore[operator]
        return "more partnerships than players"
    return err


def _chance(v: object, _: Mapping) -> str | None:
    if not isinstance(v, int | float) or isinstance(v, bool) or not 0 <= v <= 1:
        return "must be a probability"
    return None


KNOBS = {
    "players": _int(2, 6),
    "partnerships": _partnerships,
    "decks": _int(1),
    "jokers_per_deck": _int(0),
    "hand_size": _int(1),
    "foot_size": _int(1),
    "deals_per_game": _int(1),
    "opening_minimums": _ints,
    "deal4_concealed_book": _bool,
    "starting_card": _one_of(*STARTING_CARDS),
    "pickup_size": _int(1),
    "pickup_rule": _one_of(*PICKUP_RULES),
    "wild_top_pickup": _bool,
    "wild_ratio": _one_of(*WILD_RATIOS),
    "max_wilds_per_meld": _int(0),
    "books": _one_of(*BOOK_RULES),
    "wild_melds": _bool,
    "black3_melds": _bool,
    "red3_rule": _one_of(*RED3_RULES),
    "red3_bonus": _int(0),
    "red3_penalty": _int(0),
    "clean_book_bonus": _int(0),
    "dirty_book_bonus": _int(0),
    "wild_book_bonus": _int(0),
    "going_out_bonus": _int(0),
    "out_clean_books": _ints,
    "out_dirty_books": _ints,
    "out_wild_books": _ints,
    "final_discard_required": _bool,
    "partner_foot_required": _bool,
    "wild_discard": _one_of(*WILD_DISCARDS),
    "grab22_bonus": _int(0),
    "grab22_chance": _chance,
}

STANDARD = Profile(name="standard")
# Profiles for deal lines that carry no `rules` object, by name: only `standard` is assumed.
PROFILES: Mapping[str, Profile] = _frozen({"standard": STANDARD})
