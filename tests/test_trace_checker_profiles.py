"""The trace referee under every rule set: knobs read from the `deal` line's `rules` object.

Hand-made traces (tests/trace_checker/builder.py) for each profile-specific rule of docs/rules.md
sections 11-13 (R-V1..R-V11) and the knobs of the `rules` object, accepted when legal and
rejected when not. Test names cite the rule ids; expected scores are worked out by hand.
"""

from __future__ import annotations

import copy

import pytest

try:
    from tests.trace_checker import check_trace
    from tests.trace_checker.assertions import assert_flags, assert_ok, check, n
    from tests.trace_checker.builder import PROFILE_RULES, TraceBuilder, make_deal
except ImportError:  # plain `pytest` puts tests/ (not the repo root) on sys.path
    from trace_checker import check_trace
    from trace_checker.assertions import assert_flags, assert_ok, check, n
    from trace_checker.builder import PROFILE_RULES, TraceBuilder, make_deal

# R-C3, written out here independently of the checker's tables.
VALUES = {
    **dict.fromkeys(["4", "5", "6", "7"], 5),
    **dict.fromkeys(["8", "9", "10", "J", "Q", "K"], 10),
    "A": 20,
    "2": 20,
    "JK": 50,
    "B3": 5,
    "R3": 0,
}
ELEVEN = PROFILE_RULES["eleven"]
SASK = PROFILE_RULES["saskatchewan"]
SIMPSON = PROFILE_RULES["simpson"]
BROU = PROFILE_RULES["brouillette"]
BROU_P = PROFILE_RULES["brouillette-partners"]


def entry_(rank: str, text: str) -> dict:
    return {"rank": rank, "cards": text.split()}


def deal(rules: dict, name: str = "custom", **kw: object) -> TraceBuilder:
    return TraceBuilder(make_deal(rules=rules, name=name, **kw))


def end_line(
    b: TraceBuilder,
    reason: str,
    melded: dict[int, int] | None = None,
    books: dict[int, int] | None = None,
    out: dict[int, int] | None = None,
    grab22: dict[int, int] | None = None,
) -> dict:
    """R-S1..R-S5 by partnership: left and red threes from the builder's held cards, with the
    red-three knobs of the deal (+bonus exposed, -penalty hidden: R-S3, R-V6)."""
    rules = b.lines[0]["rules"]
    parts = rules["partnerships"]
    breakdown = []
    for p in range(parts):
        left = hidden = 0
        for seat in range(rules["players"]):
            if seat % parts != p:
                continue
            for cards in (b.hands[seat], b.feet[seat]):
                left -= sum(VALUES[k] * c for k, c in cards.items())
                hidden += cards["R3"]
        part = {
            "melded": (melded or {}).get(p, 0),
            "left": left,
            "red3": rules["red3_bonus"] * b.exposed[p] - rules["red3_penalty"] * hidden,
            "books": (books or {}).get(p, 0),
            "out": (out or {}).get(p, 0),
        }
        if grab22 is not None:
            part["grab22"] = grab22.get(p, 0)
        breakdown.append(part)
    return {
        "type": "end",
        "reason": reason,
        "scores": [sum(d.values()) for d in breakdown],
        "breakdown": breakdown,
    }


def opened(rules: dict, hand: str, stock_top: str = "4 5", **kw: object) -> TraceBuilder:
    """Seat 0 has drawn and opened with A A A (60 >= 50, deal 1); its turn goes on.

    The Hand size is raised to hold `hand` where the rule set's Hands are smaller."""
    cards = ["A", "A", "A", *hand.split()]
    size = max(len(cards), rules.get("hand_size", 13))
    rules = {**rules, "hand_size": size}
    return deal(rules, hands=[cards], stock_top=stock_top, **kw).draw(0).meld(0, ("A", "A A A"))


def pile_then(
    rules: dict, discards: list[str], hands: list[str] | None = None, **kw: object
) -> TraceBuilder:
    """Seats 0, 1, 2, ... draw (queens) and discard `discards` in turn: a pile to pick up."""
    players = rules.get("players", 4)
    held = [[] for _ in range(players)]
    for i, card in enumerate(discards):
        held[i % players].append(card)
    hands = hands or [""] * players
    d = make_deal(
        rules=rules,
        hands=[" ".join(h) + " " + extra for h, extra in zip(held, hands, strict=True)],
        stock_top=n("Q", 2 * len(discards)),
        **kw,
    )
    b = TraceBuilder(d)
    for i, card in enumerate(discards):
        b.draw(i % players).discard(i % players, card)
    return b


# -- the rules object: knobs, not names ------------------------------------------------------
def test_knobs_come_from_rules_not_from_the_profile_name() -> None:
    """Hands of 11 are right under eleven's knobs whatever the deal line's name says."""
    d = make_deal(rules=ELEVEN, name="standard")
    assert_ok([d])
    d["rules"] = {}  # no knobs: `standard` as in docs/rules.md sections 1-10
    assert_flags([d], "R-D2")


def test_PROFILE_rules_object_must_be_usable() -> None:
    d = make_deal(rules=SASK, name="saskatchewan")
    bad = copy.deepcopy(d)
    bad["rules"]["books"] = "sometimes"
    assert [v.rule for v in check([bad])] == ["PROFILE"]
    bad = copy.deepcopy(d)
    bad["rules"]["house_rule"] = 1
    assert [v.rule for v in check([bad])] == ["PROFILE"]
    bad = copy.deepcopy(d)
    del bad["rules"]["grab22_chance"]  # missing: reported, the standard value is used
    assert [v.rule for v in check([bad])] == ["PROFILE"]
    bad = copy.deepcopy(d)
    bad["rules"]["partnerships"] = 3  # 4 players cannot sit as 3 equal partnerships
    assert [v.rule for v in check([bad])] == ["PROFILE"]
    bad = copy.deepcopy(d)
    bad["rules"]["out_clean_books"] = [1, 1, 1]  # one number per deal
    assert [v.rule for v in check([bad])] == ["PROFILE"]


@pytest.mark.parametrize("name", list(PROFILE_RULES))
def test_R_V1_R_D2_R_D3_every_named_profile_deals(name: str) -> None:
    assert_ok([make_deal(rules=PROFILE_RULES[name], name=name)])


