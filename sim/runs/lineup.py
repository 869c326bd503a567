"""Strategy names that resolve per rule set, and resolving any strategy name where it meets
the rules it will play under.

``tuned`` is the tactician with the parameters ``handfoot tune`` found best for the profile
being played; its files ship with the package (``strategies/tuned/<profile>.toml``). A name
like that means nothing until the rules are known, so every place a strategy name meets a
rule set (a run's spec, ``simulate``, ``trace``, a comparison) resolves it here, and a run's
manifest records the resolved parameters (``strategies.played``), as it does for any strategy
file: a run made before the tuned file changed is never mistaken for one made after.

Plain Python (reading a run must not load the compiler).
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from sim.core.profiles import PROFILES, profile_name
from sim.core.rules import Rules
from strategies.registry import StrategyError, StrategyInfo, load

TUNED = "tuned"
PER_PROFILE: dict[str, str] = {
    TUNED: "the tactician tuned for the rules being played (handfoot tune; one file per "
           "profile, strategies/tuned/<profile>.toml)",
}


def tuned_dir() -> Path:
    """Where the shipped tuned files are (package data of ``strategies``)."""
    return Path(str(resources.files("strategies") / "tuned"))


def tuned_file(profile: str) -> Path:
    return tuned_dir() / f"{profile}.toml"


def tuned_profiles() -> list[str]:
    """Profiles that have a shipped tuned file, in the profiles' order."""
    return [name for name in PROFILES if tuned_file(name).is_file()]


def is_per_profile(spec: str) -> bool:
    return spec in PER_PROFILE


def check_spec(spec: str) -> None:
    """Refuse an unknown strategy name or a bad strategy file now, before any rules are
    known (a per-profile name is checked when it meets the rules)."""
    if not is_per_profile(spec):
        load(spec)


def resolve_spec(spec: str, rules: Rules) -> StrategyInfo:
    """The strategy ``spec`` plays under ``rules``: a registered name, a strategy file, or a
    per-profile name resolved to the rules' profile."""
    if not is_per_profile(spec):
        return load(spec)
    profile = profile_name(rules)
    if profile == "custom":
        raise StrategyError(f"strategy '{spec}' resolves per profile and these rules are not "
                            f"a named profile (rules id {rules.rules_id}); tune one with "
                            "`handfoot tune tactician --rules FILE --out FILE.toml` and play "
                            "that file")
    path = tuned_file(profile)
    if not path.is_file():
        have = ", ".join(tuned_profiles()) or "none"
        raise StrategyError(f"strategy '{spec}': no tuned file for profile {profile} "
                            f"(have: {have})")
    info = load(str(path))
    return StrategyInfo(spec, info.module, f"tactician tuned for {profile} ({path.name})",
                        dict(info.params), info.sees_hidden)


def resolve_seats(seat_specs: Sequence[str | StrategyInfo], rules: Rules) -> list[StrategyInfo]:
    """One ``StrategyInfo`` per seat, per-profile names resolved for ``rules``."""
    return [s if isinstance(s, StrategyInfo) else resolve_spec(s, rules) for s in seat_specs]
