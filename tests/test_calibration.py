"""Calibration on real games (issue 12, done-when 2 and 3): the intervals and p-values that
``handfoot compare`` prints mean what they say, and the SPRT stops early on a large edge.

Games are played in-process with ``sim.play.api.play`` (a game is identified by its seed and
index, so disjoint index ranges of one seed are independent comparisons) and every comparison
goes through the functions ``compare`` reads its runs with:
``analysis.statistics.frames.games_of`` (the per-game table ``game_table`` reads from a run
folder), ``analysis.statistics.paired.rotated`` (every seating of a shuffle in one row) and
``analysis.statistics.paired.paired_result`` (clustered Wilson interval of the win rate,
t-intervals of the margin and the mean rank, the paired t-test).
Nothing here computes an interval or a p-value of its own.

Sizes: ``make conformance`` (HANDFOOT_LONG_CHECKS=1) plays 200 small comparisons per check;
``make test`` plays 100 smaller ones (tests.conftest.scaled). Every tolerance is derived from
the number of comparisons K and stated in the test; a correct implementation fails each
bound with probability at most 0.1% (a fixed seed then decides it once and for all).
"""

from __future__ import annotations

import json
import math

import numpy as np
import polars as pl
import pytest
from scipy import stats

from analysis.statistics.frames import games_of
from analysis.statistics.paired import PairedResult, paired_result, rotated
from sim.core.profiles import explained_rules_from_mapping
from sim.core.records import flatten
from sim.core.rules import Rules
from sim.play.api import play, seats_for_teams
from strategies.registry import StrategyInfo, load, with_params
from tests import own_stream
from tests.conftest import scaled
from tests.runhelpers import cli

STANDARD = Rules()
THREE = explained_rules_from_mapping({"players": 3, "partnerships": 3}, "three seats")[0]
SHAPES = {"2 partnerships": STANDARD, "3-seat individual": THREE}

# Pairs with a known edge, against greedy. Standard: the tactician at its defaults (the large
# run of the full size: 55.2% of games, even 50%, +555 points a game); its results in the two
# seatings of a shuffle are strongly correlated (the same cards favour the same partnership),
# so a Wilson interval that ignored the clustering by shuffle would be 1.45 times too wide.
# With 3 seats the tactician's defaults play exactly as greedy does (no partner to wait for),
# so A waits for 100 points over the opening minimum: 40.5% (even 33.3%), +643, mean rank
# 1.86; unclustered, the interval would be 1.2 times too wide.
GREEDY = load("greedy")
EDGES = {"2 partnerships": (load("tactician"), GREEDY),
         "3-seat individual": (with_params(load("tactician"), "tactician open_extra=100",
                                           {"open_extra": 100}), GREEDY)}

COMPARISONS = scaled(200, 100)  # K small comparisons per check
SHUFFLES = scaled(100, 50)  # shuffles per small comparison (each played in every seating)
TRUTH_SHUFFLES = scaled(20_000, 2_000)  # the large run: 200 (40) times a small comparison
TRUTH_SEED, SMALL_SEED = 1201, 1202  # different seeds: the large run shares no shuffle
LEVEL = 0.95
FAIL_Q = 0.001  # each bound fails a correct implementation with probability <= 0.1%


def paired_games(rules: Rules, a: StrategyInfo, b: StrategyInfo, seed: int,
                 shuffles: int) -> pl.DataFrame:
    """Games 0 .. shuffles - 1 of ``seed`` played once per seating of A (A in partnership, or
    seat, r and B in every other one), joined into one row per shuffle as ``compare`` does."""
    teams = rules.partnerships
    tables = []
    for r in range(teams):
        seats = seats_for_teams([a if t == r else b for t in range(teams)], rules.players)
        records = play(rules, seats, seed, 0, shuffles)
        tables.append(games_of(pl.DataFrame(flatten(records)), teams))
    return rotated(tables)


def comparisons(diffs: pl.DataFrame, k: int, shuffles: int, rules: Rules) -> list[PairedResult]:
    """``k`` comparisons of ``shuffles`` shuffles each, on disjoint ranges of game indices:
    what ``compare --games SHUFFLES`` reports for each range."""
    return [paired_result(diffs.slice(i * shuffles, shuffles), rules.deals_per_game)
            for i in range(k)]


def expected_coverage(level: float, shuffles: int, truth_shuffles: int) -> float:
    """Coverage of the large run's estimate (not the unknown true value) by a correct
    ``level`` interval of ``shuffles`` shuffles: the estimate is off by its own error, of
    variance ``shuffles / truth_shuffles`` times a small comparison's, independent of it
    (disjoint shuffles), so |small - large| / se_small is normal with standard deviation
    sqrt(1 + shuffles / truth_shuffles)."""
    z = stats.norm.ppf(0.5 + level / 2)
    return float(2 * stats.norm.cdf(z / math.sqrt(1 + shuffles / truth_shuffles)) - 1)


