"""The search's racing budget and its ceiling ``oracle-hands``.

Racing (``race``, ``prune``): candidates meet the same worlds, one that trails the leader by
more than ``prune`` standard errors of the paired difference stops getting worlds, and the
race ends once the leader alone is left against the base move and clear of it, or the budget
(``worlds``) is spent. ``oracle-hands`` sees the other hands and every Foot but never the
stock's order: its choices do not move when only the stock is reordered, and do when a hidden
hand changes.
"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.enums import Decision, SearchStat
from sim.core.rules import Rules
from sim.engine.flow import clear_proposal
from sim.engine.layout import MAX_CANDIDATES, MAX_WORLDS, S_DECIDER, S_DECISION, S_STOCK_N
from sim.play.api import make_table, play
from strategies.registry import REGISTRY, load, with_params
from strategies.search import oracle_hands, pimc
from tests.test_search import decision_points, scramble_hidden


def work_with_values(values: np.ndarray) -> np.ndarray:
    """A search work area whose first ``len(values)`` candidates have ``values`` (one row of
    world outcomes each), every one of them still racing."""
    table = make_table(Rules(), ["greedy"] * 4)
    w = table.w
    w["world_values"][: values.shape[0], : values.shape[1]] = values
    w["cand_alive"][:] = 0
    w["cand_alive"][: values.shape[0]] = 1
    return table.work


def noisy(mean: float, spread: float, worlds: int, seed: int) -> np.ndarray:
    return mean + spread * np.random.default_rng(seed).standard_normal(worlds)


def test_a_candidate_far_behind_the_leader_stops_and_a_close_one_races_on():
    worlds = 32
    base = noisy(0.0, 50.0, worlds, 1)
    values = np.stack([base, base + 400.0 + noisy(0, 30, worlds, 2),  # clearly the leader
                       base - 600.0 + noisy(0, 30, worlds, 3),  # far behind: pruned
                       base + 390.0 + noisy(0, 30, worlds, 4)])  # close to the leader
    work = work_with_values(values)
    w = work[0]
    assert pimc.keep_racing(w, 4, worlds, 2.0, 1.0)  # two alternatives left: still open
    assert w["cand_alive"][:4].tolist() == [1, 1, 0, 1]


def test_the_race_ends_when_the_leader_alone_is_clear_of_the_base_move():
    worlds = 16
    base = noisy(0.0, 50.0, worlds, 5)
    values = np.stack([base, base + 300.0 + noisy(0, 20, worlds, 6),
                       base - 500.0 + noisy(0, 20, worlds, 7)])
    w = work_with_values(values)[0]
    assert not pimc.keep_racing(w, 3, worlds, 2.0, 1.0)
    assert w["cand_alive"][:3].tolist() == [1, 1, 0]
    assert pimc.choose(w, 3, worlds, 1.0) == 1


def test_a_leader_not_yet_clear_of_the_base_move_keeps_the_race_open():
    worlds = 8
    base = noisy(0.0, 50.0, worlds, 8)
    values = np.stack([base, base + noisy(5.0, 400.0, worlds, 9)])  # noisy, tiny gain
    w = work_with_values(values)[0]
    assert pimc.keep_racing(w, 2, worlds, 2.0, 1.0)
    assert pimc.choose(w, 2, worlds, 1.0) == 0  # not clear: the base move stays


def test_a_pruned_candidate_is_never_chosen_however_its_old_worlds_look():
    worlds = 8
    base = noisy(0.0, 10.0, worlds, 10)
    values = np.stack([base, base + 1000.0])
    w = work_with_values(values)[0]
    w["cand_alive"][1] = 0
    assert pimc.choose(w, 2, worlds, 1.0) == 0


def played_stats(params: dict, games: int = 1) -> np.ndarray:
    rules = Rules()
    search = with_params(load("pimc"), "pimc-race", params)
    seats = [search, "greedy"] * 2
    table = make_table(rules, seats)
    play(rules, seats, 21, 0, games, table=table)
    return np.array(table.w["search_stats"])


def test_racing_spends_less_than_the_full_budget_and_never_more():
    budget = 24
    racing = played_stats({"worlds": budget, "race": 4, "prune": 2.0})
    full = played_stats({"worlds": budget, "race": 0})
    for stats in (racing, full):
        searched = stats[:, SearchStat.SEARCHED]
        assert (stats[:, SearchStat.WORLDS] <= budget * searched).all()
        assert (stats[:, SearchStat.ROLLOUTS] <= MAX_CANDIDATES * stats[:, SearchStat.WORLDS]).all()
        # a decision with one sensible candidate costs nothing: fewer searched than asked
        assert searched.sum() < stats[:, SearchStat.DECISIONS].sum()
    assert (full[:, SearchStat.WORLDS] == budget * full[:, SearchStat.SEARCHED]).all()
    per_decision = racing[:, SearchStat.ROLLOUTS].sum() / racing[:, SearchStat.SEARCHED].sum()
    full_per_decision = full[:, SearchStat.ROLLOUTS].sum() / full[:, SearchStat.SEARCHED].sum()
    assert per_decision < 0.8 * full_per_decision, (per_decision, full_per_decision)


def test_the_tallies_name_what_the_search_left_the_base_move_for():
    rules = Rules()
    search = with_params(load("pimc"), "pimc-race", {"worlds": 8})
    seats = [search, "greedy"] * 2
    table = make_table(rules, seats)
    play(rules, seats, 23, 0, 1, table=table)
    stats, left_for = table.w["search_stats"], table.w["search_left_for"]
    assert stats[:, SearchStat.LEFT_BASE].sum() > 0
    assert (left_for.sum(axis=1) == stats[:, SearchStat.LEFT_BASE]).all()
    assert (left_for[:, 0] == 0).all()  # never "left the base move for the base move"


def test_the_budget_is_capped_by_the_work_area():
    specs = {p.name: p for p in REGISTRY["pimc"].param_specs}
    assert specs["worlds"].high == MAX_WORLDS


def oracle_hands_answer(table, game, work) -> int:
    table.game[:] = game
    table.work[:] = work
    clear_proposal(table.w)
    seat = int(game[0]["sc"][S_DECIDER])
    return oracle_hands.choose_discard(table.g, table.w, table.t, table.copies, seat)


def test_oracle_hands_never_sees_the_stock_order_but_does_see_the_hands():
    from tests import hidden_cards as hc

    hc.seed_redeals(7)
    shuffle = np.random.default_rng(3)
    same_for_stock, changed_for_hands, asked = 0, 0, 0
    for n, (table, game, work) in enumerate(decision_points(Rules(), games=1)):
        if int(game[0]["sc"][S_DECISION]) != Decision.DISCARD or n > 400:
            continue
        first = oracle_hands_answer(table, game, work)
        reordered = game.copy()
        stock_n = int(game[0]["sc"][S_STOCK_N])
        reordered[0]["stock"][:stock_n] = shuffle.permutation(game[0]["stock"][:stock_n])
        reordered[0]["rng"][:] = shuffle.integers(1, 2**63, size=2, dtype=np.uint64)
        same_for_stock += oracle_hands_answer(table, reordered, work) == first
        seat = int(game[0]["sc"][S_DECIDER])
        changed_for_hands += oracle_hands_answer(table, scramble_hidden(game, seat), work) != first
        asked += 1
        table.game[:] = game
        table.work[:] = work
    assert asked >= 10
    assert same_for_stock == asked
    assert changed_for_hands > 0


@pytest.mark.parametrize("name", ["oracle", "oracle-hands"])
def test_the_ceilings_are_marked_as_seeing_hidden_cards(name):
    assert REGISTRY[name].sees_hidden
    assert not REGISTRY["pimc"].sees_hidden
