"""The candidate actions a search player weighs at each decision, kept in the work area.

The first candidate is always the base heuristic's own choice (``baseline``: greedy, or the
seat's base policy, ``w.base_params[seat]``): a search departs from it only when the worlds
show another candidate better by a clear margin (``strategies.search.pimc``).

Candidates are what sensible players choose between: draw or pick up; the greedy meld line,
laying nothing (not opening yet, holding everything), holding every wild back, leaving books
one card short, or asking to go out; granting or refusing; the few least useful discards.
Every candidate is legal (checked with the engine's own read-only rules), so the engine never
refuses the one chosen.
"""

from __future__ import annotations

import numpy as np

from sim.core.cards import JOKER, N_KINDS, RED3, TWO
from sim.core.enums import Candidate, Decision
from sim.engine.flow import clear_proposal
from sim.engine.jit import njit
from sim.engine.layout import (
    CAND_ENTRIES,
    ENTRY_WIDTH,
    MAX_CANDIDATES,
    S_DECISION,
    W_ENTRIES,
    W_LINES,
)
from sim.engine.legal import check_discard, check_line, may_go_out, must_discard_red3, team_of
from sim.engine.reasons import OK
from strategies import plans as pl
from strategies.going_out import plan_go_out
from strategies.greedy import plan_turn_melds
from strategies.judgement import KIND_SPAN, NO_KEY, discard_usefulness, going_out_wins_deal
from strategies.lookahead.heuristics import ask_greedy, ask_policy

# The first candidate (``baseline``): greedy's choice, or the seat's base policy's.
BASELINE_GREEDY, BASELINE_POLICY = 0, 1

@njit(cache=True)
def _same_as(w, c: int, n: int, value: int, entries) -> bool:
    if w.cand_value[c] != value or w.cand_entries[c] != n:
        return False
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            if w.cand_prop[c, i, j] != entries[i, j]:
                return False
    return True


@njit(cache=True)
def find(w, count: int, entries, n: int, value: int) -> int:
    """The first of the ``count`` candidates identical to the proposal (``n`` entries of
    ``entries``, ``value``), or -1."""
    for c in range(count):
        if _same_as(w, c, n, value, entries):
            return c
    return -1


@njit(cache=True)
def add(w, count: int, entries, n: int, value: int, as_line: bool, kind: int) -> int:
    """Add a candidate of ``kind`` (``Candidate``; ``n`` entries: one meld line when
    ``as_line``, else a pick-up's entries) unless an identical one is there; returns the new
    count."""
    if n > CAND_ENTRIES or count >= MAX_CANDIDATES:
        return count
    for c in range(count):
        if _same_as(w, c, n, value, entries):
            return count
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.cand_prop[count, i, j] = entries[i, j]
    w.cand_entries[count] = n
    w.cand_value[count] = value
    w.cand_lines[count] = 1 if as_line and n > 0 else 0
    w.cand_line_end[count, 0] = n
    w.cand_kind[count] = kind
    return count + 1


@njit(cache=True)
def load(w, c: int) -> None:
    """Make candidate ``c`` the proposal in ``w.prop``."""
    n = w.cand_entries[c]
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.prop[i, j] = w.cand_prop[c, i, j]
    lines = w.cand_lines[c]
    for i in range(lines):
        w.prop_line_end[i] = w.cand_line_end[c, i]
    w.sc[W_LINES] = lines
    w.sc[W_ENTRIES] = n


@njit(cache=True)
def _add_line(g, w, seat: int, count: int, n: int, value: int, kind: int) -> int:
    if n > 0 and check_line(g, w, seat, w.entries, n) != OK:
        return count
    return add(w, count, w.entries, n, value, True, kind)


@njit(cache=True)
def _hold_wilds_line(g, w, seat: int) -> int:
    """Naturals only: every wild kept back (never blocking the opening: the opening extras
    may still use wilds when the partnership has not opened)."""
    pl.plan_reset(g, w, seat)
    held_twos = w.plan_hand[TWO]
    held_jokers = w.plan_hand[JOKER]
    w.plan_hand[TWO] = 0
    w.plan_hand[JOKER] = 0
    n = pl.plan_naturals(g, w, pl.ENTRIES, 0)
    w.plan_hand[TWO] = held_twos
    w.plan_hand[JOKER] = held_jokers
    if g.opened[team_of(g, seat)] == 0:
        n = pl.plan_opening_extras(g, w, pl.ENTRIES, n)
    return pl.trim_for_foot(g, seat, w.entries, n)


