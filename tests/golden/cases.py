"""The cases whose records and traces must stay byte-identical when play should not change:
every profile with every strategy (and mixed tables), plus custom table shapes.

``expected.json`` holds their digests as the engine produced them before the architecture
change (commit 715d02a), and the search player's (``*-pimc``) and the learned player's
(``*-learned``), added later, as last regenerated (expected.json's "changed" says why);
``python -m tests.golden.cases`` prints the digests of the current code, and
``tests/test_golden.py`` compares the two.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

from sim.core.profiles import PROFILES
from sim.core.rules import Rules, replace
from sim.play.api import play
from sim.runs.trace import trace_games, write_jsonl
from strategies.registry import StrategyInfo, from_mapping

EXPECTED = Path(__file__).with_name("expected.json")
RECORD_GAMES = 25
TRACE_GAMES = 2
ALT = {"base": "tactician", "hold_wilds": 2, "go_out": 1, "grant": 2, "discard_safety": 1,
       "keep_pairs": 1, "books_before_partner": 1, "open_extra": 30, "min_pile": 3,
       "wild_book_first": 0, "black3_block": 0}
STRATEGIES = ("random", "greedy", "tactician", "cautious", "mixed", "tactician-alt", "all4")
SHAPE_STRATEGIES = ("random", "greedy", "tactician-alt", "all4")
# The search player at its registered defaults against cautious, in every profile: a search
# decision costs about a thousand heuristic ones, so these cases play fewer games (records of
# PIMC_GAMES games, a trace of one).
PIMC_PROFILES = tuple(PROFILES)
PIMC_GAMES = 2
# The learned player (its shipped model of the profile, its base policy tuned) against tuned,
# in two profiles that ship a model (partnerships and individual play): records of
# LEARNED_GAMES games, a trace of one. These also pin the shipped models
# (strategies/learned/models/): a refitted model changes them, and is regenerated with its
# reason.
LEARNED_PROFILES = ("standard", "simpson")
LEARNED_GAMES = 4


def seats(players: int, name: str) -> list[str | StrategyInfo]:
    if name == "mixed":
        return ["greedy" if s % 2 == 0 else "random" for s in range(players)]
    if name == "tactician-alt":
        return [from_mapping(dict(ALT), "tactician-alt")] * players
    if name == "pimc":
        return ["pimc" if s % 2 == 0 else "cautious" for s in range(players)]
    if name == "learned":
        return ["learned" if s % 2 == 0 else "tuned" for s in range(players)]
    if name == "all4":
        pool = ["greedy", "random", "tactician", "cautious"]
        return [pool[s % 4] for s in range(players)]
    return [name] * players


def shapes() -> dict[str, Rules]:
    std = PROFILES["standard"][0]
    return {
        "p3-individual": replace(std, players=3, partnerships=3, decks=4),
        "p5-individual": replace(std, players=5, partnerships=5, decks=6),
        "p6-3teams": replace(std, players=6, partnerships=3, decks=7),
        "p6-2teams": replace(std, players=6, partnerships=2, decks=7),
    }


def cases() -> Iterator[tuple[str, Rules, str]]:
    for profile, (rules, _) in PROFILES.items():
        for strategy in STRATEGIES:
            yield f"{profile}-{strategy}", rules, strategy
    for shape, rules in shapes().items():
        for strategy in SHAPE_STRATEGIES:
            yield f"{shape}-{strategy}", rules, strategy
    for profile in PIMC_PROFILES:
        yield f"{profile}-pimc", PROFILES[profile][0], "pimc"
    for profile in LEARNED_PROFILES:
        yield f"{profile}-learned", PROFILES[profile][0], "learned"


# The record fields of commit 715d02a, in its order: later fields (added for reports) are not
# part of the comparison, so adding a metric does not hide a change of play.
RECORD_FIELDS_715D02A = (
    "seed", "game", "deal", "dealer", "turns", "end_reason", "out_seat", "truncated", "score",
    "melded", "left", "red3", "books", "out", "grab22", "books_clean", "books_dirty",
    "books_wild", "books_black3", "open_turn", "foot_turn")


def digest(rules: Rules, strategy: str) -> dict:
    from numpy.lib.recfunctions import repack_fields

    table = seats(rules.players, strategy)
    games, traced = {"pimc": (PIMC_GAMES, 1), "learned": (LEARNED_GAMES, 1)}.get(
        strategy, (RECORD_GAMES, TRACE_GAMES))
    records = repack_fields(play(rules, table, 11, 0, games)[list(RECORD_FIELDS_715D02A)])
    buf = io.StringIO()
    write_jsonl(trace_games(rules, table, 5, 0, traced), buf)
    text = buf.getvalue()
    return {"sha256": hashlib.sha256(text.encode()).hexdigest(), "lines": text.count("\n"),
            "records_sha256": hashlib.sha256(records.tobytes()).hexdigest()}


if __name__ == "__main__":
    # python -m tests.golden.cases [CASE-PREFIX ...] "why": print expected.json with the named
    # cases regenerated from the current code and the reason recorded.
    saved = json.loads(EXPECTED.read_text())
    prefixes, why = sys.argv[1:-1], sys.argv[-1] if len(sys.argv) > 2 else ""
    for name, rules, strategy in cases():
        if any(name.startswith(p) or p in name for p in prefixes):
            new = digest(rules, strategy)
            if new != saved["cases"].get(name):  # a case new to expected.json is added
                saved["cases"][name] = new
                saved["changed"][name] = why
    json.dump(saved, sys.stdout, indent=1, sort_keys=True)
    print()
