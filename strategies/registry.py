"""Strategies by name or file: integer ids for the dispatcher and parameter vectors.

A strategy *spec* is a registered name (``greedy``) or a TOML file naming a base strategy and
parameter values::

    base = "tactician"
    hold_wilds = 2
    go_out = 1
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.tomlfile import read_toml
from strategies import dispatch
from strategies.params import PARAM_INDEX, PARAMS

N_PARAM_SLOTS = 16


class StrategyError(ValueError):
    """An unknown strategy, a bad strategy file or a bad seat assignment."""


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    id: int
    summary: str
    params: dict[str, float] = field(default_factory=dict)

    @property
    def parametric(self) -> bool:
        return self.id == dispatch.TACTICIAN


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
    "random": StrategyInfo("random", dispatch.RANDOM,
                           "uniformly random among legal choices at every decision"),
    "greedy": StrategyInfo("greedy", dispatch.GREEDY,
                           "picks up and melds whenever it can; wild book first; a baseline"),
    "tactician": StrategyInfo("tactician", dispatch.TACTICIAN,
                              "parametric: every tactic a knob (see strategies show tactician)",
                              TACTICIAN_DEFAULTS),
    "cautious": StrategyInfo("cautious", dispatch.TACTICIAN,
                             "the tactics advice of the long rules page: keep pairs, hold books "
                             "back until the partner is on the Foot, discard safely, block "
                             "with black threes (holding a wild measured as a loss: off)",
                             CAUTIOUS),
}


def get(name: str) -> StrategyInfo:
    if name not in REGISTRY:
        known = ", ".join(REGISTRY)
        raise StrategyError(f"unknown strategy '{name}' (known: {known}, or a .toml file)")
    return REGISTRY[name]


def _check_param(origin: str, key: str, value) -> float:
    if key not in PARAM_INDEX:
        known = ", ".join(PARAM_INDEX)
        raise StrategyError(f"{origin}: unknown parameter '{key}' (known: {known})")
    p = PARAM_INDEX[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StrategyError(f"{origin}: parameter '{key}' must be a number (got {value!r})")
    if p.integer and int(value) != value:
        raise StrategyError(f"{origin}: parameter '{key}' must be a whole number")
    if not p.low <= value <= p.high:
        raise StrategyError(f"{origin}: parameter '{key}' = {value} is outside "
                            f"{p.low:g}..{p.high:g}")
    return float(value)


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
    if data and not base.parametric:
        raise StrategyError(f"{origin}: strategy '{base_name}' takes no parameters")
    params = dict(base.params)
    for key, value in data.items():
        params[key] = _check_param(origin, key, value)
    return StrategyInfo(origin, base.id, f"{base_name} with {data}" if data else base.summary,
                        params)


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
    for p in PARAMS:
        vec[p.index] = info.params.get(p.name, 0.0)
    return vec


def resolve_seats(seat_strategies: Sequence[str | StrategyInfo], players: int,
                  n_params: int) -> tuple[np.ndarray, np.ndarray]:
    """Integer ids and parameter vectors, one per seat."""
    if len(seat_strategies) != players:
        raise StrategyError(f"{len(seat_strategies)} strategies given for {players} seats")
    infos = [s if isinstance(s, StrategyInfo) else load(s) for s in seat_strategies]
    ids = np.array([info.id for info in infos], dtype=np.int32)
    params = np.stack([param_vector(info, n_params) for info in infos])
    return ids, params
