"""The shipped ladder of fast players per profile (``strategies/ladder.toml``), strongest first.

The answers (guide, ask hold-wild, sweep, rules-compare) play the strongest fast player
measured for the rules by default and the next one to see how far a verdict holds; the ladder
says which they are and why (the paired matches that put them in that order), so no answer
picks its player by habit. Plain Python: reading it loads no compiler.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from sim.core.profiles import PROFILES
from strategies.registry import PER_PROFILE, REGISTRY, StrategyError


@dataclass(frozen=True)
class Step:
    """One measured step of the ladder: ``a`` against ``b`` (wins of ``a``, 95% CI)."""

    a: str
    b: str
    wins: float
    low: float
    high: float
    even: float
    shuffles: int
    seed: int

    def words(self) -> str:
        return (f"{self.a} wins {100 * self.wins:.1f}% of games against {self.b} (95% CI "
                f"{100 * self.low:.1f}% to {100 * self.high:.1f}%; even {100 * self.even:g}%; "
                f"{self.shuffles:,} shuffles in every seating, seed {self.seed})")


@dataclass(frozen=True)
class Rungs:
    """A profile's fast players, strongest first, and the steps measured between them.

    ``measured_with`` holds the play fingerprints (``play_fingerprints``) of the files the
    steps were measured with: a re-tune or a refitted model that changes play makes the
    figures stale, and a test compares them with the shipped files."""

    profile: str
    players: tuple[str, ...]
    measured: tuple[Step, ...]
    measured_with: dict[str, str]

    def why(self, player: str) -> str:
        """Why ``player`` stands where it does, in words."""
        i = self.players.index(player)
        below = [s for s in self.measured if s.a == player]
        rank = ("the strongest fast player measured" if i == 0 else
                f"the next strongest fast player measured (number {i + 1})")
        return f"{rank} for {self.profile}" + (f": {below[0].words()}" if below else "")


def ladder_file() -> Path:
    return Path(str(resources.files("strategies") / "ladder.toml"))


@cache
def _read(path: str) -> dict[str, Rungs]:
    with open(path, "rb") as fh:
        data = tomllib.load(fh)
    out = {}
    for profile, entry in data.items():
        players = tuple(entry["players"])
        for name in players:
            if name not in REGISTRY and name not in PER_PROFILE:
                raise StrategyError(f"{path}: [{profile}] names unknown strategy '{name}'")
        if profile not in PROFILES:
            raise StrategyError(f"{path}: [{profile}] is not a profile")
        out[profile] = Rungs(profile, players,
                             tuple(Step(**step) for step in entry.get("measured", ())),
                             dict(entry.get("measured_with", {})))
    return out


def play_fingerprints(profile: str) -> dict[str, str]:
    """What decides how a profile's shipped fast players play, hashed: the tuned file's
    parameters (not its comments) and the learned model's numbers in the engine's layout as
    fitted (not its metadata; ``Model.layout``, before the engine zeroes subnormals, which
    changes no play). Equal fingerprints: the same play."""
    import hashlib
    import json

    from strategies.learned.model_file import read_model
    from strategies.per_profile import learned_file, tuned_file
    from strategies.registry import load

    out = {}
    tuned = tuned_file(profile)
    if tuned.is_file():
        params = json.dumps(sorted(load(str(tuned)).params.items())).encode()
        out["tuned"] = hashlib.sha256(params).hexdigest()[:16]
    model = learned_file(profile)
    if model.is_file():
        out["learned"] = hashlib.sha256(read_model(model).layout().tobytes()).hexdigest()[:16]
    return out


def measured_with(profile: str) -> dict[str, str]:
    """The play fingerprints the profile's ladder steps were measured with ({} if none)."""
    rungs = ladder(profile)
    return dict(rungs.measured_with) if rungs else {}


def ladder(profile: str) -> Rungs | None:
    """The shipped ladder of ``profile`` (None for a profile without one, or a rule file)."""
    return _read(str(ladder_file())).get(profile)


def ladder_profiles() -> list[str]:
    return list(_read(str(ladder_file())))