def test_R_V1_R_C1_decks_and_jokers_per_deck() -> None:
    d = make_deal(rules=ELEVEN)  # 4 decks of 54
    assert len(d["stock"]) == 216 - 4 * 22 - 1
    bad = copy.deepcopy(d)
    bad["stock"][bad["stock"].index("4")] = "JK"
    assert_flags([bad], "R-C1")
    d = make_deal(rules={"jokers_per_deck": 3})
    assert len(d["stock"]) == 5 * 55 - 4 * 26 - 1
    assert_ok([d])
    bad = copy.deepcopy(d)
    bad["stock"].remove("JK")  # one joker short of 15
    assert_flags([bad], "R-C1")


# -- seating: R-V2, R-X16 ----------------------------------------------------------------------
SIX_TWO = {"players": 6, "decks": 7}
SIX_THREE = {"players": 6, "partnerships": 3, "decks": 7}


@pytest.mark.rule("R-O1")
def test_R_V2_six_players_as_two_partnerships_of_three() -> None:
    """Seats 1, 3, 5 play for partnership 1: seat 3 extends seat 1's opening freely; seat 2's
    partnership 0 has not opened (R-O1)."""
    d = make_deal(rules=SIX_TWO, hands=["", "A A A", "", "A K K K", "", ""])
    assert d["dealer"] == 5 and len(d["hands"]) == 6
    b = TraceBuilder(d).idle_turn(0).draw(1).meld(1, ("A", "A A A")).discard(1, "4")
    b.idle_turn(2).draw(3).meld(3, ("A", "A")).discard(3, "4")
    assert_ok(b.lines)
    d2 = make_deal(rules=SIX_TWO, hands=["", "", "K K K"])
    b = TraceBuilder(d2).idle_turn(0).idle_turn(1).draw(2).meld(2, ("K", "K K K"))
    assert_flags(b.lines, "R-O1", first=True)


def test_R_X16_dealer_rotates_with_six_players() -> None:
    d = make_deal(rules=SIX_THREE, deal=2)
    assert d["dealer"] == 0
    assert_ok(TraceBuilder(d).idle_turn(1).idle_turn(2).lines)
    assert_flags(TraceBuilder(d).idle_turn(0).lines, "R-D4", first=True)
    d["dealer"] = 5
    assert_flags([d], "R-X16")


def test_R_V2_three_players_individual_scores_three_partnerships() -> None:
    """Custom: 3 players for themselves, 2 decks of 54, 10 + 10 each: 47 stock cards."""
    rules = {"players": 3, "partnerships": 3, "decks": 2, "hand_size": 10, "foot_size": 10}
    b = deal(rules)
    assert len(b.stock) == 108 - 60 - 1
    seat = 0
    while len(b.stock) >= 2 and not b.stock_ran_out:
        b.idle_turn(seat)
        seat = (seat + 1) % 3
    end = end_line(b, "stock")
    assert len(end["scores"]) == 3
    assert_ok(b.lines + [end], complete=True)
    bad = copy.deepcopy(end)
    bad["scores"] = bad["scores"][:2]
    assert_flags(b.lines + [bad], "TRACE")


# -- the starting card: R-D3, R-V10 ------------------------------------------------------------
def test_R_V10_no_starting_card() -> None:
    d = make_deal(rules=SIMPSON)
    assert d["discard"] == []
    assert_ok([d])
    assert_flags([make_deal(rules=SIMPSON, discard="4")], "R-V10")


def test_R_D3_starting_card_bury_or_keep() -> None:
    assert_flags([make_deal(rules={"starting_card": "bury"}, discard="2")], "R-D3")
    assert_flags([make_deal(rules={"starting_card": "bury"}, discard="R3")], "R-D3")
    for card in ("2", "JK", "R3", "B3", "K"):
        assert_ok([make_deal(rules={"starting_card": "keep"}, discard=card)])
    assert_flags([make_deal(rules={"starting_card": "keep"}, discard=[])], "R-D3")


def test_keep_a_red_three_in_the_pile_is_exposed_after_the_pickup() -> None:
    """starting_card keep + red3_rule expose: the kept red three is taken by the pick-up and
    exposed right after the `pickup` line (count = red threes among the kept cards)."""
    rules = {"starting_card": "keep"}
    d = make_deal(rules=rules, discard="R3", hands=["K", "K K A A A"], stock_top="4 5 9")
    b = TraceBuilder(d).draw(0).discard(0, "K").pickup(1, ("K", "K K K"), ("A", "A A A"))
    assert b.lines[-1] == {"type": "red3", "seat": 1, "count": 1, "replaced_with": ["9"]}
    b.discard(1, "9")
    assert_ok(b.lines)
    b = TraceBuilder(d).draw(0).discard(0, "K")
    b.pickup(1, ("K", "K K K"), ("A", "A A A"), red3=False).discard(1, "A")
    assert_flags(b.lines, "R-T3", first=True)


def test_keep_a_red_three_on_top_blocks_the_pile() -> None:
    d = make_deal(rules={"starting_card": "keep"}, discard="R3", hands=["A A A"])
    b = TraceBuilder(d).add(
        {"type": "pickup", "seat": 0, "taken": ["R3"], "melds": [entry_("A", "A A A")]}
    )
    assert_flags(b.lines, "R-PU1", first=True)


# -- pick-up size and rule ---------------------------------------------------------------------
def test_pickup_rule_whole_takes_the_whole_pile() -> None:
    """saskatchewan: a pile of 9 is taken whole."""
    b = pile_then(SASK, "6 7 8 9 10 J 4 K".split(), hands=["K K A A A", "", "", ""])
    assert len(b.pile) == 9
    b.pickup(0, ("K", "K K K"), ("A", "A A A"))
    assert len(b.lines[-1]["taken"]) == 9
    assert_ok(b.lines)
    bad = copy.deepcopy(b.lines)
    bad[-1]["taken"] = bad[-1]["taken"][:7]
    assert_flags(bad, "R-PU", first=True)


def test_pickup_rule_top_five_in_eleven() -> None:
    b = pile_then(ELEVEN, "6 7 8 9 10 J 4 K".split(), hands=["K K A A A", "", "", ""])
    b.pickup(0, ("K", "K K K"), ("A", "A A A"))
    assert b.lines[-1]["taken"] == ["K", "4", "J", "10", "9"]
    assert_ok(b.lines)


