"""``handfoot learn``: play games recording positions, fit a value model, write the model file.

The games go through the ordinary runner (``sim.runs.runner``: parallel, seeded, resumable,
a progress bar) as a *recording* run (``sim.runs.storage.Recording``), whose chunk files hold
the recorded rows; Ctrl-C keeps the finished chunks, and the same command (or ``--resume``)
continues them. Once every chunk is played, the rows are read in chunk order, whole games are
held out, and the model is fitted (``analysis.experiments.learn_fit``). The model file records
the rules id, the feature version, the training seed and data size, the held-out error and
calibration, and the learning curve; it holds no timing, path or worker count, so the same
seed and data size give the same file bit for bit whatever ``--jobs``.

Nothing is written to the model file until the fit is done: bad input (a model file or run for
other rules, a run recorded by another engine build or feature version, too few games to fit)
stops before it, in one line.

What a model means depends on what it was fitted against, so the file records it: the base
policy whose choice each candidate's advantage is measured against (``base_policy``: a learned
player over another base is refused, ``strategies.per_profile.check_base``), and the engine
build, feature version and digest, package versions and commit that made it (``provenance``).

Expert iteration (``--rounds``): round r's games are played by round r - 1's learned player,
which plays its own choice at the recorded decisions too (``sim.play.recording``); round r's
model is fitted on the data of every round so far (DAgger: the positions the earlier players
reached stay in), and with ``--measure`` the best measured round is the one written.
"""

from __future__ import annotations

import dataclasses
import json
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from analysis.experiments.learn_fit import (
    FitError,
    FitSettings,
    Rows,
    check_loss,
    fit,
    held_out_errors,
    learning_curve,
)
from analysis.experiments.playing import chunk_size_for
from sim.runs.storage import Recording, Run, RunError, RunSpec
from strategies.learned.model_file import Model, ModelError, dumps, read_model, write_model
from strategies.lookahead.schema import (
    FEATURE_VERSION,
    N_FEATURES,
    feature_column,
    feature_digest,
)
from strategies.per_profile import tuned_file

# Decisions recorded per deal at a sample rate of 1 (about: the tuned players of standard).
DECISIONS_PER_DEAL = 200
MIN_ROWS_PER_FEATURE = 20  # training rows at least, per feature slot
MIN_HELD_OUT_GAMES = 5


class LearnError(ValueError):
    """Settings or files that cannot give a model; one line saying why and what would do."""


@dataclass(frozen=True)
class LearnSettings:
    rules: str  # profile name or rule file
    player: str  # the strategy every seat plays
    seed: int
    games: int
    sample_rate: float = 0.05
    explore: float = 0.5
    worlds: int = 16
    held_out: float = 0.1  # share of the games (the last ones) held out
    fit: FitSettings = FitSettings()
    # The targets' search: 0, to the end of the deal; else the leaf search, the base policy
    # for this many of the seat's own turns, then the value model ``label_model`` (a file;
    # "" for the profile's shipped one).
    label_horizon: int = 0
    label_model: str = ""

    def run_name(self) -> str:
        stem = Path(self.rules).stem if self.rules.endswith(".toml") else self.rules
        player = Path(self.player).stem if self.player.endswith(".toml") else self.player
        leaf = f"-leaf{self.label_horizon}" if self.label_horizon else ""
        return f"learn-{stem}-{player}-s{self.seed}-g{self.games}{leaf}"


def min_games(settings: LearnSettings, deals_per_game: int) -> int:
    """The fewest games whose expected training rows reach ``MIN_ROWS_PER_FEATURE`` per
    feature, with at least ``MIN_HELD_OUT_GAMES`` held out."""
    per_game = DECISIONS_PER_DEAL * deals_per_game * settings.sample_rate
    rows = MIN_ROWS_PER_FEATURE * N_FEATURES
    games = math.ceil(rows / (per_game * (1 - settings.held_out)))
    return max(games, math.ceil(MIN_HELD_OUT_GAMES / settings.held_out))


