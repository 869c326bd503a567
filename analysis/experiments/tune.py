"""``handfoot tune STRATEGY``: search a parametric strategy's knobs for its best settings under
one rule set, with optuna, racing trials on a growing number of games.

Why racing: the knob space has cliffs (``black3_block = 0`` wins a quarter of its games
against ``cautious``, the worst of 14 random settings 2%), so most settings are plainly bad
after a few hundred games and only the promising ones deserve thousands. Every trial plays
the same shuffles (common random numbers: seed S, games 0, 1, 2 ...) against the same
opponent, in every seating of the paired design (analysis.statistics.paired), in rungs of
``first_rung * reduction**i`` shuffles; after each rung it reports A's share of the games won,
and the racing pruner stops it unless it is in the top 1/``reduction`` of the trials that
reached that rung. optuna's TPE sampler proposes the settings (categorical for knobs with at
most three values, integers otherwise), multivariate so that knobs that only matter together
are learnt together. The first trial is the strategy's defaults.

The study is an optuna SQLite file in the run folder (``runs/<name>/study.db``) and every
trial's games are ordinary run folders (summary only) played by the same runner as
everything else (``--jobs``, local workers), so Ctrl-C keeps every finished chunk and
``--resume`` continues the same study. Resuming gives the same trials as an uninterrupted
study: trial k's sampler is seeded from (seed, k), k counting finished trials, and an
interrupted trial is marked failed (ignored by the sampler and the pruner) and asked again
with the same history, so it gets the same settings and reuses its chunks.

The winner (the best trial that finished every rung) is then measured again on fresh
shuffles (seed S + 1) against the strategy's defaults (and against the opponent, if that is
another strategy), in the paired design with records kept: the numbers a tuned file is judged
by, free of the winner's curse of picking the best of many noisy trials.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path

from analysis.experiments.pairings import (
    Note,
    Pairing,
    PairRuns,
    rules_and_profile,
    seating_name,
    side,
    strategy_file,
)
from analysis.experiments.playing import ensure_run, play_pairs, run_spec
from analysis.experiments.tune_study import (
    HELD_OUT_SEED_OFFSET,
    SETTINGS,
    STUDY,
    StudyOutcome,
    TuneError,
    TuneSettings,
    base_info,
    finished,
    load_settings,
    optuna_study,
    record,
    sampler,
)
from sim.runs.signals import SignalHandlers
from strategies.registry import StrategyInfo

# --- The strategy and its knobs ------------------------------------------------------------------

def searched(info: StrategyInfo, names: str | None) -> tuple[str, ...]:
    """The knobs to search: all of them, or the comma-separated ``names`` (checked)."""
    known = [p.name for p in info.param_specs]
    if names is None:
        return tuple(known)
    chosen = tuple(n.strip() for n in names.split(",") if n.strip())
    for name in chosen:
        if name not in known:
            raise TuneError(f"unknown parameter '{name}' (known: {', '.join(known)})")
    if not chosen:
        raise TuneError("--params names no parameter")
    return chosen


def distributions(info: StrategyInfo, names: tuple[str, ...]) -> dict:
    """optuna distributions: a knob with at most three whole values is categorical (its
    values are modes, such as go_out's always / ahead on the deal / ahead on the game, not a
    scale); other whole-number knobs are integers on a grid of at most ~50 steps."""
    from optuna.distributions import (
        CategoricalDistribution,
        FloatDistribution,
        IntDistribution,
    )

    out = {}
    for p in info.param_specs:
        if p.name not in names:
            continue
        low, high = p.low, p.high
        if p.integer and high - low < 3:
            out[p.name] = CategoricalDistribution([int(v) for v in range(int(low),
                                                                         int(high) + 1)])
        elif p.integer:
            step = max(1, int(high - low) // 50)
            top = int(low) + step * ((int(high) - int(low)) // step)
            out[p.name] = IntDistribution(int(low), top, step=step)
        else:
            out[p.name] = FloatDistribution(float(low), float(high))
    return out


# --- Racing -------------------------------------------------------------------------------------

def share_won(runs: list[Path], teams: int, shuffles: int) -> float:
    """A's share of the games won over the seatings (run r has A as partnership r) in the
    first ``shuffles`` games of each run, from the runs' per-chunk aggregates: the trials keep
    no per-deal records, and rungs are whole chunks."""
    from sim.runs.aggregate import CREDIT_UNITS, merge_all
    from sim.runs.storage import Run

    units = games = 0
    for seat, path in enumerate(runs):
        run = Run.open(path)
        chunks = [c["index"] for c in run.chunks if c["first_game"] < shuffles]
        if any(run.chunks[i]["status"] != "done" for i in chunks):
            raise TuneError(f"{path}: the first {shuffles:,} games are not all played")
        agg = merge_all((run.chunk_aggregate(i) for i in chunks), teams)
        if agg.games != shuffles:
            raise TuneError(f"{path}: rung of {shuffles:,} games is not whole chunks")
        units += agg.win_credit[seat]
        games += agg.games
    return units / (CREDIT_UNITS * games)


def ensure_prefix(path: Path, spec, jobs: int, note) -> None:
    """The run ``spec``'s first ``spec.games`` games, played or already there: a run of the
    same settings that went further (the same settings proposed again) is read as it is."""
    import dataclasses

    from sim.runs.storage import Run, RunError

    if path.exists():
        try:
            have = Run.open(path).spec
        except RunError:
            have = None
        if have is not None and have.games > spec.games and \
                dataclasses.replace(have, games=spec.games, seat_infos=()) == \
                dataclasses.replace(spec, chunk_size=have.chunk_size, seat_infos=()):
            return
    ensure_run(path, spec, jobs=jobs, grow=True, note=note)


# --- The study ----------------------------------------------------------------------------------

def check_settings(settings: TuneSettings, teams: int) -> None:
    """Refuse a budget that cannot measure anything before any game is played."""
    if settings.first_rung < 2:
        raise TuneError(f"--first-rung must be at least 2 shuffles (got {settings.first_rung})")
    if settings.rungs < 1:
        raise TuneError(f"--rungs must be at least 1 (got {settings.rungs})")
    if settings.reduction < 2:
        raise TuneError(f"--reduction must be at least 2 (got {settings.reduction})")
    if settings.remeasure < 2:
        raise TuneError(f"--remeasure must be at least 2 shuffles (got {settings.remeasure})")
    full = settings.rung_shuffles()[-1] * teams
    first = settings.first_rung * teams
    least = full + settings.reduction * first
    if settings.budget < least:
        raise TuneError(
            f"--budget {settings.budget:,} is too small to measure anything: one trial through "
            f"every rung ({settings.rung_shuffles()[-1]:,} shuffles x {teams} seatings = "
            f"{full:,} games) and {settings.reduction} more to race against it at the first "
            f"rung need {least:,} games; give more, or lower --first-rung or --rungs")


def open_study(folder: Path, settings: TuneSettings, resume: bool, rerun: bool):
    """The study in ``folder``: new, or (``resume``) the one already there if it was made
    with the same settings."""
    import shutil

    exists = (folder / SETTINGS).exists() or (folder / STUDY).exists()
    if exists and rerun:
        shutil.rmtree(folder)
        exists = False
    if exists and not resume:
        raise TuneError(f"{folder} already holds a tuning study; pass --resume to continue "
                        "it, --rerun to start again, or choose another --report name")
    if not exists and resume:
        raise TuneError(f"--resume: {folder} holds no tuning study to continue")
    if exists:
        have = load_settings(folder)
        if have.defines() != settings.defines():
            diff = [f"{k} {have.defines()[k]!r} (now {v!r})"
                    for k, v in settings.defines().items() if have.defines()[k] != v]
            raise TuneError(f"--resume: {folder} was tuned with different settings: "
                            + "; ".join(diff))
        (folder / SETTINGS).write_text(json.dumps(asdict(settings), indent=2) + "\n",
                                       encoding="utf-8")
        return optuna_study(folder, settings, create=False)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETTINGS).write_text(json.dumps(asdict(settings), indent=2) + "\n",
                                   encoding="utf-8")
    return optuna_study(folder, settings, create=True)


def run_study(settings: TuneSettings, folder: Path, jobs: int = 0, resume: bool = False,
              rerun: bool = False, progress: bool | None = None,
              note: Note | None = None) -> StudyOutcome:
    """Race trials until the budget is spent; returns every finished trial and the best."""
    from optuna.trial import TrialState

    from sim.runs.runner import signals_seen

    info = base_info(settings.strategy, settings.rules)
    rules, profile = rules_and_profile(settings.rules)
    teams = rules.partnerships
    check_settings(settings, teams)
    names = settings.params
    dists = distributions(info, names)
    defaults = {p.name: float(info.params.get(p.name, 0)) for p in info.param_specs}
    show = sys.stderr.isatty() if progress is None else progress
    study = open_study(folder, settings, resume, rerun)
    opponent = side(settings.against, folder / "strategies", rules=rules, allow_oracle=True,
                    label=None)
    stem = Path(settings.strategy).stem
    rungs = settings.rung_shuffles()
    # Every rung is a multiple of the first, so with this chunk size every rung is whole
    # chunks (and two chunks per seating keep two workers busy on the first rung).
    chunk = settings.first_rung // 2 if settings.first_rung % 2 == 0 else settings.first_rung
    with StopFlag(signals_seen) as stop:
        while True:
            stop.check()
            done = finished(study)
            spent = sum(int(t.user_attrs.get("games", 0)) for t in done)
            k = len(done)
            if settings.budget - spent < rungs[0] * teams:
                break
            study.sampler = sampler(settings, k)
            waiting = study.get_trials(deepcopy=False, states=(TrialState.WAITING,))
            if k == 0 and not waiting:  # the defaults first: a baseline on these shuffles
                study.enqueue_trial({n: _value(dists[n], defaults[n]) for n in names})
            trial = study.ask(dists)
            trial.set_user_attr("k", k)
            try:
                state, games = _race(trial, settings, info, stem, opponent, folder, rungs,
                                     chunk, teams, spent, jobs, note, stop)
            except BaseException:
                study.tell(trial, state=TrialState.FAIL, skip_if_finished=True)
                raise
            if show:
                best = max((t for t in finished(study) if t.state == TrialState.COMPLETE),
                           key=lambda t: t.value, default=None)
                what = record(study.get_trials(deepcopy=False)[trial.number])
                shown = "" if best is None else \
                    f"; best {100 * best.value:.1f}% (trial {best.user_attrs['k']})"
                print(f"tune: trial {k} {state} at {what.shuffles:,} shuffles: "
                      f"{100 * what.value:.1f}% won{shown}; {spent + games:,} of "
                      f"{settings.budget:,} games", file=sys.stderr)
    trials = [record(t) for t in finished(study)]
    complete = [t for t in trials if t.state == "complete"]
    best = max(complete, key=lambda t: (t.value, -t.number)) if complete else None
    spent = sum(t.games for t in trials)
    return StudyOutcome(settings, trials, spent, best, defaults)


def _value(dist, value: float):
    from optuna.distributions import CategoricalDistribution, IntDistribution

    if isinstance(dist, CategoricalDistribution | IntDistribution):
        return int(value)
    return float(value)


class StopFlag(SignalHandlers):
    """SIGINT / SIGTERM only set a flag while a study runs; ``check`` raises
    KeyboardInterrupt at the safe points (between rungs and trials), never in the middle of
    a write to the study. A run in progress is stopped by the runner's own handler (which
    keeps its finished chunks), and a signal that handler received counts here too."""

    def __init__(self, seen: Callable[[], int]) -> None:
        super().__init__()
        self.stop = False
        self._seen = seen
        self._mark = seen()

    def _handle(self, signum, frame) -> None:
        self.stop = True

    def check(self) -> None:
        if self.stop or self._seen() != self._mark:
            raise KeyboardInterrupt


def _race(trial, settings: TuneSettings, info: StrategyInfo, stem: str, opponent, folder: Path,
          rungs: list[int], chunk: int, teams: int, spent: int, jobs: int, note,
          stop: StopFlag) -> tuple[str, int]:
    """Play one trial rung by rung; tell the study how it ended."""
    from optuna.trial import TrialState

    k = trial.user_attrs["k"]
    params = dict(trial.params)
    a = side(settings.strategy, folder / "strategies", rules=rules_and_profile(settings.rules)[0],
             label=f"trial {k}", **params)
    # Runs are named by the settings (the strategy file's content hash), so a trial that TPE
    # proposes again reads the games already played instead of playing them again.
    pairing = Pairing(key=Path(a.spec).stem, a=a, b=opponent, rules=settings.rules, group="")
    played = 0
    for i, shuffles in enumerate(rungs):
        cost = (shuffles - (rungs[i - 1] if i else 0)) * teams
        if spent + played + cost > settings.budget:
            trial.set_user_attr("cut", True)
            trial.set_user_attr("games", played)
            study_tell(trial, TrialState.PRUNED)
            return "cut by the budget", played
        paths = []
        for seat in range(teams):
            path = folder / "trials" / f"{pairing.key}-{seating_name(seat, teams)}"
            spec = run_spec(pairing, seat, settings.seed, shuffles, chunk, keep_records=False)
            ensure_prefix(path, spec, jobs, note)
            stop.check()
            paths.append(path)
        played += cost
        value = share_won(paths, teams, shuffles)
        trial.report(value, step=shuffles)
        trial.set_user_attr("games", played)
        if i + 1 < len(rungs) and trial.should_prune():
            study_tell(trial, TrialState.PRUNED)
            return "pruned", played
    study_tell(trial, TrialState.COMPLETE, value)
    return "complete", played


def study_tell(trial, state, value: float | None = None) -> None:
    """Tell the trial's study how the trial ended."""
    trial.study.tell(trial, value, state=state)


