"""A run on disk: ``runs/<name>/`` with one Parquet file per chunk and ``manifest.json``.

The folder is the unit of resumption. The manifest records what defines the results (rules,
strategies per seat, root seed, chunking, engine build) and, for every chunk, its status, row
count, sha256 and mergeable aggregate, so that

- a resumed run plays exactly the chunks that are missing and refuses to mix in a different
  rule set, strategy, seed or engine build (its records would no longer be one experiment);
- a truncated or corrupted chunk file is caught by its checksum, named, and recomputed on
  resume, never read silently;
- the summary of a run of any size merges per-chunk aggregates instead of loading records.

Only the parent process writes here (workers return bytes), and every file is written under a
temporary name and renamed when complete, so a killed run leaves whole files or none. The
manifest is rewritten atomically as chunks finish (spaced out when it is huge): a chunk file
written in the moments before a SIGKILL but not yet recorded is recomputed on resume.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as _dt
import fcntl
import functools
import hashlib
import json
import os
import platform
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from sim.core.profiles import rules_from_knobs
from sim.core.rules import Rules
from sim.runs.aggregate import METRICS, Aggregate, merge_all
from strategies.registry import StrategyInfo

MANIFEST = "manifest.json"
FORMAT = "handfoot-run/1"
LOCK = ".lock"
_CHUNK_NAME = "chunk-{:06d}.parquet"
_TMP_SUFFIX = ".tmp"
# While a run is going, the manifest is rewritten after a chunk unless the last rewrite was less
# than SAVE_SPACING times its own duration ago, so a manifest of thousands of chunks costs under
# 5% of a core while a small one is saved after every chunk (and always when a run stops).
SAVE_SPACING = 20
_PACKAGES = ("handfoot", "numpy", "numba", "polars", "pyarrow", "joblib", "dask",
             "distributed")


class RunError(ValueError):
    """A run folder that cannot be used as asked; the message names the folder and why."""


class CorruptChunkError(RunError):
    """Chunk files whose bytes do not match the manifest (missing, truncated, corrupted)."""

    def __init__(self, run: Path, problems: list[tuple[str, str]]) -> None:
        self.problems = problems
        listed = "; ".join(f"{name}: {why}" for name, why in problems)
        super().__init__(f"{run}: {len(problems)} bad chunk file(s): {listed}; "
                         f"`handfoot simulate --resume {run}` recomputes them")


MAX_LABEL_HORIZON = 40


@dataclass(frozen=True)
class Recording:
    """A run that records positions for a learned evaluator (``handfoot learn``): at each
    decision with chance ``sample_rate``, the position after each sensible candidate from the
    deciding seat's view and its value searched over ``worlds`` imagined deals, and with chance
    ``explore`` a random candidate played there instead of the seat's own choice
    (``sim.play.recording``). Its chunk files hold the recorded rows, not deals."""

    sample_rate: float
    explore: float
    worlds: int  # imagined deals behind each candidate's target (0: the realised outcome)
    # What the recorded feature columns mean (``strategies.lookahead.schema``): a run recorded
    # under another feature version or slot order is not reused for a fit (0, "": unrecorded).
    feature_version: int = 0
    feature_digest: str = ""
    # The targets' search: to the end of the deal (0), or the leaf search, the base policy for
    # this many of the seat's own turns and then the value model file ``label_model`` (its
    # sha256 recorded: a run whose label model changed is no longer one experiment).
    label_horizon: int = 0
    label_model: str = field(default="", compare=False)  # where it was read: the sha counts
    label_model_sha256: str = ""

    def __post_init__(self) -> None:
        if not 0 <= self.label_horizon <= MAX_LABEL_HORIZON:
            raise RunError(f"the label horizon must be 0 to {MAX_LABEL_HORIZON} of the seat's "
                           f"own turns (got {self.label_horizon})")
        if (self.label_horizon > 0) != bool(self.label_model_sha256 and self.label_model):
            raise RunError("a leaf-search label needs a horizon and a value model together")
        if self.label_horizon and not self.worlds:
            raise RunError("a leaf-search label is a searched target: give --worlds 1 or more")
        if not 0 <= self.worlds <= 256:
            raise RunError(f"the worlds per recorded decision must be 0 to 256 "
                           f"(got {self.worlds})")
        if not 0 < self.sample_rate <= 1:
            raise RunError(f"the sample rate must be in (0, 1] (got {self.sample_rate})")
        if not 0 <= self.explore <= 1:
            raise RunError(f"the exploring chance must be in [0, 1] (got {self.explore})")


@dataclass(frozen=True)
class UntilCI:
    """Stop adding chunks once the 95% interval of ``metric`` is narrower than ``width``."""

    width: float
    metric: str = "win-rate"

    def __post_init__(self) -> None:
        if self.metric not in METRICS:
            raise RunError(f"unknown metric '{self.metric}' (known: {', '.join(METRICS)})")
        if not self.width > 0:
            raise RunError(f"--until-ci must be a positive width (got {self.width})")


@dataclass(frozen=True)
class RunSpec:
    """Everything the records depend on, plus how they are chunked and kept.

    ``games`` is the number of games to play, or with ``until_ci`` the most to play.
    """

    rules: Rules
    profile: str
    team_strategies: tuple[str, ...]
    seat_strategies: tuple[str, ...]
    seed: int
    games: int
    chunk_size: int
    keep_records: bool = True
    until_ci: UntilCI | None = None
    recording: Recording | None = None
    # The strategies as played (base kernel id and parameters), read from the names or
    # strategy files once when the run is created: a resume, or a cluster worker, never
    # re-reads a strategy file that may have changed or may not exist there.
    seat_infos: tuple = ()

    def engine_seats(self) -> tuple:
        """What the engine plays per seat (``strategies.registry.StrategyInfo``)."""
        if self.seat_infos:
            return self.seat_infos
        from strategies.per_profile import resolve_seats

        return tuple(resolve_seats(self.seat_strategies, self.rules))

    def chunks(self) -> list[tuple[int, int, int]]:
        """(index, first game, games) of every planned chunk; chunks hold whole games."""
        return [(i, start, min(self.chunk_size, self.games - start))
                for i, start in enumerate(range(0, self.games, self.chunk_size))]


@dataclass
class ChunkResult:
    """What a worker sends back for one chunk: no records unless they are kept, as Parquet."""

    index: int
    first_game: int
    games: int
    rows: int
    aggregate: dict
    seconds: float
    data: bytes | None = None  # the chunk's Parquet file (zstd), when records are kept
    sha256: str | None = None


def chunk_name(index: int) -> str:
    return _CHUNK_NAME.format(index)


@functools.cache
def engine_build() -> str:
    """Hash of the compiled engine's sources: records from two builds are not one experiment.

    Computed once per process: the engine a process plays is the one it loaded, whatever is
    edited on disk meanwhile, and walking every compiled source's imports costs a tenth of a
    second, which a command that opens a hundred runs would otherwise pay a hundred times."""
    from sim.cache import build_key

    return build_key()


def package_versions() -> dict[str, str]:
    out = {"python": platform.python_version()}
    for name in _PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return out


def now_iso() -> str:
    return _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _dumps(manifest: dict) -> str:
    """Indented JSON with one compact line per chunk, so a manifest of thousands of chunks
    stays small and readable."""
    head = {k: v for k, v in manifest.items() if k != "chunks"}
    text = json.dumps(head, indent=2)
    chunks = manifest.get("chunks", [])
    lines = ",\n    ".join(json.dumps(c, separators=(",", ":")) for c in chunks)
    body = f'[\n    {lines}\n  ]' if chunks else "[]"
    return text[:-2] + f',\n  "chunks": {body}\n}}\n'


class Run:
    """One run folder and its manifest (loaded in memory, saved atomically)."""

    def __init__(self, path: Path, manifest: dict) -> None:
        self.path = path
        self.manifest = manifest
        self._last_save = 0.0
        self._save_interval = 0.0
        self._spec: RunSpec | None = None

    # --- Creating and opening -----------------------------------------------------------

    @classmethod
    def create(cls, path: Path, spec: RunSpec, name: str | None = None) -> Run:
        """A new run folder; it must not exist yet (resume an existing one instead)."""
        spec = dataclasses.replace(spec, seat_infos=spec.engine_seats())
        try:
            path.mkdir(parents=True, exist_ok=False)
        except FileExistsError:
            raise RunError(f"run folder {path} already exists; finish it with "
                           f"`handfoot simulate --resume {path}` or pick another --name") from None
        except OSError as exc:
            raise RunError(f"cannot create run folder {path}: {exc.strerror}") from None
        manifest = {
            "format": FORMAT,
            "name": name or path.name,
            "status": "new",
            "created": now_iso(),
            "updated": now_iso(),
            "rules": {"profile": spec.profile, "rules_id": spec.rules.rules_id,
                      "knobs": spec.rules.to_dict()},
            "strategies": {"teams": list(spec.team_strategies),
                           "seats": list(spec.seat_strategies),
                           "played": [dataclasses.asdict(info) for info in spec.seat_infos]},
            "seed": spec.seed,
            "games": spec.games,
            "chunking": {"chunk_size": spec.chunk_size, "chunks": len(spec.chunks())},
            "records": "parquet" if spec.keep_records else "summary-only",
            "recording": (None if spec.recording is None else
                          dataclasses.asdict(spec.recording)),
            "until_ci": (None if spec.until_ci is None else
                         {"metric": spec.until_ci.metric, "width": spec.until_ci.width,
                          "reached": None, "achieved_width": None}),
            "engine": {"sources_sha256": engine_build()},
            "versions": package_versions(),
            "sessions": [],
            "chunks": [{"index": i, "first_game": first, "games": n, "status": "missing",
                        "computed": 0} for i, first, n in spec.chunks()],
        }
        run = cls(path, manifest)
        run._spec = spec
        run.save(force=True)
        return run

    @classmethod
    def open(cls, path: Path) -> Run:
        """An existing run folder; anything that is not one is a ``RunError`` naming it."""
        if not path.is_dir():
            raise RunError(f"{path} is not a run folder (no such directory)")
        file = path / MANIFEST
        if not file.is_file():
            raise RunError(f"{path} is not a run folder (no {MANIFEST})")
        try:
            manifest = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise RunError(f"{file} is not a readable run manifest ({exc})") from None
        if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
            raise RunError(f"{file} is not a handfoot run manifest (format "
                           f"{manifest.get('format') if isinstance(manifest, dict) else None!r}, "
                           f"expected {FORMAT!r})")
        run = cls(path, manifest)
        run.spec  # noqa: B018 - validates the rules, strategies and chunking now
        return run

    @property
    def spec(self) -> RunSpec:
        if self._spec is None:
            m = self.manifest
            try:
                rules = rules_from_knobs(m["rules"]["knobs"])
                until = m.get("until_ci")
                recording = m.get("recording")
                spec = RunSpec(
                    rules=rules,
                    profile=m["rules"]["profile"],
                    team_strategies=tuple(m["strategies"]["teams"]),
                    seat_strategies=tuple(m["strategies"]["seats"]),
                    seed=int(m["seed"]),
                    games=int(m["games"]),
                    chunk_size=int(m["chunking"]["chunk_size"]),
                    keep_records=m["records"] == "parquet",
                    until_ci=(None if until is None else
                              UntilCI(float(until["width"]), until["metric"])),
                    recording=(None if recording is None else
                               Recording(float(recording["sample_rate"]),
                                         float(recording["explore"]),
                                         int(recording["worlds"]),
                                         int(recording.get("feature_version", 0)),
                                         str(recording.get("feature_digest", "")),
                                         int(recording.get("label_horizon", 0)),
                                         str(recording.get("label_model", "")),
                                         str(recording.get("label_model_sha256", "")))),
                    seat_infos=tuple(StrategyInfo(**info)
                                     for info in m["strategies"]["played"]),
                )
            except (KeyError, TypeError, ValueError) as exc:
                raise RunError(f"{self.path / MANIFEST} is damaged or from another version "
                               f"({type(exc).__name__}: {exc})") from None
            if rules.rules_id != m["rules"]["rules_id"]:
                raise RunError(
                    f"{self.path}: its rules (id {m['rules']['rules_id']}) resolve to id "
                    f"{rules.rules_id} in this version of handfoot; start a new run")
            self._spec = spec
        return self._spec

    def check_engine(self) -> None:
        """Refuse to add records from a different engine build to this run."""
        made = self.manifest["engine"]["sources_sha256"]
        now = engine_build()
        if made != now:
            raise RunError(f"{self.path} was made by another engine build ({made}, now {now}); "
                           "its records could not be continued identically; start a new run")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the folder for one process; a killed holder releases it automatically."""
        handle = (self.path / LOCK).open("a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.close()
            raise RunError(f"{self.path} is in use by another handfoot process") from None
        try:
            for leftover in self.path.glob(f"*{_TMP_SUFFIX}"):  # from a killed writer
                leftover.unlink(missing_ok=True)
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
            handle.close()

    # --- Chunks -----------------------------------------------------------------------------

    @property
    def chunks(self) -> list[dict]:
        return self.manifest["chunks"]

    def chunk_path(self, index: int) -> Path:
        return self.path / chunk_name(index)

    def done(self) -> list[int]:
        return [c["index"] for c in self.chunks if c["status"] == "done"]

    def missing(self) -> list[dict]:
        return [c for c in self.chunks if c["status"] != "done"]

    def chunk_aggregate(self, index: int) -> Aggregate:
        return Aggregate.from_dict(self.chunks[index]["aggregate"])

    def problems(self, indices: list[int] | None = None) -> list[tuple[int, str]]:
        """Done chunks whose file is missing or differs from its recorded size and sha256."""
        if not self.spec.keep_records:
            return []
        out = []
        for index in self.done() if indices is None else indices:
            entry = self.chunks[index]
            path = self.chunk_path(index)
            if not path.is_file():
                out.append((index, "file is missing"))
                continue
            size = path.stat().st_size
            if size != entry["bytes"]:
                out.append((index, f"{size} bytes, expected {entry['bytes']} (truncated?)"))
            elif sha256_file(path) != entry["sha256"]:
                out.append((index, "sha256 differs from the manifest (corrupted)"))
        return out

    def verify(self) -> None:
        """Raise ``CorruptChunkError`` naming every bad chunk file; reading comes after."""
        bad = self.problems()
        if bad:
            raise CorruptChunkError(self.path, [(chunk_name(i), why) for i, why in bad])

    def mark_missing(self, index: int) -> None:
        entry = self.chunks[index]
        for key in ("rows", "bytes", "sha256", "seconds", "aggregate", "file"):
            entry.pop(key, None)
        entry["status"] = "missing"

    def store(self, result: ChunkResult) -> None:
        """Write a finished chunk's file (temporary name, then rename) and record it."""
        entry = self.chunks[result.index]
        if (entry["first_game"], entry["games"]) != (result.first_game, result.games):
            raise RunError(f"chunk {result.index} does not match the run's chunking")
        if result.data is not None:
            final = self.chunk_path(result.index)
            tmp = final.with_name(f".{final.name}.{os.getpid()}{_TMP_SUFFIX}")
            with tmp.open("wb") as f:
                f.write(result.data)
            os.replace(tmp, final)
            entry["file"] = final.name
            entry["bytes"] = len(result.data)
            entry["sha256"] = result.sha256
        entry["status"] = "done"
        entry["rows"] = result.rows
        entry["seconds"] = round(result.seconds, 3)
        entry["computed"] = entry.get("computed", 0) + 1
        entry["aggregate"] = result.aggregate
        self.save()

    def keep_first(self, n_chunks: int) -> None:
        """Drop every chunk after the first ``n_chunks`` (an ``until_ci`` run that stopped)."""
        for entry in self.chunks[n_chunks:]:
            self.chunk_path(entry["index"]).unlink(missing_ok=True)
        del self.chunks[n_chunks:]
        self.manifest["games"] = sum(c["games"] for c in self.chunks)
        self.manifest["chunking"]["chunks"] = n_chunks
        self._spec = None

    def aggregate(self) -> Aggregate:
        """Every done chunk's aggregate, merged (exact integers, any order)."""
        teams = self.spec.rules.partnerships
        return merge_all((self.chunk_aggregate(i) for i in self.done()), teams)

    def scan(self):
        """The per-deal records of every done chunk as one lazy polars frame, after checking
        every file against its checksum."""
        import polars as pl

        if not self.spec.keep_records:
            raise RunError(f"{self.path} kept only per-chunk aggregates (--summary-only)")
        self.verify()
        files = [str(self.chunk_path(i)) for i in self.done()]
        if not files:
            raise RunError(f"{self.path} has no finished chunks yet")
        return pl.scan_parquet(files)

    def to_pandas(self, columns: list[str] | None = None):
        """The per-deal records as a pandas DataFrame (one row per deal, flat columns such as
        ``score_0``), for people who analyse runs in pandas; checked like ``scan``. Pick
        ``columns`` to keep memory down on big runs."""
        frame = self.scan()
        if columns is not None:
            frame = frame.select(columns)
        return frame.collect().to_pandas()

    # --- Saving -----------------------------------------------------------------------------

    def set_status(self, status: str) -> None:
        self.manifest["status"] = status

    def save(self, force: bool = False) -> None:
        """Rewrite the manifest atomically; between forced saves, at most every interval."""
        start = time.monotonic()
        if not force and start - self._last_save < self._save_interval:
            return
        self.manifest["updated"] = now_iso()
        file = self.path / MANIFEST
        tmp = file.with_name(f".{MANIFEST}.{os.getpid()}{_TMP_SUFFIX}")
        tmp.write_text(_dumps(self.manifest), encoding="utf-8")
        os.replace(tmp, file)
        self._last_save = time.monotonic()
        self._save_interval = SAVE_SPACING * (self._last_save - start)
