"""Strategies by name or file: the strategy module whose hooks play them, and their
parameter vectors.

A strategy *spec* is a registered name (``greedy``) or a TOML file naming a base strategy and
parameter values::

    base = "tactician"
    hold_wilds = 2
    go_out = 1

A search player's file may also name its base policy (``BASE_POLICY_KEY``): the strategy whose
choice is its first candidate and which plays every seat of its imagined deals::

    base = "pimc"
    base_policy = "tuned"   # or "cautious", "tactician", a tactician strategy file
    worlds = 32

``base`` is the registered strategy the file builds on; ``base_policy`` is a different thing,
the policy the search improves on (Tesauro and Galperin 1996: a rollout search is as strong as
the policy it rolls out), so it has its own key. It must be tactician-family (its play is a
tactician parameter vector, which the compiled search reads at run time from
``w.base_params``); a per-profile name (``tuned``) is resolved when the rules are known
(``strategies.per_profile``).

This module is plain Python (reading a run's manifest must not load the compiler); the
compiled hooks are looked up by ``strategies.hooks`` when a game is played. Adding a compiled
strategy is one module with its hooks plus one ``REGISTRY`` entry here (README, "Adding a
compiled strategy").
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.tomlfile import read_toml
from strategies.learned.params import LEARNED_DEFAULTS, LEARNED_PARAMS
from strategies.params import TACTICIAN_PARAMS, Param
from strategies.search.params import SEARCH_DEFAULTS, SEARCH_PARAMS

N_PARAM_SLOTS = 16


class StrategyError(ValueError):
    """An unknown strategy, a bad strategy file or a bad seat assignment."""


@dataclass(frozen=True)
class StrategyInfo:
    """A strategy as played: its name, the module whose hooks play it, its parameters.

    ``sees_hidden`` marks a player that looks at cards its seat may not see (a measuring
    ceiling such as ``oracle``); comparisons refuse it unless asked for explicitly.

    A search player (``POLICY_MODULES``) also has a base policy: ``base_policy`` names it as
    given (a tactician-family strategy or strategy file), ``base_params`` holds its tactician
    parameters once resolved. They are part of the strategy as played (a run's manifest
    records them, so a resume plays the same base)."""

    name: str
    module: str  # the strategy module that defines the five hooks (strategies.hooks)
    summary: str
    params: dict[str, float] = field(default_factory=dict)
    sees_hidden: bool = False
    base_policy: str = ""
    base_params: dict[str, float] = field(default_factory=dict)
    # A learned player's value model (``MODEL_MODULES``): the model file as given ("" for the
    # rules' shipped model), then, once resolved for the rules, its absolute path and sha256
    # (a run's manifest records them, so a resume refuses a model file that has changed).
    model: str = ""
    model_sha256: str = ""
    # A learned player whose base policy may differ from the one its model was fitted against
    # (``ANY_BASE_KEY``; the guide's knob changes): otherwise such a seat is refused.
    any_base: bool = False

    @property
    def param_specs(self) -> tuple[Param, ...]:
        return PARAM_SPECS.get(self.module, ())

    @property
    def parametric(self) -> bool:
        return bool(self.param_specs)

    @property
    def played(self) -> tuple:
        """What the engine plays, whatever the name: the module, every parameter and a search
        player's base policy vector (two strategies with equal ``played`` play alike)."""
        return (self.module, tuple(sorted(self.params.items())),
                tuple(sorted(self.base_params.items())), self.model_sha256)

    @property
    def base(self) -> str:
        """The registered strategy this one is built on (itself, for a registered name)."""
        if self.name in REGISTRY:
            return self.name
        return next(name for name, info in REGISTRY.items() if info.module == self.module)


# Search players: their base candidate and rollouts play a base policy (``base_policy``).
LEARNED_MODULE = "strategies.learned.player"
POLICY_MODULES = frozenset({"strategies.search.pimc", "strategies.search.oracle",
                            "strategies.search.oracle_hands", LEARNED_MODULE})
# Players that score positions with a value model (``handfoot learn``): ``model`` names its
# file; for ``learned`` by default the shipped model of the rules' profile
# (``strategies/learned/models/``), for a search player (with ``leaf = 1``: the model scores
# where its rollouts stop) a value model it must name.
SEARCH_MODULES = frozenset({"strategies.search.pimc", "strategies.search.oracle",
                            "strategies.search.oracle_hands"})