def test_pickup_rule_exact_seven_only_from_seven_or_more() -> None:
    """simpson: exactly the top 7 of a pile of 8; a pile of 5 cannot be taken."""
    b = pile_then(SIMPSON, "6 7 8 9 10 J 4 K".split(), hands=["K K A A A", "", "", ""])
    assert len(b.pile) == 8
    b.pickup(0, ("K", "K K K"), ("A", "A A A"))
    assert b.lines[-1]["taken"] == ["K", "4", "J", "10", "9", "8", "7"]
    assert_ok(b.lines)
    b = pile_then(SIMPSON, "6 7 8 9 K".split(), hands=["", "K K A A A", "", ""])
    b.pickup(1, ("K", "K K K"), ("A", "A A A"))
    assert len(b.lines[-1]["taken"]) == 5
    assert_flags(b.lines, "R-PU", first=True)


def test_wild_top_pickup_off_a_top_wild_is_never_taken() -> None:
    rules = {"wild_top_pickup": False}
    d = make_deal(rules=rules, hands=["2", "2 2 A A A"], stock_top="4 5 6 7")
    b = TraceBuilder(d).draw(0).discard(0, "2").pickup(1, ("W", "2 2 2"), ("A", "A A A"))
    assert_flags(b.lines, "R-PU1", first=True)
    d = make_deal(rules={}, hands=["2", "2 2 A A A"], stock_top="4 5 6 7")
    b = TraceBuilder(d).draw(0).discard(0, "2").pickup(1, ("W", "2 2 2"), ("A", "A A A"))
    assert_ok(b.lines)


# -- melds: ratio, caps, wild melds ------------------------------------------------------------
def test_R_M3_wild_ratio_more_naturals_than_wilds() -> None:
    """saskatchewan: 4 naturals and 3 wilds (a 7-card book) is legal, 3 and 3 is not."""
    assert_ok(opened(SASK, "9 9 9 9 2 2 JK").meld(0, ("9", "9 9 9 9 2 2 JK")).lines)
    b = opened(SASK, "9 9 9 2 2 JK").meld(0, ("9", "9 9 9 2 2 JK"))
    assert_flags(b.lines, "R-M3", first=True)
    b = opened({}, "9 9 9 9 2 2 JK").meld(0, ("9", "9 9 9 9 2 2 JK"))  # standard: 4 < 6
    assert_flags(b.lines, "R-M3", first=True)


def test_R_M3_max_wilds_per_meld_is_a_hard_cap() -> None:
    rules = {"wild_ratio": "more", "max_wilds_per_meld": 2, "books": "grow"}
    assert_ok(opened(rules, "9 9 9 9 9 2 2").meld(0, ("9", "9 9 9 9 9 2 2")).lines)
    b = opened(rules, "9 9 9 9 9 2 2 JK").meld(0, ("9", "9 9 9 9 9 2")).meld(0, ("9", "2 JK"))
    assert_flags(b.lines, "R-M3", first=True)  # 5 naturals > 3 wilds, but 3 > 2


def test_R_M4_wild_melds_off() -> None:
    b = opened(ELEVEN, "2 2 JK").meld(0, ("W", "2 2 JK"))
    assert_flags(b.lines, "R-M4", first=True)
    assert_ok(opened({}, "2 2 JK").meld(0, ("W", "2 2 JK")).lines)


# -- growing books: R-V3 -----------------------------------------------------------------------
@pytest.mark.rule("R-M2")
def test_R_V3_books_grow_one_meld_per_rank() -> None:
    """saskatchewan: 9 x 7 is a book; 9 9 then joins it (closed books would need a new meld of
    3: R-M2); wilds join within the ratio, the ratio holds after the book too."""
    b = opened(SASK, n("9", 9) + " 2 2 2 2").meld(0, ("9", n("9", 7)), ("9", "9 9"))
    assert_ok(b.lines)
    b.meld(0, ("9", "2 2 2"))  # 9 naturals > 3 wilds
    assert_ok(b.lines)
    closed = opened({}, n("9", 9)).meld(0, ("9", n("9", 7)), ("9", "9 9"))
    assert_flags(closed.lines, "R-M2", first=True)
    marked = opened(SASK, n("9", 9)).meld(0, ("9", n("9", 7))).meld(0, ("9", "9 9"), book=[0])
    assert_flags(marked.lines, "R-V3", first=True)  # "book" entries belong to R-V4 only


def test_R_V3_ratio_holds_after_the_book() -> None:
    b = opened(SASK, n("9", 7) + " 2 2 2 2 JK JK JK", stock_top="2 JK")
    b.meld(0, ("9", n("9", 7)), ("9", "2 2 2 2 2 JK"))  # 7 > 6
    assert_ok(b.lines)
    b.meld(0, ("9", "JK"))  # 7 naturals, 7 wilds
    assert_flags(b.lines, "R-M3", first=True)


def test_R_V3_wild_meld_grows_past_seven() -> None:
    b = opened(SASK, "2 2 2 2 2 JK JK JK").meld(0, ("W", "2 2 2 2 2 JK JK"), ("W", "JK"))
    assert_ok(b.lines)
    closed = opened({}, "2 2 2 2 2 JK JK JK").meld(0, ("W", "2 2 2 2 2 JK JK"), ("W", "JK"))
    assert_flags(closed.lines, "R-M4", first=True)  # a new wild meld of 1


def small_sask(hand: str, stock_top: str = "") -> TraceBuilder:
    """saskatchewan knobs on 3 decks: 65 stock cards, the deal ends by the stock quickly."""
    return deal({**SASK, "decks": 3}, hands=[hand], stock_top=stock_top)


def idle_to_end(b: TraceBuilder, seat: int) -> None:
    players = b.profile.players
    while len(b.stock) >= 2 and not b.stock_ran_out:
        b.idle_turn(seat)
        seat = (seat + 1) % players


