"""How far a verdict holds (analysis.reports.reach) and the words built on it.

From constructed numbers: the labels follow the players' calls and the tests of the
difference between them (it depends on the player only where two players whose calls differ
differ measurably), the guide's headline and lines give each player's figure, the held table
has one row per piece of advice, the hold-wild answer labels each number of wilds, and the
strategy card sorts the advice by its label. From synthetic shuffles: the difference between
players is paired shuffle by shuffle, it is in the page's one Holm family, and a guide whose
one player's effect is clear and another's unclear (the two not differing) does not say it
depends on the player, while opposite clear effects do."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from statsmodels.stats.multitest import multipletests

from analysis.experiments import guide_plan
from analysis.experiments.pairings import Pairing, PairRuns, Side
from analysis.reports import content, guide, hold_wild
from analysis.reports.guide_card import card_of
from analysis.reports.reach import (
    COSTS,
    DEPENDS,
    MIXED,
    NOT_DIFFERENT,
    NOT_PAIRED,
    NOT_TESTED,
    PAYS,
    UNCLEAR,
    Effect,
    between,
    holds_for_all,
    kind_of,
    one_family,
    reach,
)
from analysis.reports.tables import Analysed, results_table
from analysis.statistics.paired import PairingError, effect_difference, paired_result, rotated
from tests.test_guide import params, player, result

TWO = ["learned", "tuned"]
ABC = ["a", "b", "c"]


def pair_test(first: str, second: str, p_holm: float, paired: bool = True) -> dict:
    """A between-player test as ``reach.one_family`` gives it (the fields ``reach`` reads)."""
    return {"first": first, "second": second, "paired": paired, "p_holm": p_holm}


APART = [pair_test("learned", "tuned", 1e-6)]  # the two players' effects differ
SAME = [pair_test("learned", "tuned", 0.6)]  # they do not differ measurably
UNPAIRED = [pair_test("learned", "tuned", math.nan, paired=False)]  # not on the same shuffles


@pytest.mark.parametrize("calls, players, tests, label", [
    ([PAYS, PAYS], TWO, SAME, "pays for every strong player measured"),
    # both pay, by measurably different amounts: it still pays whatever the player
    ([PAYS, PAYS], TWO, APART, "pays for every strong player measured"),
    ([COSTS, COSTS], TWO, SAME, "costs for every strong player measured"),
    ([UNCLEAR, UNCLEAR], TWO, APART, "no measurable difference for any strong player measured"),
    ([PAYS, UNCLEAR], TWO, APART, DEPENDS),
    ([UNCLEAR, COSTS], TWO, APART, DEPENDS),
    ([PAYS, COSTS], TWO, APART, DEPENDS),
    # one player's clear effect beside another's unclear one, the two not differing
    ([PAYS, UNCLEAR], TWO, SAME,
     f"pays for learned; no measurable difference for tuned ({NOT_DIFFERENT})"),
    ([UNCLEAR, COSTS], TWO, SAME,
     f"no measurable difference for learned; costs for tuned ({NOT_DIFFERENT})"),
    ([PAYS, COSTS], TWO, UNPAIRED, f"pays for learned; costs for tuned ({NOT_PAIRED})"),
    ([PAYS, UNCLEAR], TWO, [], f"pays for learned; no measurable difference for tuned "
                               f"({NOT_TESTED})"),
    # a and b differ only in how much it pays; c's cost does not differ from either
    ([PAYS, PAYS, COSTS], ABC, [pair_test("a", "b", 1e-9), pair_test("a", "c", 0.2),
                                pair_test("b", "c", 0.3)],
     f"pays for a and b; costs for c ({NOT_DIFFERENT})"),
    ([PAYS, PAYS, COSTS], ABC, [pair_test("a", "b", 0.9), pair_test("a", "c", 0.2),
                                pair_test("b", "c", 1e-4)], DEPENDS),
    ([COSTS, COSTS, COSTS], ABC, [], "costs for every strong player measured"),
    ([PAYS], ["tuned"], [], "pays for tuned (the one player measured)"),
    ([COSTS], ["tuned"], [], "costs for tuned (the one player measured)"),
    ([UNCLEAR], ["tuned"], [], "no measurable difference for tuned (the one player measured)"),
])
def test_the_label_follows_the_players_calls_and_their_differences(calls, players, tests,
                                                                   label):
    assert reach(calls, players, tests) == label
    for kind in (PAYS, COSTS, UNCLEAR):
        assert holds_for_all(label, kind) == (set(calls) == {kind})
    same = len(set(calls)) == 1
    assert kind_of(label) == (calls[0] if same else DEPENDS if label == DEPENDS else MIXED)


def test_one_call_per_player():
    with pytest.raises(ValueError):
        reach([PAYS], TWO)
    with pytest.raises(ValueError):
        reach([], [])


def constructed_differences() -> pl.DataFrame:
    """learned - tuned for each piece of advice of ``two_players``, as ``one_family`` gives
    them: only on holding one wild (-110) do the two players' effects differ."""
    rows = []
    for unit, diff, p in (("black3", 30.0, 0.04), ("hold1", -110.0, 1e-7),
                          ("hold2", -15.0, 0.5), ("keep-pairs", 3.0, 0.9)):
        rows.append({"unit": unit, "first": "learned", "second": "tuned",
                     "players": "learned - tuned", "paired": True, "games": 20_000,
                     "diff_game": 4 * diff, "diff_game_low": 4 * (diff - 12),
                     "diff_game_high": 4 * (diff + 12), "diff_deal": diff,
                     "diff_deal_low": diff - 12, "diff_deal_high": diff + 12, "p_value": p / 8,
                     "why": "", "p_holm": p,
                     "verdict": "the effects differ" if p < 0.05 else
                     "no measurable difference between them"})
    return pl.DataFrame(rows)


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
    return players, guide.advice_rows(results, p, constructed_differences())


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
    text = guide.guide_verdict(rows.to_dicts(), [], players, "standard",
                               constructed_differences().to_dicts())
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
    assert ("the difference of their effects, learned - tuned: -110.0 (-122.0 to -98.0; p Holm "
            "1e-07), the effects differ") in hold1
    black3 = lines["Discard black threes first, to block the pile"]
    assert ": pays for every strong player measured. learned (learned follows it)" in black3
    assert "tuned (tuned follows it)" in black3 and "would gain" not in black3
    assert ": no measurable difference for any strong player measured." in \
        lines["Keep natural pairs when discarding"]
    assert "corrected for all 12 tests of the page (4 pieces of advice x 2 players, and 4 " \
           "differences between players, Holm)" in text[-1]
    assert "Two players are said to differ (the advice depends on the player) only when " \
           "the difference of their effects, paired shuffle by shuffle" in text[-1]


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
    held = guide.held_rows(rows, constructed_differences())
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
    assert hold1["between"] == "learned - tuned: -110.0 (-122.0 to -98.0), the effects differ"


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


