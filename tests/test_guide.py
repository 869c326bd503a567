"""``handfoot guide``: the verdict's words follow the numbers (constructed results, either way
round), the advice skips what the rules make identical, the players are the ladder's first two
(a rule file: the players built for it), the command writes its report with both players in
one Holm family, mistakes are one line with exit code 2 before anything is played, and the
black-three alternative still discards black threes."""

from __future__ import annotations

import dataclasses
import json
import re

import numpy as np
import polars as pl
import pytest

from analysis.experiments import guide_plan
from analysis.experiments.players import Player
from analysis.reports import guide
from analysis.reports.reach import DEPENDS, MIXED, each, kind_of
from sim.core.cards import KIND_INDEX
from sim.core.enums import Decision
from sim.core.profiles import get_profile
from strategies.registry import CAUTIOUS
from tests.position import position
from tests.runhelpers import cli
from tests.test_strategies import ask, with_params


def player(label: str, **knobs: int) -> Player:
    """A constructed player: cautious's knobs with ``knobs`` changed."""
    return Player(label, label, f"{label}, constructed",
                  {k: float(v) for k, v in {**CAUTIOUS, **knobs}.items()})


def params(players: list[Player], keys: tuple[str, ...] = ()) -> dict:
    """A guide's params for ``players`` (the advice of the first player's knobs); with more
    than one player the pairings of ``keys`` are '<player>--<key>'."""
    items, skipped = guide_plan.advice_items(players[0].knobs, get_profile("standard"))
    owners = {f"{p.label}--{k}": p.label for p in players for k in keys} \
        if len(players) > 1 else {}
    return {"rules": "standard", "profile": "standard", "baseline": players[0].label,
            "players": [p.to_dict() for p in players], "pairing_players": owners,
            "items": [dataclasses.asdict(i) for i in items],
            "skipped": [dataclasses.asdict(s) for s in skipped]}


def result(key: str, win: float, diff: float, half: float, p: float,
           value: str | None = None) -> dict:
    """One comparison as results_table makes it (A against B, A's way round)."""
    return {"group": "standard", "value": value or key, "a": "A", "b": "B", "key": key,
            "games": 20_000, "teams": 2, "even": 0.5, "win_rate": win, "win_low": win - 0.005,
            "win_high": win + 0.005, "diff_deal": diff, "diff_deal_low": diff - half,
            "diff_deal_high": diff + half, "diff_game": 4 * diff,
            "diff_game_low": 4 * (diff - half), "diff_game_high": 4 * (diff + half),
            "p_value": p, "p_holm": p}


