"""Engine-wide properties: conservation and no truncation at scale, determinism, workers."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.rules import Rules
from sim.play.api import make_table, play, seats_for_teams
from sim.runs.runner import run_games
from tests.conftest import scaled

RULES = Rules()
MATCHUPS = {"random": ["random"] * 4, "greedy": ["greedy"] * 4,
            "mixed": seats_for_teams(["greedy", "random"], 4),
            "tactician": ["tactician"] * 4, "cautious": seats_for_teams(["cautious", "greedy"], 4)}


CONSERVATION_GAMES = scaled(25_000, 2_500)  # 100,000 deals per matchup (make conformance)


@pytest.mark.conformance
@pytest.mark.parametrize("name", sorted(MATCHUPS))
def test_conservation_after_every_action_and_no_truncation_at_scale(name):
    """Checked mode asserts every card is in exactly one place after every action, over
    100,000 deals per matchup under `make conformance` (10,000 in `make test`)."""
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


def test_paired_deals_are_the_same_whatever_the_strategies():
    """The shuffle stream is separate from decisions: seats swapped see the same deals."""
    from sim.runs.trace import trace_games

    a = next(trace_games(RULES, MATCHUPS["greedy"], 5, 0, 1))
    b = next(trace_games(RULES, MATCHUPS["random"], 5, 0, 1))
    assert a["hands"] == b["hands"] and a["stock"] == b["stock"]


def test_greedy_against_itself_is_even():
    """A strategy against itself: partnership 0's win rate's 95% interval contains 50%.

    With 4,000 games the Wilson half-width is about 1.5 points."""
    from analysis.summary import summarize

    rec = run_games(RULES, MATCHUPS["greedy"], seed=77, n_games=4000, jobs=2, chunk_size=1000,
                    progress=False)
    s = summarize(rec, 4, ["greedy", "greedy"])
    assert s.teams[0].win_low <= 0.5 <= s.teams[0].win_high