def check(settings: LearnSettings, out: Path | None):
    """The rules, their profile name and the run spec; refuses bad settings in one line
    before anything is played or written."""
    from analysis.experiments.pairings import rules_and_profile
    from sim.play.api import seats_for_teams
    from strategies.per_profile import check_spec

    if settings.fit.kind not in ("ridge", "mlp"):
        raise LearnError(f"unknown model kind '{settings.fit.kind}' (known: ridge, mlp)")
    try:
        check_loss(settings.fit)
    except FitError as exc:
        raise LearnError(str(exc)) from None
    if settings.fit.target == "advantage" and settings.worlds == 0:
        raise LearnError("an advantage model needs searched targets (--worlds 1 or more): "
                         "with --worlds 0 only the candidate played has an outcome")
    if not 0 < settings.held_out < 1:
        raise LearnError(f"the held-out share must be between 0 and 1 (got {settings.held_out})")
    rules, profile = rules_and_profile(settings.rules)
    check_spec(settings.player)
    label_path, label_sha = label_model_for(settings, rules, profile)
    try:
        recording = Recording(settings.sample_rate, settings.explore, settings.worlds,
                              FEATURE_VERSION, feature_digest(), settings.label_horizon,
                              label_path, label_sha)
    except RunError as exc:
        raise LearnError(str(exc)) from None
    need = min_games(settings, rules.deals_per_game)
    if settings.games < need:
        about = int(settings.games * rules.deals_per_game * DECISIONS_PER_DEAL
                    * settings.sample_rate)
        raise LearnError(f"too few games to fit a model: {settings.games:,} games at sample "
                         f"rate {settings.sample_rate:g} give about {about:,} positions; give "
                         f"--games {need:,} or more")
    if out is not None and out.exists():
        try:
            other = read_model(out).rules_id
        except ModelError:
            other = rules.rules_id  # a damaged file may be replaced by a good one
        if other != rules.rules_id:
            raise LearnError(f"{out} holds a model for rules id {other}, not these rules "
                             f"(id {rules.rules_id}); choose another --out")
    seats = tuple(seats_for_teams([settings.player], rules.players))
    spec = RunSpec(rules=rules, profile=profile, team_strategies=(settings.player,),
                   seat_strategies=seats, seed=settings.seed, games=settings.games,
                   chunk_size=chunk_size_for(settings.games, 2), keep_records=True,
                   recording=recording)
    return rules, profile, spec


def label_model_for(settings: LearnSettings, rules, profile: str | None) -> tuple[str, str]:
    """The value model file (absolute path) and its sha256 behind leaf-search labels, or
    ("", "") for labels searched to the end; refuses, in one line, a model that is missing,
    damaged, for other rules or not a value model."""
    from strategies.learned.model_file import file_digest
    from strategies.per_profile import value_file

    if settings.label_horizon == 0:
        if settings.label_model:
            raise LearnError("--label-model is the value model of leaf-search labels: give "
                             "--label-horizon 1 or more with it")
        return "", ""
    if settings.label_model:
        path = Path(settings.label_model)
    elif profile is not None and value_file(profile).exists():
        path = value_file(profile)
    else:
        raise LearnError("leaf-search labels need a value model: these rules have no shipped "
                         "one, so give --label-model FILE (fitted by handfoot learn --target "
                         "value)")
    try:
        model = read_model(path, rules.rules_id)
    except ModelError as exc:
        raise LearnError(f"--label-model: {exc}") from None
    if model.target != "value":
        raise LearnError(f"--label-model: {path} is an {model.target} model; leaf-search "
                         "labels need a value model (handfoot learn --target value)")
    return str(path.resolve()), file_digest(path)


def play(spec: RunSpec, folder: Path, resume: bool, jobs: int, progress: bool, note) -> Run:
    """Play (or continue, or reuse) the recording run in ``folder``."""
    from sim.runs.runner import simulate_to

    if folder.exists():
        run = Run.open(folder)
        have = run.spec
        check_fresh(run, folder)
        same = (have.rules.rules_id == spec.rules.rules_id and have.seed == spec.seed
                and have.games == spec.games and have.recording == spec.recording
                and tuple(i.played for i in have.engine_seats())
                == tuple(i.played for i in spec.engine_seats()))
        if not same:
            raise LearnError(f"{folder} holds a recording run with other settings; remove it "
                             "or choose another --name")
        if not run.missing():
            return run
        note(f"continuing {folder}: {len(run.done())} of {len(run.chunks)} chunks are done")
        run, _, _ = simulate_to(folder, None, jobs=jobs, progress=progress, note=note)
        return run
    if resume:
        raise LearnError(f"nothing to resume: {folder} does not exist")
    run, _, _ = simulate_to(folder, spec, jobs=jobs, progress=progress, note=note)
    return run


