"""R-V4 with R-V7: where completed books take more naturals (books = "naturals") and black
threes may be melded, a black-three meld still closes at 7, because black threes are not
naturals. The rule file and seed below (issue 10) once let seat 1 lay two black threes onto its
partnership's black-three meld of 6 (greedy: game 9, deal 4; random: game 2, deal 4); the
engine and the independent checker must both keep such melds at 7. (The checker's mutations
on the same rule file and seed: tests/test_trace_checker_mutations.py, RULE_SET_MUTATIONS.)"""

from __future__ import annotations

from collections import defaultdict

import pytest

from sim.core.profiles import rules_from_mapping
from sim.engine.reasons import E_BOOK_CLOSED, E_ONTO_BOOK, OK
from sim.runs.trace import trace_games
from tests.position import entries, position
from tests.trace_checker import check_trace
from tests.trace_checker.mutations import black3_meld_past_seven, caught_by

RULE_FILE = {"base": "standard", "books": "naturals", "black3_melds": True, "decks": 8}


# Where the engine once made 8: (game, deal) of `handfoot trace --games 20 --seed 3002 --rules
# FILE --strategy NAME`, in which seat 1 meets its partnership's black-three meld of 6.
ISSUE_SITES = {"greedy": (9, 4), "random": (2, 4)}


def black3_entries(lines: list[dict]) -> list[tuple[int, int, int, int, int]]:
    """(game, deal, seat, cards laid, size after) of every black-three meld entry; the size
    is the partnership's unfinished black-three meld's."""
    size: dict[int, int] = defaultdict(int)
    seen = []
    teams = 2
    game = deal = -1
    for line in lines:
        if line["type"] == "deal":
            size.clear()
            game, deal = line["game"], line["deal"]
        for entry in line.get("melds", []) if line["type"] in ("meld", "pickup") else []:
            if entry["rank"] == "B3":
                team = line["seat"] % teams
                size[team] += len(entry["cards"])
                seen.append((game, deal, line["seat"], len(entry["cards"]), size[team]))
                if size[team] >= 7:
                    size[team] = 0  # the book closes
    return seen


@pytest.mark.parametrize("strategy", ["greedy", "random"])
def test_R_V4_R_V7_black_three_melds_close_at_seven_in_play(strategy):
    """The issue's rule file and seed: in the game and deal where seat 1 once laid two black
    threes onto a meld of 6, it now lays one and the book closes at 7 (engine); no black-three
    meld passes 7 in any of the 20 games, and the checker accepts them all."""
    rules = rules_from_mapping(dict(RULE_FILE), "black3-naturals.toml")
    lines = list(trace_games(rules, [strategy] * 4, 3002, 0, 20))
    entries_ = black3_entries(lines)
    assert max(after for *_, after in entries_) == 7
    game, deal = ISSUE_SITES[strategy]
    site = [(seat, laid, after) for g, d, seat, laid, after in entries_
            if (g, d) == (game, deal) and seat % 2 == 1]
    assert (1, 1, 7) in site and any(after == 6 for _, _, after in site), site
    assert check_trace(lines) == []
    # The checker refuses that deal with a black-three meld taken to 8 (R-V4).
    starts = [i for i, line in enumerate(lines) if line["type"] == "deal"] + [len(lines)]
    first = next(i for i in starts[:-1] if (lines[i]["game"], lines[i]["deal"]) == (game, deal))
    issue_deal = [line for line in lines[first:starts[starts.index(first) + 1]]
                  if line["type"] != "game"]  # the deal alone, without its game's totals
    assert check_trace(issue_deal) == []
    eight = black3_meld_past_seven(issue_deal)
    assert eight is not None
    assert caught_by(check_trace(eight), "R-V4/closed-kind-over-seven")


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
