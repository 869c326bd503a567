"""Decisions played both ways: from a position, one choice and another are each played on to
the end of the deal on copies, the same deal (or the same imagined worlds) for both, so the
difference in outcome is the value of the choice and little else (common random numbers).

Used to measure a piece of advice decision by decision (``analysis.experiments.holding``):
here, melding the wilds the player's strategy would meld now, against holding them back.
"""

from __future__ import annotations

import numpy as np

from sim.core.cards import JOKER, TWO, WILD_RANK
from sim.core.enums import NO_DECISION, Decision
from sim.core.records import N_COLUMNS
from sim.core.rules import R_DEALS
from sim.engine import rng
from sim.engine.determinize import deal_world
from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn, start_deal
from sim.engine.jit import njit
from sim.engine.layout import (
    ENTRY_WIDTH,
    S_CHECKED,
    S_DEAL,
    S_DECIDER,
    S_DECISION,
    S_GAME,
    S_PLAYERS,
    S_SEED,
    S_TEAMS,
    S_TURN,
    T_ON,
    W_ENTRIES,
    W_LINES,
)
from sim.engine.legal import check_line, foot_count, held_count, team_of
from sim.engine.position import copy_position
from sim.engine.reasons import OK
from sim.engine.scoring import N_PARTS, deal_score
from sim.play.loop import close_deal, decide, new_game
from strategies.proposals import propose_line

# Copies of the game this module plays on (a search player at the table uses 0 and 1).
BRANCH = 2
WORLD = 3

# Columns of a branched position's row (``collect_holds``).
F_DEAL = 0
F_ON_FOOT = 1
F_HELD = 2  # cards held before the decision
F_WILDS_HELD = 3
F_WILD_BOOKS = 4  # the partnership's wild books
F_PARTNER_ON_FOOT = 5  # every partner on the Foot (1), or not (0); -1 in individual play
F_FEWEST_OPPONENT = 6  # fewest cards held (Hand or Foot) by an opponent
F_WILDS_MELDED = 7  # wilds the strategy's line melds now
F_MELD = 8  # outcome when the line is laid as the strategy proposed (deal margin)
F_HOLD = 9  # outcome when its wilds are held back
F_SEAT = 10
F_GAME = 11
F_TURN = 12
N_FEATURES = 13


@njit(cache=True)
def margin(g, seat: int) -> float:
    """The deal's score for ``seat``'s partnership minus the best other partnership's."""
    own = team_of(g, seat)
    ours = 0.0
    best = -1e18
    for team in range(g.sc[S_TEAMS]):
        score = float(deal_score(g, team))
        if team == own:
            ours = score
        elif score > best:
            best = score
    return ours - best


@njit(cache=True)
def strip_wilds(g, w, seat: int, src, n: int, dst) -> int:
    """The meld line ``src`` without its wilds: wild melds dropped, natural entries kept with
    their naturals only, entries that are then too small dropped; -1 when what is left is not a
    legal line (the player would then lay nothing: a line of 0 entries is returned)."""
    m = 0
    for i in range(n):
        if src[i, 0] == WILD_RANK or src[i, 1] == 0:
            continue
        for j in range(ENTRY_WIDTH):
            dst[m, j] = src[i, j]
        dst[m, 2] = 0
        dst[m, 3] = 0
        m += 1
    while m > 0 and check_line(g, w, seat, dst, m) != OK:
        m -= 1  # drop from the end until legal (the last entries depend on the first)
    return m


@njit(cache=True)
def play_to_end(g, w, t, x, guard, hooks, fast) -> None:
    while not ended(g):
        if g.sc[S_DECISION] == NO_DECISION:
            next_turn(g, t)
        else:
            apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))


@njit(cache=True)
def play_to_wild_meld(g, w, t, x, guard, hooks, fast) -> bool:
    """Play the deal on, each seat as its strategy decides, up to the next meld decision where
    the strategy's proposal (one line of at most 32 entries, after its partnership opened)
    melds a wild: True with that proposal in ``w.prop``, not yet applied; False once the deal
    has ended. Lets Python code look at those positions alone without asking every decision
    through the dispatcher (``analysis.experiments.search_choice``), which costs milliseconds
    a call for the hooks tuple."""
    while not ended(g):
        if g.sc[S_DECISION] == NO_DECISION:
            next_turn(g, t)
            continue
        seat = g.sc[S_DECIDER]
        value = decide(g, w, t, x, guard, hooks, fast)
        if g.sc[S_DECISION] == Decision.MELD and value == 0 and w.sc[W_LINES] == 1 \
                and w.sc[W_ENTRIES] <= 32 and g.opened[team_of(g, seat)] == 1 \
                and line_wilds(w) > 0:
            return True
        apply_decision(g, w, t, value)
    return False


@njit(cache=True)
def line_wilds(w) -> int:
    """The wilds the proposal's line in ``w.prop`` melds (on natural melds and in wild ones)."""
    total = 0
    for i in range(w.sc[W_ENTRIES]):
        total += w.prop[i, 2] + w.prop[i, 3]
    return total