def hold_differences(p_two: float) -> pl.DataFrame:
    """learned - tuned under standard for holding 1 and 2 wilds; ``p_two``: the corrected p of
    the difference for holding 2."""
    return pl.DataFrame([{"unit": hold_wild.unit("standard", v), "first": "learned",
                          "second": "tuned", "paired": True, "diff_deal": d, "p_holm": p}
                         for v, d, p in (("1", -20.0, 0.3), ("2", -65.0, p_two))])


def test_hold_wild_says_how_far_each_answer_holds():
    who = {"standard, learned": "learned", "standard, tuned": "tuned"}
    results = hold_results({("standard, learned", "1"): (-50.0, 1e-6),
                            ("standard, tuned", "1"): (-30.0, 1e-5),
                            ("standard, learned", "2"): (-60.0, 1e-6),
                            ("standard, tuned", "2"): (5.0, 0.5)})
    lines = hold_wild.reach_lines(results, who, hold_differences(1e-5))
    assert lines == [
        "How far it holds, whoever the strong player: Under standard: holding 1 wild back: "
        "costs for every strong player measured (learned -50.0, tuned -30.0 points per deal); "
        "holding 2 wilds back: depends on the player (learned -60.0, tuned +5.0 points per "
        "deal)."]
    # the same calls, the players' effects not measurably different: not a difference
    lines = hold_wild.reach_lines(results, who, hold_differences(0.2))
    assert ("holding 2 wilds back: costs for learned; no measurable difference for tuned "
            f"({NOT_DIFFERENT}) (learned -60.0, tuned +5.0 points per deal).") in lines[0]
    assert DEPENDS not in lines[0]
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



