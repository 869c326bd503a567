"""A deal as a sequence of decisions: the engine runs every forced step itself and stops where
a player must choose, recording which decision (``S_DECISION``) and whose (``S_DECIDER``).

A driver (``sim.play.loop`` for whole games, a search player's rollouts) asks the deciding
seat's strategy for a proposal and hands it to ``apply_decision``, which validates it with
``sim.engine.legal``, applies it through ``sim.engine.actions`` and runs on to the next
decision of the same turn. After a turn's discard nothing is pending (``NO_DECISION``) while the
deal goes on; ``next_turn`` then starts the next seat's turn. So a driver loops::

    while not ended(g):
        if g.sc[S_DECISION] == NO_DECISION:
            next_turn(g, t)
        else:
            apply_decision(g, w, t, <the deciding seat's hook>)
 A refused proposal raises ``IllegalProposal`` with the rule's refusal code in
``g.sc[S_ERROR]``: a strategy bug is never silent, in any mode. Because the pending decision
lives in the game record, play can stop after any decision and go on from a copy.

The turn (R-T1): starting red threes (R-X8) and an empty Hand's Foot (R-F3, R-X10) come first;
then pick up or draw; then meld, taking the Foot at once when the Hand empties (R-F2, R-X5),
possibly asking to go out (R-G3, R-V9); then discard.
"""

from __future__ import annotations

from sim.core.cards import RED3
from sim.core.enums import NO_DECISION, Decision, Ending
from sim.engine import events as ev
from sim.engine import rng
from sim.engine.actions import (
    apply_pickup,
    discard,
    draw,
    expose_red3,
    go_out,
    lay_line_or_abandon,
    pick_up_foot,
    red3_to_expose,
    stock_can_draw,
)
from sim.engine.audit import check_conservation
from sim.engine.deal import setup_deal
from sim.engine.jit import njit
from sim.engine.layout import (
    S_ASKED,
    S_DEALER,
    S_DECIDER,
    S_DECISION,
    S_ENDED,
    S_ERROR,
    S_ERROR_DECISION,
    S_ERROR_SEAT,
    S_GRANTED,
    S_PICKED_UP,
    S_PLAYERS,
    S_SEAT,
    S_TEAMS,
    S_TURN,
    S_WANT_OUT,
    TURN_CAP,
    W_ENTRIES,
    W_LINES,
)
from sim.engine.legal import held_count, may_go_out, next_seat
from sim.engine.reasons import (
    E_ASK_NOT_ALLOWED,
    E_BAD_ANSWER,
    E_NOT_OUT,
    E_SHAPE,
    OK,
    IllegalProposal,
)


@njit(inline="always")
def ended(g) -> bool:
    return g.sc[S_ENDED] != Ending.NONE


@njit(inline="always")
def _wait_for(g, decision: int, seat: int) -> None:
    g.sc[S_DECISION] = decision
    g.sc[S_DECIDER] = seat


@njit(inline="always")
def _stop(g) -> None:
    """Nothing pending: the deal is over, or (not ended) the turn is."""
    g.sc[S_DECISION] = NO_DECISION
    g.sc[S_DECIDER] = -1


@njit(cache=True)
def _refuse(g, decision: int, seat: int, reason: int) -> None:
    g.sc[S_ERROR] = reason
    g.sc[S_ERROR_DECISION] = decision
    g.sc[S_ERROR_SEAT] = seat
    _stop(g)
    raise IllegalProposal("a strategy's proposal was refused (rule in the game record)")


@njit(inline="always")
def clear_proposal(w) -> None:
    w.sc[W_LINES] = 0
    w.sc[W_ENTRIES] = 0


# --- forced steps ----------------------------------------------------------------------------


@njit(cache=True)
def start_deal(g, w, t, seed: int, game: int, deal: int) -> None:
    """Shuffle and deal (R-D), key the strategies' stream, and run to the first decision."""
    deal_cards(g, w, t, seed, game, deal)
    first_turn(g, t)