def test_R_V3_clean_book_receiving_a_wild_becomes_dirty() -> None:
    """9 x 7 then a two: one dirty book, 70 + 20 melded, 300 bonus (not 500)."""
    b = small_sask(n("9", 7) + " 2", stock_top="4 5")
    b.draw(0).meld(0, ("9", n("9", 7))).meld(0, ("9", "2")).discard(0, "4")
    idle_to_end(b, 1)
    good = end_line(b, "stock", melded={0: 90}, books={0: 300})
    assert_ok(b.lines + [good], complete=True)
    bad = copy.deepcopy(good)
    bad["breakdown"][0]["books"] = 500
    bad["scores"][0] += 200
    assert {v.rule for v in check_trace(b.lines + [bad])} == {"R-S4", "R-S"}


def w3_like(rules: dict, held: str) -> TraceBuilder:
    """Seat 0 opens with A A A and melds 9 9 9 9; seat 1 discards a 9; seat 2 (seat 0's
    partner) holds `held` and picks the 9 up."""
    d = make_deal(rules=rules, hands=["A A A 9 9 9 9", "9", held], stock_top="4 5 6 7 8 8")
    b = TraceBuilder(d).draw(0).meld(0, ("A", "A A A"), ("9", "9 9 9 9")).discard(0, "4")
    return b.draw(1).discard(1, "9")


def test_R_V3_pickup_joins_the_ranks_one_meld_no_R_PU4() -> None:
    """4 nines on the table, top a 9, holding 9 9: top + pair join the meld (a book of 7)."""
    b = w3_like(SASK, "9 9").pickup(2, ("9", "9 9 9")).discard(2, "8")
    assert_ok(b.lines)
    closed = w3_like({}, "9 9").pickup(2, ("9", "9 9 9"))
    assert_flags(closed.lines, "R-PU4", first=True)


def test_R_V3_pickup_still_needs_top_and_a_held_pair() -> None:
    b = w3_like(SASK, "9 2").pickup(2, ("9", "9 9 2"))
    assert_flags(b.lines, "R-PU2", first=True)


# -- completed books accept naturals: R-V4 ------------------------------------------------------
def test_R_V4_naturals_onto_a_completed_book() -> None:
    b = opened(ELEVEN, n("9", 9) + " 2").meld(0, ("9", n("9", 7)))
    good = copy.deepcopy(b).meld(0, ("9", "9 9"), book=[0])
    assert_ok(good.lines)
    assert_flags(copy.deepcopy(b).meld(0, ("9", "9 2"), book=[0]).lines, "R-V4", first=True)
    b = opened(ELEVEN, "Q Q").meld(0, ("Q", "Q Q"), book=[0])  # no completed Q book
    assert_flags(b.lines, "R-V4", first=True)
    b = opened({}, n("9", 9)).meld(0, ("9", n("9", 7))).meld(0, ("9", "9 9"), book=[0])
    assert_flags(b.lines, "R-M6", first=True)  # standard: nothing is added to a book


def test_R_V4_natural_entry_past_seven_closes_the_book() -> None:
    """5 nines + 9 9 9 9: a book of 9; the next 9 entry starts a new meld."""
    b = opened(ELEVEN, n("9", 12)).meld(0, ("9", n("9", 5))).meld(0, ("9", n("9", 4)))
    b.meld(0, ("9", "9 9 9"))
    assert_ok(b.lines)
    bad = opened(ELEVEN, n("9", 12)).meld(0, ("9", n("9", 5))).meld(0, ("9", n("9", 4)))
    bad.meld(0, ("9", "9"))  # a new meld of 1
    assert_flags(bad.lines, "R-M2", first=True)


def test_R_V4_an_entry_with_a_wild_stays_within_seven() -> None:
    b = opened(ELEVEN, n("9", 7) + " 2").meld(0, ("9", n("9", 5))).meld(0, ("9", "9 9 2"))
    assert_flags(b.lines, "R-V4", first=True)
    b = opened(ELEVEN, n("9", 7) + " 2").meld(0, ("9", n("9", 5))).meld(0, ("9", "9 2"))
    assert_ok(b.lines)


def test_R_V4_a_new_meld_is_seven_at_most() -> None:
    assert_flags(opened(ELEVEN, n("9", 8)).meld(0, ("9", n("9", 8))).lines, "R-V4", first=True)
    assert_ok(opened(ELEVEN, n("9", 8)).meld(0, ("9", n("9", 7))).lines)


def test_R_V4_R_PU4_still_applies_where_completed_books_take_naturals() -> None:
    """eleven, 4 nines on the table, top a 9: top + 9 9 9 (a book of 8, no new meld) is not
    enough; top + 9 9 completing the book of 7 and 9 9 9 starting a new meld is."""
    bad = w3_like(ELEVEN, "9 9 9 9").pickup(2, ("9", "9 9 9 9"))
    assert_flags(bad.lines, "R-PU4", first=True)
    good = w3_like(ELEVEN, "9 9 9 9").pickup(2, ("9", "9 9 9"), ("9", "9 9 9"))
    assert_ok(good.discard(2, "8").lines)


# R-V4 with R-V7 and R-M4: a rule file combining books "naturals" with black-three melds (and the
# standard's wild melds). Black threes and wilds are not naturals: those melds close at 7.
NAT_B3 = {"books": "naturals", "black3_melds": True, "decks": 8}


def test_R_V4_R_V7_a_partner_may_not_take_a_black_three_meld_of_6_past_7() -> None:
    """Seat 0 opens and lays 6 black threes; its partner (seat 2) lays B3 B3 onto them: 8."""
    d = make_deal(
        rules=NAT_B3,
        hands=["A A A K " + n("B3", 6), "", "Q " + n("B3", 2)],
        stock_top="4 5 6 7 8 9",
    )
    b = TraceBuilder(d).draw(0).meld(0, ("A", "A A A")).meld(0, ("B3", n("B3", 6)))
    b.discard(0, "K").idle_turn(1).draw(2)
    good = copy.deepcopy(b).meld(2, ("B3", "B3")).discard(2, "Q")  # a book of 7, one kept
    assert_ok(good.lines)
    bad = b.meld(2, ("B3", "B3 B3"))
    assert_flags(bad.lines, "R-V4/closed-kind-over-seven", first=True)
    assert [v.check for v in check(bad.lines)] == ["R-V4/closed-kind-over-seven"]


