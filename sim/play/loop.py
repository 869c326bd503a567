"""The compiled game loop: ask the deciding seat's hook, let the engine apply the proposal.

The hooks arrive as a tuple of function pointers (``sim.engine.hooktypes``), one per decision
kind and seat (index ``decision * MAX_SEATS + seat``), so this loop is compiled once whatever
strategies play, and a new strategy compiles only itself. A call through a pointer cannot be
inlined, which costs the built-in heuristics about 15% of their speed, so seats that play one
of ``strategies.builtin.BUILTIN_CODES`` are asked directly instead (``fast[seat]``, 0:
through the pointer), by the loop itself with no array argument in between (see
``ask_next``); ``tests/test_play_paths.py`` proves both paths play the same games.
In checked mode the loop also proves that no hook changed the game record.
"""

from __future__ import annotations

import numpy as np

from sim.core.enums import NO_DECISION
from sim.core.records import TeamField
from sim.core.rules import MAX_SEATS, R_DEALS
from sim.engine.audit import same_position
from sim.engine.finish import finish_deal, team_col
from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn, start_deal, start_turn
from sim.engine.jit import njit
from sim.engine.layout import S_CHECKED, S_DECIDER, S_DECISION, S_TEAMS
from sim.engine.scoring import N_PARTS
from strategies.builtin import ask_builtin


class HookChangedGame(Exception):
    """A strategy hook wrote to the game record (found in checked mode)."""


@njit(cache=True, inline="always")
def _call(g, w, t, x, hooks, fast, seat: int) -> int:
    decision = g.sc[S_DECISION]
    builtin = fast[seat]
    if builtin == 0:
        return hooks[decision * MAX_SEATS + seat](g, w, t, x, seat)
    return ask_builtin(builtin, decision, g, w, seat)


@njit(cache=True)
def decide(g, w, t, x, guard, hooks, fast) -> int:
    """Ask the pending decision's hook for its proposal (``w.prop``) and return its value."""
    clear_proposal(w)
    seat = g.sc[S_DECIDER]
    if g.sc[S_CHECKED] == 0:
        return _call(g, w, t, x, hooks, fast, seat)
    guard[0] = g
    value = _call(g, w, t, x, hooks, fast, seat)
    if not same_position(guard[0], g):
        raise HookChangedGame("a strategy hook changed the game record")
    return value


@njit(inline="always")
def builtin_code(g, fast) -> int:
    """The built-in heuristic the deciding seat plays, when the loop may ask it directly
    (``strategies.builtin``); 0 for a hook called through its pointer, and always 0 in
    checked mode, where ``decide`` proves no hook changed the game record."""
    if g.sc[S_CHECKED] != 0:
        return 0
    return fast[g.sc[S_DECIDER]]


@njit(inline="always")
def ask_next(g, w, builtin: int) -> int:
    """``decide`` for a seat that plays the built-in heuristic coded ``builtin``, unchecked.
    The loops below branch to it themselves rather than through a compiled-in helper that takes the
    scratch arrays: each array handed to one costs an atomic reference count per decision."""
    clear_proposal(w)
    return ask_builtin(builtin, g.sc[S_DECISION], g, w, g.sc[S_DECIDER])


@njit(cache=True)
def play_deal(g, w, t, x, guard, hooks, fast, seed: int, game: int, deal: int, out_row,
              parts) -> None:
    """Play one deal from the shuffle to the score; fill one record row."""
    start_deal(g, w, t, seed, game, deal)
    while not ended(g):
        if g.sc[S_DECISION] == NO_DECISION:
            next_turn(g, t)
            continue
        builtin = builtin_code(g, fast)
        if builtin != 0:
            apply_decision(g, w, t, ask_next(g, w, builtin))
        else:
            apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))
    finish_deal(g, t, game, deal, out_row, parts)


@njit(cache=True)
def new_game(g) -> None:
    """A game starts at 0 to 0 (R-D5: a game is its deals); each deal's score is added as it
    ends (``close_deal``)."""
    g.game_score[:] = 0


@njit(cache=True)
def add_to_game_score(g, out_row) -> None:
    """Add the deal just scored (its record row) to the game score, which the next deal's
    players read (a strategy, or a learned player's features, may weigh the game's score)."""
    for team in range(g.sc[S_TEAMS]):
        g.game_score[team] += out_row[team_col(TeamField.SCORE, team)]


@njit(cache=True)
def close_deal(g, t, game: int, deal: int, out_row, parts) -> None:
    """Score the deal into its record row and add it to the game score: every loop that plays
    whole games (the game loop, recording, branching, the search's own choices) ends a deal
    here, so none plays a later deal from a score real play never reaches."""
    finish_deal(g, t, game, deal, out_row, parts)
    add_to_game_score(g, out_row)


@njit(cache=True)
def play_games(g, w, t, x, guard, hooks, fast, seed: int, first_game: int, n_games: int,
               out) -> None:
    """Play games first_game .. first_game + n_games - 1; one row of ``out`` per deal."""
    deals = g.rules[R_DEALS]
    parts = np.zeros(N_PARTS, dtype=np.int64)
    row = 0
    for game in range(first_game, first_game + n_games):
        new_game(g)
        for d in range(1, deals + 1):
            play_deal(g, w, t, x, guard, hooks, fast, seed, game, d, out[row], parts)
            add_to_game_score(g, out[row])
            row += 1


@njit(cache=True)
def play_turn(g, w, t, x, guard, hooks, fast, seat: int) -> None:
    """Play ``seat``'s whole turn from its start, and stop before the next one (tests, and
    positions that start at a turn)."""
    start_turn(g, t, seat)
    while g.sc[S_DECISION] != NO_DECISION:
        builtin = builtin_code(g, fast)
        if builtin != 0:
            apply_decision(g, w, t, ask_next(g, w, builtin))
        else:
            apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))