def check_calibrated(name: str, estimates, lows, highs, ses, truth: float, shuffles: int,
                     truth_shuffles: int) -> dict:
    """Two checks of K intervals against the large run's value, each failing a correct
    implementation with probability at most 2 x 0.1%:

    - coverage: the number of intervals containing the value lies between the 0.1% and 99.9%
      quantiles of Binomial(K, p0), p0 = ``expected_coverage`` (about 0.948-0.949 here);
    - width: the mean squared error of the estimates over the mean squared standard error
      the intervals claim is within the 0.1% and 99.9% quantiles of chi2(K) / K, scaled by
      1 + shuffles / truth_shuffles (the large run's own error). Coverage alone hardly sees
      intervals that are too wide (at K = 200 it needs 199 of 200 covered to fail); this does
      (intervals 1.4 times too wide give a ratio of about 0.5).
    """
    est, lo, hi, se = (np.asarray(v, dtype=np.float64) for v in (estimates, lows, highs, ses))
    k = len(est)
    p0 = expected_coverage(LEVEL, shuffles, truth_shuffles)
    covered = int(np.sum((lo <= truth) & (truth <= hi)))
    c_low, c_high = stats.binom.ppf(FAIL_Q, k, p0), stats.binom.isf(FAIL_Q, k, p0)
    inflation = 1 + shuffles / truth_shuffles
    ratio = float(np.mean((est - truth) ** 2) / np.mean(se ** 2))
    r_low, r_high = (stats.chi2.ppf(q, k) / k * inflation for q in (FAIL_Q, 1 - FAIL_Q))
    figures = {"name": name, "covered": covered, "of": k, "expected": round(p0 * k, 1),
               "bounds": (int(c_low), int(c_high)), "ratio": round(ratio, 3),
               "ratio_bounds": (round(float(r_low), 3), round(float(r_high), 3)),
               "truth": truth}
    print(figures)  # shown with pytest -s
    assert c_low <= covered <= c_high, figures
    assert r_low <= ratio <= r_high, figures
    return figures


@pytest.mark.conformance
@pytest.mark.parametrize("shape", list(SHAPES))
def test_intervals_cover_a_known_edge_at_their_level(shape):
    """Coverage on real games: a pair with a known edge (``EDGES``), the edge measured by one
    large paired run (TRUTH_SHUFFLES shuffles in every seating, seed 1201); then
    K = COMPARISONS small paired comparisons of SHUFFLES shuffles each (seed 1202, disjoint
    game ranges). Each small comparison's 95% intervals (A's win rate, clustered
    Wilson; A's margin per game, t; with 3 seats A's mean rank, t) must cover the large run's
    value at a rate consistent with 95% after allowing for the large run's own error, and be
    as wide as the spread of the small estimates says (``check_calibrated``: at K = 200,
    n = 100, M = 20,000 the coverage bounds are 179..198 of 200; at K = 100, n = 50,
    M = 2,000 they are 87..100 of 100). Fewer shuffles per comparison would test the
    interval where it is known to be a little short: at 30 shuffles the clustered Wilson
    interval of tactician against greedy covered 92.8% (600 comparisons), at 50 94.2%, at
    100 95.0%.

    Measured with these seeds, covered of 200 (full size) and of 100 (quick), with the width
    ratio: two partnerships, win rate 190 (1.00) and 94 (0.85), margin 189 (1.16) and 91
    (1.26); 3 seats, win rate 187 (0.99) and 91 (1.20), margin 183 (1.08) and 94 (1.15), mean
    rank 189 (0.98) and 97 (1.23). Intervals shrunk by 0.7 fail it at either size; a Wilson
    interval that ignores the clustering by shuffle fails it for two partnerships at either
    size (ratio 0.41) and for 3 seats at full size (0.65).
    """
    rules, (a, b) = SHAPES[shape], EDGES[shape]
    truth = paired_result(paired_games(rules, a, b, TRUTH_SEED, TRUTH_SHUFFLES),
                          rules.deals_per_game)
    assert truth.win_rate > truth.even + 0.04  # a real edge, not an even pair
    small = comparisons(paired_games(rules, a, b, SMALL_SEED,
                                     COMPARISONS * SHUFFLES), COMPARISONS, SHUFFLES, rules)
    z = stats.norm.ppf(0.5 + LEVEL / 2)
    checks = [("win rate", [r.win_rate for r in small], [r.win_low for r in small],
               [r.win_high for r in small],
               [(r.win_high - r.win_low) / (2 * z) for r in small], truth.win_rate),
              ("margin per game", [r.per_game.mean for r in small],
               [r.per_game.low for r in small], [r.per_game.high for r in small],
               [r.per_game.se for r in small], truth.per_game.mean)]
    if rules.partnerships > 2:
        checks.append(("mean rank", [r.rank.mean for r in small], [r.rank.low for r in small],
                       [r.rank.high for r in small], [r.rank.se for r in small],
                       truth.rank.mean))
    for name, est, lo, hi, se, value in checks:
        check_calibrated(name, est, lo, hi, se, value, SHUFFLES, TRUTH_SHUFFLES)


