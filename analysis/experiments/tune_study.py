"""A tuning study as data: its settings (``tune.json``), its optuna SQLite file (``study.db``)
and every finished trial, read back without playing.

The tune command's report (analysis.reports.tune) reads a study through here, so rebuilding it
loads optuna but never the engine; the race that plays the trials is
analysis.experiments.tune. The sampler and the pruner live here too because optuna needs them
to open a study.
"""

from __future__ import annotations

import json
import math
import warnings
from dataclasses import asdict, dataclass, field
from pathlib import Path

from analysis.experiments.pairings import PairRuns, rules_and_profile
from strategies.per_profile import SEARCH, is_per_profile, resolve_spec
from strategies.registry import StrategyInfo, load

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
    """One finished trial as the report shows it (read from the optuna study)."""

    number: int  # k: the order among finished trials
    state: str  # complete, pruned, cut (by the budget)
    shuffles: int  # the most shuffles it played (per seating)
    games: int  # games it played in all
    value: float  # A's share of games won at its last rung
    values: dict[int, float]  # shuffles -> share won, one per rung reached
    params: dict[str, float]


@dataclass
class StudyOutcome:
    """What a study found: every finished trial, the games spent, the best trial, and (once
    measured) the held-out runs and the tuned strategy file."""

    settings: TuneSettings
    trials: list[TrialRecord]
    spent: int
    best: TrialRecord | None
    defaults: dict[str, float]
    held_out: list[PairRuns] = field(default_factory=list)
    best_file: str | None = None


def base_info(strategy: str, rules_spec: str) -> StrategyInfo:
    """The strategy to tune (its parameters are the defaults); refuses one without knobs."""
    rules, _ = rules_and_profile(rules_spec)
    per_rules = is_per_profile(strategy) or strategy == SEARCH  # pimc: its profile's defaults
    info = resolve_spec(strategy, rules) if per_rules else load(strategy)
    if not info.parametric:
        raise TuneError(f"strategy '{strategy}' has no parameters to tune (parametric: "
                        "tactician, cautious, a strategy file built on them, pimc)")
    return info


def load_settings(folder: Path) -> TuneSettings:
    """The settings a study in ``folder`` was made with (``tune.json``)."""
    file = folder / SETTINGS
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
        data["params"] = tuple(data["params"])
        return TuneSettings(**data)
    except (OSError, ValueError, TypeError, KeyError) as exc:
        raise TuneError(f"{file} is not a readable tuning study ({exc})") from None


# --- optuna ------------------------------------------------------------------------------------

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


def sampler(settings: TuneSettings, k: int):
    """Trial k's TPE sampler, seeded from the study seed and k (so a resumed study asks the
    same trials as an uninterrupted one)."""
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


def optuna_study(folder: Path, settings: TuneSettings, create: bool):
    """The optuna study of ``folder``: created, or loaded as it was left."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = _storage(folder / STUDY)
    pruner = racing_pruner(settings.reduction, settings.reduction)
    if create:
        return optuna.create_study(study_name=STUDY_NAME, storage=storage,
                                   direction="maximize", sampler=sampler(settings, 0),
                                   pruner=pruner)
    return optuna.load_study(study_name=STUDY_NAME, storage=storage,
                             sampler=sampler(settings, 0), pruner=pruner)


def finished(study) -> list:
    """Complete and pruned trials (cut ones are pruned with a user attribute), in order."""
    from optuna.trial import TrialState

    return [t for t in study.get_trials(deepcopy=False,
                                        states=(TrialState.COMPLETE, TrialState.PRUNED))]


def record(t) -> TrialRecord:
    """An optuna trial as a ``TrialRecord``: its order, how it ended, its rungs."""
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


# --- Reading a study back -----------------------------------------------------------------------

def read_trials(folder: Path) -> tuple[TuneSettings, list[TrialRecord]]:
    """The settings of the study in ``folder`` and every trial it finished, in order."""
    settings = load_settings(folder)
    study = optuna_study(folder, settings, create=False)
    return settings, [record(t) for t in finished(study)]
