"""The compiled side of recording positions for a learned evaluator (``handfoot learn``);
the driver that sizes the arrays and runs it is ``sim.play.recording``.

The loop is the ordinary game loop (``sim.play.loop``) with one addition: at a sample of the
decisions (each with chance ``sample_rate``, drawn from a key of the seed, game, deal, turn,
decision step and seat, so the sample never touches the game's or the strategies' streams and
is the same however the games are split), the deciding seat's sensible candidates are gathered
(``strategies.lookahead.candidates``, its base policy's choice first) and each becomes a row:
the features of the position it leads to, from the deciding seat's view
(``strategies.lookahead.features``), as the learned player computes them, and as target the
search's value of it, the mean outcome over ``worlds`` imagined deals played on to the end of
the deal by the seat's base policy in every seat (``strategies.search.pimc.evaluate``; the
outcome of ``strategies.search.rollout.value_for``: the side's deal score minus the best
other's, in the last deal the game margin and a bonus for winning it). Every candidate meets
the same worlds, so the targets of one decision differ by what the candidate changes, not by
luck: that is what a learned player choosing between them needs. Then, with chance
``explore``, a random candidate is played instead of the seat's own choice, so the games
visit positions the policy alone would not; otherwise the seat's own strategy plays, asked as
the game loop asks it (in a round of expert iteration: the learned player being trained, so
the positions are the ones it reaches).

With ``worlds = 0`` there is no search: one row per recorded decision, the candidate played,
its target the deal's realised outcome for the seat's side.
"""

from __future__ import annotations

import numpy as np

from sim.core.enums import NO_DECISION, Decision
from sim.core.rules import R_DEALS
from sim.engine import rng
from sim.engine.determinize import deal_world
from sim.engine.flow import apply_decision, ended, next_turn, start_deal
from sim.engine.jit import njit
from sim.engine.layout import (
    ENTRY_WIDTH,
    MAX_CANDIDATES,
    MAX_ENTRIES,
    S_CHECKED,
    S_DECIDER,
    S_DECISION,
    S_TURN,
    W_ENTRIES,
    W_LINES,
)
from sim.engine.position import copy_position
from sim.engine.scoring import N_PARTS
from sim.play.loop import ask_next, builtin_code, close_deal, decide, new_game
from strategies.learned.player import LEARNED_SALT, hides_cards
from strategies.lookahead import candidates as cands
from strategies.lookahead.candidates import BASELINE_POLICY
from strategies.lookahead.features import N_FEATURES, write_features
from strategies.lookahead.playing import decision_step, play_candidate, quiet, resume, world_key
from strategies.search.params import ROLLOUT_POLICY
from strategies.search.pimc import VIEW_FAIR, evaluate
from strategies.search.rollout import value_for

# Columns of the integer side of a recorded row.
(M_GAME, M_DEAL, M_SEAT, M_TURN, M_DECISION, M_CANDIDATE, M_CANDIDATES, M_INDEX) = range(8)
# A row's decision (game, deal, seat, turn, decision), its candidate's kind (Candidate), how
# many candidates the decision had, and the candidate's place among them (0: the base policy's
# choice; a decision's rows follow each other in that order).
META_COLUMNS = ("game", "deal", "seat", "turn", "decision", "candidate", "candidates",
                "index")
RECORD_DISCARDS = 3  # discard candidates gathered at a recorded decision (as the search does)
SAMPLE_SALT = 0x2545F4914F6CDD1D
# Rows reserved per deal and per unit of sample rate: a deal has about 200 decisions, and a
# long one (Simpson, 6 players) several times that.
ROWS_PER_DEAL = 1200


@njit(cache=True)
def _draw(seed: int, game: int, deal: int, turn: int, step: int, seat: int) -> float:
    """A uniform number in [0, 1) of this decision alone."""
    key = rng.world_key(seed, game, deal, turn, step, seat) ^ np.uint64(SAMPLE_SALT)
    return float(rng.mix64(key) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True)