P_COMPARISONS = scaled(200, 100)
P_SHUFFLES = scaled(50, 20)
P_SEED = 1203
KS_ALPHA = 0.001


@pytest.mark.conformance
def test_p_values_of_a_strategy_against_its_own_copy_are_uniform():
    """``random`` against a copy of itself that draws its choices from its own stream
    (tests/own_stream.py; two plain ``random`` seats share one stream, so every seating would
    play the same game and every p would be 1): A and B are the same strategy, so the paired
    t-test's p-values of K = P_COMPARISONS comparisons of P_SHUFFLES shuffles each (disjoint
    game ranges of seed 1203, standard) must be Uniform(0, 1). Checks: a Kolmogorov-Smirnov
    test against the uniform at alpha = 0.001, and the number of p < 0.05 within the 0.1% and
    99.9% quantiles of Binomial(K, 0.05) (2..21 of 200; 0..13 of 100). Measured: KS
    statistic 0.084 (p = 0.11) and 12 of 200 below 0.05 at full size; 0.104 (p = 0.22) and
    9 of 100 at the quick size. A t-test whose standard error is 0.7 times too small fails."""
    rules = STANDARD
    small = comparisons(paired_games(rules, load("random"), own_stream.INFO, P_SEED,
                                     P_COMPARISONS * P_SHUFFLES), P_COMPARISONS, P_SHUFFLES,
                        rules)
    p = np.array([r.p_value for r in small])
    assert np.all(np.array([r.per_game.se for r in small]) > 0)  # the copies play differently
    ks = stats.kstest(p, "uniform")
    rejected = int(np.sum(p < 0.05))
    low = stats.binom.ppf(FAIL_Q, len(p), 0.05)
    high = stats.binom.isf(FAIL_Q, len(p), 0.05)
    figures = {"ks": round(float(ks.statistic), 4), "ks_p": round(float(ks.pvalue), 4),
               "rejected at 0.05": rejected, "of": len(p), "bounds": (int(low), int(high))}
    print(figures)  # shown with pytest -s
    assert ks.pvalue >= KS_ALPHA, figures
    assert low <= rejected <= high, figures


def test_own_stream_copy_is_random_with_other_draws():
    """The copy is ``random`` with other draws: against itself in both seatings it plays the
    same game (d = 0 exactly), and it plays other games than ``random`` does."""
    rules = STANDARD
    same = paired_games(rules, own_stream.INFO, own_stream.INFO, 5, 20)
    assert np.all(same["d"].to_numpy() == 0)
    mixed = paired_games(rules, load("random"), own_stream.INFO, 5, 20)
    assert np.count_nonzero(mixed["d"].to_numpy()) >= 18


@pytest.mark.parametrize("rules_file", [None, "players = 3\npartnerships = 3\n"],
                         ids=["standard", "3 seats"])
def test_sprt_stops_early_on_greedy_against_random(tmp_path, monkeypatch, capsys, rules_file):
    """``compare greedy random --sprt 0,5`` on real games (in-process): H1 accepted within
    60 pairs (at most 120 games with two partnerships, 180 with 3 seats), in the first batch
    of 100 shuffles. Greedy wins about every game, so the test stops at the least evidence
    that crosses the bound: measured 31 pairs on standard (62 games), 22 with 3 seats (66
    games). An SPRT fed B's scores, or with a quarter of the evidence, fails."""
    monkeypatch.chdir(tmp_path)
    rules = []
    if rules_file:
        (tmp_path / "three.toml").write_text(rules_file)
        rules = ["--rules", "three.toml"]
    code, out, err = cli(capsys, "compare", "greedy", "random", *rules, "--sprt", "0,5",
                         "--report", "s", "--jobs", "1")
    assert code == 0, err
    assert "SPRT H1 accepted" in out
    params = json.loads((tmp_path / "reports" / "s" / "manifest.json").read_text())["params"]
    assert params["sprt_decision"] == "H1", params
    assert params["sprt_decided_at"] <= 60, params
    assert params["games"] <= 100, params  # shuffles played per seating: the first batch
