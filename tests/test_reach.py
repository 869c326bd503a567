"""How far a verdict holds (analysis.reports.reach) and the words built on it, from constructed
numbers: the labels follow the players' calls, the guide's headline and lines give each
player's figure, the held table has one row per piece of advice, the hold-wild answer labels
each number of wilds, and the strategy card sorts the advice by its label."""

from __future__ import annotations

import polars as pl
import pytest

from analysis.reports import guide, hold_wild
from analysis.reports.guide_card import card_of
from analysis.reports.reach import COSTS, DEPENDS, PAYS, UNCLEAR, holds_for_all, reach
from tests.test_guide import params, player, result

TWO = ["learned", "tuned"]


@pytest.mark.parametrize("calls, players, label", [
    ([PAYS, PAYS], TWO, "pays for every strong player measured"),
    ([COSTS, COSTS], TWO, "costs for every strong player measured"),
    ([UNCLEAR, UNCLEAR], TWO, "no measurable difference for any strong player measured"),
    ([PAYS, UNCLEAR], TWO, DEPENDS),
    ([UNCLEAR, COSTS], TWO, DEPENDS),
    ([PAYS, COSTS], TWO, DEPENDS),
    ([PAYS, PAYS, COSTS], ["a", "b", "c"], DEPENDS),
    ([COSTS, COSTS, COSTS], ["a", "b", "c"], "costs for every strong player measured"),
    ([PAYS], ["tuned"], "pays for tuned (the one player measured)"),
    ([COSTS], ["tuned"], "costs for tuned (the one player measured)"),
    ([UNCLEAR], ["tuned"], "no measurable difference for tuned (the one player measured)"),
])
def test_the_label_follows_the_players_calls(calls, players, label):
    assert reach(calls, players) == label
    for kind in (PAYS, COSTS, UNCLEAR):
        assert holds_for_all(label, kind) == (label != DEPENDS and set(calls) == {kind})


def test_one_call_per_player():
    with pytest.raises(ValueError):
        reach([PAYS], TWO)
    with pytest.raises(ValueError):
        reach([], [])


def two_players() -> tuple[list, pl.DataFrame]:
    """learned and tuned (tuned breaks pairs): both gain by blocking with black threes
    (+120, +90), they disagree on holding one wild (learned -80 costs, tuned +30 pays), holding
    two costs both (-60, -45), and keeping pairs makes no measurable difference to either."""
    players = [player("learned"), player("tuned", keep_pairs=0)]
    keys = ("black3", "hold1", "hold2", "keep-pairs")
    p = params(players, keys)
    results = pl.DataFrame([
        # learned blocks with black threes: A (not blocking) loses 120
        result("learned--black3", 0.46, -120.0, 10.0, 1e-12, "black3"),
        result("tuned--black3", 0.47, -90.0, 10.0, 1e-8, "black3"),
        result("learned--hold1", 0.47, -80.0, 9.0, 1e-9, "hold1"),
        result("tuned--hold1", 0.52, 30.0, 9.0, 1e-4, "hold1"),
        result("learned--hold2", 0.48, -60.0, 9.0, 1e-6, "hold2"),
        result("tuned--hold2", 0.485, -45.0, 9.0, 1e-5, "hold2"),
        result("learned--keep-pairs", 0.501, 2.0, 9.0, 0.7, "keep-pairs"),
        # tuned breaks pairs: A keeps them (follows the advice), a hair worse
        result("tuned--keep-pairs", 0.499, -1.0, 9.0, 0.8, "keep-pairs"),
    ])
    return players, guide.advice_rows(results, p)


def test_advice_rows_carry_each_players_call_and_how_far_it_holds():
    _, rows = two_players()
    assert rows.height == 8
    assert rows["item"].to_list() == ["black3", "black3", "hold1", "hold1", "hold2", "hold2",
                                      "keep-pairs", "keep-pairs"]  # learned's largest first
    assert rows["player"].to_list() == TWO * 4
    by = {(r["item"], r["player"]): r for r in rows.iter_rows(named=True)}
    assert by["black3", "tuned"]["diff_deal"] == 90.0  # tuned blocks: turned round
    assert by["keep-pairs", "tuned"]["baseline_plays"] == "alternative"
    assert by["keep-pairs", "tuned"]["diff_deal"] == -1.0  # A follows: as played
    assert by["hold1", "learned"]["verdict"] == COSTS and by["hold1", "tuned"]["verdict"] == PAYS
    holds = dict(zip(rows["item"], rows["holds"], strict=False))
    assert holds == {"black3": "pays for every strong player measured", "hold1": DEPENDS,
                     "hold2": "costs for every strong player measured",
                     "keep-pairs": "no measurable difference for any strong player measured"}


