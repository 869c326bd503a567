"""Mergeable summaries: per-chunk aggregates merged in any split give exactly the summary of
all records, so a run of millions of deals is summarized without loading them."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest
from scipy import stats

from analysis.reports.summary import summarize, summary_from_aggregate
from analysis.statistics.intervals import wilson_interval
from sim.core.rules import Rules
from sim.play.api import play, seats_for_teams
from sim.runs.aggregate import Aggregate, aggregate_records, merge_all

RULES = Rules()


@pytest.fixture(scope="module")
def records() -> np.ndarray:
    return play(RULES, seats_for_teams(["greedy", "random"], RULES.players), 11, 0, 301)


def test_summary_matches_numpy_on_all_records(records):
    s = summarize(records, 4, ["greedy", "random"])
    turns = records["turns"].astype(np.float64)
    assert s.games == 301 and s.deals == 1204
    assert s.turns_mean == turns.mean()
    assert s.turns_median == np.median(turns)
    assert s.turns_p5 == np.percentile(turns, 5) and s.turns_p95 == np.percentile(turns, 95)
    assert s.share_out == (records["end_reason"] == 1).mean()
    totals = records["score"].astype(np.int64).reshape(301, 4, 2).sum(axis=1)
    wins0 = (totals[:, 0] > totals[:, 1]).sum() + 0.5 * (totals[:, 0] == totals[:, 1]).sum()
    assert s.teams[0].win_rate == wins0 / 301
    assert (s.teams[0].win_low, s.teams[0].win_high) == wilson_interval(wins0, 301)
    for t in range(2):
        assert s.teams[t].mean_score_per_deal == records["score"][:, t].mean()
        assert s.teams[t].mean_books_wild == records["books_wild"][:, t].mean()


@pytest.mark.parametrize("chunk_games", [1, 7, 50, 301])
def test_merged_chunk_aggregates_give_the_same_summary(records, chunk_games):
    parts = [aggregate_records(records[i : i + 4 * chunk_games], 4)
             for i in range(0, len(records), 4 * chunk_games)]
    # Through JSON and back, merged in reverse order: still exact.
    parts = [Aggregate.from_dict(json.loads(json.dumps(p.to_dict()))) for p in parts[::-1]]
    merged = merge_all(parts, 2)
    whole = aggregate_records(records, 4)
    assert merged == whole
    assert dataclasses.asdict(summary_from_aggregate(merged, ["greedy", "random"])) == \
        dataclasses.asdict(summarize(records, 4, ["greedy", "random"]))


def test_histogram_percentiles_are_numpys():
    rng = np.random.default_rng(5)
    for _ in range(500):
        x = rng.integers(1, 40, int(rng.integers(1, 80)))
        agg = Aggregate(teams=2, deals=len(x), turns=[int(c) for c in np.bincount(x)])
        for q in (0.01, 0.05, 0.33, 0.5, 0.95, 0.99):
            assert agg.turns_quantile(q) == np.percentile(x.astype(np.float64), 100 * q)
        assert agg.turns_median() == np.median(x.astype(np.float64))


def test_ci_widths(records):
    agg = aggregate_records(records, 4)
    low, high = wilson_interval(agg.win_share(0), agg.games)
    assert agg.ci_width("win-rate") == pytest.approx(high - low)
    totals = records["score"].astype(np.int64).reshape(301, 4, 2).sum(axis=1)
    diff = totals[:, 0] - totals[:, 1]
    se = diff.std(ddof=1) / np.sqrt(len(diff))
    assert agg.ci_width("score-diff") == pytest.approx(2 * stats.t.ppf(0.975, len(diff) - 1) * se)
    assert Aggregate(teams=2).ci_width("win-rate") == float("inf")