def _record_row(g, w, seed: int, game: int, deal: int, seat: int, c: int, count: int,
                world, feats, meta, row: int) -> None:
    """One row: the features of ``world`` (the position after candidate ``c``) from
    ``seat``'s view, and what identifies it."""
    meta[row, M_GAME] = game
    meta[row, M_DEAL] = deal
    meta[row, M_SEAT] = seat
    meta[row, M_TURN] = g.sc[S_TURN]
    meta[row, M_DECISION] = g.sc[S_DECISION]
    meta[row, M_CANDIDATE] = w.cand_kind[c]
    meta[row, M_CANDIDATES] = count
    meta[row, M_INDEX] = c
    write_features(world, seat, w.feats)
    for j in range(N_FEATURES):
        feats[row, j] = w.feats[j]


@njit(cache=True)
def _searched_rows(g, w, t, x, seed: int, game: int, deal: int, seat: int, count: int,
                   worlds: int, label_horizon: int, label, kept, feats, meta, targets,
                   row: int) -> int:
    """Every candidate's row, its target the search's mean outcome over ``worlds`` imagined
    deals, every seat playing the seat's base policy: to the end of the deal, or with
    ``label_horizon`` > 0 (the leaf search) for that many of the seat's own turns and then
    valued by the value model ``label`` (swapped into ``w.value_model[seat]`` for the search
    alone, ``kept`` holding the seat's own model meanwhile). The features are those of the
    position after the candidate as the learned player sees it (``strategies.learned.player``:
    in one imagined deal where the decision can bring unseen cards, else on a copy of the
    position). Returns the rows written (0 when no world consistent with the decision was
    found)."""
    leaf = label_horizon > 0
    if leaf:
        for j in range(label.shape[0]):
            kept[j] = w.value_model[seat, j]
            w.value_model[seat, j] = label[j]
    found = evaluate(g, w, t, x, seat, VIEW_FAIR, (0.0, 1.0, 1.0), worlds, 0, ROLLOUT_POLICY,
                     0.0, label_horizon, count, leaf)
    if leaf:
        for j in range(label.shape[0]):
            w.value_model[seat, j] = kept[j]
    if not found:
        return 0
    trace_on, stream = quiet(w, t)
    if hides_cards(g.sc[S_DECISION]):
        deal_world(g, w, seat, x, 0, world_key(g, decision_step(g), 0) ^ LEARNED_SALT)
    else:
        copy_position(x, 0, g)
        x[0].sc[S_CHECKED] = 0
    for c in range(count):
        total = 0.0
        for k in range(worlds):
            total += w.world_values[c, k]
        targets[row + c] = total / worlds
        play_candidate(x, w, t, c)
        _record_row(g, w, seed, game, deal, seat, c, count, x[1], feats, meta, row + c)
    resume(w, t, trace_on, stream)
    return count


@njit(cache=True)
def _own_choice(g, w, t, x, guard, hooks, fast, saved, ends) -> int:
    """The seat's own strategy's proposal for the pending decision (the player being trained,
    asked as the game loop asks it), kept in ``saved`` and ``ends`` (its entries and line ends)
    and returned with its value; ``w.sc[W_ENTRIES]`` and ``w.sc[W_LINES]`` say how much. It is
    asked before the candidates are gathered, which a learned player would overwrite."""
    builtin = builtin_code(g, fast)
    if builtin != 0:
        value = ask_next(g, w, builtin)
    else:
        value = decide(g, w, t, x, guard, hooks, fast)
    if g.sc[S_DECISION] == Decision.PICK_UP:  # a pick-up's entries are not a line (as gathered)
        w.sc[W_ENTRIES] = max(value, 0)
    for i in range(w.sc[W_ENTRIES]):
        for j in range(ENTRY_WIDTH):
            saved[i, j] = w.prop[i, j]
    for i in range(w.sc[W_LINES]):
        ends[i] = w.prop_line_end[i]
    return value


@njit(cache=True)
def _restore(w, saved, ends, n: int, lines: int) -> None:
    """Put the proposal ``_own_choice`` kept back into ``w.prop``."""
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.prop[i, j] = saved[i, j]
    for i in range(lines):
        w.prop_line_end[i] = ends[i]
    w.sc[W_ENTRIES] = n
    w.sc[W_LINES] = lines