MODEL_MODULES = frozenset({LEARNED_MODULE}) | SEARCH_MODULES
MODEL_KEY = "model"
# The module whose play a base policy must be: its decisions are a tactician vector.
TACTICIAN_MODULE = "strategies.tactician"
BASE_POLICY_KEY = "base_policy"
# A learned player's file saying it plays its model over another base policy than the model was
# fitted against (``strategies.per_profile`` refuses that otherwise).
ANY_BASE_KEY = "any_base"

# Names that mean a strategy only once the rules are known (``strategies.per_profile``).
TUNED = "tuned"
PER_PROFILE: dict[str, str] = {
    TUNED: "the tactician tuned for the rules being played (handfoot tune; one file per "
           "profile, strategies/tuned/<profile>.toml)",
}

# Parameter specs by strategy module (a module without an entry takes no parameters).
PARAM_SPECS: dict[str, tuple[Param, ...]] = {
    "strategies.tactician": TACTICIAN_PARAMS,
    "strategies.search.pimc": SEARCH_PARAMS,
    "strategies.search.oracle": SEARCH_PARAMS,
    "strategies.search.oracle_hands": SEARCH_PARAMS,
    LEARNED_MODULE: LEARNED_PARAMS,
}

# Defaults measured against greedy (README, strategy ladder): leaving natural books one card
# short while the partner is not on the Foot is worth about +500 points a game; holding a
# wild back measured as a loss, so it is off by default (hold_wilds sweeps it).
TACTICIAN_DEFAULTS = {
    "hold_wilds": 0, "min_pile": 1, "open_extra": 0, "books_before_partner": 0,
    "black3_block": 1, "discard_safety": 0, "wild_book_first": 1, "go_out": 0, "grant": 1,
    "keep_pairs": 0,
}
CAUTIOUS = {
    **TACTICIAN_DEFAULTS, "books_before_partner": 0, "keep_pairs": 1, "discard_safety": 1,
    "black3_block": 1,
}

REGISTRY: dict[str, StrategyInfo] = {
    "random": StrategyInfo("random", "strategies.random_play",
                           "uniformly random among legal choices at every decision"),
    "greedy": StrategyInfo("greedy", "strategies.greedy",
                           "picks up and melds whenever it can; wild book first; a baseline"),
    "tactician": StrategyInfo("tactician", "strategies.tactician",
                              "parametric: every tactic a knob (see strategies show tactician)",
                              TACTICIAN_DEFAULTS),
    "cautious": StrategyInfo("cautious", "strategies.tactician",
                             "the tactics advice of the long rules page: keep pairs, hold books "
                             "back until the partner is on the Foot, discard safely, block "
                             "with black threes (holding a wild measured as a loss: off)",
                             CAUTIOUS),
    # The search's default base policy is the strongest heuristic of the rules being played,
    # their tuned tactician (resolved per profile where the rules are known; a rule file that
    # is no profile has none, so there a base policy must be named).
    "pimc": StrategyInfo("pimc", "strategies.search.pimc",
                         "Monte Carlo search: plays each candidate on in imagined deals of the "
                         "unseen cards with its base policy (tuned) and takes the best (see "
                         "strategies show pimc)", SEARCH_DEFAULTS, base_policy=TUNED),
    "oracle": StrategyInfo("oracle", "strategies.search.oracle",
                           "the pimc search seeing every hidden card: a ceiling for "
                           "measurement, never a fair player", SEARCH_DEFAULTS,
                           sees_hidden=True, base_policy=TUNED),
    "oracle-hands": StrategyInfo("oracle-hands", "strategies.search.oracle_hands",
                                 "the pimc search seeing the other hands and every Foot but not "
                                 "the stock's order: a ceiling for what inference could gain, "
                                 "for measurement, never a fair player", SEARCH_DEFAULTS,
                                 sees_hidden=True, base_policy=TUNED),
    "learned": StrategyInfo("learned", LEARNED_MODULE,
                            "a value model fitted on simulated deals (handfoot learn) scores "
                            "the positions each sensible candidate leads to; the base policy "
                            "(tuned)'s choice stays unless another scores better (see "
                            "strategies show learned)", LEARNED_DEFAULTS, base_policy=TUNED),
}


def get(name: str) -> StrategyInfo:
    if name not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise StrategyError(f"unknown strategy '{name}' (known: {known}, or a .toml file)")
    return REGISTRY[name]