def test_the_verdict_words_follow_the_numbers_either_way_round():
    cautious = [player("cautious")]
    # cautious blocks with black threes (A plays the alternative and loses: the advice pays);
    # cautious melds wilds at once (A holds one and loses: the advice costs); keep-pairs: A
    # breaks pairs, a hair better, far from significant.
    results = pl.DataFrame([result("black3", 0.46, -120.0, 10.0, 1e-12),
                            result("hold1", 0.47, -80.0, 9.0, 1e-9),
                            result("keep-pairs", 0.501, 2.0, 9.0, 0.7)])
    rows = guide.advice_rows(results, params(cautious))
    by = {r["key"]: r for r in rows.iter_rows(named=True)}
    assert by["black3"]["verdict"] == guide.PAYS and by["black3"]["diff_deal"] == 120.0
    assert by["black3"]["win_rate"] == pytest.approx(0.54)
    assert (by["black3"]["diff_deal_low"], by["black3"]["diff_deal_high"]) == (110.0, 130.0)
    assert by["hold1"]["verdict"] == guide.COSTS and by["hold1"]["diff_deal"] == -80.0
    assert by["keep-pairs"]["verdict"] == guide.UNCLEAR
    assert by["keep-pairs"]["diff_deal"] == -2.0  # cautious keeps pairs: turned round
    assert rows["key"].to_list() == ["black3", "hold1", "keep-pairs"]  # largest effect first
    assert set(rows["player"]) == {"cautious"}
    assert by["black3"]["holds"] == "pays for cautious (the one player measured)"
    text = guide.guide_verdict(rows.to_dicts(), params(cautious)["skipped"], cautious,
                               "standard")
    head = text[0]
    assert head.startswith("Under standard, measured with cautious: 1 of 3 pieces of advice "
                           "pay for cautious, 1 cost for cautious and 1 make no measurable "
                           "difference.")
    assert "discard black threes first, to block the pile (cautious +120.0 per deal)" in head
    assert "hold 1 wild back until on the Foot (cautious -80.0 per deal)" in head
    assert "Too close to call at this number of games: keep natural pairs" in head
    assert "depend on the player" not in head  # one player: nothing to depend on
    assert text[1] == "cautious: cautious, constructed."  # why the player was chosen
    assert text[2].startswith("Discard black threes first, to block the pile against discard "
                              "black threes in the ordinary order, as a low card: pays for "
                              "cautious (the one player measured). cautious (cautious "
                              "follows it)")
    assert "wins 54.0% of games" in text[2] and "+120.0 points per deal" in text[2]
    assert text[3].startswith("Hold 1 wild back until on the Foot against meld every wild at "
                              "once: costs for cautious")
    assert "(cautious does not follow it)" in text[3]
    assert "no measurable difference for cautious" in text[4]
    assert text[-1].startswith("How sure:")
    assert "corrected for all 3 comparisons of the page (3 pieces of advice x 1 player, " \
           "Holm)" in text[-1]


def test_advice_the_player_does_not_follow_is_flagged_when_it_pays():
    cautious = [player("cautious", keep_pairs=0, go_out=1)]
    results = pl.DataFrame([result("keep-pairs", 0.53, 60.0, 8.0, 1e-6),
                            result("go-out2", 0.51, 5.0, 1.0, 1e-6)])
    rows = guide.advice_rows(results, params(cautious)).to_dicts()
    assert rows[0]["baseline_plays"] == "alternative" and rows[0]["verdict"] == guide.PAYS
    assert rows[1]["baseline_plays"] == "neither" and rows[1]["verdict"] == guide.PAYS
    text = guide.guide_verdict(rows, [], cautious, "standard")
    assert "cautious would gain by following it" in text[2]
    assert "would gain" not in text[3]  # go_out 0 against 2 says nothing of its own 1
    # one go-out item on the page: named by its advice alone
    assert "go out as soon as you are allowed (cautious +5.0 per deal)" in text[0]
    assert "Not measured" not in " ".join(text)


def test_advice_that_plays_identically_under_the_rules_is_skipped_with_its_reason():
    items, skipped = guide_plan.advice_items(CAUTIOUS, get_profile("simpson"))
    keys = {i.key for i in items}
    assert "min-pile" not in keys and "books" not in keys
    reasons = " ".join(s.reason for s in skipped)
    assert "7 cards or more" in reasons and "no partner" in reasons
    cautious = [player("cautious")]
    rows = guide.advice_rows(pl.DataFrame([result("black3", 0.5, 1.0, 9.0, 0.9)]),
                             params(cautious)).to_dicts()
    text = guide.guide_verdict(rows, [dataclasses.asdict(s) for s in skipped], cautious,
                               "simpson")
    assert any(t.startswith("Not measured under simpson: pick up any pile you can") and
               "no partner" in t for t in text)
    items, skipped = guide_plan.advice_items(CAUTIOUS, get_profile("standard"))
    assert skipped == [] and {"hold1", "hold2", "min-pile", "books", "go-out1", "go-out2",
                              "black3", "keep-pairs", "discard-safety"} == {i.key for i in items}


