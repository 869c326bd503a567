"""Shared fixtures: engine traces for the independent checker, a compiled-engine warm-up."""

from __future__ import annotations

import os

import pytest

from sim.core.rules import Rules
from sim.play.api import seats_for_teams
from sim.runs.trace import trace_games

# The conformance checks at scale (100,000 checked deals per matchup, thousands of refereed
# deals per profile) take about 20 minutes on 2 cores; `make test` runs them at a tenth or
# less of that size so the suite stays under 4 minutes, and `make conformance` (which CI runs
# too) at full size. The same assertions run either way; only the number of deals differs.
LONG = os.environ.get("HANDFOOT_LONG_CHECKS", "") not in ("", "0")


def scaled(full: int, quick: int) -> int:
    """``full`` under `make conformance` (HANDFOOT_LONG_CHECKS=1), else ``quick``."""
    return full if LONG else quick


MATCHUPS = {
    "random": ("random", "random"),
    "greedy": ("greedy", "greedy"),
    "mixed": ("greedy", "random"),
}


def traces_for(teams: tuple[str, str], seed: int, games: int) -> list[list[dict]]:
    """One list of lines per deal (a game's closing line stays with its last deal)."""
    rules = Rules()
    deals: list[list[dict]] = []
    for line in trace_games(rules, seats_for_teams(list(teams), rules.players), seed, 0, games):
        if line["type"] == "deal":
            deals.append([])
        deals[-1].append(line)
    return deals


@pytest.fixture(scope="session")
def engine_traces() -> list[list[dict]]:
    """Traces of whole games (each a list of line dicts) from every matchup."""
    rules = Rules()
    out = []
    for i, teams in enumerate(MATCHUPS.values()):
        for game in range(4):
            seats = seats_for_teams(list(teams), rules.players)
            out.append(list(trace_games(rules, seats, 100 + i, game, 1)))
    return out


@pytest.fixture(scope="session")
def engine_traces_by_profile() -> dict[str, list[list[dict]]]:
    """For every named profile: whole-game traces of greedy, random and mixed seats."""
    from sim.core.profiles import PROFILES

    out: dict[str, list[list[dict]]] = {}
    for name, (rules, _) in PROFILES.items():
        games = []
        for i, teams in enumerate(MATCHUPS.values()):
            seats = [teams[s % 2] for s in range(rules.players)]
            for game in range(3):
                games.append(list(trace_games(rules, seats, 300 + i, game, 1)))
        out[name] = games
    return out
