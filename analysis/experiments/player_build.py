"""Strong players for rules that ship none (a club's rule file): built once, then reused.

The shipped ladder (``strategies.ladder``) covers the six profiles. For any other rules the
answers first build two players, at a budget that fits minutes:

1. ``handfoot tune`` of ``cautious`` against itself (a short race, then the winner re-measured
   on fresh shuffles against its defaults): the tuned heuristic, ``tuned.toml``;
2. ``handfoot learn`` on games of that heuristic (one round): a ``learned`` player with the
   tuned heuristic as its base policy and a model fitted for these rules, ``learned.toml``
   (``model.json``), then matched against the tuned heuristic on fresh shuffles.

They are ranked by that match (``learned`` first where it wins more than even play, else the
tuned heuristic first), the way the shipped ladder is. Everything is kept under the runs
folder (``<runs>/players/<rules id>/``, with ``player.json`` saying how each was built and
measured), so the next question about the same rules reuses them.

``player.json`` records the key of the build, everything that changes what the players are:
the rules id, the engine build (``sim.runs.storage.engine_build``), the feature version and
feature names the learned model reads, and the budget (``--build-scale`` and what it
became). A question whose key differs is refused in one line before anything is played or
written, naming both values and what to do: players of other rules, of another engine build
or of another feature version cannot be reused (delete the folder to build them again); players
of another budget are reused by asking with the ``--build-scale`` they were built at, or built
again at the new one once the folder is deleted. Nothing is rebuilt over a kept build
silently: a full-budget build is minutes of play, and a quick ``--build-scale 0.01`` build
answering a full-budget question would be wrong.

A build holds the folder's lock (the run lock, ``sim.runs.storage.Run.locked``) from its first
game to its record, so a second question about the same rules at the same time is refused in
one line instead of interleaving with it; ``player.json`` is written last, under a temporary
name then renamed, so a build cut short leaves no record (and is built again), never half of
one.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from analysis.experiments.pairings import Note, PlayError, rules_and_profile
from sim.runs.storage import Run, RunError, engine_build
from strategies.lookahead.schema import FEATURE_VERSION
from strategies.lookahead.schema import feature_digest as names_digest

PLAYERS_DIR = "players"
META = "player.json"
TUNED_FILE = "tuned.toml"
LEARNED_FILE = "learned.toml"
MODEL_FILE = "model.json"
BASE = "cautious"


@dataclass(frozen=True)
class Budget:
    """How much a build plays: the tune's race and re-measure, the learn's games and the
    match of the learned player against the tuned one (shuffles, each in every seating)."""

    tune: int = 40_000
    first_rung: int = 250  # shuffles of the race's first rung (then 3x, 9x)
    remeasure: int = 2_000
    learn: int = 20_000
    match: int = 600
    seed: int = 1
    # The --build-scale this budget was made by (``scaled``); None for a budget given in full.
    # Only a label: two budgets of the same parts are the same build whatever their scales.
    scale: float | None = None


DEFAULT = Budget(scale=1.0)


def scaled(x: float) -> Budget:
    """The default budget times ``x`` (``--build-scale``), each part kept playable."""
    if x == 1.0:
        return DEFAULT
    d = DEFAULT
    return Budget(tune=max(1_000, round(d.tune * x)), remeasure=max(20, round(d.remeasure * x)),
                  learn=max(80, round(d.learn * x)), match=max(20, round(d.match * x)),
                  seed=d.seed, scale=x)


@dataclass(frozen=True)
class Built:
    """The players built for one rule set, as kept on disk (strongest first)."""

    folder: Path
    meta: dict
    reused: bool

    def players(self) -> list[tuple[Path, str, str]]:
        """(strategy file, label, why) of each player, strongest first."""
        m = self.meta
        how = (f"reused from {self.folder} (built {m['created']} in {m['seconds']:.0f} s)"
               if self.reused else f"built now in {m['seconds']:.0f} s and kept in "
                                   f"{self.folder} for the next question")
        out = []
        for rank, p in enumerate(m["players"]):
            place = "the strongest" if rank == 0 else "the next strongest"
            out.append((self.folder / p["file"], p["label"],
                        f"{place} fast player built for these rules (rules id "
                        f"{m['rules_id']}; no shipped ladder): {p['how']}; {p['measured']}; "
                        f"{how}"))
        return out


def player_folder(runs_dir: Path, rules_id: str) -> Path:
    return runs_dir / PLAYERS_DIR / rules_id


def feature_digest() -> str:
    """The feature names' digest (``strategies.lookahead.schema.feature_digest``), shortened as
    ``player.json`` records it: with FEATURE_VERSION, what a model fitted now is fitted on."""
    return names_digest()[:16]


def build_key(rules_id: str, budget: Budget) -> dict:
    """Everything that changes what a build's players are, as ``player.json`` records it."""
    return {"rules_id": rules_id, "engine_build": engine_build(),
            "feature_version": FEATURE_VERSION, "feature_names_sha256": feature_digest(),
            "budget": dataclasses.asdict(budget)}


