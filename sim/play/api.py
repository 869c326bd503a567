"""Python entry points in front of the compiled loop: the records a worker plays on, playing
games into per-deal records, and turning a refused proposal into a message naming the rule."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sim.core.enums import Decision
from sim.core.records import N_COLUMNS, to_records
from sim.core.rules import MAX_SEATS, Rules
from sim.engine.layout import (
    N_PARAMS,
    S_ERROR,
    S_ERROR_DECISION,
    S_ERROR_SEAT,
    new_game,
    new_trace,
    new_work,
)
from sim.engine.reasons import IllegalProposal, explain
from strategies.learned.model_file import ModelError, seat_value_models
from strategies.per_profile import resolve_seats
from strategies.registry import StrategyError, StrategyInfo, seat_base_params, seat_params

SEARCH_COPIES = 4  # game records a search player may use for its copies (x)


@dataclass
class Table:
    """Everything one worker plays on: the game record, the players' work area, the trace,
    scratch copies for search players, and each seat's hooks."""

    rules: Rules
    seats: list[StrategyInfo]
    game: np.ndarray
    work: np.ndarray
    trace: np.ndarray
    copies: np.ndarray
    guard: np.ndarray
    hooks: tuple
    fast: tuple  # per seat: its built-in heuristic's code (BUILTIN_CODES), 0: through hooks

    @property
    def g(self):
        return self.game[0]

    @property
    def w(self):
        return self.work[0]

    @property
    def t(self):
        return self.trace[0]

    def records(self):
        """What every compiled entry point takes first: the records and each seat's hooks."""
        return (self.game[0], self.work[0], self.trace[0], self.copies, self.guard, self.hooks,
                self.fast)


def make_table(rules: Rules, seat_strategies: Sequence[str | StrategyInfo],
               trace: bool = False, checked: bool = False, direct_calls: bool = True) -> Table:
    """The records and hooks for one table. ``direct_calls=False`` makes every seat go through
    its function pointers (the path any new strategy takes), for tests.

    Each seat's strategy is resolved for ``rules`` (a per-profile name; a search player's base
    policy, whose vector goes in ``w.base_params``): the rule set is known here, whoever
    calls."""
    from strategies.builtin import BUILTIN_CODES
    from strategies.hooks import seat_hooks

    if len(seat_strategies) != rules.players:
        raise StrategyError(f"{len(seat_strategies)} strategies given for {rules.players} seats")
    infos = resolve_seats(seat_strategies, rules)
    packed = rules.packed()
    return Table(
        rules=rules,
        seats=infos,
        game=new_game(packed, checked=checked),
        work=new_work(np.arange(len(infos), dtype=np.int32), seat_params(infos, N_PARAMS),
                      seat_base_params(infos, N_PARAMS), seat_models(infos)),
        trace=new_trace(trace),
        copies=new_game(packed, checked=False, count=SEARCH_COPIES),
        guard=new_game(packed, checked=False),
        hooks=seat_hooks(infos),
        fast=tuple([BUILTIN_CODES.get(info.module, 0) if direct_calls else 0
                    for info in infos] + [0] * (MAX_SEATS - len(infos))),
    )


def seat_models(infos: Sequence[StrategyInfo]) -> np.ndarray:
    """Each seat's value model for ``w.value_model`` (a one-line StrategyError for a model
    file that changed or went missing)."""
    try:
        return seat_value_models(infos)
    except ModelError as exc:
        raise StrategyError(str(exc)) from None


def refusal_message(table: Table) -> str:
    """What a refused proposal broke: the seat, its strategy, the decision and the rule."""
    g = table.game[0]
    seat = int(g["sc"][S_ERROR_SEAT])
    decision = Decision.words[int(g["sc"][S_ERROR_DECISION])]
    name = table.seats[seat].name if 0 <= seat < len(table.seats) else "?"
    return (f"seat {seat} ({name}) proposed an illegal {decision}: "
            f"{explain(int(g['sc'][S_ERROR]))}")


def run_compiled(table: Table, func, *args) -> None:
    """Call a compiled entry point; a refused proposal becomes ``IllegalProposal`` naming the
    seat, its strategy, the decision and the rule."""
    try:
        func(*table.records(), *args)
    except IllegalProposal:
        raise IllegalProposal(refusal_message(table)) from None


def play(
    rules: Rules,
    seat_strategies: Sequence[str | StrategyInfo],
    seed: int,
    first_game: int,
    n_games: int,
    checked: bool = False,
    table: Table | None = None,
) -> np.ndarray:
    """Play ``n_games`` complete games; one structured record per deal.

    Every game's shuffles depend only on (seed, game index), so any split of a range of games
    into calls gives the same records.
    """
    from sim.play.loop import play_games

    table = table or make_table(rules, seat_strategies, checked=checked)
    rows = np.zeros((n_games * rules.deals_per_game, N_COLUMNS), dtype=np.int64)
    run_compiled(table, play_games, seed, first_game, n_games, rows)
    return to_records(rows, seed, rules.partnerships, rules.players)


def seats_for_teams(team_strategies: Sequence[str], players: int) -> list[str]:
    """Seat s plays strategy s mod len(strategies): a list of two gives partnerships 0 and 1
    their strategies (seat s plays for partnership s mod 2); a list of one per seat is used
    as it is."""
    n = len(team_strategies)
    if n == 0 or (n != players and players % n != 0):
        raise StrategyError(f"{n} strategies for {players} seats: give one, one per "
                            f"partnership, or one per seat")
    return [team_strategies[s % n] for s in range(players)]