def check_fresh(run: Run, folder: Path) -> None:
    """Refuse, in one line, a recording run whose rows meant something else when they were
    recorded: another engine build (its features, candidates or targets may differ) or
    another feature version or slot order. Nothing is reused or written then."""
    from sim.runs.storage import engine_build

    made = run.manifest.get("engine", {}).get("sources_sha256", "")
    now = engine_build()
    if made != now:
        raise LearnError(f"{folder} was recorded by another engine build ({made[:12] or '?'}, "
                         f"now {now[:12]}), so its rows may mean something else; remove it or "
                         "choose another --name")
    rec = run.spec.recording
    if rec is None or rec.feature_version != FEATURE_VERSION \
            or rec.feature_digest != feature_digest():
        version = rec.feature_version if rec is not None else 0
        raise LearnError(f"{folder} holds features of version {version or 'unrecorded'} (now "
                         f"{FEATURE_VERSION}, or its slots in another order); remove it or "
                         "choose another --name")


def read_rows(run: Run) -> Rows:
    """Every recorded row in chunk order."""
    import polars as pl

    frames = [pl.read_parquet(run.chunk_path(c["index"])) for c in run.chunks]
    table = pl.concat(frames) if frames else pl.DataFrame()
    x = table.select([feature_column(j) for j in range(N_FEATURES)]).to_numpy()
    return Rows(x.astype(np.float64), table["target"].to_numpy().astype(np.float64),
                table["game"].to_numpy(), table["index"].to_numpy())


def fit_run(run: Run, settings: LearnSettings, rules_id: str, profile: str,
            earlier: tuple[Run, ...] = ()) -> Model:
    """The model of a finished recording run, with its held-out measures and metadata; with
    ``earlier`` runs (the earlier rounds of expert iteration), fitted on their training games
    too (DAgger) and measured on this run's held-out games."""
    rows = read_rows(run)
    first_held = int(round(settings.games * (1 - settings.held_out)))
    train = rows.subset(rows.games < first_held)
    test = rows.subset(rows.games >= first_held)
    for before in earlier:
        old = read_rows(before)
        train = Rows.concat([old.subset(old.games < first_held), train])
    fitted = len(train.design(settings.fit.target)[1])
    if fitted < MIN_ROWS_PER_FEATURE * N_FEATURES or len(test.y) < 10:
        raise FitError(f"too few positions to fit: {fitted:,} for training and "
                       f"{len(test.y):,} held out from {settings.games:,} games; "
                       f"play more games (--games) or record more of each (--sample-rate)")
    model = fit(train, settings.fit, rules_id, profile)
    errors = held_out_errors(model, test)
    # a rank fit's curve would refit the refinement three more times (most of its cost), and
    # its RMSE is not what a rank fit is fitted for: no curve for it, said in the file
    rank = settings.fit.loss == "rank"
    curve = [] if rank else learning_curve(train, test, settings.fit, rules_id, profile, model)
    played = run.spec.engine_seats()[0]
    model.base_policy = base_record(played, run.spec.rules)
    model.metadata = {
        "training": {"rules": settings.rules, "player": settings.player,
                     "player_played": {"module": played.module, "params": played.params,
                                       "base_params": played.base_params,
                                       "model_sha256": played.model_sha256},
                     "seed": settings.seed, "games": settings.games,
                     "deals": settings.games * run.spec.rules.deals_per_game,
                     "sample_rate": settings.sample_rate, "explore": settings.explore,
                     "worlds": settings.worlds,
                     "rows": int(len(rows.y)), "training_rows": int(len(train.y)),
                     "data_rounds": len(earlier) + 1,
                     "held_out_games": settings.games - first_held,
                     "target": _target_text(run.spec.recording),
                     **({"label_horizon": settings.label_horizon,
                         "label_model_sha256": run.spec.recording.label_model_sha256}
                        if settings.label_horizon else {})},
        "fit": {**settings.fit.describe(), **model.metadata.get("rank_fit", {})},
        "held_out": errors,
        "learning_curve": curve,
        **({"learning_curve_skipped": "not computed for a rank fit (it would refit the "
            "refinement on each share; the choices held out are its measure)"} if rank else {}),
        "feature_version": FEATURE_VERSION,
        "provenance": provenance(run),
        "rounds": [],
    }
    return model


