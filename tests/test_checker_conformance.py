"""The independent referee accepts every deal the engine plays: 2,000 deals per standard matchup
and 1,000 per profile and strategy under `make conformance`, 120 and 100 in `make test`."""

from __future__ import annotations

import pytest

from sim.core.profiles import PROFILES
from sim.core.rules import Rules
from sim.play.api import seats_for_teams
from sim.runs.trace import trace_games
from tests.conftest import MATCHUPS, scaled
from tests.trace_checker import check_trace

ALL = {**MATCHUPS, "tactician": ("tactician", "tactician"), "cautious": ("cautious", "greedy")}

SEEDS = scaled(25, 3)
GAMES_PER_SEED = scaled(20, 10)  # 25 x 20 games x 4 deals = 2,000 deals (make conformance)
PROFILE_SEEDS = scaled(10, 1)  # x 25 games x 4 deals = 1,000 deals per profile and strategy


@pytest.mark.conformance
@pytest.mark.parametrize("name", sorted(ALL))
def test_checker_accepts_every_engine_deal(name):
    rules = Rules()
    seats = seats_for_teams(list(ALL[name]), rules.players)
    deals = 0
    for seed in range(SEEDS):
        lines = list(trace_games(rules, seats, 7000 + seed, 0, GAMES_PER_SEED))
        violations = check_trace(lines)
        assert violations == [], f"seed {7000 + seed}: " + "\n".join(map(str, violations[:5]))
        deals += sum(1 for line in lines if line["type"] == "deal")
    assert deals == SEEDS * GAMES_PER_SEED * 4


@pytest.mark.conformance
@pytest.mark.parametrize("strategy", ["greedy", "random"])
@pytest.mark.parametrize("profile", [p for p in PROFILES if p != "standard"])
def test_checker_accepts_every_deal_in_every_profile(profile, strategy):
    rules = PROFILES[profile][0]
    seats = [strategy] * rules.players
    deals = 0
    for seed in range(PROFILE_SEEDS):
        lines = list(trace_games(rules, seats, 8000 + seed, 0, 25))
        violations = check_trace(lines)
        assert violations == [], f"seed {8000 + seed}: " + "\n".join(map(str, violations[:5]))
        deals += sum(1 for line in lines if line["type"] == "deal")
    assert deals == PROFILE_SEEDS * 100
