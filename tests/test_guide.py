"""``handfoot guide``: the verdict's words follow the numbers (constructed results, either way
round), the advice skips what the rules make identical, the command writes its report and
names the baseline, mistakes are one line with exit code 2, and the black-three alternative
still discards black threes."""

from __future__ import annotations

import dataclasses
import json

import polars as pl
import pytest

from analysis.reports import guide
from sim.core.cards import KIND_INDEX
from sim.core.enums import Decision
from sim.core.profiles import get_profile
from strategies.registry import CAUTIOUS
from tests.position import position
from tests.runhelpers import cli
from tests.test_strategies import ask, with_params


def _params(base: dict | None = None) -> dict:
    base = {**CAUTIOUS, **(base or {})}
    items, skipped = guide.advice_items(base, get_profile("standard"))
    return {"baseline": "cautious", "baseline_why": "constructed", "profile": "standard",
            "baseline_summary": "", "baseline_params": {k: float(v) for k, v in base.items()},
            "items": [dataclasses.asdict(i) for i in items],
            "skipped": [dataclasses.asdict(s) for s in skipped]}


def _result(key: str, win: float, diff: float, half: float, p: float) -> dict:
    return {"group": "standard", "value": key, "a": "A", "b": "B", "key": key,
            "games": 20_000, "teams": 2, "even": 0.5, "win_rate": win, "win_low": win - 0.005,
            "win_high": win + 0.005, "diff_deal": diff, "diff_deal_low": diff - half,
            "diff_deal_high": diff + half, "diff_game": 4 * diff,
            "diff_game_low": 4 * (diff - half), "diff_game_high": 4 * (diff + half),
            "p_value": p, "p_holm": p}


def test_the_verdict_words_follow_the_numbers_either_way_round():
    params = _params()
    # cautious blocks with black threes (A plays the alternative and loses: the advice pays);
    # cautious melds wilds at once (A holds one and loses: the advice costs); keep-pairs: A
    # breaks pairs, a hair better, far from significant.
    results = pl.DataFrame([_result("black3", 0.46, -120.0, 10.0, 1e-12),
                            _result("hold1", 0.47, -80.0, 9.0, 1e-9),
                            _result("keep-pairs", 0.501, 2.0, 9.0, 0.7)])
    rows = guide.advice_rows(results, params)
    by = {r["key"]: r for r in rows.iter_rows(named=True)}
    assert by["black3"]["verdict"] == guide.PAYS and by["black3"]["diff_deal"] == 120.0
    assert by["black3"]["win_rate"] == pytest.approx(0.54)
    assert (by["black3"]["diff_deal_low"], by["black3"]["diff_deal_high"]) == (110.0, 130.0)
    assert by["hold1"]["verdict"] == guide.COSTS and by["hold1"]["diff_deal"] == -80.0
    assert by["keep-pairs"]["verdict"] == guide.UNCLEAR
    assert by["keep-pairs"]["diff_deal"] == -2.0  # cautious keeps pairs: turned round
    assert rows["key"].to_list() == ["black3", "hold1", "keep-pairs"]  # largest effect first
    text = guide.guide_verdict(list(rows.iter_rows(named=True)), params["skipped"],
                               "cautious", "standard", "constructed")
    head = text[0]
    assert head.startswith("Under standard, measured against cautious (constructed): 1 of 3 "
                           "pieces of advice pay, 1 costs and 1 makes no measurable difference")
    assert "Worth following: discard black threes first" in head
    assert "Better not: hold 1 wild back" in head
    assert "Too close to call at this number of games: keep natural pairs" in head
    assert text[1].startswith("Discard black threes first, to block the pile pays (cautious "
                              "follows it)")
    assert "wins 54.0% of games" in text[1] and "+120.0 points per deal" in text[1]
    assert text[2].startswith("Hold 1 wild back until on the Foot costs (cautious does not "
                              "follow it)")
    assert "makes no measurable difference" in text[3]
    assert text[-1].startswith("How sure:") and "3 comparisons (Holm)" in text[-1]


