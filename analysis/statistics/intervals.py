"""Interval estimates and tests used by every summary and report.

Thin wrappers around statsmodels and scipy, so that every report computes a rate, a mean or a
correction the same way and the tests can check each one against the library once.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from statsmodels.stats.proportion import proportion_confint


def wilson_interval(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``successes`` may count ties as halves (R-X7)."""
    if n <= 0:
        raise ValueError("an interval needs at least one observation")
    low, high = proportion_confint(successes, n, alpha=1 - level, method="wilson")
    # At 0 or n successes the bound equals the rate in exact arithmetic but can land one ulp
    # inside it in floating point (250 of 250: 0.9999999999999998); keep the rate inside.
    rate = successes / n
    return min(float(low), rate), max(float(high), rate)


def clustered_wilson(cluster_scores: np.ndarray, games_per_cluster: int,
                     level: float = 0.95, rate: float | None = None) -> tuple[float, float]:
    """Wilson interval for a win rate whose games come in clusters (the seatings of one
    shuffle), each cluster scored by its mean: ``cluster_scores[g]`` is A's share of the
    ``games_per_cluster`` games of shuffle g (ties as fractions).

    The games of one shuffle are not independent: with the same cards dealt, A's results in
    its seatings are strongly (negatively, for two partnerships) correlated, so a Wilson
    interval over all games as if independent has the wrong width (about 1.4 times too wide
    for tactician against greedy, covering 99.5% instead of 95%). The spread of the cluster
    scores gives the design effect; the interval is Wilson's at the effective number of
    games ``n_eff = G p (1 - p) / var(cluster scores)``, which matches the cluster-robust
    normal interval for the mean at large G and keeps Wilson's behaviour near 0 and 1.

    Degenerate cases: no spread between clusters at a rate strictly between 0 and 1 (a
    deterministic strategy paired with itself scores exactly 1/N in every cluster) is exact,
    the interval the point; a rate of exactly 0 or 1, or a single cluster, falls back to
    Wilson over every game. ``rate`` is the mean score when the caller has it exactly (from
    integer counts), so that a point interval is that number to the last bit.
    """
    x = np.asarray(cluster_scores, dtype=np.float64)
    g = len(x)
    if g == 0:
        raise ValueError("an interval needs at least one observation")
    p = float(x.mean()) if rate is None else float(rate)
    var = float(x.var(ddof=1)) if g > 1 and not np.all(x == x[0]) else 0.0
    informative = 0.0 < p < 1.0
    if g > 1 and informative and var == 0.0:
        return p, p
    if g < 2 or not informative:
        return wilson_interval(p * g * games_per_cluster, g * games_per_cluster, level)
    n_eff = g * p * (1 - p) / var
    low, high = proportion_confint(p * n_eff, n_eff, alpha=1 - level, method="wilson")
    return float(low), float(high)


def clustered_mean(values: np.ndarray, clusters: np.ndarray,
                   level: float = 0.95) -> tuple[float, float, float]:
    """Mean and its t-interval with a cluster-robust standard error: observations that share
    a cluster (the branched positions of one game share its deals) are not independent, so
    the spread between cluster sums sets the width, with k - 1 degrees of freedom for k
    clusters. Fewer than two clusters give no interval (nan); no spread gives the point."""
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    mean = float(x.mean())
    _, inverse = np.unique(clusters, return_inverse=True)
    k = int(inverse.max()) + 1 if n else 0
    if k < 2:
        return mean, math.nan, math.nan
    sums = np.bincount(inverse, weights=x - mean, minlength=k)
    se = math.sqrt(k / (k - 1) * float((sums ** 2).sum())) / n
    if se == 0.0:
        return mean, mean, mean
    t = float(stats.t.ppf(0.5 + level / 2, k - 1))
    return mean, mean - t * se, mean + t * se


