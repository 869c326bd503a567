"""Plan and play the run folders behind a comparison: every pairing as one run per seating
of A, same rules, seed and games. With two partnerships the runs are ``<key>-ab`` (A as
partnership 0) and ``<key>-ba`` (A as partnership 1); with T partnerships (or T players in
individual play) they are ``<key>-a0`` ... ``<key>-a{T-1}``, A in partnership r and B in every
other one (analysis.paired).

Runs live in ``runs/<report name>/`` so a report can name the runs it used, and a command run
again reuses them: a finished run with the same rules, strategies (as played: kernel and every
parameter), seed and games is read as it is, an unfinished one is resumed (Ctrl-C keeps
finished chunks), one made by another engine build is played again (its records describe old
code), and one that differs in what defines its records is an error unless ``rerun`` replaces
it.

Strategies with parameters are written out in full as TOML files named by a hash of their
content (``<runs>/<name>/strategies/``), so a run's manifest pins every parameter and an
edited strategy can never be mistaken for the one a run was made with. A name that resolves
per rule set (``tuned``) stays a name; the run's manifest records what it resolved to.
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from sim.core.profiles import load_rules, profile_name
from sim.core.rules import Rules
from sim.runs.lineup import is_per_profile, resolve_spec
from sim.runs.storage import ChunkResult, Run, RunError, RunSpec, engine_build
from strategies.per_profile import resolve_base
from strategies.registry import StrategyInfo, base_policy_lines, load

STRATEGY_DIR = "strategies"
Note = Callable[[str], None]


class PlayError(RunError):
    """A run folder that is in the way of the runs a command needs."""


@dataclass(frozen=True)
class Side:
    """One strategy in a comparison: what readers see and what the engine loads."""

    label: str
    spec: str


@dataclass(frozen=True)
class Pairing:
    """A against B under one rule set; ``group`` and ``value`` place it in tables and plots."""

    key: str  # folder-safe: the runs are <key>-ab and <key>-ba
    a: Side
    b: Side
    rules: str  # profile name or rule file
    group: str  # rows and panels are grouped by this (the profile)
    value: str = ""  # the swept parameter value, if any

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Pairing:
        return cls(key=d["key"], a=Side(**d["a"]), b=Side(**d["b"]), rules=d["rules"],
                   group=d["group"], value=d.get("value", ""))


@dataclass(frozen=True)
class PairRuns:
    """The runs of a pairing, one per seating: ``runs[r]`` has A as partnership r."""

    pairing: Pairing
    runs: tuple[Path, ...]

    @property
    def ab(self) -> Path:
        return self.runs[0]

    @property
    def ba(self) -> Path:
        return self.runs[1]

    @property
    def seatings(self) -> int:
        return len(self.runs)


def seating_name(seat: int, teams: int) -> str:
    """The suffix of seating ``seat``'s run folder: ab/ba for two partnerships, a0, a1 ...
    otherwise."""
    if teams == 2:
        return ("ab", "ba")[seat]
    return f"a{seat}"


# --- Strategies ---------------------------------------------------------------------------------

def side(spec: str, folder: Path, label: str | None = None, rules: Rules | None = None,
         allow_oracle: bool = False, **params: float) -> Side:
    """A strategy by name or file, optionally with parameters changed.

    Non-parametric registered strategies stay names; parametric ones (and every file) are
    written in full to ``folder`` so runs pin every parameter. A per-profile name (``tuned``)
    stays a name unless parameters are changed, which needs ``rules`` to resolve it first; with
    ``rules`` a search player's base policy is checked against them here, so a missing one is
    refused under the name given. A strategy that sees hidden cards (``oracle``) is refused
    unless ``allow_oracle``: it is a ceiling for measurement, and a comparison with it would
    not be a fair game.
    """
    if is_per_profile(spec):
        if not params:
            return Side(label or spec, spec)
        if rules is None:
            raise PlayError(f"strategy '{spec}' resolves per rule set; give it parameters "
                            "only where the rules are known")
        info = resolve_spec(spec, rules)
    else:
        info = load(spec)
        if rules is not None:
            resolve_base(info, rules)  # a search player's base must exist under the rules
    if info.sees_hidden and not allow_oracle:
        raise PlayError(f"strategy '{spec}' sees every hidden card, so a comparison with it is "
                        "not a fair game; pass --allow-oracle to measure against it anyway")
    if params and not info.parametric:
        raise PlayError(f"strategy '{spec}' takes no parameters")
    specs = {p.name: p for p in info.param_specs}
    for name in params:
        if name not in specs:
            known = ", ".join(specs)
            raise PlayError(f"unknown parameter '{name}' (known: {known})")
    stem = Path(spec).stem if spec.endswith(".toml") else spec
    shown = label or (stem + "".join(f" {k}={_num(v)}" for k, v in params.items()))
    if not info.parametric:
        if spec.endswith(".toml"):
            raise PlayError(f"strategy file {spec}: only parametric strategies can be files")
        return Side(shown, spec)
    return Side(shown, strategy_file(info, folder, stem, shown, params))


def strategy_file(info: StrategyInfo, folder: Path, stem: str, shown: str,
                  params: dict | None = None) -> str:
    """Write ``info`` with ``params`` changed in full to ``folder`` (named by a hash of its
    content) and return its path."""
    values = {**info.params, **(params or {})}
    lines = [f'base = "{info.base}"', *base_policy_lines(info)] + \
        [f"{p.name} = {_num(values.get(p.name, 0))}" for p in info.param_specs]
    text = "\n".join(lines) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    folder.mkdir(parents=True, exist_ok=True)
    path = (folder / f"{stem}-{digest}.toml").resolve()
    if not path.exists():
        path.write_text(f"# {shown}: written by handfoot for a comparison\n{text}",
                        encoding="utf-8")
    load(str(path))  # the file must load as what it says
    return str(path)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


# --- Runs ---------------------------------------------------------------------------------------

def rules_and_profile(rules_spec: str) -> tuple[Rules, str]:
    rules = load_rules(rules_spec)
    name = profile_name(rules)
    return rules, name if name != "custom" else f"custom ({rules_spec})"


def chunk_size_for(games: int, workers: int) -> int:
    """Enough chunks to keep every worker busy, none so small that overhead dominates;
    records do not depend on it."""
    return max(200, min(10_000, math.ceil(games / (4 * max(workers, 1)))))


def run_spec(pairing: Pairing, seat: int, seed: int, games: int, chunk_size: int,
             keep_records: bool = True) -> RunSpec:
    """The run of seating ``seat``: A plays partnership ``seat``, B every other one."""
    from sim.play.api import seats_for_teams

    rules, profile = rules_and_profile(pairing.rules)
    teams_n = rules.partnerships
    if not 0 <= seat < teams_n:
        raise PlayError(f"seating {seat} does not exist with {teams_n} partnerships")
    teams = tuple(pairing.a.spec if t == seat else pairing.b.spec for t in range(teams_n))
    seats = tuple(seats_for_teams(list(teams), rules.players))
    return RunSpec(rules=rules, profile=profile, team_strategies=teams, seat_strategies=seats,
                   seed=seed, games=games, chunk_size=chunk_size, keep_records=keep_records)


def seatings(pairing: Pairing) -> int:
    """How many seatings the pairing's rules need: one per partnership (or player)."""
    return load_rules(pairing.rules).partnerships


