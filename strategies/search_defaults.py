"""What the name ``pimc`` plays in each profile: its shipped defaults
(``strategies/search_defaults.toml``), read off a measured curve of strength against cost.

The search is stronger and cheaper with a value model at its leaves (``leaf = 1``: each
rollout stops after ``horizon`` of the searcher's own turns and the profile's value model
scores the position), but only where a value model was fitted for the rules. So ``pimc`` by
name means the profile's measured budget where this file has an entry, and the registry's
parameters (rollouts to the end of the deal, 128 worlds) elsewhere: under a rule file, or a
profile without an entry. A strategy file with ``base = "pimc"`` starts from the registry's
parameters and says what it changes, so a file written before the defaults moved plays as it
did.

Plain Python: reading it loads no compiler.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from sim.core.profiles import PROFILES
from sim.core.tomlfile import read_toml
from strategies.registry import StrategyError
from strategies.search.params import SEARCH_DEFAULTS

# The parameters a profile's entry may set (the rest stay at the registry's values).
BUDGET_KEYS = ("leaf", "horizon", "worlds")


@dataclass(frozen=True)
class Point:
    """One measured point of a profile's curve: the search at ``params`` against ``against``
    (its wins, 95% CI; the shuffles, each played in every seating, and the seed) and its
    mean cost per decision on one core (``make bench``'s loop, ``tests/bench/bench_search.py``)."""

    params: dict[str, int]
    against: str
    wins: float
    low: float
    high: float
    shuffles: int
    seed: int
    ms_per_decision: float

    def words(self) -> str:
        budget = ", ".join(f"{k} {v}" for k, v in self.params.items())
        return (f"{budget}: {100 * self.wins:.1f}% against {self.against} (95% CI "
                f"{100 * self.low:.1f}% to {100 * self.high:.1f}%; {self.shuffles:,} shuffles "
                f"in every seating, seed {self.seed}), {self.ms_per_decision:.2f} ms a decision")


@dataclass(frozen=True)
class ProfileSearch:
    """A profile's ``pimc`` defaults and the curve they were read from."""

    profile: str
    params: dict[str, int]
    curve: tuple[Point, ...]

    def words(self) -> str:
        return ", ".join(f"{k} = {v}" for k, v in self.params.items())


def defaults_file() -> Path:
    return Path(str(resources.files("strategies") / "search_defaults.toml"))


def _params(entry: dict, where: str) -> dict[str, int]:
    unknown = set(entry) - set(BUDGET_KEYS)
    if unknown:
        raise StrategyError(f"{where}: unknown keys {sorted(unknown)} (known: "
                            f"{', '.join(BUDGET_KEYS)})")
    out = {}
    for key in BUDGET_KEYS:
        value = entry.get(key, SEARCH_DEFAULTS[key])
        if isinstance(value, bool) or not isinstance(value, int):
            raise StrategyError(f"{where}: {key} must be a whole number (got {value!r})")
        out[key] = value
    return out


@cache
def _read(path: str) -> dict[str, ProfileSearch]:
    data = read_toml(path, "the search's defaults", StrategyError)
    out = {}
    for profile, entry in data.items():
        if profile not in PROFILES:
            raise StrategyError(f"{path}: [{profile}] is not a profile")
        entry = dict(entry)
        curve = entry.pop("curve", ())
        params = _params(entry, f"{path} [{profile}]")
        points = tuple(Point(params=_params(p.pop("params"), f"{path} [{profile}] curve"), **p)
                       for p in (dict(p) for p in curve))
        out[profile] = ProfileSearch(profile, params, points)
    return out


def profile_search(profile: str) -> ProfileSearch | None:
    """The shipped ``pimc`` defaults of ``profile`` (None: the registry's parameters)."""
    return _read(str(defaults_file())).get(profile)


def search_profiles() -> list[str]:
    """Profiles whose ``pimc`` has shipped defaults, in the profiles' order."""
    shipped = _read(str(defaults_file()))
    return [name for name in PROFILES if name in shipped]
