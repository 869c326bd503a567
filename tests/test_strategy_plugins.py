"""Adding a compiled strategy takes what the README's "Adding a compiled strategy" shows: a
module with the five hooks and one registry entry. A toy strategy registered that way plays
through the independent checker; a hook that writes to the game record is caught in checked
mode; a module without a hook is refused by name."""

from __future__ import annotations

import sys
import textwrap

import pytest

from sim.core.rules import Rules
from sim.play.api import make_table, play
from sim.play.loop import HookChangedGame
from sim.runs.trace import trace_games
from strategies import registry
from strategies.registry import StrategyError, StrategyInfo
from tests.trace_checker import check_trace

HERMIT = '''
"""``hermit``: greedy, except that it never picks up the pile."""
from sim.engine.hooktypes import hook
from strategies import greedy


@hook
def choose_pickup(g, w, t, x, seat):
    return 0  # always draw


propose_melds = greedy.propose_melds
grant = greedy.grant
go_out = greedy.go_out
choose_discard = greedy.choose_discard
'''

CHEATER = '''
from sim.engine.hooktypes import hook
from strategies import greedy


@hook
def choose_discard(g, w, t, x, seat):
    g.hand[(seat + 1) % 4, 0] += 0  # a write, even of the same value, is not allowed...
    g.taken[seat, 0] += 1  # ...and this one changes the game
    return greedy.choose_discard(g, w, t, x, seat)


choose_pickup = greedy.choose_pickup
propose_melds = greedy.propose_melds
grant = greedy.grant
go_out = greedy.go_out
'''


@pytest.fixture
def plugin(tmp_path, monkeypatch):
    """Write a strategy module and register it, the way the README shows."""

    def add(name: str, source: str) -> StrategyInfo:
        module = f"toy_{name}_{tmp_path.name.replace('-', '_')}"
        (tmp_path / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")
        monkeypatch.syspath_prepend(str(tmp_path))
        info = StrategyInfo(name, module, f"toy strategy {name}")
        monkeypatch.setitem(registry.REGISTRY, name, info)
        return info

    yield add
    for name in list(sys.modules):
        if name.startswith("toy_"):
            del sys.modules[name]


def test_a_registered_toy_strategy_plays_through_the_checker(plugin):
    plugin("hermit", HERMIT)
    rules = Rules()
    seats = ["hermit", "greedy"] * 2
    lines = list(trace_games(rules, seats, 21, 0, 3))
    assert check_trace(lines) == []
    pickups = [line["seat"] for line in lines if line["type"] == "pickup"]
    assert pickups and all(seat % 2 == 1 for seat in pickups), "the hermit never picks up"
    assert registry.load("hermit").module.startswith("toy_hermit")


def test_a_hook_that_changes_the_game_is_caught_in_checked_mode(plugin):
    plugin("cheater", CHEATER)
    rules = Rules()
    table = make_table(rules, ["cheater", "greedy"] * 2, checked=True)
    with pytest.raises(HookChangedGame):
        play(rules, table.seats, 1, 0, 1, table=table)


def test_a_module_without_every_hook_is_refused_by_name(plugin):
    plugin("partial", HERMIT.replace("choose_discard = greedy.choose_discard", ""))
    with pytest.raises(StrategyError, match="has no hook 'choose_discard'"):
        make_table(Rules(), ["partial"] * 4)
