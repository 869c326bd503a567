"""The search players: pimc decides from its seat's view only, its games pass the independent
checker in every profile and shape, the position analysis recommends what exhaustive play-outs
find best, and bad position files are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.enums import NO_DECISION, Decision
from sim.core.profiles import PROFILES
from sim.core.rules import Rules, replace
from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn
from sim.engine.layout import GAME_DTYPE, MAX_CARDS, S_DECIDER, S_DECISION, W_ENTRIES, W_LINES
from sim.play.api import make_table
from sim.runs.trace import trace_games
from strategies.hooks import HOOK_OF
from strategies.search import pimc
from tests import hidden_cards as hc
from tests.trace_checker import check_trace

HOOKS = {decision: getattr(pimc, HOOK_OF[decision]) for decision in Decision}
FAST = {"worlds": 6, "discards": 3, "meld_variants": 1}


def fast_pimc(players: int):
    from strategies.registry import load, with_params

    return [with_params(load("pimc"), "pimc-fast", FAST)] * players


def decide(table) -> tuple[int, np.ndarray]:
    """The pimc hook's answer to the pending decision, and the proposal it wrote."""
    g, w = table.g, table.w
    clear_proposal(w)
    seat = int(g["sc"][S_DECIDER])
    value = HOOKS[int(g["sc"][S_DECISION])](g, w, table.t, table.copies, seat)
    n = int(w["sc"][W_ENTRIES])
    return value, np.concatenate([w["prop"][:n].ravel(),
                                  w["prop_line_end"][: int(w["sc"][W_LINES])]])


def decision_points(rules: Rules, games: int = 2, seed: int = 3):
    """Real positions of pimc tables, one snapshot of the game record per decision."""
    table = make_table(rules, fast_pimc(rules.players))
    from sim.engine.flow import start_deal

    for game in range(games):
        for deal in (1, 2, 3, 4):
            start_deal(table.g, table.w, table.t, seed, game, deal)
            while not ended(table.g):
                if table.g["sc"][S_DECISION] == NO_DECISION:
                    next_turn(table.g, table.t)
                    continue
                yield table, table.game.copy(), table.work.copy()
                value, _ = decide(table)
                apply_decision(table.g, table.w, table.t, value)


def scramble_hidden(game: np.ndarray, seat: int) -> np.ndarray:
    """``game`` with everything ``seat`` cannot see dealt anew, by the no-cheating check's own
    ``redeal`` (tests/hidden_cards.py): the other hands beyond their known cards, every
    unpicked Foot, the stock's contents and order, and the deal's random stream. The root
    seed stays, as that check keeps it for the search players (their worlds are keyed on it).
    Draws from the stream ``hc.seed_redeals`` seeded."""
    out = np.zeros(2, dtype=GAME_DTYPE)
    pool = np.zeros(MAX_CARDS, dtype=np.int8)
    stats = np.zeros(hc.N_STATS, dtype=np.int64)
    hc.redeal(game[0], out, 1, seat, True, pool, stats)
    return out[1:]


def test_pimc_decides_only_from_what_its_seat_may_know():
    """Every decision kind, from real pimc games: scrambling every hidden card gives the same
    decision and the same proposal."""
    hc.seed_redeals(11)
    seen = {kind: 0 for kind in HOOKS}
    rules = Rules()
    for table, game, work in decision_points(rules, games=2):
        kind = int(game[0]["sc"][S_DECISION])
        if seen[kind] >= 6:
            continue
        seat = int(game[0]["sc"][S_DECIDER])
        table.game[:] = game
        table.work[:] = work
        first = decide(table)
        table.game[:] = scramble_hidden(game, seat)
        assert not np.array_equal(table.game["hand"], game["hand"]) or \
            not np.array_equal(table.game["stock"], game["stock"])
        assert not np.array_equal(table.game["rng"], game["rng"])  # the stream too
        table.work[:] = work
        second = decide(table)
        assert first[0] == second[0], f"{Decision.words[kind]}: the decision changed"
        assert np.array_equal(first[1], second[1]), f"{Decision.words[kind]}: proposal changed"
        table.game[:] = game
        table.work[:] = work
        seen[kind] += 1
        if all(v >= 6 for k, v in seen.items() if k not in (Decision.GRANT, Decision.GO_OUT)) and \
                seen[Decision.GRANT] and seen[Decision.GO_OUT]:
            break
    assert all(seen.values()), f"decision kinds met: {seen}"


