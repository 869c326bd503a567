"""``handfoot tune STRATEGY``: search a parametric strategy's knobs for its best settings under
one rule set, with optuna, racing trials on a growing number of games.

Why racing: the knob space has cliffs (``black3_block = 0`` wins a quarter of its games
against ``cautious``, the worst of 14 random settings 2%), so most settings are plainly bad
after a few hundred games and only the promising ones deserve thousands. Every trial plays
the same shuffles (common random numbers: seed S, games 0, 1, 2 ...) against the same
opponent, in every seating of the paired design (analysis.paired), in rungs of
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
import math
import sys
import warnings
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path

from analysis.playing import (
    Note,
    Pairing,
    PairRuns,
    ensure_run,
    play_pairs,
    rules_and_profile,
    run_spec,
    seating_name,
    side,
    strategy_file,
)
from sim.runs.lineup import is_per_profile, resolve_spec
from sim.runs.signals import SignalHandlers
from strategies.registry import StrategyInfo, base_policy_lines, load

SETTINGS = "tune.json"
STUDY = "study.db"
STUDY_NAME = "tune"
HELD_OUT_SEED_OFFSET = 1  # the re-measure plays seed S + 1: other shuffles than the study's


class TuneError(ValueError):
    """A tuning request that cannot be carried out as asked (one line for the user)."""


@dataclass(frozen=True)
class TuneSettings:
    """What defines a study; kept in ``tune.json`` so ``--resume`` continues the same one."""

    strategy: str
    rules: str
    rules_id: str
    against: str
    seed: int
    first_rung: int  # shuffles in the first rung
    rungs: int
    reduction: int
    startup: int  # random trials before TPE models the results
    params: tuple[str, ...]  # the knobs searched (the rest stay at the defaults)
    budget: int  # games (every seating) the trials may play; may grow on --resume
    remeasure: int  # shuffles of the held-out re-measure

    def rung_shuffles(self) -> list[int]:
        return [self.first_rung * self.reduction**i for i in range(self.rungs)]

    def defines(self) -> dict:
        """Everything but the budget and the re-measure: what the trials depend on."""
        out = asdict(self)
        out.pop("budget")
        out.pop("remeasure")
        out["params"] = list(self.params)
        return out


@dataclass
class TrialRecord:
    number: int  # k: the order among finished trials
    state: str  # complete, pruned, cut (by the budget)
    shuffles: int  # the most shuffles it played (per seating)
    games: int  # games it played in all
    value: float  # A's share of games won at its last rung
    values: dict[int, float]  # shuffles -> share won, one per rung reached
    params: dict[str, float]


@dataclass
class StudyOutcome:
    settings: TuneSettings
    trials: list[TrialRecord]
    spent: int
    best: TrialRecord | None
    defaults: dict[str, float]
    held_out: list[PairRuns] = field(default_factory=list)
    best_file: str | None = None


# --- The strategy and its knobs ------------------------------------------------------------------

def base_info(strategy: str, rules_spec: str) -> StrategyInfo:
    """The strategy to tune (its parameters are the defaults); refuses one without knobs."""
    rules, _ = rules_and_profile(rules_spec)
    info = resolve_spec(strategy, rules) if is_per_profile(strategy) else load(strategy)
    if not info.parametric:
        raise TuneError(f"strategy '{strategy}' has no parameters to tune (parametric: "
                        "tactician, cautious, a strategy file built on them, pimc)")
    return info


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

def racing_pruner(reduction: int, bootstrap: int):
    """Successive halving on fixed rungs, counting only finished trials.

    optuna's SuccessiveHalvingPruner would do the same, but it compares a trial with every
    trial that ever reached the rung, including one interrupted by Ctrl-C: a resumed study
    would then race against a trial that no longer exists, and differ from an uninterrupted
    one. At each rung a trial goes on if its share of wins is among the best
    1/``reduction`` of the finished trials' values at that rung (itself included); the first
    ``bootstrap`` trials to reach a rung always go on."""
    from optuna.pruners import BasePruner
    from optuna.trial import TrialState

    class RacingPruner(BasePruner):
        def prune(self, study, trial) -> bool:
            step = trial.last_step
            if step is None:
                return False
            value = trial.intermediate_values[step]
            rivals = [t.intermediate_values[step] for t in
                      study.get_trials(deepcopy=False,
                                       states=(TrialState.COMPLETE, TrialState.PRUNED))
                      if step in t.intermediate_values]
            if len(rivals) < bootstrap:
                return False
            ranked = sorted([*rivals, value], reverse=True)
            keep = max(1, len(ranked) // reduction)
            return value < ranked[keep - 1]

    return RacingPruner()


def _sampler(settings: TuneSettings, k: int):
    from optuna.samplers import TPESampler

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # multivariate TPE is marked experimental
        return TPESampler(seed=(settings.seed * 1_000_003 + k) % 2**32, multivariate=True,
                          n_startup_trials=settings.startup, constant_liar=False)


def _storage(path: Path):
    """optuna's SQLite storage in write-ahead-log mode without a disk flush per commit: a
    study makes thousands of small commits, which in the default mode cost a flush each
    (about a third of a small trial's time). A crash can lose the last commits but never
    corrupts the file; an interrupted trial is asked again on --resume anyway."""
    import optuna
    from sqlalchemy import event

    storage = optuna.storages.RDBStorage(f"sqlite:///{path.resolve()}")

    def pragmas(connection, record) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    event.listen(storage.engine, "connect", pragmas)
    storage.engine.dispose()  # connections made from now on get the pragmas
    return storage


def _study(folder: Path, settings: TuneSettings, create: bool):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = _storage(folder / STUDY)
    pruner = racing_pruner(settings.reduction, settings.reduction)
    if create:
        return optuna.create_study(study_name=STUDY_NAME, storage=storage,
                                   direction="maximize", sampler=_sampler(settings, 0),
                                   pruner=pruner)
    return optuna.load_study(study_name=STUDY_NAME, storage=storage,
                             sampler=_sampler(settings, 0), pruner=pruner)


def finished(study) -> list:
    """Complete and pruned trials (cut ones are pruned with a user attribute), in order."""
    from optuna.trial import TrialState

    return [t for t in study.get_trials(deepcopy=False,
                                        states=(TrialState.COMPLETE, TrialState.PRUNED))]


def record(t) -> TrialRecord:
    from optuna.trial import TrialState

    steps = sorted(t.intermediate_values)
    state = "complete" if t.state == TrialState.COMPLETE else \
        ("cut" if t.user_attrs.get("cut") else "pruned")
    return TrialRecord(number=int(t.user_attrs.get("k", t.number)), state=state,
                       shuffles=steps[-1] if steps else 0,
                       games=int(t.user_attrs.get("games", 0)),
                       value=float(t.intermediate_values[steps[-1]]) if steps else math.nan,
                       values={int(s): float(t.intermediate_values[s]) for s in steps},
                       params={k: float(v) for k, v in t.params.items()})


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


def load_settings(folder: Path) -> TuneSettings:
    file = folder / SETTINGS
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        data["params"] = tuple(data["params"])
        return TuneSettings(**data)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise TuneError(f"{file} is not a readable tuning study ({exc})") from None


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
        return _study(folder, settings, create=False)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / SETTINGS).write_text(json.dumps(asdict(settings), indent=2) + "\n",
                                   encoding="utf-8")
    return _study(folder, settings, create=True)


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
            study.sampler = _sampler(settings, k)
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


def strategy_text(outcome: StudyOutcome, params: dict[str, float], row: dict,
                  against_row: dict | None) -> str:
    """The tuned strategy file: base, every parameter, and comments saying how it was found
    and how it measured on fresh shuffles."""
    from analysis.fmt import pct, pts

    s = outcome.settings
    info = base_info(s.strategy, s.rules)
    rules, profile = rules_and_profile(s.rules)
    complete = sum(t.state == "complete" for t in outcome.trials)
    lines = [
        f"# {Path(s.strategy).stem} tuned by `handfoot tune` for {profile} "
        f"(rules id {rules.rules_id}) against {Path(s.against).stem}",
        f"# study: {len(outcome.trials)} trials ({complete} through every rung), "
        f"{outcome.spent:,} games, seed {s.seed}, rungs "
        + ", ".join(f"{r:,}" for r in s.rung_shuffles()) + " shuffles",
        f"# held out (seed {s.seed + HELD_OUT_SEED_OFFSET}, {row['games']:,} shuffles in every "
        f"seating): against the defaults it wins {pct(row['win_rate'])} (95% CI "
        f"{pct(row['win_low'])} to {pct(row['win_high'])}; even {pct(row['even'])}), "
        f"{pts(row['diff_game'], signed=True)} points per game (95% CI "
        f"{pts(row['diff_game_low'], signed=True)} to {pts(row['diff_game_high'], signed=True)}"
        f"), p = {row['p_value']:.2g}",
    ]
    if against_row is not None:
        lines.append(f"# against {Path(s.against).stem}: wins {pct(against_row['win_rate'])} "
                     f"(95% CI {pct(against_row['win_low'])} to "
                     f"{pct(against_row['win_high'])})")
    lines.append(f'base = "{info.base}"')
    lines += base_policy_lines(info)
    for p in info.param_specs:
        value = params.get(p.name, 0)
        shown = int(value) if p.integer else value
        mark = "" if value == outcome.defaults.get(p.name) else "  # default " + \
            f"{int(outcome.defaults[p.name]) if p.integer else outcome.defaults[p.name]}"
        lines.append(f"{p.name} = {shown}{mark}")
    return "\n".join(lines) + "\n"


# --- Reading a study back (reports) -------------------------------------------------------------

def read_trials(folder: Path) -> tuple[TuneSettings, list[TrialRecord]]:
    settings = load_settings(folder)
    study = _study(folder, settings, create=False)
    return settings, [record(t) for t in finished(study)]


Progress = Callable[[str], None]