# --- From synthetic shuffles: the difference between players, paired and in the family -------

N = 2_000  # shuffles per comparison
DEALS = 4  # deals per game (standard)


def margins(rng: np.random.Generator, effect: float, sd: float, shared: np.ndarray) -> np.ndarray:
    """Per-shuffle margins (points per game) of a comparison whose effect is ``effect``: its
    own noise standardised to mean 0 and standard deviation ``sd`` over the N shuffles (so its
    t statistic is ``effect * sqrt(N) / sd`` whatever the draw, to within rounding to whole
    points), plus ``shared``, what the same shuffles do to every player's comparison."""
    x = rng.standard_normal(N)
    return np.round(effect + sd * (x - x.mean()) / x.std(ddof=1) + shared)


def seatings(m: np.ndarray, luck: np.ndarray) -> list[pl.DataFrame]:
    """The two seatings' game tables whose margin A - B is ``m`` per shuffle, the cards
    favouring partnership 0 by ``luck`` in both (it cancels out of the paired margin)."""
    game = np.arange(len(m))
    base = np.full(len(m), 20_000)
    return [pl.DataFrame({"game": game, "total_0": base + luck + m, "total_1": base}),
            pl.DataFrame({"game": game, "total_0": base + luck, "total_1": base + m})]


def analysed(key: str, value: str, m: np.ndarray, luck: np.ndarray, seed: int = 1) -> Analysed:
    """A comparison as ``analysis.reports.tables.analyse`` reads it from its runs."""
    diffs = rotated(seatings(m.astype(np.int64), luck.astype(np.int64)))
    pairing = Pairing(key=key, a=Side("A", "a"), b=Side("B", "b"), rules="standard",
                      group="standard", value=value)
    return Analysed(PairRuns(pairing, ()), paired_result(diffs, DEALS), diffs, None,
                    ("standard-id", seed))


def shuffle_table(values: np.ndarray) -> pl.DataFrame:
    return pl.DataFrame({"game": np.arange(len(values)), "d": values})


