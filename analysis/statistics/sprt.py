"""Sequential probability ratio test (SPRT) for strategy comparisons on paired game results.

A fixed-size comparison spends as many games on a 20-point edge as on a half-point one. The
SPRT, as chess-engine testing (fishtest) runs it, looks at the evidence after every pair and
stops as soon as it is strong enough either way, with error rates fixed in advance: it accepts
H1 when H0 is true with probability about ``alpha``, and H0 when H1 is true about ``beta``.

Observations are *pairs*: the same shuffled deals played twice with the seats swapped (or, for
N-seat individual play, one rotation of N games). A pair's score is A's mean game score over
its games (1 win, 0.5 tie, 0 loss; individually 1 for a win, 1/k for a k-way tie for first,
0 otherwise), so it lies in [0, 1]. Scoring whole pairs keeps the correlation between the two
plays of a deal inside one observation: per-game scores would count the luck of the cards
twice and give wrong error rates.

The hypotheses are about A's expected score per game, in points of win rate over ``even``
(0.5 for two partnerships, 1/T for T partnerships, 1/N for N-seat individual play):
H0: mu = even + low/100 against H1: mu = even + high/100.

The log-likelihood ratio is the generalized one of Michel Van den Bergh (used by fishtest for
pentanomial results): with no model of the pair-score distribution, take for each hypothesis
the distribution of largest likelihood on the observed pair scores whose mean is that
hypothesis' mu, and compare the two. It needs no variance estimate, so it is right from the
first pair, where the normal approximation (kept as ``method="normal"`` and as a numerical
fallback) is badly off when the pairs so far have (almost) no spread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

EPSILON = 1e-3
"""Pseudo-count given to a pair score of 0 and of 1 while none has been seen (fishtest gives
1e-3 to each empty pentanomial cell). Both hypotheses' means then lie strictly inside the
support, so the likelihood maximum always exists and a start with no spread (every pair the
same) gives a finite LLR instead of a division by zero."""

_ROUND = 9  # pair scores are rounded to this many decimals to group equal scores
_CHUNK = 4096  # pairs whose running LLR is computed at once inside one update

Method = Literal["mle", "normal"]


@dataclass(frozen=True)
class SprtSpec:
    """Hypotheses and error rates. ``low``/``high`` are points of win rate over ``even``."""

    low: float
    high: float
    even: float = 0.5
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name in ("low", "high", "even", "alpha", "beta"):
            if not math.isfinite(getattr(self, name)):
                raise ValueError(f"SPRT {name} must be a finite number, got {getattr(self, name)}")
        if not 0 < self.even < 1:
            raise ValueError(f"SPRT even score must lie in (0, 1), got {self.even}")
        if self.low >= self.high:
            raise ValueError(f"SPRT low ({self.low}) must be below high ({self.high})")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise ValueError(f"SPRT {name} must lie in (0, 0.5), got {getattr(self, name)}")
        for name, mu in (("H0 (low)", self.mu0), ("H1 (high)", self.mu1)):
            if not 0 < mu < 1:
                raise ValueError(f"SPRT {name} puts the expected score at {mu:.4g}, "
                                 f"outside (0, 1)")

    @property
    def mu0(self) -> float:
        """A's expected score per game under H0."""
        return self.even + self.low / 100

    @property
    def mu1(self) -> float:
        """A's expected score per game under H1."""
        return self.even + self.high / 100

    @property
    def bounds(self) -> tuple[float, float]:
        """Wald's stopping bounds on the LLR: accept H0 at or below the first, H1 at or above
        the second."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))


def pair_scores(game_scores: ArrayLike, games_per_pair: int) -> np.ndarray:
    """A's score per pair from per-game scores listed pair by pair (2 games per pair for two
    partnerships with seats swapped, N for one rotation of N-seat play)."""
    x = np.asarray(game_scores, dtype=np.float64).ravel()
    if games_per_pair < 1 or len(x) % games_per_pair:
        raise ValueError(f"{len(x)} game scores do not split into pairs of {games_per_pair}")
    return x.reshape(-1, games_per_pair).mean(axis=1)


def _regularized(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Total and empirical distribution after giving 0 and 1 their pseudo-counts.

    ``values`` must be ascending, start at 0 and end at 1."""
    c = np.array(counts, dtype=np.float64)
    c[..., 0] = np.maximum(c[..., 0], EPSILON)
    c[..., -1] = np.maximum(c[..., -1], EPSILON)
    total = c.sum(axis=-1)
    return total, c / total[..., None]


