"""The game loop calls built-in strategies directly and any other through function pointers
(docs/design.md); both paths must play exactly the same games. And the checked-mode guard
that proves hooks leave the game record alone must notice a change in any field of it."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.profiles import PROFILES
from sim.engine.audit import same_position
from sim.engine.layout import GAME_DTYPE
from sim.play.api import make_table, play


@pytest.mark.parametrize("profile", list(PROFILES))
def test_direct_and_pointer_calls_play_the_same_games(profile):
    rules = PROFILES[profile][0]
    seats = [["greedy", "random", "tactician", "cautious"][s % 4] for s in range(rules.players)]
    direct = play(rules, seats, 3, 0, 6, table=make_table(rules, seats, direct_calls=True))
    pointer = play(rules, seats, 3, 0, 6, table=make_table(rules, seats, direct_calls=False))
    assert direct.tobytes() == pointer.tobytes()


@pytest.mark.parametrize("field", GAME_DTYPE.names)
def test_same_position_sees_a_change_in_every_field(field):
    games = np.zeros(2, dtype=GAME_DTYPE)
    assert same_position(games[0], games[1])
    flat = games[1][field].reshape(-1)
    flat[-1] = 1
    games[1][field] = flat.reshape(games[1][field].shape)
    assert not same_position(games[0], games[1]), f"a change in '{field}' went unnoticed"
