"""Card kinds: the engine never sees suits, only the 15 kinds that matter to play (R-C2).

Kinds are small integers so that a hand is a count vector ``hand[kind]``. Naturals come first
and their kind index doubles as the meld rank; the wild meld uses rank ``WILD_RANK``.
"""

from __future__ import annotations

import numpy as np

NATURAL_NAMES = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
KIND_NAMES = NATURAL_NAMES + ("2", "JK", "R3", "B3")
N_NATURALS = len(NATURAL_NAMES)  # 11 natural ranks, kinds 0..10
TWO = 11
JOKER = 12
RED3 = 13
BLACK3 = 14
N_KINDS = 15

WILD_RANK = 11  # meld rank of the wild meld (R-M4); written "W" in traces
BLACK3_RANK = 12  # meld rank of black threes where they may be melded (R-V7)
N_RANKS = 13  # 11 natural ranks, the wild meld, black threes
RANK_NAMES = NATURAL_NAMES + ("W", "B3")
# The kind a meld rank's naturals are (-1: the wild meld has none).
RANK_KIND = np.array(list(range(N_NATURALS)) + [-1, BLACK3], dtype=np.int64)

# R-C3 card values; a red three has no card value (R-S3).
CARD_VALUE = np.array([5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50, 0, 5], dtype=np.int32)

# R-C1/R-C2: copies of each kind in one 54-card deck.
PER_DECK = np.array([4] * N_NATURALS + [4, 2, 2, 2], dtype=np.int32)

KIND_INDEX = {name: i for i, name in enumerate(KIND_NAMES)}
RANK_INDEX = {name: i for i, name in enumerate(RANK_NAMES)}


def deck_counts(decks: int, jokers_per_deck: int = 2) -> np.ndarray:
    """Counts of every kind in a shoe of ``decks`` decks (R-C1)."""
    counts = PER_DECK.copy() * decks
    counts[JOKER] = jokers_per_deck * decks
    return counts


def is_wild(kind: int) -> bool:
    return kind in (TWO, JOKER)