def _played(spec: RunSpec) -> tuple:
    """The strategies as the engine plays them: kernel, every parameter and a search player's
    base policy, per seat."""
    return tuple(info.played for info in spec.engine_seats())


def _defines(spec: RunSpec) -> tuple:
    return (spec.rules.rules_id, spec.seat_strategies, _played(spec), spec.seed, spec.games,
            spec.keep_records)


def _describe_difference(have: RunSpec, want: RunSpec) -> str:
    parts = []
    for what, a, b in (("rules", have.rules.rules_id, want.rules.rules_id),
                       ("strategies", "/".join(have.team_strategies),
                        "/".join(want.team_strategies)),
                       ("seed", have.seed, want.seed), ("games", have.games, want.games),
                       ("records", have.keep_records, want.keep_records)):
        if a != b:
            parts.append(f"{what} {a} (wanted {b})")
    if not parts and _played(have) != _played(want):
        parts.append("strategies as played (a strategy file or a tuned file changed)")
    return "; ".join(parts)


def ensure_run(path: Path, spec: RunSpec, jobs: int = 0, rerun: bool = False,
               grow: bool = False, progress: bool = False, note: Note | None = None) -> Run:
    """The finished run ``spec`` at ``path``: reused, resumed, grown, or played."""
    from sim.runs.runner import simulate_to

    note = note or (lambda message: None)
    if path.exists():
        try:
            run = Run.open(path)
        except RunError:
            if not rerun:
                raise PlayError(f"{path} is in the way and is not a usable run folder; pass "
                                "--rerun to replace it") from None
            run = None
        if run is not None and not rerun:
            if run.manifest["engine"]["sources_sha256"] != engine_build():
                note(f"{path}: made by another engine build; playing it again")
                rerun = True
            elif _defines(run.spec) != _defines(spec):
                have = run.spec
                if grow and _defines(dataclasses.replace(have, games=spec.games)) == \
                        _defines(spec) and have.games < spec.games:
                    grow_run(path, spec.games)
                else:
                    raise PlayError(f"{path} holds a different run: "
                                    f"{_describe_difference(have, spec)}; pass --rerun to "
                                    "replace it, or choose another --report name")
            if not rerun:
                run = Run.open(path)
                if not run.missing():
                    return run
                simulate_to(path, None, jobs=jobs, progress=progress)
                return Run.open(path)
        shutil.rmtree(path)
    simulate_to(path, spec, jobs=jobs, progress=progress)
    return Run.open(path)


