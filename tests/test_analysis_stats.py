"""Statistics checked against known values: Wilson (scipy), t-intervals and the one-sample
t-test (scipy), Holm (statsmodels and a worked example), paired differences on a constructed
table, and order-statistic quantiles (numpy)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

from analysis.statistics.intervals import (
    clustered_wilson,
    hist_quantile_interval,
    holm,
    mean_estimate,
    mean_from_sums,
    wilson_interval,
)
from analysis.statistics.paired import PairingError, differences, paired_result, rotated


@pytest.mark.parametrize("k, n", [(0, 10), (3, 10), (81, 263), (500, 1000), (999, 1000),
                                  (10, 10)])
def test_wilson_matches_scipy(k, n):
    ref = stats.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson_interval(k, n)
    assert low == pytest.approx(ref.low, abs=1e-12)
    assert high == pytest.approx(ref.high, abs=1e-12)


def test_wilson_known_value():
    # 81 of 263 (a textbook example): Wilson 95% interval 0.2553 to 0.3662.
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)


def test_wilson_always_contains_the_rate_at_the_edges():
    """All wins or none: the bound touches the rate and must not fall one ulp inside it (a
    figure's error bar would go negative: compare greedy random crashed at 250 of 250)."""
    inside = [n for n in range(2, 2000)
              if wilson_interval(n, n)[1] < 1.0 or wilson_interval(0, n)[0] > 0.0]
    assert inside == []


def test_wilson_counts_half_wins():
    # Ties count half (R-X7): 10.5 wins of 20 is a valid proportion.
    low, high = wilson_interval(10.5, 20)
    assert low < 10.5 / 20 < high


def test_mean_estimate_matches_scipy():
    x = np.array([3.0, -1.0, 4.0, 1.0, -5.0, 9.0, 2.0, 6.0])
    est = mean_estimate(x)
    se = x.std(ddof=1) / math.sqrt(len(x))
    low, high = stats.t.interval(0.95, len(x) - 1, loc=x.mean(), scale=se)
    assert est.mean == pytest.approx(x.mean())
    assert est.se == pytest.approx(se)
    assert (est.low, est.high) == (pytest.approx(low), pytest.approx(high))
    assert est.p_value == pytest.approx(stats.ttest_1samp(x, 0.0).pvalue)
    same = mean_from_sums(len(x), x.sum(), (x * x).sum())
    assert (same.mean, same.se, same.low, same.high, same.p_value) == pytest.approx(
        (est.mean, est.se, est.low, est.high, est.p_value))


def test_mean_without_spread_is_exact():
    est = mean_estimate(np.zeros(50))
    assert (est.mean, est.se, est.low, est.high, est.p_value) == (0, 0, 0, 0, 1.0)


def test_holm_matches_statsmodels_and_worked_example():
    p = [0.01, 0.04, 0.03, 0.005]
    # By hand: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04,
    # then running maximum: 0.02, 0.03, 0.06, 0.06.
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    rng = np.random.default_rng(3)
    many = rng.uniform(0, 0.2, size=12).tolist()
    assert holm(many) == pytest.approx(list(multipletests(many, method="holm")[1]))
    assert holm([]) == []


def _table(rows):
    return pl.DataFrame(rows, schema=["game", "total_0", "total_1"], orient="row")


def test_paired_differences_on_a_constructed_table():
    # Four games, each played with A as partnership 0 (first) and as partnership 1 (second).
    first = _table([(0, 900, 500), (1, 300, 700), (2, 600, 600), (3, 1000, 200)])
    second = _table([(3, 400, 600), (1, 800, 100), (0, 450, 650), (2, 500, 900)])
    # A - B: first 400, -400, 0, 800; second (A is partnership 1) 200, -700, 400, 200.
    d = differences(first, second)
    assert d["game"].to_list() == [0, 1, 2, 3]
    assert d["x1"].to_list() == [400, -400, 0, 800]
    assert d["x2"].to_list() == [200, -700, 400, 200]
    assert d["d"].to_list() == [300.0, -550.0, 200.0, 500.0]
    r = paired_result(d, deals_per_game=4)
    values = np.array([300.0, -550.0, 200.0, 500.0])
    se = values.std(ddof=1) / 2
    assert r.games == 4
    assert r.per_game.mean == pytest.approx(112.5)
    assert r.per_game.se == pytest.approx(se)
    t = stats.t.ppf(0.975, 3)
    assert (r.per_game.low, r.per_game.high) == (pytest.approx(112.5 - t * se),
                                                 pytest.approx(112.5 + t * se))
    assert r.p_value == pytest.approx(stats.ttest_1samp(values, 0).pvalue)
    assert r.per_deal.mean == pytest.approx(112.5 / 4)
    assert r.per_deal.se == pytest.approx(se / 4)
    # Wins of A over 8 games: first W L T W, second W L W W -> 5 wins, 1 tie, 2 losses.
    assert (r.win_credit, r.ties, r.win_rate) == (5.5, 1, 5.5 / 8)
    # The interval is clustered by shuffle: per-shuffle shares 1, 0, 0.75, 1 give the
    # effective number of games n_eff = G p (1 - p) / var(shares), and Wilson's interval at it.
    shares = np.array([1.0, 0.0, 0.75, 1.0])
    p = shares.mean()
    n_eff = 4 * p * (1 - p) / shares.var(ddof=1)
    low, high = proportion_confint(p * n_eff, n_eff, alpha=0.05, method="wilson")
    assert (r.win_low, r.win_high) == (pytest.approx(low), pytest.approx(high))
    assert r.teams == 2 and r.even == 0.5 and r.rank.mean == pytest.approx(2 - 5.5 / 8)


def test_three_seatings_on_a_constructed_table():
    # Two shuffles, each played with A as partnership 0, 1 and 2 (individual play, 3 seats).
    seat0 = pl.DataFrame({"game": [0, 1], "total_0": [900, 100], "total_1": [300, 500],
                          "total_2": [600, 500]})
    seat1 = pl.DataFrame({"game": [0, 1], "total_0": [300, 400], "total_1": [700, 400],
                          "total_2": [500, 200]})
    seat2 = pl.DataFrame({"game": [1, 0], "total_0": [300, 200], "total_1": [300, 800],
                          "total_2": [300, 800]})
    d = rotated([seat0, seat1, seat2])
    # A's margin over the mean of the other two, per seating:
    # game 0: 900 - 450 = 450; 700 - 400 = 300; 800 - 500 = 300 -> mean 350
    # game 1: 100 - 500 = -400; 400 - 300 = 100; 300 - 300 = 0 -> mean -100
    assert d["x1"].to_list() == [450, -400] and d["d"].to_list() == [350, -100]
    # Win credit: game 0 W, W, tie of two (1/2); game 1 L, tie of two (1/2), tie of three (1/3)
    assert d["s"].to_list() == pytest.approx([(1 + 1 + 0.5) / 3, (0 + 0.5 + 1 / 3) / 3])
    # Rank (ties share the mean rank): game 0: 1, 1, 1.5; game 1: 3, 1.5, 2.
    assert d["rank"].to_list() == pytest.approx([3.5 / 3, 6.5 / 3])
    r = paired_result(d, deals_per_game=4)
    assert (r.teams, r.games, r.games_played) == (3, 2, 6)
    assert r.even == pytest.approx(1 / 3) and r.row()["rank_even"] == 2
    assert r.win_rate == pytest.approx((2.5 + 5 / 6) / 6)
    assert r.ties == 3
    assert r.per_game.mean == pytest.approx(125.0)


def test_identical_seatings_are_exactly_even():
    # A strategy that plays exactly like B: every seating plays the same game, so A's
    # margin is 0, its share 1/T and its rank (T + 1) / 2 exactly, with no rounding noise.
    same = pl.DataFrame({"game": [0, 1, 2], "total_0": [1001, 7, 500],
                         "total_1": [333, 9, 500], "total_2": [2, 5, 499],
                         "total_3": [1, 1, 1]})
    d = rotated([same] * 4)
    assert d["d"].to_list() == [0, 0, 0]
    assert d["s"].to_list() == [0.25, 0.25, 0.25]
    assert d["rank"].to_list() == [2.5, 2.5, 2.5]
    r = paired_result(d, deals_per_game=4)
    assert r.p_value == 1.0 and (r.win_low, r.win_high) == (0.25, 0.25)


def test_clustered_wilson_degenerate_cases():
    assert clustered_wilson(np.full(10, 0.5), 2) == (0.5, 0.5)  # no spread: exact
    assert clustered_wilson(np.ones(10), 2) == wilson_interval(20, 20)  # all won
    assert clustered_wilson(np.array([0.5]), 2) == wilson_interval(1, 2)  # one shuffle


def test_clustered_wilson_covers_correlated_pairs():
    """Simulated pairs with a known win rate of 0.55 and strongly negatively correlated
    halves (the card luck of a shuffle favours the same seat both times): the clustered
    interval covers the truth at the nominal 95%, the naive Wilson over all games far more
    often. 2,000 simulated comparisons of 100 pairs: the coverage's standard error is 0.5
    points, so the 93.5%-96.5% band is three standard errors wide either side."""
    rng = np.random.default_rng(12)
    trials, pairs, true = 2000, 100, 0.55
    clustered = naive = 0
    for _ in range(trials):
        seat0_wins = rng.random(pairs) < 0.7  # the shuffle favours partnership 0
        a_first = np.where(seat0_wins, rng.random(pairs) < 0.85, rng.random(pairs) < 0.15)
        a_second = np.where(seat0_wins, rng.random(pairs) < 0.25, rng.random(pairs) < 0.95)
        shares = (a_first.astype(float) + a_second) / 2
        low, high = clustered_wilson(shares, 2)
        clustered += low <= true <= high
        nl, nh = wilson_interval(shares.sum() * 2, 2 * pairs)
        naive += nl <= true <= nh
    # true rate: 0.7 (0.85 + 0.25) / 2 + 0.3 (0.15 + 0.95) / 2 = 0.385 + 0.165 = 0.55
    assert 0.935 <= clustered / trials <= 0.965, clustered / trials
    assert naive / trials > 0.98


def test_pairing_needs_the_same_games():
    with pytest.raises(PairingError):
        differences(_table([(0, 1, 2), (1, 3, 4)]), _table([(0, 1, 2), (5, 3, 4)]))


def test_histogram_quantiles_match_numpy_and_carry_intervals():
    rng = np.random.default_rng(7)
    sample = rng.integers(20, 90, size=5001)
    values, counts = np.unique(sample, return_counts=True)
    for q in (0.05, 0.5, 0.95):
        point, low, high = hist_quantile_interval(values, counts, q)
        assert point == np.quantile(sample, q, method="inverted_cdf")
        assert low <= point <= high
