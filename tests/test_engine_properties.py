"""Engine-wide properties: conservation and no truncation at scale, determinism, workers."""

from __future__ import annotations

import math

import numpy as np
import pytest

from sim.core.profiles import PROFILES
from sim.core.rules import Rules
from sim.play.api import make_table, play, seats_for_teams
from sim.runs.runner import run_games
from tests.conftest import scaled

RULES = Rules()
MATCHUPS = {"random": ["random"] * 4, "greedy": ["greedy"] * 4,
            "mixed": seats_for_teams(["greedy", "random"], 4),
            "tactician": ["tactician"] * 4, "cautious": seats_for_teams(["cautious", "greedy"], 4)}


CONSERVATION_GAMES = scaled(25_000, 1_000)  # 100,000 deals per matchup (make conformance)


@pytest.mark.conformance
@pytest.mark.parametrize("name", sorted(MATCHUPS))
def test_conservation_after_every_action_and_no_truncation_at_scale(name):
    """Checked mode asserts every card is in exactly one place after every action, over
    100,000 deals per matchup under `make conformance` (4,000 in `make test`)."""
    seats = MATCHUPS[name]
    table = make_table(RULES, seats, checked=True)
    rec = play(RULES, seats, seed=2024, first_game=0, n_games=CONSERVATION_GAMES, checked=True,
               table=table)
    assert len(rec) == 4 * CONSERVATION_GAMES
    assert int(rec["truncated"].sum()) == 0
    assert set(np.unique(rec["end_reason"])) <= {1, 2}


def test_same_seed_same_records_bit_for_bit():
    a = play(RULES, MATCHUPS["mixed"], seed=11, first_game=0, n_games=200)
    b = play(RULES, MATCHUPS["mixed"], seed=11, first_game=0, n_games=200)
    assert a.tobytes() == b.tobytes()
    c = play(RULES, MATCHUPS["mixed"], seed=12, first_game=0, n_games=200)
    assert a.tobytes() != c.tobytes()


def test_games_depend_only_on_seed_and_game_index():
    whole = play(RULES, MATCHUPS["greedy"], seed=3, first_game=0, n_games=30)
    parts = np.concatenate([play(RULES, MATCHUPS["greedy"], seed=3, first_game=g, n_games=n)
                            for g, n in ((0, 7), (7, 1), (8, 22))])
    assert whole.tobytes() == parts.tobytes()


def test_global_random_state_has_no_effect():
    np.random.seed(1)
    a = play(RULES, MATCHUPS["random"], seed=4, first_game=0, n_games=20)
    np.random.seed(999)
    np.random.random(1000)
    b = play(RULES, MATCHUPS["random"], seed=4, first_game=0, n_games=20)
    assert a.tobytes() == b.tobytes()


def test_identical_records_for_any_jobs_and_chunk_size():
    base = run_games(RULES, MATCHUPS["mixed"], seed=9, n_games=300, jobs=1, chunk_size=300,
                     progress=False)
    for jobs, chunk in ((1, 7), (2, 50), (4, 33)):
        other = run_games(RULES, MATCHUPS["mixed"], seed=9, n_games=300, jobs=jobs,
                          chunk_size=chunk, progress=False)
        assert other.tobytes() == base.tobytes(), (jobs, chunk)


PAIRED_GAMES = 3


def deal_lines(rules: Rules, seats: list[str]) -> list[dict]:
    from sim.runs.trace import trace_games

    return [line for line in trace_games(rules, seats, 5, 0, PAIRED_GAMES)
            if line["type"] == "deal"]


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_paired_deals_are_the_same_whatever_the_strategies(profile):
    """The shuffle stream is separate from decisions: whoever sits where and however they
    play, every deal of every game is dealt the same: the whole deal line (Hands, Feet, the
    stock in order, the starting card, the dealer)."""
    rules = PROFILES[profile][0]
    n = rules.players
    lineups = [["greedy"] * n, ["random"] * n,
               [("tactician", "random", "cautious", "greedy")[s % 4] for s in range(n)]]
    first, *others = (deal_lines(rules, seats) for seats in lineups)
    assert [(x["game"], x["deal"]) for x in first] == \
        [(g, d) for g in range(PAIRED_GAMES) for d in range(1, rules.deals_per_game + 1)]
    assert len({str(x["stock"]) for x in first}) == len(first)  # the deals differ
    for lines in others:
        for a, b in zip(first, lines, strict=True):
            assert a == b, f"game {a['game']} deal {a['deal']} differs"


# The self-comparison's tolerance, derived. Partnership 0's win share over N games of a
# strategy against itself has mean 50% and standard deviation 0.5 / sqrt(N). The test accepts
# |share - 50%| <= z(0.995) * 0.5 / sqrt(N): a false alarm once in a hundred engine changes
# that reshuffle these games. It must fail where the true share is 45%, 95% of the time: N is
# the fewest games for which 45% lies z(0.95) of its own standard deviations beyond that.
Z_FALSE_ALARM, Z_POWER, WORSE = 2.5758, 1.6449, 0.45
SELF_GAMES = math.ceil(((Z_FALSE_ALARM * 0.5 + Z_POWER * math.sqrt(WORSE * (1 - WORSE)))
                        / (0.5 - WORSE)) ** 2)
SELF_TOLERANCE = Z_FALSE_ALARM * 0.5 / math.sqrt(SELF_GAMES)


def test_the_self_comparison_tolerance_fails_at_45_percent():
    """The derivation above uses the normal approximation; here the binomial distribution of
    partnership 0's wins out of SELF_GAMES gives the check's real error rates, summed over
    every win count the check below accepts: a fair matchup fails about 1% of the time (a bit
    over, from the counts being whole), one whose true share is 45% (or 55%) passes at most 5%
    of the time. A wrong quantile, a dropped power term or a tolerance on the wrong scale
    fails here. (Tied games count half a win; they are a few in ten thousand, ignored.)"""
    from scipy.stats import binom

    wins = np.arange(SELF_GAMES + 1)
    accepted = wins[np.abs(wins / SELF_GAMES - 0.5) <= SELF_TOLERANCE]

    def fails(share: float) -> float:
        return 1.0 - float(binom.pmf(accepted, SELF_GAMES, share).sum())

    assert fails(0.5) <= 0.011, fails(0.5)
    assert fails(WORSE) >= 0.95 and fails(1 - WORSE) >= 0.95, (fails(WORSE), fails(1 - WORSE))


def test_greedy_against_itself_is_even():
    """A strategy against itself: partnership 0's win share is within the derived tolerance
    of 50% (about 2.9 points; a share of 45% fails)."""
    from analysis.reports.summary import summarize

    rec = run_games(RULES, MATCHUPS["greedy"], seed=77, n_games=SELF_GAMES, jobs=1,
                    chunk_size=SELF_GAMES, progress=False)
    s = summarize(rec, 4, ["greedy", "greedy"])
    assert s.games == SELF_GAMES
    assert abs(s.teams[0].win_rate - 0.5) <= SELF_TOLERANCE, s.teams[0].win_rate
    assert s.teams[0].win_rate + s.teams[1].win_rate == 1
    assert s.share_out + s.share_stock == 1 and s.truncated == 0
