"""Names of strategies, their integer ids in the dispatcher and their default parameters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from strategies import dispatch


class StrategyError(ValueError):
    """An unknown strategy name or a bad seat assignment."""


@dataclass(frozen=True)
class StrategyInfo:
    name: str
    id: int
    summary: str


REGISTRY: dict[str, StrategyInfo] = {
    "random": StrategyInfo(
        "random", dispatch.RANDOM, "uniformly random among legal choices at every decision"
    ),
    "greedy": StrategyInfo(
        "greedy", dispatch.GREEDY, "picks up and melds whenever it can; wild book first; a baseline"
    ),
}


def get(name: str) -> StrategyInfo:
    if name not in REGISTRY:
        known = ", ".join(sorted(REGISTRY))
        raise StrategyError(f"unknown strategy '{name}' (known: {known})")
    return REGISTRY[name]


def resolve_seats(
    seat_strategies: Sequence[str], players: int, n_params: int
) -> tuple[np.ndarray, np.ndarray]:
    """Integer ids and parameter vectors, one per seat."""
    if len(seat_strategies) != players:
        raise StrategyError(f"{len(seat_strategies)} strategies given for {players} seats")
    ids = np.array([get(name).id for name in seat_strategies], dtype=np.int32)
    params = np.zeros((players, n_params), dtype=np.float64)
    return ids, params
