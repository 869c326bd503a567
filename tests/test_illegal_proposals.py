"""Strategies propose, the engine applies: a refused proposal is never silent.

Each registered strategy's own hook is wrapped by a saboteur that corrupts what the strategy
proposed (a meld of cards it does not hold, a pick-up without the pair or with cards not
taken, a discard of a card it does not hold, an ask to go out off the Foot); the engine must
stop the deal with ``IllegalProposal`` naming the seat, the strategy, the decision and the
rule, in normal and in checked mode.
"""

from __future__ import annotations

import functools

import numpy as np
import pytest
from numba import njit

from sim.core.cards import N_KINDS, N_NATURALS
from sim.core.enums import Decision
from sim.core.rules import MAX_SEATS, Rules
from sim.engine.hooktypes import HOOK_SIGNATURE
from sim.engine.layout import W_ENTRIES, W_LINES
from sim.engine.reasons import IllegalProposal
from sim.play.api import make_table, play
from strategies.hooks import hooks_of
from strategies.registry import REGISTRY, with_params


@njit(cache=True)
def _least_held_natural(g, seat):
    best = 0
    for k in range(N_NATURALS):
        if g.hand[seat, k] < g.hand[seat, best]:
            best = k
    return best


def meld_saboteur(inner):
    """The strategy's meld proposal, plus a line of three naturals it does not hold."""

    @njit(HOOK_SIGNATURE)
    def hook(g, w, t, x, seat):
        value = inner(g, w, t, x, seat)
        start = w.sc[W_ENTRIES]
        rank = _least_held_natural(g, seat)
        w.prop[start, 0] = rank
        w.prop[start, 1] = g.hand[seat, rank] + 3
        w.prop[start, 2] = 0
        w.prop[start, 3] = 0
        w.prop[start, 4] = 0
        w.prop_line_end[w.sc[W_LINES]] = start + 1
        w.sc[W_LINES] += 1
        w.sc[W_ENTRIES] = start + 1
        return value

    return hook


def pickup_saboteur(inner):
    """The strategy's pick-up with an extra entry of cards neither held nor taken; where it
    would draw, a pick-up of the top card alone (no pair)."""

    @njit(HOOK_SIGNATURE)
    def hook(g, w, t, x, seat):
        n = inner(g, w, t, x, seat)
        rank = _least_held_natural(g, seat)
        if n > 0:
            w.prop[n, 0] = rank
            w.prop[n, 1] = g.hand[seat, rank] + 20
            for j in range(2, 5):
                w.prop[n, j] = 0
            return n + 1
        w.prop[0, 0] = rank
        w.prop[0, 1] = 1
        for j in range(2, 5):
            w.prop[0, j] = 0
        return 1

    return hook


def discard_saboteur(inner):
    """A discard of a card kind the strategy does not hold."""

    @njit(HOOK_SIGNATURE)
    def hook(g, w, t, x, seat):
        inner(g, w, t, x, seat)
        for k in range(N_KINDS):
            if g.hand[seat, k] == 0:
                return k
        return N_KINDS

    return hook


def ask_saboteur(inner):
    """An ask to go out while still on the Hand (not on the Foot)."""

    @njit(HOOK_SIGNATURE)
    def hook(g, w, t, x, seat):
        inner(g, w, t, x, seat)
        return 1 if g.on_foot[seat] == 0 else 0

    return hook


# decision to corrupt, saboteur, the rule ids the refusal may name, words of the decision
KINDS = {
    "meld": (Decision.MELD, meld_saboteur, {"R-T1"}, "meld"),
    "pick-up": (Decision.PICK_UP, pickup_saboteur, {"R-PU1", "R-PU2", "R-PU3", "R-PU4"}, "pick-up"),
    "discard": (Decision.DISCARD, discard_saboteur, {"R-T1"}, "discard"),
    "go out": (Decision.MELD, ask_saboteur, {"R-G2"}, "meld"),
}


@functools.cache
def sabotaged(strategy: str, kind: str):
    """The saboteur of one strategy's hook, compiled once for both modes."""
    decision, saboteur, _, _ = KINDS[kind]
    return saboteur(hooks_of(REGISTRY[strategy])[decision])


def played(strategy: str):
    """The registered strategy; the search players with 2 imagined worlds instead of 16 (the
    same hooks and proposals, a tenth of the time)."""
    info = REGISTRY[strategy]
    return with_params(info, strategy, {"worlds": 2}) if "worlds" in info.params else info


# Each saboteur is a numba closure, compiled afresh every run with the whole hook it wraps:
# about 5 s a case for the players that search or score candidates, a second for the others.
# The two oracles call pimc's ``search`` with another view of the cards: the proposals they
# pass to the engine are made by the same code, so `make test` checks pimc's and `make
# conformance` theirs too. pimc and learned are checked on one decision in `make test` (the
# meld, the richest proposal) and on every decision in `make conformance`.
SAME_PROPOSALS_AS_PIMC = ("oracle", "oracle-hands")
SLOW_TO_WRAP = ("pimc", "learned")
AT_SIZE = (pytest.mark.conformance, pytest.mark.conformance_only)


def cases() -> list:
    """Every registered strategy and decision; the oracles, and pimc's and learned's decisions
    other than the meld, only in `make conformance`."""
    return [pytest.param(name, kind, marks=AT_SIZE) if name in SAME_PROPOSALS_AS_PIMC or (
        name in SLOW_TO_WRAP and kind != "meld") else pytest.param(name, kind)
        for name in REGISTRY for kind in KINDS]


def test_the_oracles_propose_through_pimcs_search():
    """What lets `make test` leave the oracles to `make conformance`: both are pimc's search
    with another view, so their hooks are the same proposal code."""
    import inspect

    import strategies.search.oracle as oracle
    import strategies.search.oracle_hands as oracle_hands
    import strategies.search.pimc as pimc

    assert {REGISTRY[n].module for n in SAME_PROPOSALS_AS_PIMC} == \
        {oracle.__name__, oracle_hands.__name__}
    for module in (oracle, oracle_hands):
        for name in ("choose_pickup", "propose_melds", "grant", "go_out", "choose_discard"):
            source = inspect.getsource(getattr(module, name).py_func)
            assert "return search(g, w, t, x, seat, VIEW_" in source, (module, name)
        assert module.search is pimc.search


@pytest.mark.parametrize("checked", [False, True], ids=["normal", "checked"])
@pytest.mark.parametrize(("strategy", "kind"), cases())
def test_an_illegal_proposal_stops_the_deal_naming_the_rule(strategy, kind, checked):
    decision, _, rules_named, words = KINDS[kind]
    rules = Rules()
    table = make_table(rules, [played(strategy)] * rules.players, checked=checked,
                       direct_calls=False)
    bad = sabotaged(strategy, kind)
    hooks = list(table.hooks)
    for seat in range(MAX_SEATS):
        hooks[decision * MAX_SEATS + seat] = bad
    table.hooks = tuple(hooks)
    with pytest.raises(IllegalProposal) as caught:
        play(rules, table.seats, 7, 0, 3, table=table)
    message = str(caught.value)
    assert f"({strategy}) proposed an illegal {words}" in message, message
    assert any(rule in message for rule in rules_named), message


def test_the_untouched_strategies_play_without_refusals():
    """The same tables without saboteurs play through (the refusals above are the
    saboteurs', not the engine's)."""
    rules = Rules()
    for strategy in REGISTRY:
        table = make_table(rules, [played(strategy)] * 4, checked=True, direct_calls=False)
        records = play(rules, table.seats, 7, 0, 3, table=table)
        assert len(records) == 12 and not np.any(records["truncated"])