def _target_text(recording: Recording) -> str:
    """What a recorded target is, in words (in the model file)."""
    if not recording.worlds:
        what = "the deal's realised outcome"
    elif recording.label_horizon:
        what = ("the mean value of the position over the worlds by the leaf search: played on "
                f"by the base policy in every seat for {recording.label_horizon} of the seat's "
                "own turns, then valued by the value model of sha256 "
                f"{recording.label_model_sha256[:12]}")
    else:
        what = ("the mean outcome of the position over the worlds, played on by the base "
                "policy in every seat")
    return what + (" (the seat's side's deal score minus the best other side's; in the last "
                   "deal, the game margin plus or minus 2000 for winning or losing)")


def base_record(played, rules) -> dict:
    """The base policy the recorded candidates were measured against: candidate 0 is the
    seat's base policy's choice (a tactician-family player's own vector, a learned or search
    player's base), with the tuned file's hash where the base is ``tuned``."""
    from strategies.registry import POLICY_MODULES

    if played.module in POLICY_MODULES:
        spec, params = played.base_policy or "tuned", played.base_params
    else:
        spec, params = played.name, played.params
    digest = ""
    if spec == "tuned":
        from sim.core.profiles import profile_name
        from strategies.learned.model_file import file_digest

        digest = file_digest(tuned_file(profile_name(rules)))
    return {"spec": spec, "params": {k: float(v) for k, v in sorted(params.items())},
            "tuned_sha256": digest}


def provenance(run: Run) -> dict:
    """What made the model: the engine build that recorded its data, the feature version and
    digest, the package versions and the commit (when run from a git checkout; "-dirty" when
    its tracked files had changes). Rebuilt at the same commit, the file is the same bytes."""
    from sim.runs.storage import engine_build, package_versions

    return {"engine_build": run.manifest.get("engine", {}).get("sources_sha256", engine_build()),
            "feature_version": FEATURE_VERSION, "feature_digest": feature_digest(),
            "packages": package_versions(), "commit": _commit()}


def _commit() -> str:
    import subprocess

    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=10, check=False)
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                  "--untracked-files=no"], capture_output=True, text=True,
                                 timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ""
    if head.returncode != 0:
        return ""  # not a git checkout (an installed copy)
    return head.stdout.strip() + ("-dirty" if changed.stdout.strip() else "")


def learn(settings: LearnSettings, out: Path, runs_dir: Path, name: str | None = None,
          resume: bool = False, jobs: int = 0, progress: bool = False, note=None,
          rounds: int = 1, measure: int = 0) -> Model:
    """Play, fit and write ``out``; returns the model written.

    With ``rounds`` > 1, expert iteration: round r's games are played by the ``learned``
    player of round r - 1's model (its own choices at the recorded decisions too, the search
    labelling the positions it reaches), and round r's model is fitted on every round's data so
    far (DAgger). Every round's learned player plays over the same base policy, the one round 1
    was measured against. With ``measure`` > 0 each round's player is matched against
    ``settings.player`` on ``measure`` shuffles in every seating, the figures go into the
    model's metadata (``rounds``), and the best measured round is written (``shipped_round``);
    without, the last round is."""
    note = note or (lambda message: None)
    if rounds < 1:
        raise LearnError(f"--rounds must be 1 or more (got {rounds})")
    base = name or settings.run_name()
    player, described = settings.player, settings.player
    history: list[dict] = []
    models: list[Model] = []
    done_runs: list[Run] = []
    base_spec = ""
    # A round's model and player files are named by what is fitted too: a value model fitted
    # from the same recording run (``--target value``, or ``--loss rank``) must not replace the
    # advantage model's.
    fitted = f"{settings.fit.target}-{settings.fit.kind}" + (
        f"-{settings.fit.loss}" if settings.fit.loss != "regression" else "")
    for r in range(1, rounds + 1):
        current = dataclasses.replace(settings, player=player, seed=settings.seed + r - 1)
        rules, profile, spec = check(current, out)
        folder = runs_dir / (base if r == 1 else f"{base}-{fitted}-round{r}")
        if folder.exists():  # a stale run is refused before anything is said or played
            check_fresh(Run.open(folder), folder)
        note(f"round {r} of {rounds}: games of {described} in every seat" if rounds > 1 else
             f"recording games of {described} in every seat")
        run = play(spec, folder, resume and (r == 1 or folder.exists()), jobs, progress, note)
        model = fit_run(run, current, rules.rules_id, profile, tuple(done_runs))
        done_runs.append(run)
        model.metadata["training"]["player"] = described
        if r == 1:
            base_spec = model.base_policy["spec"]
        model_path = runs_dir / f"{base}-{fitted}-round{r}.json"
        changed = write_round_model(model_path, model)
        strategy = runs_dir / f"{base}-{fitted}-round{r}.toml"
        strategy.write_text(f'# the learned player of round {r} (handfoot learn), over the base '
                            f'policy round 1 was measured against\n'
                            f'base = "learned"\nmodel = "{model_path.name}"\n'
                            f'base_policy = "{_spec_path(base_spec)}"\n', encoding="utf-8")
        if measure:
            measured = runs_dir / f"{base}-{fitted}-measure"
            history.append(measure_round(r, str(strategy), settings.player, settings.rules,
                                         settings.seed, measure, measured, jobs, progress,
                                         note, rerun=changed))
        models.append(model)
        player = str(strategy)
        described = f"learned with the round {r} model"
    best = best_round(history, rounds)
    model = models[best - 1]
    model.metadata["rounds"] = list(history)
    model.metadata["shipped_round"] = {
        "round": best, "of": rounds,
        "why": ("the best measured round (highest win rate against "
                f"{settings.player})" if history else "the last round (no round measured)")}
    if rounds > 1:
        note(f"writing round {best} of {rounds}: {model.metadata['shipped_round']['why']}")
    write_model(out, model)
    return model