def test_R_V4_R_V7_black_three_meld_closes_at_7_and_takes_no_book_entry() -> None:
    b = opened(NAT_B3, n("B3", 10)).meld(0, ("B3", n("B3", 5)))
    assert_flags(copy.deepcopy(b).meld(0, ("B3", "B3 B3 B3")).lines, "R-V4", first=True)
    b.meld(0, ("B3", "B3 B3"))  # a black-three book of 7
    assert_ok(b.lines)
    onto = copy.deepcopy(b).meld(0, ("B3", "B3"), book=[0])
    assert_flags(onto.lines, "R-V4/book-entry-closed-kind", first=True)
    assert_ok(b.meld(0, ("B3", "B3 B3 B3")).lines)  # a new black-three meld
    new_of_8 = opened(NAT_B3, n("B3", 8)).meld(0, ("B3", n("B3", 8)))
    assert_flags(new_of_8.lines, "R-V4/new-meld-over-seven", first=True)
    # where books grow (brouillette, R-V3) the black-three meld grows past 7
    assert_ok(opened(BROU, n("B3", 8)).meld(0, ("B3", n("B3", 6))).meld(0, ("B3", "B3 B3")).lines)


def test_R_V4_R_M4_wild_meld_closes_at_7_where_books_take_naturals() -> None:
    b = opened(NAT_B3, "2 2 2 2 2 JK JK JK").meld(0, ("W", "2 2 2 2 2 JK"))
    bad = copy.deepcopy(b).meld(0, ("W", "JK JK"))
    assert_flags(bad.lines, "R-V4/closed-kind-over-seven", first=True)
    b.meld(0, ("W", "JK"))  # a wild book
    assert_ok(b.lines)
    onto = copy.deepcopy(b).meld(0, ("W", "JK"), book=[0])
    assert_flags(onto.lines, "R-V4/book-entry-closed-kind", first=True)
    assert [v.check for v in check(onto.lines)] == ["R-V4/book-entry-closed-kind"]
    # a natural book still takes naturals, and a wild onto it is the other R-V4 check
    nat = opened(NAT_B3, n("9", 8) + " 2").meld(0, ("9", n("9", 7)))
    assert_ok(copy.deepcopy(nat).meld(0, ("9", "9"), book=[0]).lines)
    wild_onto = nat.meld(0, ("9", "2"), book=[0])
    assert_flags(wild_onto.lines, "R-V4/book-entry-wild", first=True)


# -- concealed opening in deal 4: R-V5 ---------------------------------------------------------
def sask4(hands: list[str], stock_top: str = "4 5 6 7", deal_no: int = 4) -> TraceBuilder:
    return deal(SASK, hands=hands, stock_top=stock_top, deal=deal_no)


def test_R_V5_deal_4_opens_with_a_concealed_book_whatever_its_points() -> None:
    """Seat 3 plays first in deal 4: seven fours (35 points) open."""
    b = sask4(["", "", "", n("4", 7)]).draw(3).meld(3, ("4", n("4", 7)))
    assert_ok(b.lines)
    b = sask4(["", "", "", n("4", 7)], deal_no=3)
    b.idle_turn(2).draw(3).meld(3, ("4", n("4", 7)))
    assert_flags(b.lines, "R-O1", first=True)  # deal 3 needs 120


def test_R_V5_points_without_a_book_do_not_open_deal_4() -> None:
    b = sask4(["", "", "", n("A", 6) + " K K K"]).draw(3)
    b.meld(3, ("A", n("A", 6)), ("K", "K K K"))  # 150 points
    assert_flags(b.lines, "R-V5", first=True)
    b = sask4(["", "", "", n("K", 7)]).draw(3).meld(3, ("K", "K K K K"), ("K", "K K K"))
    assert_flags(b.lines, "R-V5", first=True)  # 7 kings, but no entry of 7


def test_R_V5_a_pickup_cannot_open_deal_4() -> None:
    b = sask4(["K K " + n("4", 7), "", "", "K"]).draw(3).discard(3, "K")
    b.pickup(0, ("K", "K K K"), ("4", n("4", 7)))
    assert_flags(b.lines, "R-V5", first=True)


def test_R_V5_after_the_concealed_opening_the_partner_melds_freely() -> None:
    b = sask4(["", "K K K", "", n("4", 7)]).draw(3).meld(3, ("4", n("4", 7))).discard(3, "5")
    b.idle_turn(0).draw(1).meld(1, ("K", "K K K"))
    assert_ok(b.lines)


# -- red threes discarded: R-V6 ----------------------------------------------------------------
def test_R_V6_a_drawn_red_three_is_kept_and_must_be_discarded() -> None:
    b = deal(SIMPSON, stock_top="R3 9 K").draw(0)
    assert b.lines[-1]["type"] == "draw"  # no `red3` line
    assert_ok(copy.deepcopy(b).discard(0, "R3").lines)
    assert_flags(copy.deepcopy(b).discard(0, "9").lines, "R-V6", first=True)
    b.add({"type": "red3", "seat": 0, "count": 1, "replaced_with": ["K"]})
    assert_flags(b.lines, "R-V6", first=True)


def test_R_V6_red_three_in_the_starting_hand_is_discarded_first() -> None:
    b = deal(ELEVEN, hands=["R3 R3"], stock_top="9 K 5 6")
    assert_ok(b.draw(0).discard(0, "R3").idle_turn(1).lines)
    b = deal(ELEVEN, hands=["R3 R3"], stock_top="9 K 5 6")
    b.draw(0).discard(0, "R3").idle_turn(1).idle_turn(2).idle_turn(3).draw(0).discard(0, "9")
    assert_flags(b.lines, "R-V6", first=True)  # the second red three is still held


def test_R_V6_red_threes_are_never_melded_and_block_the_pile() -> None:
    b = opened(SIMPSON, "R3 R3 R3").meld(0, ("R3", "R3 R3 R3"))
    assert_flags(b.lines, "R-V6", first=True)
    d = make_deal(rules=ELEVEN, hands=["R3", "R3 R3 A A A"], stock_top="4 5")
    b = TraceBuilder(d).draw(0).discard(0, "R3").pickup(1, ("R3", "R3 R3 R3"), ("A", "A A A"))
    assert_flags(b.lines, "R-PU1", first=True)