def test_every_profile_is_measured_with_its_ladders_first_two_players(tmp_path, monkeypatch):
    """Every named profile ships a ladder, so the guide measures learned and tuned there
    (nothing is built), each piece of advice once per player; a rule file equal to a profile
    is that profile."""
    from analysis.experiments import player_build
    from analysis.experiments.players import KNOBS
    from analysis.experiments.strong_players import choose
    from sim.core.profiles import PROFILES
    from strategies.ladder import ladder

    def no_build(*args, **kw):
        raise AssertionError("a profile with a shipped ladder built a player")

    monkeypatch.setattr(player_build, "ensure_player", no_build)
    for profile in PROFILES:
        chosen = choose(profile, [])
        assert [p.label for p in chosen] == list(ladder(profile).players[:2]) == \
            ["learned", "tuned"], profile
        assert all(set(KNOBS) <= set(p.knobs) for p in chosen), profile
        assert "strongest fast player measured" in chosen[0].why
        plan = guide_plan.plan(profile, chosen, tmp_path / profile)
        n = len(plan.items)
        assert len(plan.pairings) == 2 * n, profile
        assert sorted(plan.pairing_players.values()) == ["learned"] * n + ["tuned"] * n
        assert {p.key for p in plan.pairings} == {f"{who}--{i.key}" for who in
                                                  ("learned", "tuned") for i in plan.items}
        assert plan.params(1, 10)["players"][1]["label"] == "tuned"
    same = tmp_path / "same.toml"
    same.write_text('base = "standard"\n')
    assert [p.label for p in choose(str(same), [])] == ["learned", "tuned"]


def test_a_rule_file_is_measured_with_the_players_built_for_it(tmp_path, monkeypatch):
    """A rule file without a ladder: the players ``ensure_player`` keeps for it, in its order,
    with its labels, at the budget --build-scale asks (the build itself: test_player_build)."""
    from analysis.experiments import player_build
    from analysis.experiments.pairings import slug
    from analysis.experiments.strong_players import choose

    folder = tmp_path / "players"
    folder.mkdir()
    (folder / "tuned.toml").write_text('base = "cautious"\nhold_wilds = 1\n')
    (folder / "other.toml").write_text('base = "tactician"\n')
    asked = {}

    def fake(rules_spec, runs_dir, jobs=0, note=None, budget=player_build.DEFAULT):
        asked.update(rules=rules_spec, runs=runs_dir, budget=budget)
        meta = {"rules_id": "abc", "created": "today", "seconds": 3.0, "players": [
            {"file": "tuned.toml", "label": "tuned for house", "how": "tuned", "measured": "m"},
            {"file": "other.toml", "label": "other for house", "how": "o", "measured": "m2"}]}
        return player_build.Built(folder, meta, reused=True)

    monkeypatch.setattr(player_build, "ensure_player", fake)
    house = tmp_path / "house.toml"
    house.write_text('base = "standard"\ngoing_out_bonus = 250\n')
    chosen = choose(str(house), [], runs_dir=tmp_path / "runs", build_scale=0.5)
    assert [p.label for p in chosen] == ["tuned for house", "other for house"]
    assert chosen[0].spec == str(folder / "tuned.toml") and chosen[0].knobs["hold_wilds"] == 1
    assert chosen[0].why.startswith("the strongest fast player built for these rules (rules id "
                                    "abc; no shipped ladder): tuned; m; reused from")
    assert asked == {"rules": str(house), "runs": tmp_path / "runs",
                     "budget": player_build.scaled(0.5)}
    plan = guide_plan.plan(str(house), chosen, tmp_path / "plan")
    assert plan.profile.startswith("custom")
    assert plan.pairing_players[f"{slug('tuned for house')}--hold1"] == "tuned for house"
    assert set(plan.pairing_players.values()) == {"tuned for house", "other for house"}


def test_not_blocking_still_discards_black_threes_as_low_cards():
    hand = ["B3", "9", "K", "K", "A", "A"]
    for value in (1, 0):  # before a lone nine and every pair either way
        arr = position(hands={0: hand}, opened=(0,), **with_params(black3_block=value))
        assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX["B3"]
    arr = position(hands={0: ["B3", "B3", "K", "K", "A", "A"]}, opened=(0,),
                   **with_params(black3_block=0))
    assert ask(arr, Decision.DISCARD, 0) == KIND_INDEX["B3"]  # two black threes are not a pair


