"""Compiled helpers of the no-cheating test (tests/test_no_cheating.py).

``check_game`` plays a real game with the table's strategies and, at every decision, asks the
strategies' hooks the same question twice: on the game as dealt, and on a copy in which every
card the deciding seat cannot see is dealt anew. Any difference in a hook's answer (the value
it returns or the proposal it writes in ``w.prop``), or in what its meld lines do once laid,
stops the game and is reported in ``fail``.

What a seat cannot see (README, "Adding a compiled strategy"): the other hands except the
cards they are known to hold (``g.known``: taken from the pile), every Foot not yet picked up
(its own too), the stock's contents and order, the deal's random stream and the root seed.
``redeal`` pools all of those cards and deals them back at random into the same places in the
same numbers, so every count the seat can see stays, known cards stay with their holder, and
cards move between the stock, the other hands and the Feet (the stock changes in content, not
only in order). The deciding seat of the grant is the partner who answers the ask, so the
asker's hand is among the hidden cards there.

Written here, not taken from the engine (``sim.engine.determinize`` does the same for the
search players): the test must not share the product's idea of what is hidden.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.core.cards import N_KINDS
from sim.core.enums import NO_DECISION, Decision
from sim.core.records import N_COLUMNS, TeamField
from sim.core.rules import MAX_SEATS
from sim.engine.actions import lay_line
from sim.engine.finish import finish_deal, team_col
from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn, start_deal
from sim.engine.layout import (
    ENTRY_WIDTH,
    N_DECISIONS,
    S_DEAL,
    S_DECIDER,
    S_DECISION,
    S_PLAYERS,
    S_SEAT,
    S_SEED,
    S_STOCK_N,
    S_TEAMS,
    S_TURN,
    W_ENTRIES,
    W_LINES,
)
from sim.engine.scoring import N_PARTS
from sim.play.loop import decide

# Slots of ``stats`` (int64): checks per hook (0-4), then what the redeals changed.
ST_STOCK = 5  # checks where the stock's contents (not only its order) changed
ST_STOCK_BIG = 6  # checks where the stock held 10 cards or more
ST_OTHERS = 7  # checks where another hand's unknown cards changed
ST_ASKER = 8  # grant checks where the asker's (partner's) hand changed
ST_GRANT_VIEWS = 9  # grant checks where the asker held unknown cards
ST_PENDING = 10  # decisions met in play, by kind: 10..14
ST_FEET = 15  # checks where an unpicked Foot changed
N_STATS = 16

# Slots of ``fail`` (int64), filled when a hook's answers differ.
F_FAILED, F_HOOK, F_SEAT, F_DEAL, F_TURN, F_PENDING, F_WHAT = range(7)
F_VALUE_A, F_VALUE_B, F_ENTRIES_A, F_ENTRIES_B, F_LINES_A, F_LINES_B = range(7, 13)
N_FAIL = 13
WHAT = {1: "the value it returned", 2: "the proposal it wrote in w.prop",
        3: "what its meld lines did once laid (hand, melds, books)"}


@njit(cache=True)
def seed_redeals(seed: int) -> None:
    np.random.seed(seed)


@njit(cache=True)
def redeal(src, dst, index: int, viewer: int, keep_seed: bool, pool, stats) -> None:
    """``dst[index]`` = ``src`` with every card ``viewer`` cannot see dealt anew."""
    dst[index] = src
    d = dst[index]
    hand, known, foot, stock = src.hand, src.known, src.foot, src.stock
    new_hand, new_foot, new_stock = d.hand, d.foot, d.stock
    players = src.sc[S_PLAYERS]
    n = 0
    for s in range(players):
        if s != viewer:
            for k in range(N_KINDS):
                for _ in range(hand[s, k] - known[s, k]):
                    pool[n] = k
                    n += 1
        if src.on_foot[s] == 0:
            for k in range(N_KINDS):
                for _ in range(foot[s, k]):
                    pool[n] = k
                    n += 1
    n_stock = src.sc[S_STOCK_N]
    for j in range(n_stock):
        pool[n] = stock[j]
        n += 1
    for j in range(n - 1, 0, -1):  # Fisher-Yates
        r = np.random.randint(0, j + 1)
        pool[j], pool[r] = pool[r], pool[j]
    i = 0
    others = False
    feet = False
    for s in range(players):
        if s != viewer:
            unknown = 0
            for k in range(N_KINDS):
                new_hand[s, k] = known[s, k]
                unknown += hand[s, k] - known[s, k]
            for _ in range(unknown):
                new_hand[s, pool[i]] += 1
                i += 1
            for k in range(N_KINDS):
                others = others or new_hand[s, k] != hand[s, k]
        if src.on_foot[s] == 0:
            size = 0
            for k in range(N_KINDS):
                size += foot[s, k]
                new_foot[s, k] = 0
            for _ in range(size):
                new_foot[s, pool[i]] += 1
                i += 1
            for k in range(N_KINDS):
                feet = feet or new_foot[s, k] != foot[s, k]
    balance = np.zeros(N_KINDS, dtype=np.int64)
    for j in range(n_stock):
        balance[stock[j]] += 1
        balance[pool[i]] -= 1
        new_stock[j] = pool[i]
        i += 1
    for j in range(d.rng.shape[0]):
        d.rng[j] = np.uint64(np.random.randint(1, 1 << 62))
    if not keep_seed:
        d.sc[S_SEED] = np.random.randint(1 << 20, 1 << 30)
    for k in range(N_KINDS):
        if balance[k] != 0:
            stats[ST_STOCK] += 1  # the stock changed in content, not only in order
            break
    if n_stock >= 10:
        stats[ST_STOCK_BIG] += 1
    if others:
        stats[ST_OTHERS] += 1
    if feet:
        stats[ST_FEET] += 1


@njit(cache=True)
def ask(hooks, hook: int, seat: int, g, w, t, x) -> int:
    """One hook's answer from a cleared proposal buffer."""
    clear_proposal(w)
    w.prop[:] = 0
    w.prop_line_end[:] = 0
    return hooks[hook * MAX_SEATS + seat](g, w, t, x, seat)


