"""Strong players for a rule file without a shipped ladder (analysis.experiments.player_build):
built once at a small budget (a tuned heuristic, then a learned player on it, ranked by a
match), kept under the runs folder with the key of the build (rules id, engine build, feature
version, budget) and reused the next time without building again; a folder of players built
for other rules or with another key, a damaged one, or one another process is building, is
refused in one line before anything is played or written; the record is written whole or not
at all."""

from __future__ import annotations

import dataclasses
import errno
import hashlib
import json
from pathlib import Path

import pytest

from analysis.experiments import player_build as pb
from sim.core.profiles import load_rules
from sim.runs.storage import engine_build
from strategies.lookahead.schema import FEATURE_NAMES, FEATURE_VERSION
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


def _refused(capsys, root, says: list[str], *more: str) -> None:
    code, _, err = cli(capsys, "guide", "--rules", "club.toml", "--games", "4", *_dirs(root),
                       *more)
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("handfoot: error:"), err
    for words in says:
        assert words in lines[0], lines[0]
    assert not (root / "reports").exists()
    assert not list((root / "runs").rglob("manifest.json"))  # nothing played


def _key(rules_id: str, budget=pb.DEFAULT) -> dict:
    """The key a build of ``budget`` for ``rules_id`` records now: what changes its players."""
    return {"rules_id": rules_id, "engine_build": engine_build(),
            "feature_version": FEATURE_VERSION,
            "feature_names_sha256": hashlib.sha256(
                "\n".join(FEATURE_NAMES).encode()).hexdigest()[:16],
            "budget": dataclasses.asdict(budget)}


def _record(club, tmp_path, rules_id: str | None, files: list[str], keyed: bool = True) -> str:
    """A player record for ``club``'s folder naming ``files`` (only tuned.toml exists), with
    the key of a default build now (``keyed``) or none (an older handfoot's); the club's
    rules id."""
    ours = load_rules(str(club)).rules_id
    folder = tmp_path / "runs" / "players" / ours
    folder.mkdir(parents=True)
    (folder / "tuned.toml").write_text('base = "cautious"\n')
    (folder / "player.json").write_text(json.dumps(
        {**(_key(ours) if keyed else {}), "rules_id": rules_id or ours,
         "created": "2026-12-02T00:00:00+00:00", "seconds": 1.0,
         "players": [{"file": f, "label": f, "how": "by hand", "measured": "not"}
                     for f in files]}))
    return ours


def _quick(calls: list, during=None):
    """A stand-in for the build's games (``player_build._build``): two heuristic players
    written in a moment; each call's budget goes to ``calls``, and ``during`` runs in the
    first call, while the build holds its folder."""

    def build(rules_spec, rules, folder, budget, jobs, note):
        calls.append(budget)
        if during is not None and len(calls) == 1:
            during()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "tuned.toml").write_text('base = "cautious"\nhold_wilds = 1\n')
        (folder / "learned.toml").write_text('base = "cautious"\nhold_wilds = 2\n')
        return {"rules_id": rules.rules_id, "rules": rules_spec,
                "budget": dataclasses.asdict(budget), "created": "2026-12-02T00:00:00+00:00",
                "players": [{"file": f, "label": f"{f[:-5]} for club", "how": "quickly",
                             "measured": "not"} for f in ("learned.toml", "tuned.toml")]}

    return build


def _folder(club, tmp_path) -> Path:
    return tmp_path / "runs" / "players" / load_rules(str(club)).rules_id


def _rewrite(folder: Path, **fields) -> None:
    path = folder / "player.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), **fields}))


def test_players_built_for_other_rules_are_refused(club, tmp_path, capsys):
    ours = _record(club, tmp_path, "000000000000", ["tuned.toml"])
    _refused(capsys, tmp_path, ["holds players built for other rules (rules id 000000000000)",
                                f"not these (rules id {ours})"])


@pytest.mark.parametrize("meta", ['{"rules_id": ', '{"players": []}', '[1, 2]',
                                  '{"rules_id": "x", "players": [{"label": "no file"}]}',
                                  "OURS", "BUDGET"])
def test_a_damaged_player_record_is_refused(club, tmp_path, capsys, meta):
    ours = load_rules(str(club)).rules_id
    folder = tmp_path / "runs" / "players" / ours
    folder.mkdir(parents=True)
    if meta == "OURS":  # these rules, but without what the record must say of each player
        (folder / "tuned.toml").write_text('base = "cautious"\n')
        meta = json.dumps({"rules_id": ours, "players": [{"file": "tuned.toml"}]})
    if meta == "BUDGET":  # a whole record but for its budget
        (folder / "tuned.toml").write_text('base = "cautious"\n')
        meta = json.dumps({**_key(ours), "budget": {"tune": "many"}, "created": "today",
                           "seconds": 1.0, "players": [{"file": "tuned.toml", "label": "t",
                                                        "how": "h", "measured": "m"}]})
    (folder / "player.json").write_text(meta)
    _refused(capsys, tmp_path, [f"{folder / 'player.json'} is not a handfoot player record",
                                f"delete {folder}"])


