"""Interval estimates used by every summary and report."""

from __future__ import annotations

from statsmodels.stats.proportion import proportion_confint


def wilson_interval(successes: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a proportion; ``successes`` may count ties as halves (R-X7)."""
    if n <= 0:
        raise ValueError("an interval needs at least one observation")
    low, high = proportion_confint(successes, n, alpha=1 - level, method="wilson")
    return float(low), float(high)
