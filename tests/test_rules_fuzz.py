"""Random rule sets: each is refused with a message naming a knob, or plays 200 deals with
card conservation checked after every action and no truncated deal. Never a crash."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from sim.core.profiles import PROFILES, rules_from_mapping
from sim.core.rules import CHOICES, RulesError
from sim.play.api import make_table, play

per_deal = hs.one_of(hs.integers(-1, 6), hs.lists(hs.integers(0, 5), min_size=4, max_size=4))
knobs = {
    "players": hs.integers(1, 7),
    "partnerships": hs.integers(1, 7),
    "decks": hs.integers(0, 9),
    "jokers_per_deck": hs.integers(0, 4),
    "hand_size": hs.integers(5, 20),
    "foot_size": hs.integers(5, 20),
    "opening_minimums": hs.lists(hs.integers(0, 200), min_size=3, max_size=5),
    "deal4_concealed_book": hs.booleans(),
    "pickup_size": hs.integers(0, 12),
    "max_wilds_per_meld": hs.integers(0, 4),
    "wild_melds": hs.booleans(),
    "black3_melds": hs.booleans(),
    "wild_top_pickup": hs.booleans(),
    "final_discard_required": hs.booleans(),
    "partner_foot_required": hs.booleans(),
    "red3_penalty": hs.integers(0, 600),
    "out_clean_books": per_deal,
    "out_dirty_books": per_deal,
    "out_wild_books": per_deal,
    "grab22_bonus": hs.integers(0, 300),
    "grab22_chance": hs.floats(0, 1),
    "bogus_knob": hs.integers(0, 1),
}
for name, choices in CHOICES.items():
    knobs[name] = hs.sampled_from(choices + ("nonsense",))

rule_sets = hs.fixed_dictionaries(
    {"base": hs.sampled_from(sorted(PROFILES))},
    optional={k: v for k, v in knobs.items()},
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_sets, hs.sampled_from(["greedy", "random"]))
def test_random_rule_sets_are_refused_clearly_or_play_cleanly(data, strategy):
    try:
        rules = rules_from_mapping(data, "fuzz")
    except RulesError as exc:
        assert re.match(r"(rule '\w+': |fuzz: )", str(exc)), str(exc)
        return
    seats = [strategy if s % 2 == 0 else "greedy" for s in range(rules.players)]
    table = make_table(rules, seats, checked=True)
    rec = play(rules, seats, seed=1, first_game=0, n_games=50, checked=True, table=table)
    assert len(rec) == 200
    assert int(rec["truncated"].sum()) == 0
    total = rec["melded"] + rec["left"] + rec["red3"] + rec["books"] + rec["out"] + rec["grab22"]
    assert (total == rec["score"]).all()