@njit(cache=True)
def different(hook: int, va: int, wa, vb: int, wb) -> int:
    """0 when two answers are the same; else 1 (value) or 2 (proposal)."""
    if va != vb:
        return 1
    if wa.sc[W_ENTRIES] != wb.sc[W_ENTRIES] or wa.sc[W_LINES] != wb.sc[W_LINES]:
        return 2
    rows = wa.sc[W_ENTRIES]
    if hook == Decision.PICK_UP and va > rows:
        rows = va
    rows = min(max(rows, 0), wa.prop.shape[0])
    for r in range(rows):
        for c in range(ENTRY_WIDTH):
            if wa.prop[r, c] != wb.prop[r, c]:
                return 2
    for r in range(min(max(wa.sc[W_LINES], 0), wa.prop_line_end.shape[0])):
        if wa.prop_line_end[r] != wb.prop_line_end[r]:
            return 2
    return 0


@njit(cache=True)
def lay_all(g, w, t, seat: int, codes) -> None:
    """Lay the proposal's meld lines in order on ``g`` (a scratch copy); each line's code."""
    start = 0
    for i in range(min(w.sc[W_LINES], codes.shape[0])):
        end = w.prop_line_end[i]
        if end <= start or end > w.prop.shape[0]:
            codes[i] = -1
            return
        codes[i] = lay_line(g, w, t, seat, w.prop[start:end], end - start)
        start = end


@njit(cache=True)
def laid_differently(ga, wa, gb, wb, t, seat: int) -> bool:
    codes_a = np.zeros(64, dtype=np.int64)
    codes_b = np.zeros(64, dtype=np.int64)
    lay_all(ga, wa, t, seat, codes_a)
    lay_all(gb, wb, t, seat, codes_b)
    if np.any(codes_a != codes_b):
        return True
    team = seat % ga.sc[S_TEAMS]
    return (np.any(ga.hand[seat] != gb.hand[seat]) or np.any(ga.meld[team] != gb.meld[team])
            or np.any(ga.books[team] != gb.books[team])
            or np.any(ga.rank_books[team] != gb.rank_books[team])
            or np.any(ga.booked[team] != gb.booked[team]) or ga.opened[team] != gb.opened[team])


