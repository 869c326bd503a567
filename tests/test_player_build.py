"""Strong players for a rule file without a shipped ladder (analysis.experiments.player_build):
built once at a small budget (a tuned heuristic, then a learned player on it, ranked by a
match), kept under the runs folder by rules id and reused the next time, much faster; a
folder of players built for other rules, or a damaged one, is refused in one line before
anything is played."""

from __future__ import annotations

import json
import time

import pytest

from analysis.experiments import player_build as pb
from sim.core.profiles import load_rules
from tests.runhelpers import cli, file_ids

CLUB = 'base = "standard"\ngoing_out_bonus = 250\n'
# The smallest --build-scale: tune 1,000 games (first rung 41 shuffles), learn 200 games, match
# 20 shuffles (every part kept playable: test_every_scale_is_playable).
SCALE = "0.01"


def _dirs(root) -> list[str]:
    return ["--runs-dir", str(root / "runs"), "--reports-dir", str(root / "reports"),
            "--jobs", "1"]


@pytest.fixture
def club(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "club.toml"
    path.write_text(CLUB)
    return path


def _refused(capsys, root, says: list[str]) -> None:
    code, _, err = cli(capsys, "guide", "--rules", "club.toml", "--games", "4", *_dirs(root))
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    for words in says:
        assert words in lines[0], lines[0]
    assert not (root / "reports").exists()
    assert not list((root / "runs").rglob("manifest.json"))  # nothing played


def _record(club, tmp_path, rules_id: str | None, files: list[str]) -> str:
    """A player record for ``club``'s folder naming ``files`` (only tuned.toml exists);
    the club's rules id."""
    ours = load_rules(str(club)).rules_id
    folder = tmp_path / "runs" / "players" / ours
    folder.mkdir(parents=True)
    (folder / "tuned.toml").write_text('base = "cautious"\n')
    (folder / "player.json").write_text(json.dumps(
        {"rules_id": rules_id or ours, "created": "2026-12-02T00:00:00+00:00", "seconds": 1.0,
         "players": [{"file": f, "label": f, "how": "by hand", "measured": "not"}
                     for f in files]}))
    return ours


def test_players_built_for_other_rules_are_refused(club, tmp_path, capsys):
    ours = _record(club, tmp_path, "000000000000", ["tuned.toml"])
    _refused(capsys, tmp_path, ["holds players built for other rules (rules id 000000000000)",
                                f"not these (rules id {ours})"])


@pytest.mark.parametrize("meta", ['{"rules_id": ', '{"players": []}', '[1, 2]',
                                  '{"rules_id": "x", "players": [{"label": "no file"}]}',
                                  "OURS"])
def test_a_damaged_player_record_is_refused(club, tmp_path, capsys, meta):
    ours = load_rules(str(club)).rules_id
    folder = tmp_path / "runs" / "players" / ours
    folder.mkdir(parents=True)
    if meta == "OURS":  # these rules, but without what the record must say of each player
        (folder / "tuned.toml").write_text('base = "cautious"\n')
        meta = json.dumps({"rules_id": ours, "players": [{"file": "tuned.toml"}]})
    (folder / "player.json").write_text(meta)
    _refused(capsys, tmp_path, [f"{folder / 'player.json'} is not a handfoot player record",
                                f"delete {folder}"])


def test_a_record_without_its_strategy_files_is_refused(club, tmp_path, capsys):
    _record(club, tmp_path, None, ["learned.toml", "tuned.toml"])
    _refused(capsys, tmp_path, ["has player.json but no learned.toml"])


def test_the_budget_scales_and_keeps_every_part_playable():
    assert pb.scaled(1.0) == pb.DEFAULT
    half = pb.scaled(0.5)
    assert (half.tune, half.remeasure, half.learn, half.match) == (20_000, 1_000, 10_000, 300)
    tiny = pb.scaled(0.01)
    assert tiny.remeasure >= 20 and tiny.learn >= 80 and tiny.match >= 20
    assert tiny.seed == pb.DEFAULT.seed


def test_every_scale_is_playable(club, tmp_path, monkeypatch):
    """Every --build-scale the option accepts (0.01 up) gets past the tune's budget check:
    the study is stopped right after it, so nothing is played."""
    from analysis.experiments import tune

    class Checked(Exception):
        pass

    def stop(*args, **kw):
        raise Checked

    monkeypatch.setattr(tune, "run_study", stop)
    with pytest.raises(Checked):
        pb.ensure_player(str(club), tmp_path / "runs", jobs=1, budget=pb.scaled(0.01))


def test_a_rule_file_builds_its_players_once_then_reuses_them(club, tmp_path, capsys):
    args = ["guide", "--rules", "club.toml", "--games", "4", "--build-scale", SCALE,
            *_dirs(tmp_path)]
    started = time.perf_counter()
    code, out, err = cli(capsys, *args)
    first = time.perf_counter() - started
    assert code == 0, err
    assert "these rules have no shipped ladder; building two" in err
    rules_id = load_rules(str(club)).rules_id
    folder = tmp_path / "runs" / "players" / rules_id
    for name in ("player.json", "tuned.toml", "learned.toml", "model.json"):
        assert (folder / name).is_file(), name
    meta = json.loads((folder / "player.json").read_text())
    assert meta["rules_id"] == rules_id and meta["budget"]["tune"] == 1_000
    assert meta["budget"] == {**pb.scaled(float(SCALE)).__dict__}
    labels = {"tuned for club", "learned for club"}
    assert {p["label"] for p in meta["players"]} == labels
    first_label = meta["players"][0]["label"]
    assert (first_label == "learned for club") == (
        meta["learned_vs_tuned"]["low"] > meta["learned_vs_tuned"]["even"])  # ranked by match
    report = tmp_path / "reports" / "guide-club"
    manifest = json.loads((report / "manifest.json").read_text())
    assert [p["label"] for p in manifest["params"]["players"]] == \
        [p["label"] for p in meta["players"]]
    assert f"measured with the strong players {first_label} and" in out
    assert "built now in" in out
    kept = file_ids(folder)

    started = time.perf_counter()
    code, out, err = cli(capsys, *args)
    second = time.perf_counter() - started
    assert code == 0, err
    assert "reusing those built for these rules" in err and "building" not in err
    assert f"reused from {folder.relative_to(tmp_path)}" in out or f"reused from {folder}" in out
    assert file_ids(folder) == kept  # the players were read, not built again
    assert second < 0.5 * first, (first, second)


def test_rules_given_twice_are_refused_before_any_player_is_built(club, tmp_path, capsys):
    code, _, err = cli(capsys, "rules-compare", "club.toml", "club.toml", "--games", "4",
                       *_dirs(tmp_path))
    assert code == 2 and err.strip().splitlines() == [
        "handfoot: error: rules 'club.toml' are given twice"]
    assert not (tmp_path / "runs" / "players").exists()


def test_two_players_of_one_name_are_refused(club, tmp_path, capsys):
    other = tmp_path / "b" / "tuned.toml"
    other.parent.mkdir()
    other.write_text('base = "cautious"\nhold_wilds = 1\n')
    code, _, err = cli(capsys, "guide", "--rules", "standard", "--player", "tuned",
                       "--player", str(other), "--games", "4", *_dirs(tmp_path))
    lines = err.strip().splitlines()
    assert code == 2 and len(lines) == 1 and "would both be called 'tuned'" in lines[0]
    assert not (tmp_path / "runs").exists()