def write_round_model(path: Path, model: Model) -> bool:
    """Write a round's model file unless the one there holds the same model (everything but
    its provenance: the commit and package versions of the writing command): a refit of
    the same data then keeps the file, so its player and its measured games stay those of
    the first fit, and running the documented command again only refits. True when the
    file changed (its round's measured games are then played again)."""
    fresh = json.loads(dumps(model))
    if path.exists():
        try:
            old = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            old = None
        if isinstance(old, dict) and _without_provenance(old) == _without_provenance(fresh):
            return False
    write_model(path, model)
    return True


def _without_provenance(data: dict) -> dict:
    metadata = {k: v for k, v in data.get("metadata", {}).items() if k != "provenance"}
    return {**data, "metadata": metadata}


def best_round(history: list[dict], rounds: int) -> int:
    """The round to ship: the best measured one (the earlier on a tie), else the last."""
    if not history:
        return rounds
    return max(history, key=lambda h: (h["win_rate"], -h["round"]))["round"]


def _spec_path(spec: str) -> str:
    """A strategy name as it is, a strategy file by its absolute path (the round's strategy
    file lives in the runs folder)."""
    return str(Path(spec).resolve()) if spec.endswith(".toml") else spec


def measure_round(r: int, player: str, opponent: str, rules: str, seed: int, games: int,
                  root: Path, jobs: int, progress: bool, note, rerun: bool = False) -> dict:
    """Round ``r``'s player against ``opponent``: paired, every seating, ``games`` shuffles
    (``rerun``: the round's model changed, so games measured before are played again)."""
    from analysis.experiments.pairings import Pairing, Side
    from analysis.experiments.playing import play_pairs
    from analysis.statistics.paired import analyse_seatings

    pairing = Pairing(key=f"round{r}", a=Side(f"round {r}", player), b=Side(opponent, opponent),
                      rules=rules, group=rules)
    pairs = play_pairs([pairing], root, seed + 7919, games, jobs=jobs, rerun=rerun,
                       progress=progress, note=note)
    result, _ = analyse_seatings(pairs[0].runs)
    return {"round": r, "player": f"learned (round {r} model)", "opponent": opponent,
            "shuffles": games, "seatings": result.teams, "seed": seed + 7919,
            "win_rate": round(result.win_rate, 4), "win_low": round(result.win_low, 4),
            "win_high": round(result.win_high, 4), "even": round(result.even, 4),
            "per_deal": round(result.per_deal.mean, 1),
            "per_deal_low": round(result.per_deal.low, 1),
            "per_deal_high": round(result.per_deal.high, 1)}