def test_a_record_without_its_strategy_files_is_refused(club, tmp_path, capsys):
    _record(club, tmp_path, None, ["learned.toml", "tuned.toml"])
    _refused(capsys, tmp_path, ["has player.json but no learned.toml"])


def test_a_small_budget_build_is_not_reused_by_a_full_budget_question(club, tmp_path, capsys,
                                                                      monkeypatch):
    """Players built at --build-scale 0.01 answer a question at that scale, and a question at
    the full budget is refused in one line naming both budgets and what to do, with nothing
    played, built or written; the record keeps the scale and the budget it became."""
    calls: list = []
    monkeypatch.setattr(pb, "_build", _quick(calls))
    runs = tmp_path / "runs"
    built = pb.ensure_player(str(club), runs, jobs=1, budget=pb.scaled(0.01))
    assert not built.reused and calls == [pb.scaled(0.01)]
    folder = _folder(club, tmp_path)
    kept = file_ids(folder)
    _refused(capsys, tmp_path, [
        f"{folder} holds players built at --build-scale 0.01 (tune 1,000 games, re-measure 20 "
        "shuffles, learn 200 games, match 20 shuffles), not at --build-scale 1 (tune 40,000 "
        "games, re-measure 2,000 shuffles, learn 20,000 games, match 600 shuffles) as asked",
        f"give --build-scale 0.01 to reuse them, or delete {folder} to build them"])
    with pytest.raises(pb.PlayError, match="not at --build-scale 0.5"):
        pb.ensure_player(str(club), runs, jobs=1, budget=pb.scaled(0.5))
    assert file_ids(folder) == kept and calls == [pb.scaled(0.01)]  # nothing built or written
    record = json.loads((folder / "player.json").read_text())
    assert record["budget"] == {**dataclasses.asdict(pb.scaled(0.01)), "scale": 0.01}
    again = pb.ensure_player(str(club), runs, jobs=1, budget=pb.scaled(0.01))
    assert again.reused and again.meta == record and len(calls) == 1


@pytest.mark.parametrize("field,value,says", [
    ("engine_build", "0123456789ab",
     "holds players built and measured by another engine build (0123456789ab, now {now})"),
    ("feature_version", FEATURE_VERSION - 1,
     f"holds a learned player fitted on feature version {FEATURE_VERSION - 1}, and this "
     f"handfoot computes version {FEATURE_VERSION}"),
    ("feature_names_sha256", "00000000000000ff",
     "holds a learned player fitted on other feature names (digest 00000000000000ff, now"),
], ids=["engine-build", "feature-version", "feature-names"])
def test_players_of_another_engine_build_or_feature_version_are_refused(
        club, tmp_path, capsys, monkeypatch, field, value, says):
    """A kept build of another engine build, or whose learned model reads another feature
    version (or other feature names), is refused up front in one line, exit 2, naming both
    values and the folder to delete: nothing is played (no game of the tuned player first),
    built or written."""
    calls: list = []
    monkeypatch.setattr(pb, "_build", _quick(calls))
    pb.ensure_player(str(club), tmp_path / "runs", jobs=1)
    folder = _folder(club, tmp_path)
    _rewrite(folder, **{field: value})
    kept = file_ids(folder)
    _refused(capsys, tmp_path, [f"{folder} {says.format(now=engine_build())}",
                                f"delete {folder} to build the players again"])
    assert file_ids(folder) == kept and len(calls) == 1


def test_a_record_of_an_older_handfoot_without_its_key_is_refused(club, tmp_path, capsys):
    ours = _record(club, tmp_path, None, ["tuned.toml"], keyed=False)
    folder = tmp_path / "runs" / "players" / ours
    _refused(capsys, tmp_path, [f"{folder / 'player.json'} does not record the engine build, "
                                "feature version, feature names, budget its players were built "
                                f"with", f"delete {folder}"])