# --- The held-out re-measure --------------------------------------------------------------------

def best_side(outcome: StudyOutcome, folder: Path) -> tuple[str, dict[str, float]]:
    """The winner written in full as a strategy file (and its parameters)."""
    settings = outcome.settings
    if outcome.best is None:
        raise TuneError("no trial finished every rung within the budget; give a larger "
                        "--budget (or fewer --rungs)")
    info = base_info(settings.strategy, settings.rules)
    params = {**outcome.defaults, **outcome.best.params}
    path = strategy_file(info, folder / "strategies", "tuned", "tuned", params)
    return path, params


def held_out(outcome: StudyOutcome, folder: Path, jobs: int = 0, rerun: bool = False,
             progress: bool | None = None, note: Note | None = None) -> list[PairRuns]:
    """The winner against the defaults (and the opponent) on fresh shuffles, records kept."""
    settings = outcome.settings
    rules, profile = rules_and_profile(settings.rules)
    path, _ = best_side(outcome, folder)
    outcome.best_file = path
    tuned = side(path, folder / "strategies", label="tuned")
    defaults = side(settings.strategy, folder / "strategies", rules=rules,
                    label=f"{Path(settings.strategy).stem} defaults")
    pairings = [Pairing(key="held-out-defaults", a=tuned, b=defaults, rules=settings.rules,
                        group=profile, value="defaults")]
    if settings.against != settings.strategy:
        opp = side(settings.against, folder / "strategies", rules=rules, allow_oracle=True)
        pairings.append(Pairing(key="held-out-against", a=tuned, b=opp, rules=settings.rules,
                                group=profile, value="against"))
    pairs = play_pairs(pairings, folder, settings.seed + HELD_OUT_SEED_OFFSET,
                       settings.remeasure, jobs=jobs, rerun=rerun, progress=progress,
                       note=note)
    outcome.held_out = pairs
    return pairs