def test_the_difference_of_two_effects_is_paired_shuffle_by_shuffle():
    """Two players' effects (+100 and +40 a game) on the same shuffles, which move both by the
    same large amount (sd 3,000): the paired difference sees only the players' own noise (sd
    500 each), so its standard error is sqrt(2) * 500 / sqrt(n), and the tolerances follow
    from n (the mean within 4 standard errors, the standard error within 5 of its own relative
    standard errors, 1 / sqrt(2 (n - 1)))."""
    rng = np.random.default_rng(11)
    n = 4_000
    shared = rng.normal(0, 3_000, n)
    a = 100 + shared + rng.normal(0, 500, n)
    b = 40 + shared + rng.normal(0, 500, n)
    est = effect_difference(shuffle_table(a), shuffle_table(b))
    se = math.sqrt(2) * 500 / math.sqrt(n)
    assert est.n == n and abs(est.mean - 60) < 4 * se
    assert est.se == pytest.approx(se, rel=5 / math.sqrt(2 * (n - 1)))
    assert est.p_value < 1e-6 and est.low < 60 < est.high
    unpaired = math.sqrt(a.var(ddof=1) / n + b.var(ddof=1) / n)  # as if other shuffles
    assert est.se < unpaired / 4
    # turned round where A of a pairing plays the other side; only the shuffles both hold
    turned = effect_difference(shuffle_table(-a), shuffle_table(b), signs=(-1.0, 1.0))
    assert turned == est
    assert effect_difference(shuffle_table(a), shuffle_table(b)[: n // 2]).n == n // 2
    with pytest.raises(PairingError):
        effect_difference(shuffle_table(a)[:1], shuffle_table(b))


def test_players_not_on_the_same_shuffles_are_not_compared_and_not_in_the_family():
    """Two pairings with other seeds are other shuffles: no paired difference, no hypothesis
    of the family, and opposite clear calls are said player by player, not as a difference."""
    rng = np.random.default_rng(3)
    zero = np.zeros(N)
    first = analysed("learned--x", "x", margins(rng, 200.0, 1_000.0, zero), zero, seed=1)
    second = analysed("tuned--x", "x", margins(rng, -200.0, 1_000.0, zero), zero, seed=2)
    effects = [Effect("x", "learned", first.diffs, 1.0, first.shuffles, DEALS),
               Effect("x", "tuned", second.diffs, 1.0, second.shuffles, DEALS)]
    tests = between(effects)
    assert tests.height == 1 and not tests["paired"][0] and math.isnan(tests["p_value"][0])
    results = results_table([first, second], correct=True)
    fixed, tests = one_family(results, tests)
    assert fixed["p_holm"].to_list() == results["p_holm"].to_list()  # the family: 2
    assert tests["verdict"][0] == "not compared: not the same shuffles"
    calls = [PAYS, COSTS]
    assert reach(calls, TWO, tests.to_dicts()) == \
        f"pays for learned; costs for tuned ({NOT_PAIRED})"


def test_the_differences_between_players_join_the_pages_holm_family():
    rng = np.random.default_rng(5)
    zero = np.zeros(N)
    items = [analysed(f"{who}--{key}", key, margins(rng, e, 1_000.0, zero), zero)
             for key, effects_ in (("a", (300.0, 280.0)), ("b", (60.0, -60.0)))
             for who, e in zip(TWO, effects_, strict=True)]
    effects = [Effect(i.pair.pairing.value, i.pair.pairing.key.split("--")[0], i.diffs, 1.0,
                      i.shuffles, DEALS) for i in items]
    tests = between(effects)
    assert tests.height == 2 and tests["paired"].all()
    results = results_table(items, correct=True)
    fixed, tests = one_family(results, tests)
    every = multipletests(list(results["p_value"]) + list(tests["p_value"]), method="holm")[1]
    assert np.allclose(fixed["p_holm"].to_numpy(), every[:4])  # 4 comparisons + 2 differences
    assert np.allclose(tests["p_holm"].to_numpy(), every[4:])
    assert (fixed["p_holm"] >= results["p_holm"]).all()  # a larger family: never smaller
    assert (fixed["p_holm"] > results["p_holm"]).any()


def guide_items(rng: np.random.Generator, p: dict) -> list[Analysed]:
    """The comparisons of a guide with learned and tuned (tuned breaks pairs), on the same
    shuffles (which favour the changed player alike in both players' comparisons, sd 2,000 a
    game), effects the advice's way round, per game:

    - black3: +400 and +300, own noise sd 1,000: both clearly pay;
    - hold1: learned +200 (sd 1,000, t = 8.9), tuned +100 (sd 20,000, t = 0.22): learned's
      clear, tuned's unclear, their difference (t about 0.22) not measurable;
    - hold2: learned -300, tuned +300 (sd 1,000, t = 13 each way): they differ (t about 19);
    - keep-pairs: learned +300, tuned -300, tuned's comparison on another seed: not the same
      shuffles, so not compared."""
    players = {q["label"]: q["knobs"] for q in p["players"]}
    items = {i["key"]: guide_plan.Advice(**i) for i in p["items"]}
    shared = rng.normal(0, 2_000, N)
    luck = rng.normal(0, 3_000, N)
    plan = {"black3": ((400.0, 1_000.0), (300.0, 1_000.0)),
            "hold1": ((200.0, 1_000.0), (100.0, 20_000.0)),
            "hold2": ((-300.0, 1_000.0), (300.0, 1_000.0)),
            "keep-pairs": ((300.0, 1_000.0), (-300.0, 1_000.0))}
    out = []
    for key, per_player in plan.items():
        for who, (effect, sd) in zip(TWO, per_player, strict=True):
            sign = -1.0 if guide_plan.follows(items[key], players[who]) == "advice" else 1.0
            seed = 2 if (key, who) == ("keep-pairs", "tuned") else 1
            m = sign * margins(rng, effect, sd, shared)
            out.append(analysed(f"{who}--{key}", key, m, luck, seed))
    return out


def test_a_clear_effect_beside_an_unclear_one_is_not_said_to_depend_on_the_player(
        monkeypatch):
    """The plant: learned's clear gain from holding one wild beside tuned's unclear one,
    the two not measurably different, must not read 'depends on the player' (it did when the
    label was decided by each player's significance alone); opposite clear effects must."""
    players = [player("learned"), player("tuned", keep_pairs=0)]
    p = params(players, ("black3", "hold1", "hold2", "keep-pairs"))
    items = guide_items(np.random.default_rng(2024), p)
    monkeypatch.setattr(content, "analyse", lambda pairs: items)
    page = guide.build([], p, None)
    rows = page.tables["guide.csv"]
    calls = {(r["item"], r["player"]): r["verdict"] for r in rows.iter_rows(named=True)}
    assert calls["hold1", "learned"] == PAYS and calls["hold1", "tuned"] == UNCLEAR
    assert calls["hold2", "learned"] == COSTS and calls["hold2", "tuned"] == PAYS
    holds = dict(zip(page.tables["holds.csv"]["item"], page.tables["holds.csv"]["holds"],
                     strict=True))
    assert holds["hold1"] == ("pays for learned; no measurable difference for tuned "
                              f"({NOT_DIFFERENT})")
    assert holds["hold2"] == DEPENDS
    assert holds["black3"] == "pays for every strong player measured"
    assert holds["keep-pairs"] == f"pays for learned; costs for tuned ({NOT_PAIRED})"
    differences = page.tables["between.csv"]
    by = {r["item"]: r for r in differences.iter_rows(named=True)}
    # the planned difference of effects per deal, within 4 standard errors derived from N
    se_hold1 = math.hypot(1_000.0, 20_000.0) / math.sqrt(N) / DEALS
    assert abs(by["hold1"]["diff_deal"] - 100.0 / DEALS) < 4 * se_hold1
    assert by["hold1"]["p_holm"] > 0.05 and by["hold2"]["p_holm"] < 1e-6
    assert abs(by["hold2"]["diff_deal"] + 600.0 / DEALS) < 4 * math.sqrt(2) * 1_000.0 / \
        math.sqrt(N) / DEALS
    assert not by["keep-pairs"]["paired"]
    # one Holm family: 8 comparisons and the 3 differences played on the same shuffles
    results = page.comparisons.results
    tested_p = differences.filter(pl.col("paired"))["p_value"].to_list()
    every = multipletests(list(results["p_value"]) + tested_p, method="holm")[1]
    assert np.allclose(results["p_holm"].to_numpy(), every[:8])
    text = page.answer
    assert "1 depend on the player, 2 pay or cost for some players only" in text[0]
    assert "corrected for all 11 tests of the page (4 pieces of advice x 2 players, and 3 " \
           "differences between players, Holm)" in text[-1]
    card = card_of(rows.to_dicts(), players, "standard", "standard")
    assert [line.advice.split(",")[0] for line in card.depends] == [
        "Hold 2 wilds back until on the Foot"]
    assert sorted(line.advice.split(",")[0] for line in card.mixed) == [
        "Hold 1 wild back until on the Foot", "Keep natural pairs when discarding"]
    assert [line.advice.split(",")[0] for line in card.follow] == [
        "Discard black threes first"]
    hold1 = next(line for line in card.mixed if line.advice.startswith("Hold 1"))
    assert hold1.detail.startswith("learned +") and "; tuned +" in hold1.detail
    assert hold1.detail.endswith("no measurable difference")