def test_R_V6_red_three_inside_a_pickup_joins_the_hand() -> None:
    """eleven: seat 2 throws a red three, seat 0 then picks it up under a king: no `red3`
    line, and seat 0 must discard it (R-V6)."""
    d = make_deal(rules=ELEVEN, hands=["6 K K A A A", "7", "R3", "K"], stock_top=n("Q", 8))
    b = TraceBuilder(d).draw(0).discard(0, "6").draw(1).discard(1, "7")
    b.draw(2).discard(2, "R3").draw(3).discard(3, "K")
    b.pickup(0, ("K", "K K K"), ("A", "A A A"))
    assert b.lines[-1]["taken"] == ["K", "R3", "7", "6", "4"]
    assert b.lines[-1]["type"] == "pickup" and b.held(0)["R3"] == 1
    assert_flags(copy.deepcopy(b).discard(0, "Q").lines, "R-V6", first=True)
    assert_ok(b.discard(0, "R3").lines)


def test_R_V6_caught_red_threes_score_minus_the_penalty() -> None:
    """eleven on 3 decks: red threes caught in a Hand or Foot (seat 1's Foot is never picked
    up) score -300 each; seat 3's starting red three is discarded at once (R-V6)."""
    rules = {**ELEVEN, "decks": 3}
    b = deal(rules, hands=["", "", "", "R3"], feet=["", "R3", "", ""])
    idle_to_end(b, 0)
    assert b.hands[3]["R3"] == 0  # discarded at once (R-V6)
    good = end_line(b, "stock")
    caught = sum(b.feet[s]["R3"] + b.hands[s]["R3"] for s in (1, 3))
    assert caught >= 1 and good["breakdown"][1]["red3"] == -300 * caught
    assert_ok(b.lines + [good], complete=True)
    bad = copy.deepcopy(good)
    bad["breakdown"][1]["red3"] = -100 * caught
    bad["scores"][1] = sum(bad["breakdown"][1].values())
    assert {v.rule for v in check_trace(b.lines + [bad])} == {"R-S3", "R-S"}


# -- black-three melds: R-V7 -------------------------------------------------------------------
def test_R_V7_black_three_melds_count_minus_five_toward_the_opening() -> None:
    b = deal(BROU, hands=["A A A A B3 B3 B3"], stock_top="4 5").draw(0)
    assert_ok(copy.deepcopy(b).meld(0, ("A", "A A A A"), ("B3", "B3 B3 B3")).lines)  # 65
    b.meld(0, ("A", "A A A"), ("B3", "B3 B3 B3"))  # 60 - 15 = 45 < 50
    assert_flags(b.lines, "R-O1", first=True)


def test_R_V7_black_three_melds_take_no_wilds() -> None:
    b = opened(BROU, "B3 B3 B3 2").meld(0, ("B3", "B3 B3 B3 2"))
    assert_flags(b.lines, "R-V7", first=True)
    b = opened(BROU, "B3 B3").meld(0, ("B3", "B3 B3"))
    assert_flags(b.lines, "R-V7", first=True)
    b = opened(SIMPSON, "B3 B3 B3").meld(0, ("B3", "B3 B3 B3"))  # black3_melds off
    assert_flags(b.lines, "R-M5", first=True)


def test_R_V7_black_threes_are_never_picked_up() -> None:
    b = pile_then(BROU, "6 7 8 9 10 J B3".split(), hands=["", "", "", "B3 B3 A A A"])
    assert len(b.pile) == 7
    b.pickup(3, ("B3", "B3 B3 B3"), ("A", "A A A"))
    assert_flags(b.lines, "R-PU1", first=True)


def test_R_V7_R_G1_black_three_book_counts_clean_and_earns_the_dirty_bonus() -> None:
    """brouillette deal 1: 1 clean + 1 dirty needed; the B3 book and the dirty ace book are
    enough with the king book too; scores: melded -35 + 140 + 100, books 300 + 300 + 500."""
    d = make_deal(
        rules=BROU, hands=[n("B3", 7) + " A A A A"], feet=["A " + n("K", 10)], stock_top="A 2"
    )
    b = TraceBuilder(d).draw(0).meld(0, ("B3", n("B3", 7)), ("A", "A A A A A 2")).foot(0)
    b.meld(0, ("A", "A"), ("K", n("K", 10))).out(0)
    good = end_line(b, "out", melded={0: 205}, books={0: 1100}, out={0: 100})
    assert_ok(b.lines + [good], complete=True)
    # no natural clean book: the B3 book (clean for going out) + the dirty aces are enough
    d = make_deal(
        rules=BROU,
        hands=[n("B3", 7) + " A A A A"],
        feet=["A " + n("9", 6) + " " + n("4", 4)],
        stock_top="A 2",
    )
    b = TraceBuilder(d).draw(0).meld(0, ("B3", n("B3", 7)), ("A", "A A A A A 2")).foot(0)
    b.meld(0, ("A", "A"), ("9", n("9", 6)), ("4", n("4", 4))).out(0)
    assert_ok(b.lines)
    d = make_deal(
        rules=BROU, hands=[n("B3", 7) + " A A A A"], feet=["A " + n("9", 10)], stock_top="A 2"
    )
    b = TraceBuilder(d).draw(0).meld(0, ("B3", n("B3", 7)), ("A", "A A A A A 2")).foot(0)
    b.meld(0, ("9", n("9", 10)))  # 1 card left: going out is on its way (R-V9)
    b.discard(0, "A").out(0)  # no dirty book: the aces stay at 6
    assert_flags(b.lines, "R-G1", first=True)


# -- frozen pile and restock: R-V8 -------------------------------------------------------------
def test_R_V8_a_discarded_wild_freezes_the_pile() -> None:
    b = deal(BROU, hands=["K", "2"], stock_top="4 5 6 7 8 9").draw(0).discard(0, "K")
    b.draw(1).discard(1, "2")
    assert b.lines[-1] == {"type": "freeze", "seat": 1, "cards": ["K", "2"]}
    b.idle_turn(2)  # starts a new pile
    assert_ok(b.lines)
    missing = deal(BROU, hands=["K", "2"], stock_top="4 5 6 7 8 9").draw(0).discard(0, "K")
    missing.draw(1).discard(1, "2", freeze=False).idle_turn(2)
    assert_flags(missing.lines, "R-V8", first=True)
    wrong = copy.deepcopy(b.lines)
    wrong[-3]["cards"] = ["2"]  # the whole pile must go
    assert_flags(wrong, "R-V8", first=True)
    pair = deal({}, hands=["K", "2"], stock_top="4 5 6 7").draw(0).discard(0, "K").draw(1)
    pair.discard(1, "2").freeze(1)  # no freezing where wild_discard is "pair"
    assert_flags(pair.lines, "TRACE", first=True)