# --- The command -----------------------------------------------------------------------------

def _dirs(root) -> list[str]:
    return ["--runs-dir", str(root / "runs"), "--reports-dir", str(root / "reports"),
            "--jobs", "1"]


@pytest.fixture(scope="module")
def standard(tmp_path_factory):
    """One small guide of standard with its card (the command plays: 2 players x 9 pieces of
    advice, 12 shuffles each in both seatings)."""
    import contextlib
    import io

    from sim.cli import main

    root = tmp_path_factory.mktemp("guide")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main(["guide", "--rules", "standard", "--games", "12", "--card", *_dirs(root)])
            code = 0
        except SystemExit as exc:
            code = exc.code
    out, err = out.getvalue(), err.getvalue()
    assert code in (0, None), err
    return root / "reports" / "guide-standard", out


def test_holm_covers_every_comparison_of_both_players(standard):
    from statsmodels.stats.multitest import multipletests

    report, out = standard
    results = pl.read_csv(report / "results.csv")
    rows = pl.read_csv(report / "guide.csv")
    items = json.loads((report / "manifest.json").read_text())["params"]["items"]
    assert results.height == rows.height == 2 * len(items) == 18
    assert sorted(rows["player"].to_list()) == ["learned"] * 9 + ["tuned"] * 9
    assert set(rows["item"]) == {i["key"] for i in items}
    between = pl.read_csv(report / "between.csv")  # learned - tuned, one per piece of advice
    assert between.height == 9 and between["paired"].all()  # the same seed: the same shuffles
    every = multipletests(np.concatenate([results["p_value"].to_numpy(),
                                          between["p_value"].to_numpy()]), method="holm")[1]
    assert np.allclose(results["p_holm"].to_numpy(), every[:18])
    assert np.allclose(between["p_holm"].to_numpy(), every[18:])
    per_player = np.empty(results.height)
    for who in ("learned", "tuned"):
        mine = results["key"].str.starts_with(f"{who}--").to_numpy()
        assert mine.sum() == 9
        per_player[mine] = multipletests(results["p_value"].to_numpy()[mine],
                                         method="holm")[1]
    if not np.allclose(per_player, every[:18]):  # the family is every test, not one player's
        assert not np.allclose(results["p_holm"].to_numpy(), per_player)
    by_key = dict(zip(results["key"], results["p_holm"], strict=True))
    assert np.allclose(rows["p_holm"].to_numpy(), [by_key[k] for k in rows["key"]])
    page = (report / "index.html").read_text(encoding="utf-8")
    assert "corrected for all 27 tests of the page (9 pieces of advice x 2 players, and 9 " \
           "differences between players, Holm)" in page


def test_the_report_names_both_players_and_how_far_each_verdict_holds(standard):
    report, out = standard
    page = (report / "index.html").read_text(encoding="utf-8")
    assert "measured with the strong players learned and tuned" in page
    assert "learned: the strongest fast player measured for standard" in page
    assert "tuned: the next strongest fast player measured" in page
    assert (report / "guide.png").is_file()
    assert "learned" in page and "tuned" in page and "card.html" in page
    manifest = json.loads((report / "manifest.json").read_text())
    assert manifest["kind"] == "guide"
    assert [p["label"] for p in manifest["params"]["players"]] == ["learned", "tuned"]
    assert set(manifest["params"]["pairing_players"].values()) == {"learned", "tuned"}
    assert len(manifest["runs"]) == 2 * 18  # every comparison in both seatings
    held = pl.read_csv(report / "holds.csv")
    assert "holds" in held.columns and held.height == 9
    assert all(f.count("learned ") == 1 and f.count("tuned ") == 1 for f in held["figures"])
    rows = pl.read_csv(report / "guide.csv")
    between = pl.read_csv(report / "between.csv")
    assert set(rows["verdict"]) <= {guide.PAYS, guide.COSTS, guide.UNCLEAR}
    for item in held["item"]:  # the label: the two players' calls and their difference
        calls = rows.filter(pl.col("item") == item)["verdict"].to_list()
        label = held.filter(pl.col("item") == item)["holds"][0]
        (p_between,) = between.filter(pl.col("item") == item)["p_holm"].to_list()
        differ = len(set(calls)) > 1 and p_between < 0.05
        assert (label == DEPENDS) == differ, (item, calls, p_between, label)
        if len(set(calls)) == 1:
            assert kind_of(label) == calls[0], (item, label)
        elif not differ:
            assert kind_of(label) == MIXED and label.startswith(each(calls, ["learned",
                                                                             "tuned"]))
    card = (report / "card.html").read_text(encoding="utf-8")
    assert "Strategy card: standard" in card and "learned" in card and "tuned" in card


