"""A strong player for rules that ship none (a club's rule file): built once, then reused.

The shipped ladder (``strategies.ladder``) covers the six profiles. For any other rules the
answers first build a player: ``handfoot tune`` of ``cautious`` against itself at a budget
that fits minutes (a short race, then the winner re-measured on fresh shuffles against its
defaults). The winner is kept under the runs folder, keyed by the rules id
(``<runs>/players/<rules id>/``: ``tuned.toml``, ``player.json`` with how it was built and
measured), so the next question about the same rules reuses it; a folder that holds a player
of other rules is refused rather than played. Where the re-measure does not show the winner
stronger than ``cautious``, the winner is still kept (it is the best the race found) and the
measure says so.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from analysis.experiments.pairings import Note, PlayError, rules_and_profile

PLAYERS_DIR = "players"
META = "player.json"
FILE = "tuned.toml"
BASE = "cautious"
BUDGET = 24_000  # games of the race (every seating counts): about a minute on 2 cores
FIRST_RUNG = 250
RUNGS = 3
REMEASURE = 2_000  # fresh shuffles, each in every seating
SEED = 1


@dataclass(frozen=True)
class Built:
    """A player built for one rule set, as kept on disk."""

    folder: Path
    meta: dict
    reused: bool

    @property
    def file(self) -> Path:
        return self.folder / FILE

    @property
    def label(self) -> str:
        return f"tuned for {Path(self.meta['rules']).stem}"

    def why(self) -> str:
        m = self.meta
        how = (f"reused from {self.folder} (built {m['created']} in {m['seconds']:.0f} s)"
               if self.reused else f"built now in {m['seconds']:.0f} s and kept in "
                                   f"{self.folder} for the next question")
        return (f"the strongest fast player available for these rules (rules id "
                f"{m['rules_id']}, no shipped ladder): {BASE} tuned by `handfoot tune` "
                f"({m['budget']:,} games), {how}; {m['measured']}")


def player_folder(runs_dir: Path, rules_id: str) -> Path:
    return runs_dir / PLAYERS_DIR / rules_id


def read_built(folder: Path, rules_id: str) -> dict | None:
    """The player kept in ``folder`` (None if there is none); a one-line PlayError for one
    built for other rules or a damaged folder."""
    meta_path = folder / META
    if not meta_path.exists():
        return None
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        theirs = meta["rules_id"]
    except (OSError, ValueError, KeyError, TypeError):
        raise PlayError(f"{meta_path} is not a handfoot player record; delete {folder} to "
                        "build the player again") from None
    if theirs != rules_id:
        raise PlayError(f"{folder} holds a player built for other rules (rules id {theirs}), "
                        f"not these (rules id {rules_id}); delete it or give another "
                        "--runs-dir")
    if not (folder / FILE).is_file():
        raise PlayError(f"{folder} has {META} but no {FILE}; delete {folder} to build the "
                        "player again")
    return meta


def ensure_player(rules_spec: str, runs_dir: Path, jobs: int = 0, note: Note | None = None,
                  budget: int = BUDGET, remeasure: int = REMEASURE) -> Built:
    """The strong player of ``rules_spec``: reused from ``runs_dir`` when one was built for
    the same rules, else built (tuned) and kept there."""
    rules, _ = rules_and_profile(rules_spec)
    folder = player_folder(runs_dir, rules.rules_id)
    meta = read_built(folder, rules.rules_id)
    if meta is not None:
        built = Built(folder, meta, reused=True)
        if note:
            note(f"strong player: reusing {built.file} (built for rules id {rules.rules_id})")
        return built
    if note:
        note(f"strong player: these rules have no shipped player; building one with "
             f"`handfoot tune {BASE}` ({budget:,} games, then {remeasure:,} fresh shuffles "
             f"to measure it), kept in {folder}")
    started = time.perf_counter()
    meta = _build(rules_spec, rules, folder, budget, remeasure, jobs, note)
    meta["seconds"] = round(time.perf_counter() - started, 1)
    (folder / META).write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    return Built(folder, meta, reused=False)


def _build(rules_spec: str, rules, folder: Path, budget: int, remeasure: int, jobs: int,
           note: Note | None) -> dict:
    from analysis.experiments import tune as tn
    from analysis.experiments import tune_study as ts
    from analysis.statistics.paired import analyse_seatings

    study = folder / "tune"
    info = ts.base_info(BASE, rules_spec)
    settings = ts.TuneSettings(
        strategy=BASE, rules=rules_spec, rules_id=rules.rules_id, against=BASE, seed=SEED,
        first_rung=FIRST_RUNG, rungs=RUNGS, reduction=3, startup=8,
        params=tn.searched(info, None), budget=budget, remeasure=remeasure)
    tn.check_settings(settings, rules.partnerships)
    outcome = tn.run_study(settings, study, jobs=jobs, resume=(study / ts.SETTINGS).exists(),
                           progress=False, note=note)
    pairs = tn.held_out(outcome, study, jobs=jobs, progress=False, note=note)
    path, best = tn.best_side(outcome, study)
    result, _ = analyse_seatings(pairs[0].runs)
    measured = (f"against {BASE} at its defaults it wins {100 * result.win_rate:.1f}% of "
                f"games (95% CI {100 * result.win_low:.1f}% to {100 * result.win_high:.1f}%; "
                f"even {100 * result.even:g}%; {result.games:,} fresh shuffles in every "
                f"seating, seed {SEED + ts.HELD_OUT_SEED_OFFSET})")
    text = Path(path).read_text(encoding="utf-8")
    header = (f"# {BASE} tuned by handfoot for {Path(rules_spec).name} (rules id "
              f"{rules.rules_id}), {budget:,} games; {measured}\n")
    (folder / FILE).write_text(header + text, encoding="utf-8")
    return {"rules_id": rules.rules_id, "rules": str(rules_spec), "base": BASE,
            "budget": budget, "remeasure": remeasure, "seed": SEED,
            "params": {k: float(v) for k, v in best.items()},
            "wins": result.win_rate, "low": result.win_low, "high": result.win_high,
            "measured": measured, "trials": len(outcome.trials), "games": outcome.spent,
            "created": datetime.now(UTC).isoformat(timespec="seconds")}