def test_R_V8_going_out_by_a_wild_discard_freezes_before_out() -> None:
    """brouillette: the last card is a joker: `discard`, its `freeze`, then `out`."""
    d = make_deal(
        rules=BROU, hands=[n("B3", 7) + " A A A A"], feet=["A JK " + n("K", 9)], stock_top="A 2"
    )
    b = TraceBuilder(d).draw(0).meld(0, ("B3", n("B3", 7)), ("A", "A A A A A 2")).foot(0)
    b.meld(0, ("A", "A"), ("K", n("K", 9))).discard(0, "JK")
    assert b.lines[-1] == {"type": "freeze", "seat": 0, "cards": ["JK"]}
    assert_ok(copy.deepcopy(b).out(0).lines)
    early = b.lines[:-1] + [{"type": "out", "seat": 0}, b.lines[-1]]
    assert_flags(early, "R-V8", first=True)


def test_R_V8_a_frozen_pile_cannot_be_picked_up() -> None:
    b = deal(BROU, hands=["K", "2", "2 2"], stock_top="4 5 6 7").draw(0).discard(0, "K")
    b.draw(1).discard(1, "2")
    b.add({"type": "pickup", "seat": 2, "taken": ["2"], "melds": [entry_("W", "2 2 2")]})
    assert_flags(b.lines, "R-PU1", first=True)


ODD_BROU = {**BROU, "jokers_per_deck": 1}  # 265 - 88 = 177 stock cards: one is left at the end


def restock_deal() -> tuple[TraceBuilder, int]:
    """brouillette with one joker a deck: K, Q, 2 are frozen early; idle turns until one
    stock card is left; returns the builder and the seat to play."""
    d = make_deal(rules=ODD_BROU, hands=["K", "Q", "2"], stock_top="4 5 6 7 8 9")
    b = TraceBuilder(d).draw(0).discard(0, "K").draw(1).discard(1, "Q").draw(2).discard(2, "2")
    assert b.set_aside == ["K", "Q", "2"] and b.pile == []
    seat = 3
    while len(b.stock) >= 2:
        b.idle_turn(seat)
        seat = (seat + 1) % 4
    assert len(b.stock) == 1 and b.set_aside == ["K", "Q", "2"]
    return b, seat


def test_R_V8_restock_goes_under_the_remaining_stock() -> None:
    b, seat = restock_deal()
    last = b.stock[0]
    b.restock(["2", "K", "Q"]).draw(seat)
    assert b.lines[-1]["cards"] == [last, "2"]  # the remaining card first
    assert_ok(b.lines)
    bad = copy.deepcopy(b.lines)
    bad[-1]["cards"] = ["2", "K"]
    assert_flags(bad, "R-T2", first=True)


def test_R_V8_short_stock_without_restock_is_rejected() -> None:
    b, seat = restock_deal()
    draw = copy.deepcopy(b.lines) + [{"type": "draw", "seat": seat, "cards": [b.stock[0], "K"]}]
    assert_flags(draw, "R-V8", first=True)
    end = end_line(b, "stock")
    assert_flags(b.lines + [end], "R-V8", first=True)
    wrong = copy.deepcopy(b).restock(["2", "K"])  # not all set-aside cards
    assert_flags(wrong.lines, "R-V8", first=True)


def test_R_V8_restock_only_when_the_stock_is_short() -> None:
    b = deal(BROU, hands=["2"], stock_top="4 5").draw(0).discard(0, "2").restock()
    assert_flags(b.lines, "R-V8", first=True)


# -- individual play, permission, going out: R-V9, R-G1..R-G4 ----------------------------------
def test_R_V9_no_ask_in_individual_play() -> None:
    b = deal(SIMPSON).draw(0).ask(0, True)
    assert_flags(b.lines, "R-V9", first=True)


def simpson_out(final_discard: bool, rules: dict = SIMPSON) -> TraceBuilder:
    """Seat 0: A x 5 + Q x 6, draws A 2: a dirty ace book + 6 queens, on to the Foot (R-F2);
    the Foot's Q makes a clean book, 9 kings a clean book, and the last 4 is discarded (or
    melded... with nothing to meld it onto: the Foot then holds 4 4 4)."""
    foot = "Q " + n("K", 9) + (" 4" if final_discard else " K")
    d = make_deal(rules=rules, hands=[n("A", 5) + " " + n("Q", 6)], feet=[foot], stock_top="A 2")
    b = TraceBuilder(d).draw(0).meld(0, ("A", n("A", 6) + " 2"), ("Q", n("Q", 6))).foot(0)
    if final_discard:
        b.meld(0, ("Q", "Q"), ("K", n("K", 9))).discard(0, "4")
    else:
        b.meld(0, ("Q", "Q"), ("K", n("K", 10)))
    return b.out(0)


def test_R_G3_final_discard_required_and_simpson_scores() -> None:
    """simpson: books 300 / 100; melded 140 + 70 + 90 = 300; books 100 + 300 + 300."""
    b = simpson_out(final_discard=True)
    good = end_line(b, "out", melded={0: 300}, books={0: 700}, out={0: 100})
    assert_ok(b.lines + [good], complete=True)
    assert len(good["scores"]) == 4
    assert_flags(simpson_out(final_discard=False).lines, "R-G3", first=True)
    no_need = simpson_out(False, rules={**SIMPSON, "final_discard_required": False})
    assert_ok(no_need.lines)