def _tilt(values: np.ndarray, pdf: np.ndarray, mu: float) -> np.ndarray:
    """The factors 1 + lam*(a - mu) of the most likely distribution with mean ``mu``.

    That distribution is q_i = p_i / (1 + lam*(a_i - mu)), with lam the root of
    f(lam) = sum_i p_i (a_i - mu) / (1 + lam (a_i - mu)) = 0 (Van den Bergh, "A note on the
    maximum likelihood estimate of a multinomial distribution with given mean"). f falls
    strictly from +inf to -inf on the interval where every factor is positive,
    (-1/(1 - mu), 1/mu) as the support runs from 0 to 1, so the root is unique. Newton steps
    from lam = 0, replaced by bisection of the shrinking bracket whenever a step would leave
    it, find it in a handful of iterations (vectorised over histograms)."""
    b = values - mu
    shape = pdf.shape[:-1]
    p = pdf.reshape(-1, len(values))
    lam = np.zeros(len(p))
    lo = np.full(len(p), -1.0 / (1.0 - mu))
    hi = np.full(len(p), 1.0 / mu)
    todo = np.arange(len(p))  # histograms still iterating
    for _ in range(200):
        if not len(todo):
            break
        x, pt = lam[todo], p[todo]
        d = 1.0 + x[:, None] * b
        f = (pt * b / d).sum(axis=-1)
        slope = -(pt * (b / d) ** 2).sum(axis=-1)  # < 0: mass at 0 and at 1, 0 < mu < 1
        above = f > 0  # the root lies above x
        lo[todo] = np.where(above, x, lo[todo])
        hi[todo] = np.where(above, hi[todo], x)
        step = x - f / slope
        inside = (step > lo[todo]) & (step < hi[todo])
        step = np.where(inside, step, 0.5 * (lo[todo] + hi[todo]))
        lam[todo] = step
        todo = todo[np.abs(step - x) > 1e-12 * (1.0 + np.abs(x))]
    return 1.0 + lam.reshape(shape)[..., None] * b


