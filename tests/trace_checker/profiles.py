"""Rule knobs of a profile, gathered in one place so that other profiles can be added later.

Only `standard` (RULES.md sections 1-10) is implemented by the checker today; every number the
checker uses comes from a `Profile`, never from a literal in the checking code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from .cards import BLACK3, CLEAN, DIRTY, JOKER, NATURALS, RED3, TWO, WILD


def _frozen(d: dict) -> Mapping:
    return MappingProxyType(dict(d))


@dataclass(frozen=True)
class Profile:
    """The knobs of RULES.md section 11 that the standard checker needs."""

    name: str
    players: int = 4
    partnerships: int = 2
    decks: int = 5
    # cards of each kind in one deck (R-C1, R-C2)
    deck: Mapping[str, int] = field(
        default_factory=lambda: _frozen(
            {**{n: 4 for n in NATURALS}, TWO: 4, JOKER: 2, RED3: 2, BLACK3: 2}
        )
    )
    hand_size: int = 13  # R-D2
    foot_size: int = 13  # R-D2
    start_discard: int = 1  # R-D3
    opening_minimums: tuple[int, ...] = (50, 90, 120, 150)  # R-O1
    pickup_size: int = 7  # R-PU (section 5 intro)
    pickup_pair: int = 2  # R-PU2: held cards of the top card's kind
    draw_size: int = 2  # R-T2, R-X2
    min_meld: int = 3  # R-M2, R-M4
    book_size: int = 7  # R-M6 (also the meld size cap)
    wild_ratio: int = 2  # R-M3: naturals >= wild_ratio * wilds
    # card values (R-C3); a red three has no card value (R-S3)
    values: Mapping[str, int] = field(
        default_factory=lambda: _frozen(
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
    )
    red3_exposed: int = 100  # R-S3
    red3_hidden: int = -100  # R-S3
    book_bonus: Mapping[str, int] = field(
        default_factory=lambda: _frozen({CLEAN: 500, DIRTY: 300, WILD: 1500})  # R-S4
    )
    out_bonus: int = 100  # R-S5
    books_to_go_out: Mapping[str, int] = field(
        default_factory=lambda: _frozen({CLEAN: 2, DIRTY: 2, WILD: 1})  # R-G1
    )
    min_cards_on_foot: int = 2  # R-G4
    deals_per_game: int = 4  # R-D5

    def __deepcopy__(self, memo: dict) -> Profile:
        return self  # immutable: states holding it can be deep-copied

    def full_deck(self) -> Counter:
        """Every card of the game (R-C1: 5 decks = 270 cards in standard)."""
        return Counter({k: n * self.decks for k, n in self.deck.items()})

    def opening_minimum(self, deal: int) -> int:
        """R-O1 minimum for deal number `deal` (1-based)."""
        return self.opening_minimums[(deal - 1) % len(self.opening_minimums)]

    def dealer(self, deal: int) -> int:
        """R-X16: dealer of deal k is seat (players - 1 + k - 1) mod players."""
        return (self.players - 1 + deal - 1) % self.players

    def stock_size(self) -> int:
        """R-D3: cards left in the stock after the deal and the turned card."""
        total = sum(self.full_deck().values())
        return total - self.players * (self.hand_size + self.foot_size) - self.start_discard


STANDARD = Profile(name="standard")
PROFILES: Mapping[str, Profile] = _frozen({"standard": STANDARD})