def test_R_V9_R_G1_individual_going_out_needs_the_books() -> None:
    """simpson: dirty aces, 6 queens; from the Foot K x 10 (a clean book) leaves one card: going
    out is under way without any `ask` (R-V9); the discard of the 4 goes out. Legal with 1 clean
    book needed, R-G1 with 2 (a rules file)."""
    two_clean = {**SIMPSON, "out_clean_books": [2, 2, 2, 2]}
    for rules, legal in ((SIMPSON, True), (two_clean, False)):
        d = make_deal(
            rules=rules,
            hands=[n("A", 5) + " " + n("Q", 6)],
            feet=["4 " + n("K", 10)],
            stock_top="A 2",
        )
        b = TraceBuilder(d).draw(0).meld(0, ("A", n("A", 6) + " 2"), ("Q", n("Q", 6))).foot(0)
        b.meld(0, ("K", n("K", 10))).discard(0, "4").out(0)
        if legal:
            assert_ok(b.lines)
        else:
            assert_flags(b.lines, "R-G1", first=True)


def test_R_V9_individual_discard_down_to_one_card_is_ordinary_play() -> None:
    d = make_deal(
        rules=SIMPSON,
        hands=[n("A", 5) + " " + n("Q", 6)],
        feet=["4 4 " + n("K", 9)],
        stock_top="A 2",
    )
    b = TraceBuilder(d).draw(0).meld(0, ("A", n("A", 6) + " 2"), ("Q", n("Q", 6))).foot(0)
    b.meld(0, ("K", n("K", 9))).discard(0, "4")  # one card kept, the turn passes
    b.idle_turn(1).idle_turn(2).idle_turn(3)
    assert_ok(b.lines)


def partners_out(rules: dict, deal_no: int = 1) -> TraceBuilder:
    """brouillette-partners: seat 0 reaches the Foot in its first turn (A x 6 + 2, Q x 5 + 2),
    seat 2 lays J x 7, seat 0 asks and goes out: Q (dirty book), K x 7 (clean book), 5 5 5,
    discard 9. Books: 2 clean + 2 dirty. Seat 2 never reaches its Foot."""
    d = make_deal(
        rules=rules,
        deal=deal_no,
        hands=[n("A", 6) + " " + n("Q", 5), "", n("J", 7)],
        feet=["Q " + n("K", 7) + " 5 5 4"],
        stock_top=("8 8 " if deal_no == 4 else "") + "2 2 4 4 6 6 7 7 5 9",
    )
    b = TraceBuilder(d)
    if deal_no == 4:
        b.idle_turn(3)
    b.draw(0).meld(0, ("A", n("A", 6) + " 2"), ("Q", n("Q", 5) + " 2")).foot(0).discard(0, "4")
    b.idle_turn(1).draw(2).meld(2, ("J", n("J", 7))).discard(2, "6").idle_turn(3)
    b.draw(0).ask(0, True).meld(0, ("Q", "Q"), ("K", n("K", 7)), ("5", "5 5 5"))
    return b.discard(0, "9").out(0)


def test_R_V9_R_G2_partner_foot_not_required_in_brouillette_partners() -> None:
    assert_ok(partners_out(BROU_P).lines)
    b = partners_out({**BROU_P, "partner_foot_required": True})
    assert_flags(b.lines, "R-G2", first=True)
    no_ask = [line for line in partners_out(BROU_P).lines if line["type"] != "ask"]
    assert_flags(no_ask, "R-G4", first=True)


def test_R_G1_books_to_go_out_by_deal() -> None:
    """brouillette-partners: 2 clean + 2 dirty go out in deal 1, not in deal 4 (4 + 4)."""
    assert_ok(partners_out(BROU_P, deal_no=1).lines)
    b = partners_out(BROU_P, deal_no=4)
    assert_flags(b.lines, "R-G1", first=True)
    assert "deal 4" in check(b.lines)[0].message


def test_R_V9_R_G2_partnerships_of_three_need_every_partner_on_the_foot() -> None:
    """6 players, 2 partnerships of 3: seat 0 asks with seat 2 on its Foot but not seat 4."""
    hands = ["K K K K K K K Q Q Q J J J", "", "A A A A A A A 9 9 9 8 8 8", "", "", ""]
    d = make_deal(rules=SIX_TWO, hands=hands, stock_top="J J 4 5 8 8")
    b = TraceBuilder(d).draw(0)
    b.meld(0, ("K", n("K", 7)), ("Q", "Q Q Q"), ("J", n("J", 5))).foot(0).discard(0, "4")
    b.idle_turn(1).draw(2).meld(2, ("A", n("A", 7)), ("9", "9 9 9"), ("8", n("8", 5))).foot(2)
    b.discard(2, "4")
    for seat in (3, 4, 5):
        b.idle_turn(seat)
    good = copy.deepcopy(b).draw(0)
    assert_ok(good.lines)
    asked = copy.deepcopy(b).draw(0).ask(0, False)
    assert_flags(asked.lines, "R-G2", first=True)
    assert "[4]" in check(asked.lines)[0].message


# -- the exact-22 bonus: R-V11 -----------------------------------------------------------------
def short_deal(rules: dict) -> TraceBuilder:
    """2 decks, 12 + 13 each: 7 stock cards; idle turns until the stock is short."""
    b = deal({"decks": 2, "hand_size": 12, **rules}, discard="B3")
    assert len(b.stock) == 7
    idle_to_end(b, 0)
    return b


def test_R_V11_grab22_part_is_a_multiple_of_the_bonus_per_player() -> None:
    b = short_deal({"grab22_bonus": 100})
    for grab in ({0: 0, 1: 0}, {0: 100, 1: 200}):
        assert_ok(b.lines + [end_line(b, "stock", grab22=grab)], complete=True)
    for grab in ({0: 150, 1: 0}, {0: 300, 1: 0}, {0: -100, 1: 0}):
        found = check_trace(b.lines + [end_line(b, "stock", grab22=grab)])
        assert {v.rule for v in found} == {"R-V11", "R-S"}, found
    missing = end_line(b, "stock")
    assert "R-V11" in {v.rule for v in check_trace(b.lines + [missing])}
    uncounted = end_line(b, "stock", grab22={0: 100, 1: 0})
    uncounted["scores"][0] -= 100
    assert {v.rule for v in check_trace(b.lines + [uncounted])} == {"R-S"}


def test_R_V11_no_grab22_part_without_the_bonus() -> None:
    b = short_deal({})
    assert_ok(b.lines + [end_line(b, "stock")], complete=True)
    found = check_trace(b.lines + [end_line(b, "stock", grab22={0: 0, 1: 0})])
    assert {v.rule for v in found} == {"R-V11"}