def _support(values: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Add the scores 0 and 1 (with count 0) to a histogram that lacks them."""
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(counts, dtype=np.float64)
    if v.ndim != 1 or c.shape[-1:] != v.shape:
        raise ValueError("counts must have one column per pair-score value")
    if len(v) and (np.any(np.diff(v) <= 0) or v[0] < 0 or v[-1] > 1):
        raise ValueError("pair-score values must be ascending and inside [0, 1]")
    if not len(v) or v[0] > 0:
        v = np.concatenate(([0.0], v))
        c = np.concatenate((np.zeros(c.shape[:-1] + (1,)), c), axis=-1)
    if v[-1] < 1:
        v = np.concatenate((v, [1.0]))
        c = np.concatenate((c, np.zeros(c.shape[:-1] + (1,))), axis=-1)
    return v, c


def llr_mle(values: ArrayLike, counts: ArrayLike, mu0: float, mu1: float) -> np.ndarray:
    """Generalized log-likelihood ratio of H1 (mean ``mu1``) to H0 (mean ``mu0``) for a
    histogram of pair scores: ``counts[..., i]`` pairs scored ``values[i]``.

    Vectorised over leading axes of ``counts`` (one histogram per row: runs, or the running
    totals of one run). A histogram with no pairs has LLR 0."""
    v, c = _support(np.asarray(values), np.asarray(counts))
    n = c.sum(axis=-1)
    total, pdf = _regularized(v, c)
    f0, f1 = _tilt(v, pdf, mu0), _tilt(v, pdf, mu1)
    out = total * (pdf * (np.log(f0) - np.log(f1))).sum(axis=-1)
    return np.where(n > 0, out, 0.0)


def llr_normal(values: ArrayLike, counts: ArrayLike, mu0: float, mu1: float) -> np.ndarray:
    """Normal approximation to the same ratio: (mu1 - mu0)(2 xbar - mu0 - mu1) n / (2 var) on
    the (regularized) pair scores. Close to ``llr_mle`` once there are a few hundred pairs
    with spread; with few pairs and little spread the tiny variance inflates it."""
    v, c = _support(np.asarray(values), np.asarray(counts))
    n = c.sum(axis=-1)
    total, pdf = _regularized(v, c)
    mean = (pdf * v).sum(axis=-1)
    var = (pdf * (v - mean[..., None]) ** 2).sum(axis=-1)  # > 0: mass at both 0 and 1
    out = (mu1 - mu0) * (2 * mean - mu0 - mu1) * total / (2 * var)
    return np.where(n > 0, out, 0.0)


def llr(values: ArrayLike, counts: ArrayLike, mu0: float, mu1: float,
        method: Method = "mle") -> np.ndarray:
    """``llr_mle`` (or ``llr_normal`` on request); the normal value stands in wherever the
    likelihood maximisation fails to give a finite number."""
    if method == "normal":
        return llr_normal(values, counts, mu0, mu1)
    if method != "mle":
        raise ValueError(f"SPRT method must be 'mle' or 'normal', got {method!r}")
    with np.errstate(all="ignore"):
        out = llr_mle(values, counts, mu0, mu1)
    bad = ~np.isfinite(out)
    if np.any(bad):
        out = np.where(bad, llr_normal(values, counts, mu0, mu1), out)
    return out


class Sprt:
    """A running SPRT: feed pair scores with ``update``; ``decision`` becomes "H1" (A is at
    least ``high`` points better than even), "H0" (at most ``low``) or stays None.

    The LLR is checked after every pair, also inside one ``update`` call, so the result does
    not depend on how the pairs are batched. The first crossing decides and the decision then
    stays; pairs fed afterwards still count in ``llr`` and ``pairs`` (``decided_at`` keeps the
    pair count at the crossing)."""

    def __init__(self, spec: SprtSpec, method: Method = "mle") -> None:
        if method not in ("mle", "normal"):
            raise ValueError(f"SPRT method must be 'mle' or 'normal', got {method!r}")
        self.spec = spec
        self.method: Method = method
        self._values = np.array([0.0, 1.0])
        self._counts = np.zeros(2)
        self._llr = 0.0
        self._decision: str | None = None
        self._decided_at: int | None = None

    @property
    def bounds(self) -> tuple[float, float]:
        return self.spec.bounds

    @property
    def llr(self) -> float:
        """The log-likelihood ratio over every pair fed so far."""
        return self._llr

    @property
    def pairs(self) -> int:
        return int(round(self._counts.sum()))

    @property
    def decision(self) -> str | None:
        return self._decision

    @property
    def decided_at(self) -> int | None:
        return self._decided_at

    @property
    def mean_score(self) -> float:
        """A's observed mean score per game (NaN before the first pair)."""
        n = self._counts.sum()
        return float(self._counts @ self._values / n) if n else math.nan

    def update(self, pair_scores: ArrayLike) -> str | None:
        """Record pairs (each A's mean game score over one pair, in [0, 1]); return the
        decision so far."""
        x = np.asarray(pair_scores, dtype=np.float64).ravel()
        if not len(x):
            return self._decision
        if not np.all(np.isfinite(x)) or x.min() < -1e-9 or x.max() > 1 + 1e-9:
            raise ValueError("pair scores must be numbers in [0, 1] (A's mean score per game)")
        x = np.round(np.clip(x, 0.0, 1.0), _ROUND)
        values = np.union1d(self._values, x)
        counts = np.zeros(len(values))
        counts[np.searchsorted(values, self._values)] = self._counts
        self._values = values
        index = np.searchsorted(values, x)
        mu0, mu1 = self.spec.mu0, self.spec.mu1
        last = None
        if self._decision is None:
            lower, upper = self.bounds
            for start in range(0, len(x), _CHUNK):
                part = index[start:start + _CHUNK]
                running = np.zeros((len(part), len(values)))
                running[np.arange(len(part)), part] = 1.0
                running = counts + np.cumsum(running, axis=0)
                path = llr(values, running, mu0, mu1, self.method)
                crossed = np.flatnonzero((path <= lower) | (path >= upper))
                counts = running[-1]
                last = float(path[-1])
                if len(crossed):
                    first = int(crossed[0])
                    self._decision = "H0" if path[first] <= lower else "H1"
                    self._decided_at = int(round(running[first].sum()))
                    rest = index[start + len(part):]
                    if len(rest):
                        counts = counts + np.bincount(rest, minlength=len(values))
                        last = None
                    break
        else:
            counts += np.bincount(index, minlength=len(values))
        self._counts = counts
        self._llr = last if last is not None else float(llr(values, counts, mu0, mu1,
                                                              self.method))
        return self._decision

    def state_line(self) -> str:
        """One line of progress, e.g. "LLR 1.23 [-2.94, 2.94] after 1,200 pairs"."""
        lower, upper = self.bounds
        line = f"LLR {self._llr:.2f} [{lower:.2f}, {upper:.2f}] after {self.pairs:,} pairs"
        if self._decision is not None:
            line += f": {self._decision} accepted at {self._decided_at:,}"
        return line
