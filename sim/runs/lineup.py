"""Strategy names that resolve per rule set, and resolving any strategy name where it meets
the rules it will play under: the runs layer's face of ``strategies.per_profile``.

``tuned`` is the tactician with the parameters ``handfoot tune`` found best for the profile
being played; its files ship with the package (``strategies/tuned/<profile>.toml``). A name
like that means nothing until the rules are known, and neither does a search player's base
policy ``tuned``; so every place a strategy name meets a rule set (a run's spec, ``simulate``,
``trace``, a comparison) resolves it here, and a run's manifest records the resolved
parameters (``strategies.played``: a search player's ``base_params`` too), as it does for any
strategy file: a run made before the tuned file changed is never mistaken for one made after.

Plain Python (reading a run must not load the compiler).
"""

from __future__ import annotations

from strategies.per_profile import (
    PER_PROFILE,
    TUNED,
    is_per_profile,
    resolve_seats,
    resolve_spec,
    tuned_dir,
    tuned_file,
    tuned_profiles,
)
from strategies.registry import load

__all__ = ["PER_PROFILE", "TUNED", "check_spec", "is_per_profile", "resolve_seats",
           "resolve_spec", "tuned_dir", "tuned_file", "tuned_profiles"]


def check_spec(spec: str) -> None:
    """Refuse an unknown strategy name or a bad strategy file now, before any rules are
    known (a per-profile name, or a base policy ``tuned``, is checked when it meets the
    rules)."""
    if not is_per_profile(spec):
        load(spec)
