"""``handfoot rules`` and ``--rules NAME|FILE``: profiles, rule files and clear refusals."""

from __future__ import annotations

import pytest

from sim.core.profiles import PROFILES, load_rules
from tests.runhelpers import check_played, cli


def test_rules_list_names_every_profile_with_its_source(capsys):
    code, out, err = cli(capsys, "rules", "list")
    assert code == 0, err
    lines = out.strip().splitlines()
    assert [line.split()[0] for line in lines] == list(PROFILES)
    assert all("[" in line for line in lines)


@pytest.mark.parametrize("name", list(PROFILES))
def test_rules_show_prints_a_rule_file_that_loads_back(name, tmp_path, capsys):
    code, out, err = cli(capsys, "rules", "show", name)
    assert code == 0, err
    path = tmp_path / "copy.toml"
    path.write_text(out)
    assert load_rules(str(path)) == PROFILES[name][0]


def test_rule_file_with_a_base_profile_and_overrides(tmp_path, capsys):
    path = tmp_path / "house.toml"
    path.write_text('base = "saskatchewan"\ngoing_out_bonus = 250\nout_clean_books = 2\n')
    rules = load_rules(str(path))
    assert rules.going_out_bonus == 250 and rules.out_clean_books == (2, 2, 2, 2)
    assert rules.books == "grow"  # the rest comes from the base
    code, out, err = cli(capsys, "rules", "show", str(path))
    assert code == 0 and "going_out_bonus = 250" in out, err
    code, out, err = cli(capsys, "simulate", "--games", "20", "--jobs", "1", "--rules",
                         str(path), "--out-dir", str(tmp_path), "--name", "run")
    assert code == 0, err
    m = check_played(tmp_path / "run", ["greedy"] * 4, rules, 20)  # the knobs played
    assert m["rules"]["knobs"]["going_out_bonus"] == 250
    assert m["rules"]["knobs"]["out_clean_books"] == [2, 2, 2, 2]


@pytest.mark.parametrize(
    "toml, says",
    [
        ("colour = 3", "rule 'colour': unknown knob"),
        ("decks = \"five\"", "rule 'decks': must be an integer"),
        ("wild_melds = 1", "rule 'wild_melds': must be true or false"),
        ("pickup_rule = \"half\"", "rule 'pickup_rule': must be one of top, whole, exact"),
        ("players = 9", "rule 'players': 9 is outside 2..6"),
        ("decks = 1", "rule 'decks': 54 cards cannot deal 4 x (13 + 13) + 1 = 105"),
        ("wild_melds = false", "rule 'out_wild_books': wild books are required"),
        ("out_wild_books = 5", "cannot be made"),
        ("players = 5", "rule 'partnerships': 2 partnerships do not divide 5 players"),
        ("base = \"nope\"", "unknown rule profile 'nope'"),
        ("decks = [", "is not valid TOML"),
    ],
)
def test_invalid_rule_files_are_refused_before_play(tmp_path, capsys, toml, says):
    path = tmp_path / "bad.toml"
    path.write_text(toml + "\n")
    for command in (["simulate", "--games", "5", "--jobs", "1", "--out-dir",
                     str(tmp_path / "runs")], ["trace", "--out",
                                                                   str(tmp_path / "t.jsonl")]):
        code, _, err = cli(capsys, *command, "--rules", str(path))
        assert code == 2
        lines = err.strip().splitlines()
        assert len(lines) == 1 and says in lines[0], err
    assert not (tmp_path / "t.jsonl").exists()


def test_missing_rule_file(capsys):
    code, _, err = cli(capsys, "rules", "show", "no-such-file.toml")
    assert code == 2 and "does not exist" in err