def test_advice_the_baseline_does_not_follow_is_flagged_when_it_pays():
    params = _params({"keep_pairs": 0, "go_out": 1})
    results = pl.DataFrame([_result("keep-pairs", 0.53, 60.0, 8.0, 1e-6),
                            _result("go-out2", 0.51, 5.0, 1.0, 1e-6)])
    rows = list(guide.advice_rows(results, params).iter_rows(named=True))
    assert rows[0]["baseline_plays"] == "alternative" and rows[0]["verdict"] == guide.PAYS
    assert rows[1]["baseline_plays"] == "neither" and rows[1]["verdict"] == guide.PAYS
    text = guide.guide_verdict(rows, [], "cautious", "standard")
    assert "cautious would gain by following it" in text[1]
    assert "would gain" not in text[2]  # go_out 0 against 2 says nothing of its own 1
    assert "go out as soon as you are allowed rather than keep scoring" not in text[0]


def test_advice_that_plays_identically_under_the_rules_is_skipped_with_its_reason():
    items, skipped = guide.advice_items(CAUTIOUS, get_profile("simpson"))
    keys = {i.key for i in items}
    assert "min-pile" not in keys and "books" not in keys
    reasons = " ".join(s.reason for s in skipped)
    assert "7 cards or more" in reasons and "no partner" in reasons
    items, skipped = guide.advice_items(CAUTIOUS, get_profile("standard"))
    assert skipped == [] and {"hold1", "hold2", "min-pile", "books", "go-out1", "go-out2",
                              "black3", "keep-pairs", "discard-safety"} == {i.key for i in items}


def test_the_baseline_is_tuned_for_every_profile_and_cautious_for_a_rule_file(tmp_path):
    """Every named profile ships a tuned file, so the guide measures against ``tuned`` there;
    the fallback is met by a rule file that matches no profile (no tuned player exists for
    it), and a rule file equal to a profile is that profile."""
    from sim.core.profiles import PROFILES

    for profile in PROFILES:
        assert guide.plan(profile, None, tmp_path / profile).baseline == "tuned", profile
    house = tmp_path / "house.toml"
    house.write_text('base = "standard"\ngoing_out_bonus = 250\n')
    plan = guide.plan(str(house), None, tmp_path / "house")
    assert plan.profile.startswith("custom") and plan.baseline == "cautious"
    assert plan.baseline_info.params == CAUTIOUS and "a rule file has no tuned file" in plan.why
    same = tmp_path / "same.toml"
    same.write_text('base = "standard"\n')
    assert guide.plan(str(same), None, tmp_path / "same").baseline == "tuned"


def test_not_blocking_still_discards_black_threes_as_low_cards():
    hand = ["B3", "9", "K", "K", "A", "A"]
    for value in (1, 0):  # before a lone nine and every pair either way
        arr = position(hands={0: hand}, opened=(0,), **with_params(black3_block=value))
        assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX["B3"]
    arr = position(hands={0: ["B3", "B3", "K", "K", "A", "A"]}, opened=(0,),
                   **with_params(black3_block=0))
    assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX["B3"]  # two black threes are not a pair


def _dirs(tmp_path) -> list[str]:
    return ["--runs-dir", str(tmp_path / "runs"), "--reports-dir", str(tmp_path / "reports"),
            "--jobs", "1"]


def test_guide_writes_its_report_and_names_the_baseline(tmp_path, capsys):
    code, out, err = cli(capsys, "guide", "--rules", "standard", "--games", "20",
                         *_dirs(tmp_path))
    assert code == 0, err
    baseline = guide.default_baseline("standard")[0]  # tuned once standard has a tuned file
    report = tmp_path / "reports" / "guide-standard"
    assert (report / "index.html").is_file() and (report / "guide.png").is_file()
    manifest = json.loads((report / "manifest.json").read_text())
    assert manifest["kind"] == "guide" and manifest["params"]["baseline"] == baseline
    assert "guide.csv" in manifest["tables"] and len(manifest["runs"]) >= 2 * 7
    table = pl.read_csv(report / "guide.csv")
    assert len(table) >= 7 and set(table["verdict"]) <= {guide.PAYS, guide.COSTS,
                                                          guide.UNCLEAR}
    assert f"measured against {baseline}" in out
    assert f"measured against {baseline}" in (report / "index.html").read_text()


@pytest.mark.parametrize("args, says", [
    (["--rules", "nope"], "unknown rule profile 'nope'"),
    (["--baseline", "nope"], "unknown strategy 'nope'"),
    (["--baseline", "greedy"], "the guide turns the tactician's knobs"),
    (["--games", "1"], "--games must be at least 2"),
])
def test_guide_mistakes_are_one_line_with_exit_code_2(tmp_path, capsys, args, says):
    code, _, err = cli(capsys, "guide", *args, *_dirs(tmp_path))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    assert says in lines[0]