def test_the_guide_verdict_says_what_holds_whatever_the_player_and_what_depends():
    players, rows = two_players()
    text = guide.guide_verdict(rows.to_dicts(), [], players, "standard")
    head = text[0]
    assert head.startswith("Under standard, measured with the strong players learned and "
                           "tuned: 1 of 4 pieces of advice pay whatever the player, 1 cost "
                           "whatever the player, 1 depend on the player and 1 make no "
                           "measurable difference for any.")
    assert ("Worth following (pays for every strong player measured): discard black threes "
            "first, to block the pile (learned +120.0, tuned +90.0 per deal).") in head
    assert ("Better not (costs for every strong player measured): hold 2 wilds back until "
            "on the Foot (learned -60.0, tuned -45.0 per deal).") in head
    assert ("Depends on the player: hold 1 wild back until on the Foot (learned -80.0, "
            "costs, tuned +30.0, pays).") in head
    assert "Too close to call at this number of games: keep natural pairs when discarding." \
        in head
    assert text[1:3] == ["learned: learned, constructed.", "tuned: tuned, constructed."]
    lines = {line.split(" against ")[0]: line for line in text[3:7]}
    hold1 = lines["Hold 1 wild back until on the Foot"]
    assert ": depends on the player. learned (learned does not follow it)" in hold1
    assert "-80.0 points per deal" in hold1 and "+30.0 points per deal" in hold1
    assert "tuned would gain by following it" in hold1 and "learned would gain" not in hold1
    black3 = lines["Discard black threes first, to block the pile"]
    assert ": pays for every strong player measured. learned (learned follows it)" in black3
    assert "tuned (tuned follows it)" in black3 and "would gain" not in black3
    assert ": no measurable difference for any strong player measured." in \
        lines["Keep natural pairs when discarding"]
    assert "corrected for all 8 comparisons of the page (4 pieces of advice x 2 players, " \
           "Holm)" in text[-1]


def test_the_headline_turns_with_the_numbers():
    """The same advice, the numbers swapped round: what paid for both now costs for both."""
    players = [player("learned"), player("tuned")]
    p = params(players, ("black3",))
    for diff, word in ((-120.0, "pay"), (120.0, "cost")):
        results = pl.DataFrame([result("learned--black3", 0.5, diff, 10.0, 1e-9, "black3"),
                                result("tuned--black3", 0.5, diff / 2, 10.0, 1e-6, "black3")])
        rows = guide.advice_rows(results, p)
        head = guide.guide_verdict(rows.to_dicts(), [], players, "standard")[0]
        counts = {"pay": "1 of 1 pieces of advice pay whatever the player, 0 cost",
                  "cost": "0 of 1 pieces of advice pay whatever the player, 1 cost"}
        assert counts[word] in head, head
        assert f"learned {-diff:+.1f}, tuned {-diff / 2:+.1f} per deal" in head


def test_the_held_table_has_one_row_per_advice_with_every_players_figure():
    _, rows = two_players()
    held = guide.held_rows(rows)
    assert held["item"].to_list() == ["black3", "hold1", "hold2", "keep-pairs"]
    assert held["players"].to_list() == ["learned, tuned"] * 4
    first = held.row(0, named=True)
    assert first["holds"] == "pays for every strong player measured"
    assert first["figures"] == ("learned +120.0 (+110.0 to +130.0), pays; "
                                "tuned +90.0 (+80.0 to +100.0), pays")
    assert (first["diff_deal"], first["diff_deal_low"], first["diff_deal_high"]) == \
        (120.0, 110.0, 130.0)  # the first player's
    hold1 = held.row(1, named=True)
    assert hold1["holds"] == DEPENDS
    assert hold1["figures"] == ("learned -80.0 (-89.0 to -71.0), costs; "
                                "tuned +30.0 (+21.0 to +39.0), pays")