@njit(cache=True)
def deal_cards(g, w, t, seed: int, game: int, deal: int) -> None:
    """Shuffle and deal (R-D) and key the strategies' stream; nobody has played yet."""
    setup_deal(g, t, seed, game, deal)
    w.rng[rng.STREAM_STRATEGY] = rng.key(seed, game, deal, rng.STREAM_STRATEGY)
    check_conservation(g)


@njit(cache=True)
def first_turn(g, t) -> None:
    """The player left of the dealer starts (R-D4)."""
    start_turn(g, t, (g.sc[S_DEALER] + 1) % g.sc[S_PLAYERS])


@njit(cache=True)
def next_turn(g, t) -> None:
    """Between turns: the next seat in turn order (R-D4) starts its turn."""
    start_turn(g, t, next_seat(g, g.sc[S_SEAT]))


@njit(cache=True)
def start_turn(g, t, seat: int) -> None:
    """``seat``'s turn begins: the forced steps, then its pick-up decision."""
    g.sc[S_TURN] += 1
    if g.sc[S_TURN] > TURN_CAP:
        g.sc[S_TURN] = TURN_CAP
        g.sc[S_ENDED] = Ending.TRUNCATED
        _stop(g)
        return
    g.sc[S_SEAT] = seat
    g.sc[S_GRANTED] = 0
    g.sc[S_ASKED] = 0
    g.sc[S_PICKED_UP] = 0
    g.sc[S_WANT_OUT] = 0
    if g.first_turn_done[seat] == 0:  # R-X8: starting-Hand red threes, before the turn
        g.first_turn_done[seat] = 1
        expose_red3(g, t, seat, g.hand[seat, RED3])
        check_conservation(g)
        if ended(g):
            _stop(g)
            return
    if held_count(g, seat) == 0 and g.on_foot[seat] == 0:
        pick_up_foot(g, t, seat)  # R-F3, R-X10
        check_conservation(g)
        if ended(g):
            _stop(g)
            return
    _wait_for(g, Decision.PICK_UP, seat)


@njit(inline="always")
def _to_melds(g, t, seat: int) -> None:
    """Before each meld decision: an emptied Hand takes the Foot at once (R-F2, R-X5)."""
    if held_count(g, seat) == 0 and g.on_foot[seat] == 0:
        pick_up_foot(g, t, seat)
        check_conservation(g)
        if ended(g):
            _stop(g)
            return
    _wait_for(g, Decision.MELD, seat)


@njit(cache=True)
def _lay_proposed_lines(g, w, t, seat: int) -> int:
    """Lay every meld line of the proposal in order; OK, or the first refused line's reason
    at once (the proposal is then refused: ``apply_decision``)."""
    start = 0
    for i in range(w.sc[W_LINES]):
        end = w.prop_line_end[i]
        if end <= start or end > w.prop.shape[0]:
            return E_SHAPE
        reason = lay_line_or_abandon(g, w, t, seat, w.prop[start:end], end - start)
        if reason != OK:
            return reason
        start = end
    check_conservation(g)
    return OK


# --- applying proposals ----------------------------------------------------------------------
# Each decision's proposal is applied by a function of its own that returns OK or the reason
# it was refused, the moment it is refused; ``apply_decision`` alone refuses. Compiled code
# zero-fills two stack slots for every call a function makes, on every entry, taken or not:
# one function applying every kind of decision paid for all their calls at each decision.


@njit(cache=True)
def _pick_up(g, w, t, seat: int, n: int) -> int:
    """The pick-up with the proposal's ``n`` entries (a function of its own, so a draw does
    not pay for its calls)."""
    reason = apply_pickup(g, w, t, seat, w.prop, n)
    if reason != OK:
        return reason
    check_conservation(g)
    expose_red3(g, t, seat, red3_to_expose(g, seat))  # a kept starting red three (R-T3)
    check_conservation(g)
    return OK