def _budget_words(budget: dict) -> str:
    """A budget as the user asks for it: its --build-scale (when it has one) and its parts."""
    parts = (f"tune {budget.get('tune', 0):,} games, re-measure {budget.get('remeasure', 0):,} "
             f"shuffles, learn {budget.get('learn', 0):,} games, match "
             f"{budget.get('match', 0):,} shuffles")
    for name, words in (("first_rung", "first rung"), ("seed", "seed")):
        if budget.get(name) != getattr(DEFAULT, name):
            parts += f", {words} {budget.get(name)}"
    scale = budget.get("scale")
    return f"--build-scale {scale:g} ({parts})" if scale is not None else f"a budget of {parts}"


def _check_key(folder: Path, meta: dict, want: dict) -> None:
    """A one-line PlayError unless the record in ``folder`` was built with the key ``want``
    (the rules id aside, checked before): the feature version first (the learned model could
    not even be read), then the engine build, then the budget."""
    delete = f"delete {folder} to build the players again"
    unrecorded = [words for k, words in (("engine_build", "engine build"),
                                         ("feature_version", "feature version"),
                                         ("feature_names_sha256", "feature names"),
                                         ("budget", "budget")) if k not in meta]
    if unrecorded:
        raise PlayError(f"{folder / META} does not record the {', '.join(unrecorded)} its "
                        f"players were built with (an older handfoot's record), so they may "
                        f"not be the players asked for; {delete}")
    if meta["feature_version"] != want["feature_version"]:
        raise PlayError(f"{folder} holds a learned player fitted on feature version "
                        f"{meta['feature_version']}, and this handfoot computes version "
                        f"{want['feature_version']}; {delete}")
    if meta["feature_names_sha256"] != want["feature_names_sha256"]:
        raise PlayError(f"{folder} holds a learned player fitted on other feature names (digest "
                        f"{meta['feature_names_sha256']}, now {want['feature_names_sha256']}) "
                        f"under feature version {want['feature_version']}; {delete}")
    if meta["engine_build"] != want["engine_build"]:
        raise PlayError(f"{folder} holds players built and measured by another engine build "
                        f"({meta['engine_build']}, now {want['engine_build']}); {delete} with "
                        "this one")
    theirs, ours = meta["budget"], want["budget"]
    if not (isinstance(theirs, dict) and all(type(theirs.get(k)) is int for k in ours
                                             if k != "scale")
            and isinstance(theirs.get("scale"), int | float | None)):
        raise PlayError(f"{folder / META} is not a handfoot player record (its budget is "
                        f"damaged); {delete}")
    if {k: v for k, v in theirs.items() if k != "scale"} != \
            {k: v for k, v in ours.items() if k != "scale"}:
        reuse = (f"give --build-scale {theirs['scale']:g} to reuse them, or "
                 if theirs.get("scale") is not None else "")
        raise PlayError(f"{folder} holds players built at {_budget_words(theirs)}, not at "
                        f"{_budget_words(ours)} as asked; {reuse}delete {folder} to build them "
                        "at the budget asked")


