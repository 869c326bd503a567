"""How far a verdict holds: one piece of advice measured with several strong players.

A verdict measured with one player can be a fact about that player. So each piece of advice is
measured with every strong player of the answer (``analysis.experiments.players``), every
comparison in one Holm family, and labelled by what the players' calls have in common: it pays
(or costs) for every strong player measured, makes no measurable difference for any, or
depends on the player. The labels are generated from the calls, never written for a case.
"""

from __future__ import annotations

from collections.abc import Sequence

PAYS, COSTS, UNCLEAR = "pays", "costs", "no measurable difference"
DEPENDS = "depends on the player"
WORDS = {"better": PAYS, "worse": COSTS, "unclear": UNCLEAR}  # a comparison's call, in words


def reach(calls: Sequence[str], players: Sequence[str]) -> str:
    """The label of one piece of advice from its calls (``PAYS``, ``COSTS`` or ``UNCLEAR``),
    one per player, in the order of ``players``."""
    if len(calls) != len(players) or not calls:
        raise ValueError("one call per player")
    kinds = set(calls)
    if len(kinds) > 1:
        return DEPENDS
    kind = calls[0]
    if len(players) == 1:
        return f"{kind} for {players[0]} (the one player measured)"
    if kind == UNCLEAR:
        return f"{UNCLEAR} for any strong player measured"
    return f"{kind} for every strong player measured"


def holds_for_all(label: str, kind: str) -> bool:
    """Whether ``label`` says ``kind`` (PAYS, COSTS, UNCLEAR) whatever the player."""
    return label.startswith(kind + " for")