@njit(cache=True)
def _apply_pickup_or_draw(g, w, t, seat: int, n: int) -> int:
    if n < 0 or n > w.prop.shape[0]:
        return E_SHAPE
    if n > 0:
        reason = _pick_up(g, w, t, seat, n)
        if reason != OK:
            return reason
    else:
        if not stock_can_draw(g, t):  # R-E1, R-X2, R-X17; a frozen pile comes back (R-V8)
            g.sc[S_ENDED] = Ending.STOCK
            _stop(g)
            return OK
        draw(g, t, seat)
        check_conservation(g)
    if ended(g):
        _stop(g)
        return OK
    _to_melds(g, t, seat)
    return OK


@njit(cache=True)
def _apply_melds(g, w, t, seat: int, want_out: int) -> int:
    reason = _lay_proposed_lines(g, w, t, seat)
    if reason != OK:
        return reason
    if held_count(g, seat) == 0 and g.on_foot[seat] == 0:
        _to_melds(g, t, seat)
        return OK
    if want_out == 1 and g.sc[S_ASKED] == 0:
        if not may_go_out(g, seat):
            return E_ASK_NOT_ALLOWED
        g.sc[S_ASKED] = 1
        g.sc[S_WANT_OUT] = 1
        players = g.sc[S_PLAYERS]
        teams = g.sc[S_TEAMS]
        if teams == players:  # R-V9: in individual play nobody is asked
            g.sc[S_GRANTED] = 1
            _wait_for(g, Decision.GO_OUT, seat)
        else:  # R-G3: the next partner in turn order answers
            _wait_for(g, Decision.GRANT, (seat + teams) % players)
        return OK
    _wait_for(g, Decision.DISCARD, seat)
    return OK


@njit(cache=True)
def _apply_grant(g, t, answer: int) -> int:
    asker = g.sc[S_SEAT]
    if answer != 0 and answer != 1:
        return E_BAD_ANSWER
    g.sc[S_GRANTED] = answer
    ev.emit(t, ev.EV_ASK, asker, answer, 0, 0, 0)
    if answer == 1:
        _wait_for(g, Decision.GO_OUT, asker)
    else:
        _to_melds(g, t, asker)
    return OK


@njit(cache=True)
def _apply_go_out(g, w, t, seat: int, last: int) -> int:
    reason = _lay_proposed_lines(g, w, t, seat)
    if reason != OK:
        return reason
    if last >= 0:
        reason = discard(g, t, seat, last)
        if reason != OK:
            return reason
        check_conservation(g)
    if held_count(g, seat) != 0:
        return E_NOT_OUT
    go_out(g, t, seat)  # R-G3
    _stop(g)
    return OK


@njit(cache=True)
def _apply_discard(g, t, seat: int, kind: int) -> int:
    reason = discard(g, t, seat, kind)
    if reason != OK:
        return reason
    check_conservation(g)
    g.last_discard[seat] = kind  # public: a search infers hands from it
    _stop(g)  # the turn is over; the deal goes on with next_turn
    return OK


@njit(cache=True)
def apply_decision(g, w, t, value: int) -> None:
    """Validate and apply the pending decision's proposal (``value`` is the hook's return;
    meld lines and pick-up entries are in ``w.prop``), then run to the next decision. A
    refused proposal raises ``IllegalProposal`` (the game record as the refusal left it)."""
    decision = g.sc[S_DECISION]
    seat = g.sc[S_DECIDER]
    if decision == Decision.PICK_UP:
        reason = _apply_pickup_or_draw(g, w, t, seat, value)
    elif decision == Decision.MELD:
        reason = _apply_melds(g, w, t, seat, value)
    elif decision == Decision.GRANT:
        reason = _apply_grant(g, t, value)
    elif decision == Decision.GO_OUT:
        reason = _apply_go_out(g, w, t, seat, value)
    elif decision == Decision.DISCARD:
        reason = _apply_discard(g, t, seat, value)
    else:
        raise AssertionError("apply_decision called with no decision pending")
    if reason != OK:
        _refuse(g, decision, seat, reason)