def read_built(folder: Path, want: dict) -> dict | None:
    """The players kept in ``folder`` (None if there are none) when they were built with the
    key ``want`` (``build_key``); a one-line PlayError for players built for other rules or
    with another key, or a damaged folder."""
    rules_id = want["rules_id"]
    meta_path = folder / META
    if not meta_path.exists():
        return None
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        theirs = meta["rules_id"]
        files = [p["file"] for p in meta["players"]]
        # what Built.players() reads must all be there, else the record is damaged
        complete = all(k in meta for k in ("created", "seconds")) and all(
            k in p for p in meta["players"] for k in ("label", "how", "measured"))
        if theirs == rules_id and (not complete or not files):
            raise ValueError("an incomplete record")
    except (OSError, ValueError, KeyError, TypeError):
        raise PlayError(f"{meta_path} is not a handfoot player record; delete {folder} to "
                        "build the players again") from None
    if theirs != rules_id:
        raise PlayError(f"{folder} holds players built for other rules (rules id {theirs}), "
                        f"not these (rules id {rules_id}); delete it or give another "
                        "--runs-dir")
    _check_key(folder, meta, want)
    missing = [f for f in files if not (folder / f).is_file()]
    if missing:
        raise PlayError(f"{folder} has {META} but no {', '.join(missing)}; delete {folder} "
                        "to build the players again")
    return meta


def _write_record(folder: Path, meta: dict) -> None:
    """``player.json``, whole or not at all: written under a temporary name, then renamed (a
    leftover of a killed writer is removed by the next lock of the folder)."""
    final = folder / META
    tmp = folder / f".{META}.{os.getpid()}.tmp"
    try:
        tmp.write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
        os.replace(tmp, final)
    finally:
        tmp.unlink(missing_ok=True)


def ensure_player(rules_spec: str, runs_dir: Path, jobs: int = 0, note: Note | None = None,
                  budget: Budget = DEFAULT) -> Built:
    """The strong players of ``rules_spec``: reused from ``runs_dir`` when built with the same
    key (rules, engine build, feature version, budget), else built and kept there; a kept build
    of another key, or a build going on in another process, is a one-line PlayError before
    anything is played or written."""
    rules, _ = rules_and_profile(rules_spec)
    want = build_key(rules.rules_id, budget)
    folder = player_folder(runs_dir, rules.rules_id)

    def reused(meta: dict) -> Built:
        if note:
            note(f"strong players: reusing those built for these rules (rules id "
                 f"{rules.rules_id}) in {folder}")
        return Built(folder, meta, reused=True)

    meta = read_built(folder, want)
    if meta is not None:
        return reused(meta)
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as held:
        try:
            held.enter_context(Run(folder, {}).locked())
        except RunError:
            raise PlayError(f"{folder} is in use by another handfoot process, which is building "
                            "these players now; ask again when it has finished") from None
        meta = read_built(folder, want)  # built by another process since the look above
        if meta is not None:
            return reused(meta)
        if note:
            note(f"strong players: these rules have no shipped ladder; building two, kept in "
                 f"{folder}: `handfoot tune {BASE}` ({budget.tune:,} games), then `handfoot "
                 f"learn` on {budget.learn:,} games of the tuned player (about 4 minutes on 2 "
                 "cores at --build-scale 1, once)")
        started = time.perf_counter()
        built = _build(rules_spec, rules, folder, budget, jobs, note)
        meta = {**want, **{k: v for k, v in built.items() if k not in want},
                "seconds": round(time.perf_counter() - started, 1)}
        _write_record(folder, meta)
    return Built(folder, meta, reused=False)


def _words(result, a: str, b: str, seed: int) -> str:
    return (f"{a} wins {100 * result.win_rate:.1f}% of games against {b} (95% CI "
            f"{100 * result.win_low:.1f}% to {100 * result.win_high:.1f}%; even "
            f"{100 * result.even:g}%; {result.games:,} fresh shuffles in every seating, seed "
            f"{seed})")


