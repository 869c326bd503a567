"""Card kinds of the trace format (docs/trace.md "Cards") and their classification
(docs/rules.md R-C2)."""

from __future__ import annotations

NATURALS: tuple[str, ...] = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
TWO = "2"
JOKER = "JK"
WILDS: tuple[str, ...] = (TWO, JOKER)
RED3 = "R3"
BLACK3 = "B3"
THREES: tuple[str, ...] = (RED3, BLACK3)
KINDS: tuple[str, ...] = NATURALS + WILDS + THREES
WILD_RANK = "W"
MELD_RANKS: tuple[str, ...] = NATURALS + (WILD_RANK,)

CLEAN = "clean"
DIRTY = "dirty"
WILD = "wild"
BLACK3_BOOK = "black3"  # R-V7: dirty-book bonus, counts as a clean book toward going out
BOOK_KINDS: tuple[str, ...] = (CLEAN, DIRTY, WILD, BLACK3_BOOK)


def is_natural(card: str) -> bool:
    """True for the meldable natural ranks 4..A."""
    return card in NATURALS


def is_wild(card: str) -> bool:
    """True for twos and jokers."""
    return card in WILDS


def rank_of_top(card: str) -> str | None:
    """Meld rank a discard-pile top card would be picked up into (None for threes)."""
    if is_natural(card):
        return card
    if is_wild(card):
        return WILD_RANK
    return None
