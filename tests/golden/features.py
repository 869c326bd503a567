"""Golden feature vectors: the learned player's features (strategies/lookahead/features.py) at a
few fixed positions, from every seat's view, as ``features.json`` holds them.

Each position is reached by dealing one deal of a fixed seed and playing it a fixed number of
steps (``deal_steps``: each pending decision and each moment between turns is a step; greedy
and cautious seats alternate), with a game score set by hand as if the game's earlier deals
had been scored. ``tests/test_golden.py`` compares every slot of every
vector exactly, by name.

Regenerate (``python -m tests.golden.features "why" > tests/golden/features.json``) only when
a feature's meaning is meant to change, which is a new ``FEATURE_VERSION`` (the shipped models
are refitted for it), or when play up to these positions changes on purpose (the golden play
cases in ``expected.json`` change with it). Never to make a failing test pass otherwise: a
vector that moved while nothing was meant to change is the bug these cases exist to catch.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from sim.core.enums import NO_DECISION
from sim.core.profiles import PROFILES
from sim.core.rules import Rules, replace
from sim.engine.flow import apply_decision, ended, next_turn, start_deal
from sim.engine.layout import S_DECIDER, S_DECISION, W_ENTRIES, W_LINES
from sim.play.api import make_table
from strategies.builtin import ask_builtin
from strategies.lookahead.features import write_features
from strategies.lookahead.schema import FEATURE_NAMES, FEATURE_VERSION, N_FEATURES

FEATURES = Path(__file__).with_name("features.json")

_STD = PROFILES["standard"][0]
SHAPES: dict[str, Rules] = {
    "standard": _STD,
    "saskatchewan": PROFILES["saskatchewan"][0],
    "brouillette": PROFILES["brouillette"][0],
    "eleven": PROFILES["eleven"][0],
    "p3-individual": replace(_STD, players=3, partnerships=3, decks=4),
    "p6-3teams": replace(_STD, players=6, partnerships=3, decks=7),
}

# name: (shape, seed, deal, steps played, game score by partnership)
CASES: dict[str, tuple[str, int, int, int, tuple[int, ...]]] = {
    "standard-deal1-opening": ("standard", 3, 1, 40, (0, 0)),
    "standard-deal1-grant": ("standard", 1, 1, 279, (0, 0)),
    "standard-deal2-midgame": ("standard", 8, 2, 170, (1450, -320)),
    "standard-deal4-late": ("standard", 5, 4, 260, (6250, 7010)),
    "saskatchewan-deal4": ("saskatchewan", 2, 4, 150, (3300, 2900)),
    "brouillette-deal3-frozen": ("brouillette", 1, 3, 300, (900, -400, 1200, 150)),
    "eleven-deal1": ("eleven", 4, 1, 180, (0, 0)),
    "p3-individual-deal2": ("p3-individual", 9, 2, 140, (500, 1250, -150)),
    "p6-3teams-deal3": ("p6-3teams", 1, 3, 230, (2100, 2600, 1900)),
}


def deal_steps(rules: Rules, seed: int, deal: int, score: tuple[int, ...]) -> Iterator:
    """The table before every step of deal ``deal`` of game 0 of ``seed`` (each pending
    decision and each moment between turns), the game score set to ``score`` beforehand.
    Greedy and cautious seats alternate; both are built-in heuristics, asked directly
    (``strategies.builtin.ask_builtin``, as the compiled loop asks them) rather than through
    ``sim.play.loop.decide``, whose call from Python costs milliseconds."""
    if len(score) != rules.partnerships:
        raise ValueError(f"a game score for {rules.partnerships} partnerships, not {score}")
    table = make_table(rules, ["greedy" if s % 2 == 0 else "cautious"
                               for s in range(rules.players)])
    g, w, t, _, _, _, fast = table.records()
    if not all(fast[: rules.players]):
        raise AssertionError("a seat that is not a built-in heuristic")
    g["game_score"][:] = 0
    g["game_score"][: len(score)] = score
    start_deal(g, w, t, seed, 0, deal)
    while not ended(g):
        yield table
        sc = g["sc"]
        if sc[S_DECISION] == NO_DECISION:
            next_turn(g, t)
            continue
        w["sc"][W_LINES] = 0  # sim.engine.flow.clear_proposal
        w["sc"][W_ENTRIES] = 0
        seat = int(sc[S_DECIDER])
        apply_decision(g, w, t, ask_builtin(int(fast[seat]), int(sc[S_DECISION]), g, w, seat))


def position_at(shape: str, seed: int, deal: int, steps: int, score: tuple[int, ...]):
    """The table after ``steps`` steps of deal ``deal`` of game 0 of ``seed``."""
    for step, table in enumerate(deal_steps(SHAPES[shape], seed, deal, score)):
        if step == steps:
            return table
    raise ValueError(f"{shape} seed {seed} deal {deal} ended before step {steps}")


def vectors(shape: str, seed: int, deal: int, steps: int, score: tuple[int, ...]) -> dict:
    """Every seat's feature vector at the position, slot name to value."""
    table = position_at(shape, seed, deal, steps, score)
    out = np.zeros(N_FEATURES)
    views = {}
    for seat in range(SHAPES[shape].players):
        n = write_features(table.g, seat, out)
        if n != N_FEATURES:
            raise AssertionError(f"write_features wrote {n} slots, not {N_FEATURES}")
        views[f"seat {seat}"] = {name: float(v) for name, v in zip(FEATURE_NAMES, out, strict=True)}
    return views


def all_vectors() -> dict:
    return {name: vectors(*case) for name, case in CASES.items()}


if __name__ == "__main__":
    # python -m tests.golden.features "why" > tests/golden/features.json
    why = sys.argv[1] if len(sys.argv) > 1 else ""
    json.dump({"feature_version": FEATURE_VERSION, "generated_by":
               "python -m tests.golden.features", "why": why, "positions":
               {name: dict(zip(("shape", "seed", "deal", "steps", "game_score"), case,
                                strict=True))
                for name, case in CASES.items()}, "vectors": all_vectors()},
              sys.stdout, indent=1)
    print()