def test_a_seeing_oracle_would_fail_that_test():
    """The oracle, which sees hidden cards, changes its mind when they change: the test
    above can tell."""
    from strategies.search import oracle

    hc.seed_redeals(5)
    rules = Rules()
    changed = 0
    for n, (table, game, work) in enumerate(decision_points(rules, games=1)):
        if int(game[0]["sc"][S_DECISION]) != Decision.DISCARD or n > 400:
            continue
        seat = int(game[0]["sc"][S_DECIDER])
        answers = []
        for trial in range(2):
            table.game[:] = game if trial == 0 else scramble_hidden(game, seat)
            table.work[:] = work
            clear_proposal(table.w)
            answers.append(oracle.choose_discard(table.g, table.w, table.t, table.copies, seat))
        changed += answers[0] != answers[1]
        table.game[:] = game
        table.work[:] = work
    assert changed > 0


SHAPES = {name: rules for name, (rules, _) in PROFILES.items()}
SHAPES["3 players"] = replace(PROFILES["standard"][0], players=3, partnerships=3, decks=4)
SHAPES["6 players"] = replace(PROFILES["standard"][0], players=6, partnerships=3, decks=7)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_pimc_games_pass_the_checker(shape):
    """Every profile with its own tuned base; the 3- and 6-player tables (rule files, which
    have no tuned file of their own) with standard's."""
    from sim.core.profiles import profile_name
    from strategies.per_profile import tuned_file
    from strategies.registry import with_base_policy

    rules = SHAPES[shape]
    search = fast_pimc(1)[0]
    if profile_name(rules) == "custom":
        search = with_base_policy(search, str(tuned_file("standard")), "pimc-fast")
    seats = [search if s % 2 == 0 else "greedy" for s in range(rules.players)]
    lines = list(trace_games(rules, seats, 17, 0, 1))
    assert check_trace(lines) == []


def default_search(rules: Rules, folder) -> object:
    """``pimc`` as its name plays under ``rules`` (strategies/search_defaults.toml), with few
    worlds: the profile's value model at the leaves. A table shape that is no profile has no
    shipped value model, so it gets the standard profile's leaf settings with a value model of
    random weights for its rules, and standard's tuned file as its base policy."""
    from sim.core.profiles import profile_name
    from strategies.learned.model_file import write_model
    from strategies.per_profile import search_default, tuned_file
    from strategies.registry import with_base_policy, with_model, with_params
    from strategies.search_defaults import profile_search
    from tests.learned_models import random_model

    if profile_name(rules) != "custom":
        return with_params(search_default(rules), "pimc-default-fast", FAST)
    shipped = profile_search("standard")
    path = folder / "leaf-model.json"
    write_model(path, random_model(rules, "mlp", "value"))
    search = with_params(fast_pimc(1)[0], "pimc-default-fast", shipped.params)
    search = with_model(search, str(path), search.name)
    return with_base_policy(search, str(tuned_file("standard")), search.name)


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_default_pimc_of_every_profile_and_shape_passes_the_checker(shape, tmp_path):
    """The search as its name plays it (a value model at the leaves where the profile ships
    one), every seat of a side searching, against greedy."""
    from sim.core.profiles import profile_name
    from strategies.search_defaults import search_profiles

    rules = SHAPES[shape]
    search = default_search(rules, tmp_path)
    if profile_name(rules) in search_profiles() or profile_name(rules) == "custom":
        assert search.params["leaf"] == 1 and search.model, search
    seats = [search if s % 2 == 0 else "greedy" for s in range(rules.players)]
    lines = list(trace_games(rules, seats, 19, 0, 1))
    assert check_trace(lines) == []


def test_oracle_is_marked_and_pimc_is_not():
    from strategies.registry import REGISTRY

    assert REGISTRY["oracle"].sees_hidden and not REGISTRY["pimc"].sees_hidden
