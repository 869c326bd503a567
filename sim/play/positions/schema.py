"""What every part of the position code shares: the file format's name, its error, the book
kinds by their words, and the position a file reads into."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from sim.core.cards import KIND_NAMES, N_KINDS
from sim.core.enums import Book
from sim.core.rules import Rules

FORMAT = "handfoot-position/1"
BOOK_TYPES = dict(zip(Book.words, Book, strict=True))  # "clean" -> Book.CLEAN ...


def card_names(counts: np.ndarray) -> list[str]:
    """A count vector as card names, kind by kind (the files' card lists)."""
    return [KIND_NAMES[k] for k in range(N_KINDS) for _ in range(int(counts[k]))]


class PositionError(ValueError):
    """A position file that cannot be a real position; the message names the field."""


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