@dataclass(frozen=True)
class MeanEstimate:
    """A sample mean with its standard error, t-interval and two-sided p-value against 0."""

    n: int
    mean: float
    se: float
    low: float
    high: float
    p_value: float

    def scaled(self, factor: float) -> MeanEstimate:
        """The same estimate in other units (per deal = per game / deals per game)."""
        lo, hi = sorted((self.low * factor, self.high * factor))
        return MeanEstimate(self.n, self.mean * factor, self.se * abs(factor), lo, hi,
                            self.p_value)


def mean_estimate(values: np.ndarray, level: float = 0.95) -> MeanEstimate:
    """Mean, standard error, t-interval and one-sample t-test p-value (H0: mean = 0).

    A sample with no spread (a strategy paired with itself gives d = 0 for every game) has an
    exact answer: the interval is the point and p is 1 when the mean is 0, else 0; scipy
    would return NaN.
    """
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    if n < 2:
        raise ValueError("a mean with an interval needs at least two observations")
    mean = float(x.mean())
    sd = float(x.std(ddof=1))
    se = sd / math.sqrt(n)
    if se == 0.0:
        return MeanEstimate(n, mean, 0.0, mean, mean, 1.0 if mean == 0 else 0.0)
    t = float(stats.t.ppf(0.5 + level / 2, n - 1))
    p = float(stats.ttest_1samp(x, 0.0).pvalue)
    return MeanEstimate(n, mean, se, mean - t * se, mean + t * se, p)


def mean_from_sums(n: int, total: float, total_sq: float,
                   level: float = 0.95) -> MeanEstimate:
    """``mean_estimate`` from a count, a sum and a sum of squares (a lazy scan's aggregates),
    so a column of ten million values never has to be in memory."""
    from scipy import stats

    if n < 2:
        raise ValueError("a mean with an interval needs at least two observations")
    mean = total / n
    var = max((total_sq - n * mean * mean) / (n - 1), 0.0)
    se = math.sqrt(var / n)
    if se == 0.0:
        return MeanEstimate(n, mean, 0.0, mean, mean, 1.0 if mean == 0 else 0.0)
    t = float(stats.t.ppf(0.5 + level / 2, n - 1))
    p = float(2 * stats.t.sf(abs(mean / se), n - 1))
    return MeanEstimate(n, mean, se, mean - t * se, mean + t * se, p)


def holm(p_values: Sequence[float], alpha: float = 0.05) -> list[float]:
    """Holm-adjusted p-values: comparing each to ``alpha`` keeps the chance of any false
    call across the whole family under ``alpha``."""
    from statsmodels.stats.multitest import multipletests

    if len(p_values) == 0:
        return []
    _, adjusted, _, _ = multipletests(np.asarray(p_values, dtype=np.float64), alpha=alpha,
                                      method="holm")
    return [float(p) for p in adjusted]


def hist_quantile_interval(values: np.ndarray, counts: np.ndarray, q: float,
                           level: float = 0.95) -> tuple[float, float, float]:
    """Quantile ``q`` of a histogram (lower order statistic) and its distribution-free
    interval from binomial order statistics, so medians and percentiles carry uncertainty
    too without any model of the distribution."""
    from scipy import stats

    order = np.argsort(values)
    v = np.asarray(values)[order]
    cum = np.cumsum(np.asarray(counts, dtype=np.int64)[order])
    n = int(cum[-1]) if len(cum) else 0
    if n == 0:
        return math.nan, math.nan, math.nan

    def at(rank: int) -> float:  # 0-based order statistic
        rank = min(max(rank, 0), n - 1)
        return float(v[int(np.searchsorted(cum, rank, side="right"))])

    alpha = 1 - level
    lo_rank = int(stats.binom.ppf(alpha / 2, n, q)) - 1
    hi_rank = int(stats.binom.ppf(1 - alpha / 2, n, q))
    return at(math.ceil(q * n) - 1), at(lo_rank), at(hi_rank)
