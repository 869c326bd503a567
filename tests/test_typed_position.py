"""A position typed by hand (docs/positions.md, "A position typed by hand"): the docs' example
reads into a view whose every card is accounted for, analyses into a ranked list, and each
thing a position cannot hold is refused in one line with exit status 2."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.core.cards import KIND_INDEX, deck_counts
from sim.core.profiles import load_rules
from sim.engine.layout import S_DECIDER, S_PILE_N, S_STOCK_N
from sim.play.positions import PositionError, read_position
from sim.play.positions.typed import typed_view
from tests.runhelpers import cli

DOC = Path(__file__).resolve().parent.parent / "docs" / "positions.md"


def example() -> str:
    """The complete example under the docs' heading, as a user would copy it."""
    text = DOC.read_text(encoding="utf-8").split("## A position typed by hand", 1)[1]
    return re.search(r"```toml\n(.*?)```", text, re.S).group(1)


@pytest.fixture
def typed(tmp_path) -> Path:
    path = tmp_path / "hand.toml"
    path.write_text(example(), encoding="utf-8")
    return path


def test_the_docs_example_reads_into_a_view_with_every_card_of_the_shoe(typed):
    """R-D2: a Foot not picked up holds the rules' Foot size; the stock holds the rest, so the
    hands, Feet, stock, pile and table add up to the shoe exactly."""
    data = tomllib.loads(example())
    position = read_position(typed)
    rules, g = position.rules, position.g
    assert position.view == 0 and g["sc"][S_DECIDER] == 0
    hand = np.zeros_like(g["hand"][0])
    for card in data["hand"].split():
        hand[KIND_INDEX[card]] += 1
    assert (g["hand"][0] == hand).all()
    assert g["sc"][S_PILE_N] == data["pile"]["size"]
    assert g["pile"][data["pile"]["size"] - 1] == KIND_INDEX[data["pile"]["top"]]
    for i, other in enumerate(data["others"], start=1):
        assert g["hand"][i].sum() == other["cards"]
        assert bool(g["on_foot"][i]) == (other["foot"] == "picked up")
        assert g["foot"][i].sum() == (0 if g["on_foot"][i] else rules.foot_size)
    assert g["foot"][0].sum() == rules.foot_size  # my Foot: not picked up, unseen
    held = int(g["hand"][:4].sum() + g["foot"][:4].sum() + g["booked"][:2].sum())
    shoe = int(deck_counts(rules.decks, rules.jokers_per_deck).sum())
    melded = sum(len(m.split()) for side in ("us", "them") for m in data[side]["melds"])
    red = data["us"]["red_threes"] + data["them"]["red_threes"]
    assert held + g["sc"][S_STOCK_N] + g["sc"][S_PILE_N] + melded + red == shoe
    assert list(g["game_score"][:2]) == data["scores"]


def test_scores_and_sides_follow_the_askers_seat():
    """Seat 1 plays for the second partnership: 'us' and the first score are its."""
    data = tomllib.loads(example())
    data["seat"] = 1
    view = typed_view(data)
    assert view["game_scores"] == data["scores"][::-1]
    assert view["teams"][1]["closed_books_by_rank"] == {"8": 1}  # us: "clean 8"
    assert view["hands"][1] == data["hand"].split()
    assert view["hands"][2] == {"count": data["others"][0]["cards"]}  # the seat after mine


def test_the_docs_example_analyses_into_a_ranked_list(typed, capsys):
    code, out, err = cli(capsys, "position", "analyze", str(typed), "--worlds", "16")
    assert code == 0, err
    rows = [line for line in out.splitlines() if re.search(r"\d+%\s+\d+%-\d+%$", line)]
    assert len(rows) >= 2 and rows[0].startswith("*")  # the recommended first
    margins = [int(re.search(r"\s([+-]\d+)\s", line).group(1)) for line in rows]
    assert margins == sorted(margins, reverse=True)
    assert max(len(line) for line in out.splitlines()) <= 100


@pytest.mark.parametrize(("change", "message"), [
    (('hand = "5 9 9', 'hand = "5 X 9'), "hand: unknown card 'X'"),
    (('"clean 8"', ', '.join(['"clean 8"'] * 15)), "more cards than the shoe holds"),
    (('"6 6 6"', '"6 2 2"'), "them.melds[1]: 1 naturals and 2 wilds break the wild ratio"),
    (('"J J J J J 2"', '"J J J K"'), "them.melds[0]: cards of more than one rank"),
    (("deal = 2\n", ""), "deal: missing"),
    (("cards = 11", "cards = 200"), "more than the"),
])
def test_what_a_position_cannot_hold_is_refused_in_one_line(tmp_path, capsys, change, message):
    text = example()
    assert change[0] in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    code, _, err = cli(capsys, "position", "analyze", str(path), "--worlds", "4")
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and message in lines[0], err


def test_a_field_no_position_has_is_refused_not_ignored():
    data = tomllib.loads(example())
    data["pile_top"] = "Q"
    with pytest.raises(PositionError, match="pile_top: not a field"):
        typed_view(data)


def test_rules_read_as_everywhere_else():
    data = tomllib.loads(example())
    assert typed_view(data)["rules"] == load_rules("standard").to_dict()