def test_the_card_sorts_the_advice_by_how_far_it_holds():
    players, rows = two_players()
    card = card_of(rows.to_dicts(), players, "standard", "standard")
    assert card.players == TWO and card.title == "Strategy card: standard"
    assert [line.advice for line in card.follow] == [
        "Discard black threes first, to block the pile, rather than discard black threes in "
        "the ordinary order, as a low card"]
    assert card.follow[0].number == "+120 points a deal"
    assert card.follow[0].detail == "learned +120.0, tuned +90.0"
    # what costs is said as what to do instead, worth as much as the advice costs
    assert [line.advice for line in card.avoid] == [
        "Meld every wild at once, rather than hold 2 wilds back until on the Foot"]
    assert card.avoid[0].number == "+60 points a deal"
    assert card.avoid[0].detail.startswith("learned +60.0")
    assert [line.advice.split(",")[0] for line in card.depends] == [
        "Hold 1 wild back until on the Foot"]
    assert card.depends[0].number == "-80 points a deal"
    assert card.depends[0].detail == "learned -80.0, tuned +30.0"
    assert card.no_matter == ["Keep natural pairs when discarding or discard by card value, "
                              "breaking pairs"]
    assert "20,000 shuffles played 2 ways" in card.footnote


def test_the_card_of_one_player_gives_its_number_and_no_detail():
    one = [player("cautious")]
    rows = guide.advice_rows(pl.DataFrame([result("black3", 0.46, -104.6, 10.0, 1e-12),
                                           result("hold1", 0.47, -80.0, 9.0, 1e-9)]),
                             params(one))
    card = card_of(rows.to_dicts(), one, "standard", "standard")
    assert [(line.number, line.detail) for line in card.follow] == [("+105 points a deal", "")]
    assert [line.number for line in card.avoid] == ["+80 points a deal"]  # meld at once
    assert card.depends == [] and card.no_matter == []


def hold_results(cells: dict[tuple[str, str], tuple[float, float]]) -> pl.DataFrame:
    """Hold-wild comparison rows: (group, value) -> (points per deal, Holm p)."""
    return pl.DataFrame([{"group": g, "value": v, "a": "hold", "b": "hold 0", "key": f"{g}{v}",
                          "games": 3000, "win_rate": 0.5, "win_low": 0.49, "win_high": 0.51,
                          "diff_deal": d, "diff_deal_low": d - 10, "diff_deal_high": d + 10,
                          "p_value": p, "p_holm": p} for (g, v), (d, p) in cells.items()])


def test_hold_wild_says_how_far_each_answer_holds():
    who = {"standard, learned": "learned", "standard, tuned": "tuned"}
    results = hold_results({("standard, learned", "1"): (-50.0, 1e-6),
                            ("standard, tuned", "1"): (-30.0, 1e-5),
                            ("standard, learned", "2"): (-60.0, 1e-6),
                            ("standard, tuned", "2"): (5.0, 0.5)})
    lines = hold_wild.reach_lines(results, who)
    assert lines == [
        "How far it holds, whoever the strong player: Under standard: holding 1 wild back: "
        "costs for every strong player measured (learned -50.0, tuned -30.0 points per deal); "
        "holding 2 wilds back: depends on the player (learned -60.0, tuned +5.0 points per "
        "deal)."]
    one = {"standard, learned": "learned"}
    assert hold_wild.reach_lines(results.filter(pl.col("group") == "standard, learned"),
                                 one) == []  # one player: nothing to compare


def test_a_guide_made_before_players_were_measured_still_reads():
    """Its params name one baseline (a strategy file, say) and no players: it is read as one
    player, labelled by the file's stem, with one-player words."""
    from strategies.registry import CAUTIOUS

    old = {"baseline": "my/club-tuned.toml", "baseline_why": "chosen with --baseline",
           "baseline_params": {k: float(v) for k, v in CAUTIOUS.items()},
           "items": params([player("x")])["items"], "profile": "standard"}
    rows = guide.advice_rows(pl.DataFrame([result("black3", 0.46, -104.6, 10.0, 1e-12)]), old)
    (row,) = rows.to_dicts()
    assert row["player"] == "club-tuned" and row["holds"] == \
        "pays for club-tuned (the one player measured)"
    players = guide.players_of(old)
    text = guide.guide_verdict(rows.to_dicts(), [], players, "standard")
    assert text[0].startswith("Under standard, measured with club-tuned: 1 of 1 pieces of "
                              "advice pay for club-tuned")
    assert "Worth following (pays for club-tuned)" in text[0]
    assert card_of(rows.to_dicts(), players, "standard", "standard").follow[0].number == \
        "+105 points a deal"

