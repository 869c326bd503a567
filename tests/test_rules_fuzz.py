"""Random rule sets. Valid ones come from their own generator, which draws many knobs at once
over any profile (combinations no profile names, such as growing-by-naturals books with
black-three melds); each must be accepted and play cleanly: card conservation checked after
every action, no truncated deal, every score the sum of its parts, and a minimum number of
them actually played. Broken ones are a valid set with exactly one knob made wrong; each is
refused with a message that names that knob. Never a crash."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as hs

from sim.core.profiles import PROFILES, rules_from_mapping
from sim.core.rules import CHOICES, MAX_SEATS, RulesError
from sim.play.api import make_table, play

# (players, partnerships) the rules allow: partnerships of 2 or 3, or individual play (R-D1).
SHAPES = [(p, t) for p in range(2, MAX_SEATS + 1) for t in range(2, p + 1)
          if p % t == 0 and (t == p or p // t in (2, 3))]
PER_DEAL = ("opening_minimums", "out_clean_books", "out_dirty_books", "out_wild_books")
VALID_SETS = 50  # rule sets played (each accepted, or the test fails)
GAMES = 8  # games of each


@hs.composite
def valid_rule_sets(draw) -> dict:
    """A rule file's table that the rules accept: a base profile, the table's shape, decks
    enough for it, the going-out books the shoe can make, and any of the other knobs."""
    maybe = hs.booleans()
    data: dict = {"base": draw(hs.sampled_from(sorted(PROFILES)))}
    if draw(maybe):
        data["players"], data["partnerships"] = draw(hs.sampled_from(SHAPES))
    base = PROFILES[data["base"]][0]
    players = data.get("players", base.players)
    for name, low, high in (("hand_size", 5, 15), ("foot_size", 5, 15), ("jokers_per_deck", 0, 4)):
        if draw(maybe):
            data[name] = draw(hs.integers(low, high))
    hand, foot = data.get("hand_size", base.hand_size), data.get("foot_size", base.foot_size)
    per_deck = 52 + data.get("jokers_per_deck", base.jokers_per_deck)
    fewest = -(-(players * (hand + foot) + 1) // per_deck)  # at most 4 with these sizes
    data["decks"] = draw(hs.integers(fewest, 8))
    for name, choices in CHOICES.items():
        if draw(maybe):
            data[name] = draw(hs.sampled_from(choices))
    for name in ("deal4_concealed_book", "wild_top_pickup", "black3_melds",
                 "final_discard_required", "partner_foot_required"):
        if draw(maybe):
            data[name] = draw(hs.booleans())
    for name, low, high in (("pickup_size", 1, 12), ("max_wilds_per_meld", 0, 4),
                            ("red3_bonus", 0, 500), ("red3_penalty", 0, 600),
                            ("clean_book_bonus", 0, 1000), ("dirty_book_bonus", 0, 600),
                            ("going_out_bonus", 0, 400), ("grab22_bonus", 0, 300)):
        if draw(maybe):
            data[name] = draw(hs.integers(low, high))
    if draw(maybe):
        data["grab22_chance"] = draw(hs.floats(0, 1))
    if draw(maybe):
        data["opening_minimums"] = draw(hs.lists(hs.integers(0, 40).map(lambda v: 5 * v),
                                                 min_size=4, max_size=4))
    # Going out: books the shoe can make (every deal, so no base's requirement is left over).
    wild_melds = data.setdefault("wild_melds", draw(hs.booleans()))
    wilds = data["decks"] * (4 + data.get("jokers_per_deck", base.jokers_per_deck))
    for d, name in enumerate(("out_clean_books", "out_dirty_books", "out_wild_books")):
        most = (2, 2, min(2, (wilds - 2) // 7) if wild_melds else 0)[d]
        data[name] = draw(hs.one_of(hs.integers(0, most),
                                    hs.lists(hs.integers(0, most), min_size=4, max_size=4)))
    return data


def play_cleanly(data: dict, strategy: str) -> None:
    rules = rules_from_mapping(data, "fuzz")  # a refusal here fails: the set is valid
    seats = [strategy if s % 2 == 0 else "greedy" for s in range(rules.players)]
    table = make_table(rules, seats, checked=True)
    rec = play(rules, seats, seed=1, first_game=0, n_games=GAMES, checked=True, table=table)
    assert len(rec) == 4 * GAMES
    assert int(rec["truncated"].sum()) == 0
    total = rec["melded"] + rec["left"] + rec["red3"] + rec["books"] + rec["out"] + rec["grab22"]
    assert (total == rec["score"]).all()


def test_valid_rule_sets_are_accepted_and_play_cleanly():
    played: list[int] = []

    @settings(max_examples=VALID_SETS, deadline=None, database=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow])
    @given(valid_rule_sets(), hs.sampled_from(["greedy", "random"]))
    def check(data, strategy):
        play_cleanly(data, strategy)
        played.append(len(data) - 6)  # knobs named beyond base, decks, wild_melds, out_*

    check()
    assert len(played) >= VALID_SETS, f"only {len(played)} rule sets played"
    # Knob combinations, not one knob at a time: most sets change several other knobs.
    assert sum(n >= 3 for n in played) >= VALID_SETS // 2, played


def test_the_generator_reaches_knob_combinations_no_profile_has():
    """For example the combination of issue 10 (tests/test_black3_naturals.py): completed
    books that take more naturals, with black-three melds, over a profile that has neither."""
    found = find(valid_rule_sets(), lambda d: d.get("books") == "naturals"
                 and d.get("black3_melds") is True and not PROFILES[d["base"]][0].black3_melds,
                 settings=settings(database=None, derandomize=True, max_examples=1000,
                                   phases=[Phase.generate]))
    play_cleanly(found, "greedy")


# Values outside each knob's range (the type is right).
OUT_OF_RANGE = {"players": [1, 7, 9], "partnerships": [1, 7], "decks": [0, 9],
                "hand_size": [0, 31], "foot_size": [0, 31], "pickup_size": [0, 51],
                "max_wilds_per_meld": [-1, 11], "red3_penalty": [-5, 10_001],
                "jokers_per_deck": [-1, 5], "grab22_chance": [-0.5, 1.5],
                "opening_minimums": [[50, 90, 120, 10_001], [-5, 0, 0, 0]]}
WRONG_TYPE = {"decks": ["five", 2.5, [5]], "hand_size": ["13", 13.0], "pickup_size": [True],
              "wild_melds": [1, "yes"], "black3_melds": [0], "grab22_chance": ["1%"]}


def break_one(data: dict, how: str, draw) -> tuple[dict, str]:
    """``data`` with one knob made wrong in the way ``how`` names; that knob."""
    out = dict(data)
    if how == "out of range":
        knob = draw(hs.sampled_from(sorted(OUT_OF_RANGE)))
        out[knob] = draw(hs.sampled_from(OUT_OF_RANGE[knob]))
    elif how == "wrong type":
        knob = draw(hs.sampled_from(sorted(WRONG_TYPE)))
        out[knob] = draw(hs.sampled_from(WRONG_TYPE[knob]))
    elif how == "not a choice":
        knob = draw(hs.sampled_from(sorted(CHOICES)))
        out[knob] = "nonsense"
    elif how == "per-deal list of another length":
        knob = draw(hs.sampled_from(PER_DEAL))
        n = draw(hs.sampled_from([0, 3, 5]))
        out[knob] = draw(hs.lists(hs.integers(0, 2), min_size=n, max_size=n))
    elif how == "unknown knob":
        knob = "colour"
        out[knob] = 3
    elif how == "partnerships that do not divide the players":
        knob = "partnerships"
        out.update(players=5, partnerships=2, decks=8, hand_size=11, foot_size=11)
    elif how == "too few cards":
        knob = "decks"
        out.update(players=6, partnerships=2, hand_size=15, foot_size=15, decks=3)
    elif how == "wild books without wild melds":
        knob = "out_wild_books"
        out.update(wild_melds=False, out_wild_books=draw(hs.integers(1, 2)))
    else:  # "books the shoe cannot make"
        knob = "out_clean_books"
        out.update(out_clean_books=20, decks=2, players=2, partnerships=2)
    return out, knob


BREAKS = ["out of range", "wrong type", "not a choice", "per-deal list of another length",
          "unknown knob", "partnerships that do not divide the players", "too few cards",
          "wild books without wild melds", "books the shoe cannot make"]


@settings(max_examples=150, deadline=None, database=None, derandomize=True)
@given(valid_rule_sets(), hs.sampled_from(BREAKS), hs.data())
def test_a_refusal_names_the_knob_that_is_wrong(data, how, more):
    """A valid set with one knob made wrong is refused, and the message names that knob."""
    broken, knob = break_one(data, how, more.draw)
    with pytest.raises(RulesError) as refused:
        rules_from_mapping(broken, "fuzz")
    assert re.match(rf"rule '{knob}': ", str(refused.value)), (how, str(refused.value))