@njit(cache=True)
def check_point(g, w, t, x, hooks, every_hook: bool, keep_seed: bool, redeals: int, games,
                works, pool, stats, fail) -> bool:
    """Every hook (``every_hook``; else only the pending decision's) asked twice per redeal."""
    seat = g.sc[S_SEAT]
    pending = g.sc[S_DECISION]
    players = g.sc[S_PLAYERS]
    teams = g.sc[S_TEAMS]
    for hook in range(N_DECISIONS):
        if not every_hook and hook != pending:
            continue
        if hook == Decision.GRANT:
            if teams == players:
                continue  # individual play: nobody is asked (R-V9)
            viewer = g.sc[S_DECIDER] if pending == Decision.GRANT else (seat + teams) % players
        else:
            viewer = seat
        for _ in range(redeals):
            games[0] = g
            redeal(g, games, 1, viewer, keep_seed, pool, stats)
            if hook == Decision.GRANT:
                unknown = 0
                for k in range(N_KINDS):
                    unknown += g.hand[seat, k] - g.known[seat, k]
                if unknown > 0:
                    stats[ST_GRANT_VIEWS] += 1
                    if np.any(games[1].hand[seat] != g.hand[seat]):
                        stats[ST_ASKER] += 1
            works[0] = w
            works[1] = w
            va = ask(hooks, hook, viewer, games[0], works[0], t, x)
            vb = ask(hooks, hook, viewer, games[1], works[1], t, x)
            what = different(hook, va, works[0], vb, works[1])
            if what == 0 and (hook == Decision.MELD or hook == Decision.GO_OUT):
                if laid_differently(games[0], works[0], games[1], works[1], t, viewer):
                    what = 3
            stats[hook] += 1
            if what != 0:
                fail[F_FAILED] = 1
                fail[F_HOOK] = hook
                fail[F_SEAT] = viewer
                fail[F_DEAL] = g.sc[S_DEAL]
                fail[F_TURN] = g.sc[S_TURN]
                fail[F_PENDING] = pending
                fail[F_WHAT] = what
                fail[F_VALUE_A] = va
                fail[F_VALUE_B] = vb
                fail[F_ENTRIES_A] = works[0].sc[W_ENTRIES]
                fail[F_ENTRIES_B] = works[1].sc[W_ENTRIES]
                fail[F_LINES_A] = works[0].sc[W_LINES]
                fail[F_LINES_B] = works[1].sc[W_LINES]
                return False
    return True


@njit(cache=True)
def check_game(g, w, t, x, guard, hooks, fast, seed: int, game: int, deals: int,
               every_hook: bool, keep_seed: bool, redeals: int, max_points: int, games, works,
               pool, stats, fail) -> bool:
    """Play ``deals`` deals of a game; check the first ``max_points`` decisions of each."""
    teams = g.sc[S_TEAMS]
    row = np.zeros(N_COLUMNS, dtype=np.int64)
    parts = np.zeros(N_PARTS, dtype=np.int64)
    g.game_score[:] = 0
    for deal in range(1, deals + 1):
        start_deal(g, w, t, seed, game, deal)
        points = 0
        while not ended(g):
            if g.sc[S_DECISION] == NO_DECISION:
                next_turn(g, t)
                continue
            stats[ST_PENDING + g.sc[S_DECISION]] += 1
            if points < max_points:
                points += 1
                if not check_point(g, w, t, x, hooks, every_hook, keep_seed, redeals, games,
                                   works, pool, stats, fail):
                    return False
            apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))
        finish_deal(g, t, game, deal, row, parts)
        for team in range(teams):
            g.game_score[team] += row[team_col(TeamField.SCORE, team)]
    return True

