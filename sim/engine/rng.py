"""A counter-based generator keyed by (root seed, game, deal, stream).

Every deal's randomness depends only on those numbers, never on which worker plays it or in
what order, so results are identical for any number of workers or chunk size (docs/design.md).
Shuffles and strategy decisions use separate streams, so two strategies facing each other on
the same seeds see the same deals (paired comparisons). All arithmetic stays in uint64: numba
promotes a uint64/int64 mix to float64, which would silently break the generator.
"""

from __future__ import annotations

import numpy as np

from sim.engine.jit import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)

STREAM_DEAL = 0
STREAM_STRATEGY = 1
STREAM_WORLD = 2  # a search's imagined worlds (world_key)


@njit(cache=True)
def mix64(z: np.uint64) -> np.uint64:
    """splitmix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def key(seed: np.int64, game: np.int64, deal: np.int64, stream: np.int64) -> np.uint64:
    """Initial generator state for one (seed, game, deal, stream)."""
    s = mix64(np.uint64(seed) + _GOLDEN)
    s = mix64(s ^ (np.uint64(game) * _M2 + _GOLDEN))
    s = mix64(s ^ (np.uint64(deal * 4 + stream) * _M1 + _GOLDEN))
    return s


@njit(cache=True)
def world_key(seed: np.int64, game: np.int64, deal: np.int64, turn: np.int64, step: np.int64,
              world: np.int64) -> np.uint64:
    """Key of one imagined world of a search: the deal, the turn and decision step it is
    imagined at, and its index. The same numbers give the same world, whatever else ran
    before, so every candidate of a decision meets the same worlds (common random numbers)."""
    s = key(seed, game, deal, STREAM_WORLD)
    s = mix64(s ^ (np.uint64(turn) * _M1 + _GOLDEN))
    s = mix64(s ^ (np.uint64(step) * _M2 + _GOLDEN))
    return mix64(s ^ (np.uint64(world) * _M1 + _M2))


@njit(cache=True)
def next_u64(rng: np.ndarray, stream: int) -> np.uint64:
    """splitmix64 step on ``rng[stream]``."""
    rng[stream] = rng[stream] + _GOLDEN
    return mix64(rng[stream])


@njit(cache=True)
def below(rng: np.ndarray, stream: int, n: int) -> int:
    """A uniform integer in [0, n) for n < 2**32 (Lemire's multiply-shift)."""
    x = next_u64(rng, stream) >> _S32
    return int((x * np.uint64(n)) >> _S32)


@njit(cache=True)
def uniform(rng: np.ndarray, stream: int) -> float:
    """A uniform float in [0, 1) with 53 random bits."""
    return float(next_u64(rng, stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def shuffle(rng: np.ndarray, stream: int, arr: np.ndarray, n: int) -> None:
    """Fisher-Yates shuffle of arr[:n] in place."""
    for i in range(n - 1, 0, -1):
        j = below(rng, stream, i + 1)
        tmp = arr[i]
        arr[i] = arr[j]
        arr[j] = tmp