def _build(rules_spec: str, rules, folder: Path, budget: Budget, jobs: int,
           note: Note | None) -> dict:
    from analysis.experiments import tune as tn
    from analysis.experiments import tune_study as ts
    from analysis.experiments.learn import LearnSettings, learn
    from analysis.experiments.pairings import Pairing, Side
    from analysis.experiments.playing import play_pairs
    from analysis.statistics.paired import analyse_seatings

    stem = Path(rules_spec).stem
    study = folder / "tune"
    info = ts.base_info(BASE, rules_spec)
    # The race needs one trial through every rung (1 + 3 + 9 first rungs) and three more at
    # the first (tune's check): a small budget gets a smaller first rung, not a refusal.
    rung = max(2, min(budget.first_rung, budget.tune // (12 * rules.partnerships)))
    settings = ts.TuneSettings(
        strategy=BASE, rules=rules_spec, rules_id=rules.rules_id, against=BASE,
        seed=budget.seed, first_rung=rung, rungs=3, reduction=3, startup=8,
        params=tn.searched(info, None), budget=max(budget.tune, 12 * rung * rules.partnerships),
        remeasure=budget.remeasure)
    tn.check_settings(settings, rules.partnerships)
    outcome = tn.run_study(settings, study, jobs=jobs, resume=(study / ts.SETTINGS).exists(),
                           progress=False, note=note)
    pairs = tn.held_out(outcome, study, jobs=jobs, progress=False, note=note)
    path, best = tn.best_side(outcome, study)
    tuned_result, _ = analyse_seatings(pairs[0].runs)
    held_seed = budget.seed + ts.HELD_OUT_SEED_OFFSET
    tuned_words = _words(tuned_result, "it", f"{BASE} at its defaults", held_seed)
    (folder / TUNED_FILE).write_text(
        f"# {BASE} tuned by handfoot for {Path(rules_spec).name} (rules id {rules.rules_id}): "
        f"{tuned_words}\n" + Path(path).read_text(encoding="utf-8"), encoding="utf-8")

    tuned_spec = str((folder / TUNED_FILE).resolve())
    learned = LearnSettings(rules=rules_spec, player=tuned_spec, seed=budget.seed,
                            games=budget.learn)
    learn(learned, folder / MODEL_FILE, folder / "learn", jobs=jobs, note=note)
    (folder / LEARNED_FILE).write_text(
        f"# learned for {Path(rules_spec).name} (rules id {rules.rules_id}): the tuned "
        f"heuristic beside it, corrected by a model fitted on {budget.learn:,} of its games\n"
        f'base = "learned"\nmodel = "{MODEL_FILE}"\nbase_policy = "{TUNED_FILE}"\n',
        encoding="utf-8")
    match_seed = budget.seed + 7919
    pairing = Pairing(key="learned-vs-tuned", a=Side("learned", str(folder / LEARNED_FILE)),
                      b=Side("tuned", tuned_spec), rules=rules_spec, group=rules_spec)
    played = play_pairs([pairing], folder / "match", match_seed, budget.match, jobs=jobs,
                        progress=False, note=note)
    match, _ = analyse_seatings(played[0].runs)
    learned_entry = {"file": LEARNED_FILE, "label": f"learned for {stem}",
                     "how": f"learned with a model fitted on {budget.learn:,} games of the "
                            "tuned heuristic (handfoot learn), which is its base policy",
                     "measured": _words(match, "it", f"tuned for {stem}", match_seed)}
    tuned_entry = {"file": TUNED_FILE, "label": f"tuned for {stem}",
                   "how": f"{BASE} tuned by handfoot tune ({budget.tune:,} games)",
                   "measured": tuned_words}
    learned_first = match.win_low > match.even
    order = [learned_entry, tuned_entry] if learned_first else [tuned_entry, learned_entry]
    return {"rules": str(rules_spec),
            "tuned_params": {k: float(v) for k, v in best.items()},
            "learned_vs_tuned": {"wins": match.win_rate, "low": match.win_low,
                                 "high": match.win_high, "even": match.even,
                                 "shuffles": match.games, "seed": match_seed},
            "players": order,
            "created": datetime.now(UTC).isoformat(timespec="seconds")}
