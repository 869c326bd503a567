"""Thin Python entry points in front of the compiled engine: validation, allocation, records."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim.records import N_COLUMNS, to_records
from sim.rules import Rules
from sim.state import N_PARAMS, State, new_state
from strategies.registry import resolve_seats


def make_state(
    rules: Rules, seat_strategies: Sequence[str], trace: bool = False, checked: bool = False
) -> State:
    ids, params = resolve_seats(seat_strategies, rules.players, N_PARAMS)
    return new_state(rules.packed(), ids, params, trace=trace, checked=checked)


def play(
    rules: Rules,
    seat_strategies: Sequence[str],
    seed: int,
    first_game: int,
    n_games: int,
    checked: bool = False,
    state: State | None = None,
) -> np.ndarray:
    """Play ``n_games`` complete games; one structured record per deal.

    Every game's shuffles depend only on (seed, game index), so any split of a range of games
    into calls gives the same records.
    """
    from sim.engine import play_games

    st = state if state is not None else make_state(rules, seat_strategies, checked=checked)
    rows = np.zeros((n_games * rules.deals_per_game, N_COLUMNS), dtype=np.int64)
    play_games(st[0], seed, first_game, n_games, rows)
    return to_records(rows, seed, rules.partnerships, rules.players)


def seats_for_teams(team_strategies: Sequence[str], players: int) -> list[str]:
    """Seat s plays strategy s mod len(strategies): a list of two gives partnerships 0 and 1
    their strategies (seat s plays for partnership s mod 2); a list of one per seat is used
    as it is."""
    from strategies.registry import StrategyError

    n = len(team_strategies)
    if n == 0 or (n != players and players % n != 0):
        raise StrategyError(f"{n} strategies for {players} seats: give one, one per "
                            f"partnership, or one per seat")
    return [team_strategies[s % n] for s in range(players)]