@njit(cache=True)
def _features(g, seat: int, row) -> None:
    teams = g.sc[S_TEAMS]
    players = g.sc[S_PLAYERS]
    team = team_of(g, seat)
    row[F_DEAL] = g.sc[S_DEAL]
    row[F_ON_FOOT] = g.on_foot[seat]
    row[F_HELD] = held_count(g, seat)
    row[F_WILDS_HELD] = g.hand[seat, TWO] + g.hand[seat, JOKER]
    row[F_WILD_BOOKS] = g.books[team, 2]
    partner = -1
    if teams != players:
        partner = 1
        for s in range(team, players, teams):
            if s != seat and g.on_foot[s] == 0:
                partner = 0
    row[F_PARTNER_ON_FOOT] = partner
    fewest = 1 << 20
    for s in range(players):
        if team_of(g, s) != team:
            fewest = min(fewest, held_count(g, s) + foot_count(g, s))
    row[F_FEWEST_OPPONENT] = fewest
    row[F_SEAT] = seat
    row[F_GAME] = g.sc[S_GAME]
    row[F_TURN] = g.sc[S_TURN]


@njit(cache=True)
def collect_holds(g, w, t, x, guard, hooks, fast, seed: int, first_game: int, games: int,
                  out) -> int:
    """Play games with the seats' strategies; at every meld decision where the strategy's
    line melds a wild after its partnership has opened, play the rest of the deal both ways on
    copies of the real deal — the line as proposed, and the line with its wilds held back —
    and record the situation and both outcomes (a row of ``out``). The game itself goes on
    with the strategy's own choice, deal after deal of the rule set, each from the game score
    the deals before it left (``sim.play.loop.close_deal``), as in real play. Returns the rows
    written."""
    rows = 0
    trace_on = t.sc[T_ON]
    t.sc[T_ON] = 0
    record = np.zeros(N_COLUMNS, dtype=np.int64)
    parts = np.zeros(N_PARTS, dtype=np.int64)
    for game in range(first_game, first_game + games):
        new_game(g)
        for deal in range(1, g.rules[R_DEALS] + 1):
            start_deal(g, w, t, seed, game, deal)
            while play_to_wild_meld(g, w, t, x, guard, hooks, fast):
                if rows < out.shape[0]:
                    _branch(g, w, t, x, guard, hooks, fast, g.sc[S_DECIDER], out[rows])
                    rows += 1
                apply_decision(g, w, t, 0)  # the strategy's own line (value 0, a meld)
            close_deal(g, t, game, deal, record, parts)  # the next deal starts from the score
    t.sc[T_ON] = trace_on
    return rows


@njit(cache=True)
def _branch(g, w, t, x, guard, hooks, fast, seat: int, row) -> None:
    """Both ways from ``g``, at a position ``play_to_wild_meld`` stopped at (the strategy's
    proposal, one line that melds a wild, is in ``w.prop``); the proposal put back after."""
    n = w.sc[W_ENTRIES]
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.branch_prop[i, j] = w.prop[i, j]
    _features(g, seat, row)
    row[F_WILDS_MELDED] = line_wilds(w)
    saved_rng = w.rng[rng.STREAM_STRATEGY]
    # as proposed
    copy_position(x, BRANCH, g)
    x[BRANCH].sc[S_CHECKED] = 0
    apply_decision(x[BRANCH], w, t, 0)
    play_to_end(x[BRANCH], w, t, x, guard, hooks, fast)
    row[F_MELD] = margin(x[BRANCH], seat)
    # wilds held back, from the same deal and the same strategies' stream
    w.rng[rng.STREAM_STRATEGY] = saved_rng
    copy_position(x, BRANCH, g)
    x[BRANCH].sc[S_CHECKED] = 0
    m = strip_wilds(x[BRANCH], w, seat, w.branch_prop, n, w.entries)
    clear_proposal(w)
    propose_line(w, w.entries, m)  # nothing left to meld: no line at all
    apply_decision(x[BRANCH], w, t, 0)
    play_to_end(x[BRANCH], w, t, x, guard, hooks, fast)
    row[F_HOLD] = margin(x[BRANCH], seat)
    # the real game goes on with the strategy's own proposal
    w.rng[rng.STREAM_STRATEGY] = saved_rng
    clear_proposal(w)
    propose_line(w, w.branch_prop, n)


@njit(cache=True)
def hold_or_meld_in_worlds(g, w, t, x, guard, hooks, fast, seat: int, worlds: int,
                           out) -> None:
    """For a constructed position whose pending meld decision is ``seat``'s: in each of
    ``worlds`` imagined deals of the cards it cannot see, the outcome of its strategy's line
    (``out[k, 0]``) and of the same line with its wilds held back (``out[k, 1]``)."""
    trace_on = t.sc[T_ON]
    t.sc[T_ON] = 0
    value = decide(g, w, t, x, guard, hooks, fast)
    n = w.sc[W_ENTRIES]
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.branch_prop[i, j] = w.prop[i, j]
    for k in range(worlds):
        key = rng.world_key(g.sc[S_SEED], g.sc[S_GAME], g.sc[S_DEAL], g.sc[S_TURN], 77, k)
        for branch in range(2):
            deal_world(g, w, seat, x, WORLD, key)
            copy_position(x, BRANCH, x[WORLD])
            w.rng[rng.STREAM_STRATEGY] = key
            w.sc[W_LINES] = 0
            w.sc[W_ENTRIES] = 0
            m = n if branch == 0 else strip_wilds(x[BRANCH], w, seat, w.branch_prop, n, w.entries)
            src = w.branch_prop if branch == 0 else w.entries
            for i in range(m):
                for j in range(ENTRY_WIDTH):
                    w.prop[i, j] = src[i, j]
            if m > 0:
                w.prop_line_end[0] = m
                w.sc[W_LINES] = 1
                w.sc[W_ENTRIES] = m
            apply_decision(x[BRANCH], w, t, value if branch == 0 else 0)
            play_to_end(x[BRANCH], w, t, x, guard, hooks, fast)
            out[k, branch] = margin(x[BRANCH], seat)
    t.sc[T_ON] = trace_on

