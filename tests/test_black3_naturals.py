"""R-V4 with R-V7: where completed books take more naturals (books = "naturals") and black
threes may be melded, a black-three meld still closes at 7, because black threes are not
naturals. The rule file and seed below once let seat 1 lay two black threes onto its
partnership's black-three meld of 6 (game 9, deal 4); the engine and the independent checker
must both keep such melds at 7."""

from __future__ import annotations

from collections import defaultdict

import pytest

from sim.core.profiles import rules_from_mapping
from sim.engine.reasons import E_BOOK_CLOSED, E_ONTO_BOOK, OK
from sim.runs.trace import trace_games
from tests.position import entries, position
from tests.trace_checker import check_trace

RULE_FILE = {"base": "standard", "books": "naturals", "black3_melds": True, "decks": 8}


def black3_meld_sizes(lines: list[dict]) -> list[int]:
    """Size of each partnership's unfinished black-three meld after every entry."""
    size: dict[int, int] = defaultdict(int)
    seen = []
    teams = 2
    for line in lines:
        if line["type"] == "deal":
            size.clear()
        for entry in line.get("melds", []) if line["type"] in ("meld", "pickup") else []:
            if entry["rank"] == "B3":
                team = line["seat"] % teams
                size[team] += len(entry["cards"])
                seen.append(size[team])
                if size[team] >= 7:
                    size[team] = 0  # the book closes
    return seen


@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_R_V4_R_V7_black_three_melds_close_at_seven_in_play(strategy):
    rules = rules_from_mapping(dict(RULE_FILE), "black3-naturals.toml")
    lines = list(trace_games(rules, [strategy] * 4, 3002, 0, 20))
    sizes = black3_meld_sizes(lines)
    assert sizes, "these games lay black-three melds"
    assert max(sizes) == 7, f"a black-three meld reached {max(sizes)}"
    assert check_trace(lines) == []


def test_R_V4_black_threes_cannot_take_a_meld_past_seven_or_join_a_book():
    rules = rules_from_mapping(dict(RULE_FILE), "black3-naturals.toml")
    pos = position(hands={0: ["B3", "B3", "9", "9"]}, melds=[(0, "B3", ["B3"] * 6)],
                   opened=(0,), rules=rules)
    e, n = entries(("B3", ["B3", "B3"]))
    assert pos.lay(0, e, n) == E_BOOK_CLOSED
    e, n = entries(("B3", ["B3"]))
    assert pos.lay(0, e, n) == OK  # exactly 7: the book closes
    assert pos[0]["books"][0, 3] == 1
    e, n = entries(("B3", ["B3"]))
    e[0, 4] = 1  # onto the closed book, as naturals may (R-V4): not black threes
    assert pos.lay(0, e, n) == E_ONTO_BOOK