@njit(cache=True)
def _add_proposal(w, count: int, value: int) -> int:
    """The proposal a heuristic just wrote in ``w.prop`` (entries, and lines where it laid
    some) as a candidate."""
    n = w.sc[W_ENTRIES]
    lines = w.sc[W_LINES]
    if lines > 1:  # several lines (random play): keep them apart
        if n > CAND_ENTRIES or count >= MAX_CANDIDATES:
            return count
        for i in range(n):
            for j in range(ENTRY_WIDTH):
                w.cand_prop[count, i, j] = w.prop[i, j]
        for i in range(lines):
            w.cand_line_end[count, i] = w.prop_line_end[i]
        w.cand_entries[count] = n
        w.cand_value[count] = value
        w.cand_lines[count] = lines
        w.cand_kind[count] = Candidate.BASE
        return count + 1
    return add(w, count, w.prop, n, value, lines == 1, Candidate.BASE)


@njit(cache=True)
def gather(g, w, t, x, seat: int, discards: int, variants: bool, baseline: int) -> int:
    """Fill the candidates of the pending decision, the baseline heuristic's choice first
    (``BASELINE_POLICY``: the seat's base policy, ``w.base_params[seat]``); returns how many."""
    decision = g.sc[S_DECISION]
    clear_proposal(w)
    if baseline == BASELINE_POLICY:
        value = ask_policy(g, w, seat, w.base_params[seat])
    else:
        value = ask_greedy(g, w, seat)
    if decision == Decision.PICK_UP:  # a pick-up's entries are not a line: w.prop holds ``value``
        w.sc[W_ENTRIES] = max(value, 0)
    count = _add_proposal(w, 0, value)
    clear_proposal(w)
    if decision == Decision.PICK_UP:
        n = pl.plan_pickup(g, w, seat, pl.ENTRIES)
        if n > 0:
            count = add(w, count, w.entries, n, n, False, Candidate.PICK_UP)
        count = add(w, count, w.entries, 0, 0, False, Candidate.DRAW)
    elif decision == Decision.MELD:
        if may_go_out(g, seat):
            n_out, _ = plan_go_out(g, w, seat, pl.ENTRIES2)
            if n_out >= 0:
                count = add(w, count, w.entries, 0, 1, True, Candidate.ASK_TO_GO_OUT)
        count = _add_line(g, w, seat, count, plan_turn_melds(g, w, seat), 0,
                          Candidate.GREEDY_MELD_LINE)
        count = add(w, count, w.entries, 0, 0, True, Candidate.LAY_NOTHING)
        if variants:
            count = _add_line(g, w, seat, count, _hold_wilds_line(g, w, seat), 0,
                              Candidate.HOLD_WILDS)
            pl.plan_reset(g, w, seat)
            n = pl.plan_naturals_upto(g, w, pl.ENTRIES, 0, 6)
            count = _add_line(g, w, seat, count, pl.trim_for_foot(g, seat, w.entries, n), 0,
                              Candidate.BOOKS_ONE_SHORT)
    elif decision == Decision.GRANT:
        first = 1 if going_out_wins_deal(g, seat) else 0
        count = add(w, count, w.entries, 0, first, False,
                    Candidate.GRANT if first else Candidate.REFUSE)
        count = add(w, count, w.entries, 0, 1 - first, False,
                    Candidate.REFUSE if first else Candidate.GRANT)
    elif decision == Decision.GO_OUT:
        n, last = plan_go_out(g, w, seat, pl.ENTRIES)
        count = add(w, count, w.entries, max(n, 0), last, True, Candidate.GO_OUT)
    elif decision == Decision.DISCARD:
        if must_discard_red3(g, seat):
            return add(w, count, w.entries, 0, RED3, False, Candidate.DISCARD)
        # Each discardable kind's key once (usefulness x KIND_SPAN + kind, as least_useful_card
        # ranks them: the least key is the least useful kind, the lowest on a tie), then the
        # least keys of the kinds not yet a candidate.
        keys = np.empty(N_KINDS, dtype=np.int64)
        for k in range(N_KINDS):
            keys[k] = NO_KEY
            if g.hand[seat, k] > 0 and check_discard(g, seat, k) == OK:
                keys[k] = discard_usefulness(g, seat, k, True, False, False) * KIND_SPAN + k
        for c in range(count):  # the base policy's own discard is a candidate already
            if 0 <= w.cand_value[c] < N_KINDS:
                keys[w.cand_value[c]] = NO_KEY
        for _ in range(discards):
            least = NO_KEY
            for k in range(N_KINDS):
                least = min(least, keys[k])
            if least == NO_KEY:
                break
            best = least & (KIND_SPAN - 1)
            keys[best] = NO_KEY
            count = add(w, count, w.entries, 0, best, False, Candidate.DISCARD)
    return count