def test_the_record_is_written_whole_or_not_at_all(club, tmp_path, monkeypatch):
    """A write of player.json cut short (the disk full half-way) leaves no record, not half
    of one, and no temporary file; the next question builds the players again."""
    calls: list = []
    monkeypatch.setattr(pb, "_build", _quick(calls))
    write_text = Path.write_text

    def cut_short(self, data, *args, **kw):
        if "player.json" in self.name:
            write_text(self, data[:len(data) // 2], *args, **kw)
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_text(self, data, *args, **kw)

    monkeypatch.setattr(Path, "write_text", cut_short)
    with pytest.raises(OSError, match="No space left"):
        pb.ensure_player(str(club), tmp_path / "runs", jobs=1)
    folder = _folder(club, tmp_path)
    assert [f.name for f in folder.iterdir() if "player.json" in f.name] == []
    monkeypatch.setattr(Path, "write_text", write_text)
    built = pb.ensure_player(str(club), tmp_path / "runs", jobs=1)
    assert not built.reused and len(calls) == 2
    assert json.loads((folder / "player.json").read_text()) == built.meta


def test_a_second_question_while_the_players_are_built_is_refused(club, tmp_path, capsys,
                                                                   monkeypatch):
    """Two questions about one rule file at once: the one that comes while the first is
    building (it holds the folder's lock) is refused in one line, exit 2, and builds, plays
    and writes nothing; the first finishes its record undisturbed."""
    calls: list = []
    second: list = []

    def ask() -> None:
        second.append(cli(capsys, "guide", "--rules", "club.toml", "--games", "4",
                          *_dirs(tmp_path)))

    monkeypatch.setattr(pb, "_build", _quick(calls, during=ask))
    built = pb.ensure_player(str(club), tmp_path / "runs", jobs=1)
    folder = _folder(club, tmp_path)
    [(code, _, err)] = second
    lines = err.strip().splitlines()
    assert code == 2 and lines == [f"handfoot: error: {folder} is in use by another handfoot "
                                   "process, which is building these players now; ask again "
                                   "when it has finished"], err
    assert len(calls) == 1 and not (tmp_path / "reports").exists()
    assert not list((tmp_path / "runs").rglob("manifest.json"))
    assert not built.reused and json.loads((folder / "player.json").read_text()) == built.meta


def test_players_built_by_another_question_meanwhile_are_reused(club, tmp_path, monkeypatch):
    """A question that found no players, then got the folder after another question built
    them, reuses those rather than building them a second time."""
    calls: list = []
    monkeypatch.setattr(pb, "_build", _quick(calls))
    read_built = pb.read_built
    looks: list = []

    def meanwhile(folder, want):
        looks.append(folder)
        if len(looks) == 1:  # none yet; another question builds them now
            assert read_built(folder, want) is None
            pb.ensure_player(str(club), tmp_path / "runs", jobs=1)
            return None
        return read_built(folder, want)

    monkeypatch.setattr(pb, "read_built", meanwhile)
    built = pb.ensure_player(str(club), tmp_path / "runs", jobs=1)
    assert built.reused and len(calls) == 1


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


def test_a_rule_file_builds_its_players_once_then_reuses_them(club, tmp_path, capsys,
                                                              monkeypatch):
    """The first question builds the players (their games played for real) and records the
    key of the build; the second reuses them: no build is started and the kept folder is not
    touched (counted, not timed, so a busy machine cannot make it flake)."""
    builds: list = []
    build = pb._build

    def counted(*args, **kw):
        builds.append(args[3])
        return build(*args, **kw)

    monkeypatch.setattr(pb, "_build", counted)
    args = ["guide", "--rules", "club.toml", "--games", "4", "--build-scale", SCALE,
            *_dirs(tmp_path)]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    assert builds == [pb.scaled(float(SCALE))]
    assert "these rules have no shipped ladder; building two" in err
    rules_id = load_rules(str(club)).rules_id
    folder = tmp_path / "runs" / "players" / rules_id
    for name in ("player.json", "tuned.toml", "learned.toml", "model.json"):
        assert (folder / name).is_file(), name
    meta = json.loads((folder / "player.json").read_text())
    assert meta["rules_id"] == rules_id and meta["budget"]["tune"] == 1_000
    assert meta["budget"] == {**pb.scaled(float(SCALE)).__dict__}
    assert {k: meta[k] for k in _key(rules_id)} == _key(rules_id, pb.scaled(float(SCALE)))
    labels = {"tuned for club", "learned for club"}
    assert {p["label"] for p in meta["players"]} == labels
    first_label = meta["players"][0]["label"]
    assert (first_label == "learned for club") == (
        meta["learned_vs_tuned"]["low"] > meta["learned_vs_tuned"]["even"])  # ranked by match
    report = tmp_path / "reports" / "guide-club"
    manifest = json.loads((report / "manifest.json").read_text())
    assert [p["label"] for p in manifest["params"]["players"]] == \
        [p["label"] for p in meta["players"]]
    said = " ".join(out.split())  # the console wraps at 100 columns
    assert f"measured with the strong players {first_label} and" in said
    assert "built now in" in said
    kept = file_ids(folder)

    code, out, err = cli(capsys, *args)
    assert code == 0, err
    assert "reusing those built for these rules" in err and "building" not in err
    said = " ".join(out.split())
    assert f"reused from {folder.relative_to(tmp_path)}" in said or f"reused from {folder}" in said
    assert file_ids(folder) == kept  # the players were read, not built again
    assert len(builds) == 1  # and no build was started


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