@njit(cache=True)
def _recorded_decision(g, w, t, x, guard, hooks, fast, seed: int, game: int, deal: int,
                       explore: float, worlds: int, label_horizon: int, label, kept, feats,
                       meta, targets, row: int, saved, ends) -> int:
    """Play the pending decision as a recorded one; returns the rows recorded. With
    ``worlds`` = 0 one row, the position after the move played (its target filled in when the
    deal ends); else a row per candidate, searched (``_searched_rows``).

    The move played is, with chance ``explore``, a random candidate; otherwise the seat's own
    strategy's choice (the learned player being trained, in a round of expert iteration), played
    as the candidate it matches (or as proposed, when it is none of them). ``saved`` and
    ``ends`` are scratch for that proposal (``_own_choice``), allocated once per chunk."""
    seat = g.sc[S_DECIDER]
    step = decision_step(g)
    own = _own_choice(g, w, t, x, guard, hooks, fast, saved, ends)
    n_own = w.sc[W_ENTRIES]
    lines_own = w.sc[W_LINES]
    count = cands.gather(g, w, t, x, seat, RECORD_DISCARDS, True, BASELINE_POLICY)
    rows = 0
    if worlds > 0 and count > 1:
        rows = _searched_rows(g, w, t, x, seed, game, deal, seat, count, worlds,
                              label_horizon, label, kept, feats, meta, targets, row)
    chosen = -1
    if count > 1 and _draw(seed, game, deal, g.sc[S_TURN], step, seat + 8) < explore:
        chosen = int(_draw(seed, game, deal, g.sc[S_TURN], step, seat + 16) * count)
    else:
        chosen = cands.find(w, count, saved, n_own, own)
    if chosen >= 0:
        cands.load(w, chosen)
        value = w.cand_value[chosen]
    else:
        _restore(w, saved, ends, n_own, lines_own)
        value = own
    if worlds == 0:
        targets[row] = np.nan  # the deal's outcome, once it ends
        apply_decision(g, w, t, value)
        _record_row(g, w, seed, game, deal, seat, max(chosen, 0), count, g, feats, meta, row)
        if chosen < 0:
            meta[row, M_CANDIDATE] = -1
            meta[row, M_INDEX] = -1
        return 1
    apply_decision(g, w, t, value)
    return rows


@njit(cache=True)
def record_games(g, w, t, x, guard, hooks, fast, seed: int, first_game: int, n_games: int,
                 out, sample_rate: float, explore: float, worlds: int, label_horizon: int,
                 label, feats, meta, targets) -> int:
    """Play games ``first_game`` .. + ``n_games`` (one row of ``out`` per deal) and record
    positions (``feats``, ``meta``, ``targets``), their targets searched to the end of the
    deal or, with ``label_horizon`` > 0, by the leaf search with the value model ``label``
    (``_searched_rows``); returns the rows recorded. Raises when the arrays are full (the
    caller sizes them for the sample rate)."""
    deals = g.rules[R_DEALS]
    parts = np.zeros(N_PARTS, dtype=np.int64)
    saved = np.empty((MAX_ENTRIES, ENTRY_WIDTH), dtype=np.int32)
    ends = np.empty(MAX_ENTRIES, dtype=np.int32)
    kept = np.empty(label.shape[0], dtype=np.float64)
    row = 0
    rows = 0
    for game in range(first_game, first_game + n_games):
        new_game(g)
        for deal in range(1, deals + 1):
            start_deal(g, w, t, seed, game, deal)
            first_row = rows
            while not ended(g):
                if g.sc[S_DECISION] == NO_DECISION:
                    next_turn(g, t)
                    continue
                if _draw(seed, game, deal, g.sc[S_TURN], decision_step(g),
                         g.sc[S_DECIDER]) < sample_rate:
                    if rows + MAX_CANDIDATES > feats.shape[0]:
                        raise ValueError("recording: more positions than reserved")
                    rows += _recorded_decision(g, w, t, x, guard, hooks, fast, seed, game,
                                               deal, explore, worlds, label_horizon, label,
                                               kept, feats, meta, targets, rows, saved, ends)
                    continue
                builtin = builtin_code(g, fast)
                if builtin != 0:
                    apply_decision(g, w, t, ask_next(g, w, builtin))
                else:
                    apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))
            for r in range(first_row, rows):
                if np.isnan(targets[r]):
                    targets[r] = value_for(g, meta[r, M_SEAT])
            close_deal(g, t, game, deal, out[row], parts)
            row += 1
    return rows