def test_the_console_reads_at_100_columns_with_a_row_per_piece_of_advice(standard):
    report, out = standard
    lines = out.splitlines()
    assert lines[0] == "Strategy guide: standard"
    assert max(len(line) for line in out.splitlines()) <= 100, max(out.splitlines(), key=len)
    assert "measured with the strong players learned and tuned" in " ".join(lines)
    rows = pl.read_csv(report / "guide.csv")
    table = [line for line in lines if line.startswith(tuple(rows["advice"].str.slice(0, 20)))]
    assert len(table) == rows["item"].n_unique() == 9
    for line in table:  # each player's signed points per deal and call, in that row
        assert len(re.findall(r"[+-][\d,]+\.\d (?:pays|costs|n\.s\.)", line)) == 2, line
    assert str(report / "index.html") in " ".join(lines).replace("\n", "")
    assert len(lines) < 30  # the verdict in a few lines: every sentence is in the report


def test_the_console_wraps_long_advice_and_keeps_each_players_figure():
    from analysis.reports.guide_console import WIDTH, guide_console

    long = "hold back a wild card until the partner is on the Foot and the pile is small " * 2
    mixed = "pays for learned; no measurable difference for a-much-longer-name"
    rows = [{"item": "x", "advice": long, "alternative": "meld it", "holds": mixed,
             "player": p, "diff_deal": d, "verdict": v}
            for p, d, v in (("learned", 1234.5, guide.PAYS), ("a-much-longer-name", -3.31,
                                                                guide.UNCLEAR))]
    lines = guide_console("Under standard, " + "word " * 60, rows,
                          ["learned", "a-much-longer-name"], "the report, r/index.html")
    assert max(len(line) for line in lines) <= WIDTH
    row = next(line for line in lines if line.startswith("hold back"))
    assert "+1,234.5 pays" in row and "-3.3 n.s." in row and "some players only" in row
    assert any(line.startswith("  ") and "pile" in line for line in lines)  # wrapped advice


def _nothing_played(root) -> bool:
    return not list((root / "runs").rglob("manifest.json")) and not (root / "reports").exists()


@pytest.mark.parametrize("args, says", [
    (["guide", "--rules", "nope"], "unknown rule profile 'nope'"),
    (["guide", "--player", "nope"], "unknown strategy 'nope'"),
    (["guide", "--player", "oracle"], "--allow-oracle"),
    (["guide", "--player", "greedy"], "the advice turns the tactician's knobs"),
    (["guide", "--games", "1"], "--games must be at least 2"),
    (["ask", "hold-wild", "--player", "nope"], "unknown strategy 'nope'"),
    (["sweep", "--param", "hold_wilds=0,1", "--strategy", "nope"], "unknown strategy 'nope'"),
])
def test_mistakes_are_one_line_with_exit_code_2_and_nothing_played(tmp_path, capsys, args,
                                                                    says):
    code, _, err = cli(capsys, *args, *_dirs(tmp_path))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    assert says in lines[0]
    assert _nothing_played(tmp_path)
