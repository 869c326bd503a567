"""The learned player's parameter vector (plain Python: the registry reads it)."""

from __future__ import annotations

from strategies.params import Param

P_WORLDS = 0
P_DISCARDS = 1
P_MELD_VARIANTS = 2
P_MARGIN = 3

LEARNED_PARAMS: tuple[Param, ...] = (
    Param("worlds", P_WORLDS, 1, 64, True,
          "imagined deals of the unseen cards over which a pick-up or meld candidate's next "
          "position is scored (a draw, or a Foot picked up, brings cards the seat cannot "
          "see); discards, grants and going out are scored once, as they reveal nothing"),
    Param("discards", P_DISCARDS, 1, 6, True,
          "discard candidates weighed: the least useful cards by the greedy ranking"),
    Param("meld_variants", P_MELD_VARIANTS, 0, 1, True,
          "1: besides the base and greedy meld lines, also weigh laying nothing, holding "
          "every wild back and leaving books one card short; 0: those two or nothing"),
    Param("margin", P_MARGIN, 0, 1000, False,
          "points of predicted outcome by which a candidate must beat the base policy's "
          "choice before it is taken instead"),
)

LEARNED_DEFAULTS = {"worlds": 2, "discards": 3, "meld_variants": 1, "margin": 25.0}