def check_param(origin: str, specs: Sequence[Param], key: str, value) -> float:
    """A parameter value checked against its spec; a one-line StrategyError otherwise."""
    index = {p.name: p for p in specs}
    if key not in index:
        known = ", ".join(index) or "none"
        raise StrategyError(f"{origin}: unknown parameter '{key}' (known: {known})")
    p = index[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StrategyError(f"{origin}: parameter '{key}' must be a number (got {value!r})")
    if p.integer and int(value) != value:
        raise StrategyError(f"{origin}: parameter '{key}' must be a whole number")
    if not p.low <= value <= p.high:
        raise StrategyError(f"{origin}: parameter '{key}' = {value} is outside "
                            f"{p.low:g}..{p.high:g}")
    return float(value)


def with_params(base: StrategyInfo, origin: str, changes: dict) -> StrategyInfo:
    """``base`` with some parameters changed (each checked), named ``origin``."""
    if changes and not base.parametric:
        raise StrategyError(f"{origin}: strategy '{base.base}' takes no parameters")
    params = dict(base.params)
    for key, value in changes.items():
        params[key] = check_param(origin, base.param_specs, key, value)
    summary = f"{base.base} with {changes}" if changes else base.summary
    return StrategyInfo(origin, base.module, summary, params, base.sees_hidden,
                        base.base_policy, dict(base.base_params), base.model, base.model_sha256)


def policy_choices() -> str:
    """The strategies a base policy may be, in words (for messages)."""
    family = [name for name, info in REGISTRY.items() if info.module == TACTICIAN_MODULE]
    return f"{', '.join([*family, *PER_PROFILE])}, or a strategy file whose base is one of " \
           f"{', '.join(family)}"


def policy_info(spec: str, origin: str) -> StrategyInfo:
    """The base policy ``spec`` (not a per-profile name): a registered tactician-family
    strategy or a tactician strategy file; a one-line StrategyError for anything else. A
    file's ``base`` is checked before the file is loaded, so a search player's file can never
    lead back to a search player."""
    what = f"{origin}: base_policy '{spec}'"
    if spec in REGISTRY:
        info = REGISTRY[spec]
    elif spec.endswith(".toml") or Path(spec).exists():
        data = read_toml(spec, f"{origin}: base_policy file", StrategyError)
        base = data.get("base")
        if isinstance(base, str) and base in REGISTRY and \
                REGISTRY[base].module != TACTICIAN_MODULE:
            raise StrategyError(f"{what} builds on '{base}', which is not tactician-family "
                                f"(a base policy is one of: {policy_choices()})")
        info = from_mapping(data, spec)
    else:
        raise StrategyError(f"{what} is not a strategy (one of: {policy_choices()})")
    if info.module != TACTICIAN_MODULE:
        hint = " (for greedy, set baseline = 0 and rollout = 0)" if spec == "greedy" else ""
        raise StrategyError(f"{what} is not tactician-family: the search plays its base policy "
                            f"as a tactician vector (one of: {policy_choices()}){hint}")
    return info


def with_base_policy(info: StrategyInfo, spec: str, origin: str) -> StrategyInfo:
    """The search player ``info`` with base policy ``spec``: resolved now, unless it is a
    per-profile name (then when the rules are known, ``strategies.per_profile``)."""
    if info.module not in POLICY_MODULES:
        raise StrategyError(f"{origin}: strategy '{info.base}' takes no {BASE_POLICY_KEY} "
                            "(only the search players do)")
    if not isinstance(spec, str) or not spec:
        raise StrategyError(f"{origin}: {BASE_POLICY_KEY} must be a strategy name or file "
                            f"(got {spec!r})")
    params = {} if spec in PER_PROFILE else dict(policy_info(spec, origin).params)
    return dataclasses.replace(info, name=origin, base_policy=spec, base_params=params)


def base_policy_lines(info: StrategyInfo) -> list[str]:
    """The ``base_policy = ...`` line of a strategy file written for ``info`` (none for a
    strategy without a base policy): a name as it is, a file by its absolute path, since the
    file written may sit in another folder."""
    if info.module not in POLICY_MODULES or not info.base_policy:
        return []
    spec = info.base_policy
    if spec not in REGISTRY and spec not in PER_PROFILE:
        spec = str(Path(spec).resolve())
    return [f"{BASE_POLICY_KEY} = {json.dumps(spec)}"]


def model_lines(info: StrategyInfo) -> list[str]:
    """The ``model = ...`` line of a strategy file written for ``info`` (none when it plays
    the shipped model of the rules, or takes no model): the file by its absolute path."""
    if info.module not in MODEL_MODULES:
        return []
    lines = [f"{ANY_BASE_KEY} = true"] if info.any_base else []
    if not info.model:
        return lines
    return [f"{MODEL_KEY} = {json.dumps(str(Path(info.model).resolve()))}", *lines]


def from_mapping(data: dict, origin: str) -> StrategyInfo:
    data = dict(data)
    base_name = data.pop("base", None)
    if not isinstance(base_name, str):
        raise StrategyError(f"{origin}: needs base = \"NAME\" (a registered strategy)")
    base = get(base_name)
    nested = data.pop("params", {})
    if not isinstance(nested, dict):
        raise StrategyError(f"{origin}: [params] must be a table")
    data.update(nested)
    policy = data.pop(BASE_POLICY_KEY, None)
    model = data.pop(MODEL_KEY, None)
    any_base = data.pop(ANY_BASE_KEY, None)
    info = with_params(base, origin, data)
    if model is not None:
        info = with_model(info, model, origin)
    if any_base is not None:
        info = with_any_base(info, any_base, origin)
    if policy is None:
        return info
    if isinstance(policy, str) and policy not in REGISTRY and policy not in PER_PROFILE:
        # A file named by a relative path is read from the strategy file's folder, so a
        # search player's file and its base policy's file travel together.
        path = Path(policy)
        beside = Path(origin).parent / path
        if not path.is_absolute() and (policy.endswith(".toml") or beside.exists()):
            policy = str(beside)
    return with_base_policy(info, policy, origin)


def with_model(info: StrategyInfo, spec, origin: str) -> StrategyInfo:
    """The learned player ``info`` with its value model read from the file ``spec`` (a path
    relative to the strategy file's folder), checked when it meets the rules."""
    if info.module not in MODEL_MODULES:
        takers = ", ".join(n for n, i in REGISTRY.items() if i.module in MODEL_MODULES)
        raise StrategyError(f"{origin}: strategy '{info.base}' takes no {MODEL_KEY} (only "
                            f"{takers} does)")
    if not isinstance(spec, str) or not spec:
        raise StrategyError(f"{origin}: {MODEL_KEY} must be a model file path (got {spec!r})")
    path = Path(spec)
    if not path.is_absolute():
        path = Path(origin).parent / path
    return dataclasses.replace(info, name=origin, model=str(path.resolve()), model_sha256="")


def with_any_base(info: StrategyInfo, value, origin: str) -> StrategyInfo:
    """The learned player ``info`` allowed (or not) to play its model over another base."""
    if info.module not in MODEL_MODULES or info.module in SEARCH_MODULES:
        raise StrategyError(f"{origin}: strategy '{info.base}' takes no {ANY_BASE_KEY} (only "
                            "learned does)")
    if not isinstance(value, bool):
        raise StrategyError(f"{origin}: {ANY_BASE_KEY} must be true or false (got {value!r})")
    return dataclasses.replace(info, name=origin, any_base=value)


def load(spec: str) -> StrategyInfo:
    """A registered name, or a TOML strategy file."""
    if spec in REGISTRY:
        return REGISTRY[spec]
    path = Path(spec)
    if spec.endswith(".toml") or path.exists():
        return from_mapping(read_toml(spec, "strategy file", StrategyError), spec)
    return get(spec)


def param_vector(info: StrategyInfo, n_params: int = N_PARAM_SLOTS) -> np.ndarray:
    vec = np.zeros(n_params, dtype=np.float64)
    for p in info.param_specs:
        vec[p.index] = info.params.get(p.name, 0.0)
    return vec


def seat_params(infos: Sequence[StrategyInfo], n_params: int = N_PARAM_SLOTS) -> np.ndarray:
    return np.stack([param_vector(info, n_params) for info in infos])


def base_vector(info: StrategyInfo, n_params: int = N_PARAM_SLOTS) -> np.ndarray:
    """A search player's base policy as the tactician vector its kernels read
    (``w.base_params``); zeros for a strategy without a base policy."""
    vec = np.zeros(n_params, dtype=np.float64)
    if info.module in POLICY_MODULES:
        if not info.base_params:
            raise StrategyError(f"strategy '{info.name}': its base policy "
                                f"'{info.base_policy}' is not resolved")
        for p in TACTICIAN_PARAMS:
            vec[p.index] = info.base_params.get(p.name, 0.0)
    return vec


def seat_base_params(infos: Sequence[StrategyInfo], n_params: int = N_PARAM_SLOTS) -> np.ndarray:
    return np.stack([base_vector(info, n_params) for info in infos])
