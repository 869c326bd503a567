"""The tactician's parameter vector: one float per knob, read by the compiled kernels.

A strategy is data (docs/design.md): sweeps over these values need no recompilation. Indices are
constants the kernels use; ``PARAMS`` documents each one for ``handfoot strategies show``.
"""

from __future__ import annotations

from dataclasses import dataclass

P_HOLD_WILDS = 0
P_MIN_PILE = 1
P_OPEN_EXTRA = 2
P_BOOKS_BEFORE_PARTNER = 3
P_BLACK3_BLOCK = 4
P_DISCARD_SAFETY = 5
P_WILD_BOOK_FIRST = 6
P_GO_OUT = 7
P_GRANT = 8
P_KEEP_PAIRS = 9

ALWAYS, AHEAD_ON_DEAL, AHEAD_ON_GAME = 0, 1, 2


@dataclass(frozen=True)
class Param:
    name: str
    index: int
    low: float
    high: float
    integer: bool
    doc: str


TACTICIAN_PARAMS: tuple[Param, ...] = (
    Param("hold_wilds", P_HOLD_WILDS, 0, 3, True,
          "wilds kept back from melds until on the Foot, once the partnership has opened "
          "and made its wild books (0-3)"),
    Param("min_pile", P_MIN_PILE, 1, 50, True,
          "least discard-pile size worth picking up"),
    Param("open_extra", P_OPEN_EXTRA, 0, 500, True,
          "points above the minimum before opening: 0 opens at once, more waits"),
    Param("books_before_partner", P_BOOKS_BEFORE_PARTNER, 0, 1, True,
          "1: complete books freely; 0: on the Foot before the partner, leave natural "
          "books one short unless the opponents are close to going out"),
    Param("black3_block", P_BLACK3_BLOCK, 0, 1, True,
          "1: discard black threes first to block the next player; 0: discard them in the "
          "ordinary order, as a lone 5-point card (as a natural where black threes meld)"),
    Param("discard_safety", P_DISCARD_SAFETY, 0, 1, True,
          "1: among lone cards, avoid ranks the next opponent has taken from the pile"),
    Param("wild_book_first", P_WILD_BOOK_FIRST, 0, 1, True,
          "1: wilds go to the wild meld until the wild books are made; 0: dirty books first"),
    Param("go_out", P_GO_OUT, 0, 2, True,
          "when to go out: 0 always, 1 only when ahead on the deal, 2 only when ahead on "
          "the game"),
    Param("grant", P_GRANT, 0, 2, True,
          "when to grant permission: 0 always, 1 ahead on the deal, 2 ahead on the game"),
    Param("keep_pairs", P_KEEP_PAIRS, 0, 1, True,
          "1: avoid breaking natural pairs when discarding (the opponents may discard a third)"),
)
PARAMS = TACTICIAN_PARAMS
PARAM_INDEX = {p.name: p for p in PARAMS}