def grow_run(path: Path, games: int) -> None:
    """Extend a run to ``games`` without replaying it: the chunks it has are exactly the first
    chunks of the longer run (same seed, same chunking), so their files are carried over and
    only the new chunks are left to play (by resuming)."""
    old = Run.open(path)
    old.verify()
    spec = dataclasses.replace(old.spec, games=games)
    staging = path.with_name(path.name + ".grow")
    if staging.exists():
        shutil.rmtree(staging)
    new = Run.create(staging, spec, name=path.name)
    for index in old.done():
        entry = old.chunks[index]
        planned = new.chunks[index] if index < len(new.chunks) else None
        if planned is None or (planned["first_game"], planned["games"]) != \
                (entry["first_game"], entry["games"]):
            continue  # a last, partial chunk of the shorter run is played again
        kept = old.spec.keep_records
        new.store(ChunkResult(index=index, first_game=entry["first_game"],
                              games=entry["games"], rows=entry["rows"],
                              aggregate=entry["aggregate"], seconds=entry["seconds"],
                              data=old.chunk_path(index).read_bytes() if kept else None,
                              sha256=entry["sha256"] if kept else None))
    new.set_status("incomplete")
    new.save(force=True)
    shutil.rmtree(path)
    staging.rename(path)


def play_pairs(pairings: Sequence[Pairing], root: Path, seed: int, games: int, jobs: int = 0,
               rerun: bool = False, progress: bool | None = None, note: Note | None = None,
               chunk_size: int | None = None, grow: bool = False) -> list[PairRuns]:
    """The run of every seating of every pairing under ``root``; progress on stderr only on a
    terminal."""
    from joblib import cpu_count

    show = sys.stderr.isatty() if progress is None else progress
    chunk = chunk_size or chunk_size_for(games, jobs or cpu_count())
    plans = [(pairing, seatings(pairing)) for pairing in pairings]
    total = sum(n for _, n in plans)
    done = 0
    out = []
    for pairing, n in plans:
        paths = []
        for seat in range(n):
            path = root / f"{pairing.key}-{seating_name(seat, n)}"
            done += 1
            if show:
                where = "seat" if load_rules(pairing.rules).individual else "partnership"
                print(f"[{done}/{total}] {pairing.group}: {pairing.a.label} vs "
                      f"{pairing.b.label}, A as {where} {seat}: {games:,} games",
                      file=sys.stderr)
            ensure_run(path, run_spec(pairing, seat, seed, games, chunk), jobs=jobs,
                       rerun=rerun, grow=grow, progress=show, note=note)
            paths.append(path)
        out.append(PairRuns(pairing, tuple(paths)))
    return out
