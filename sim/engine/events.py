"""The event buffer: what the engine appends while tracing, decoded to JSONL by
``sim.runs.trace``.

A row is ``[type, seat, a, b, c, d, card_offset, card_count]``; variable-length card lists
(a draw, a pick-up, a meld entry, the deal itself) go to a separate int8 card stream. When
tracing is off every ``emit`` returns at once, so the hot loop pays one branch.
"""

from __future__ import annotations

from sim.core.cards import JOKER, TWO
from sim.engine.jit import njit
from sim.engine.layout import EVENT_WIDTH, T_EV_N, T_EVC_N, T_ON

EV_DEAL = 1  # a=deal, b=dealer, c=discard cards, d=stock cards; cards: hands, feet, pile, stock
EV_RED3 = 2  # seat, a=count; cards: replacements in order
EV_FOOT = 3  # seat
EV_DRAW = 4  # seat; cards
EV_PICKUP = 5  # seat, a=meld line id; cards: taken, top first
EV_MELD = 6  # seat, a=rank, b=line id; cards: the entry's cards
EV_ASK = 7  # seat, a=granted
EV_DISCARD = 8  # seat, a=card
EV_OUT = 9  # seat
EV_END = 10  # a=end code
EV_SCORE = 11  # seat=team, a=melded, b=left, c=red3, d=books, [6]=out, [7]=grab22
EV_FREEZE = 12  # seat; cards: the pile set aside, bottom to top (R-V8)
EV_RESTOCK = 13  # cards: set-aside cards in their new order, first drawn first (R-V8)


@njit(cache=True)
def emit(t, etype: int, seat: int, a: int, b: int, c: int, d: int) -> int:
    """Append one event row; returns its index (or -1 when not tracing)."""
    if t.sc[T_ON] == 0:
        return -1
    i = t.sc[T_EV_N]
    if i >= t.ev.shape[0]:
        raise RuntimeError("trace event buffer full: trace fewer games per call")
    row = t.ev[i]
    row[0] = etype
    row[1] = seat
    row[2] = a
    row[3] = b
    row[4] = c
    row[5] = d
    row[6] = t.sc[T_EVC_N]
    row[7] = 0
    t.sc[T_EV_N] = i + 1
    return i


@njit(cache=True)
def emit_card(t, ev_index: int, kind: int) -> None:
    """Append one card to the list of event ``ev_index``."""
    if ev_index < 0:
        return
    j = t.sc[T_EVC_N]
    if j >= t.evc.shape[0]:
        raise RuntimeError("trace card buffer full: trace fewer games per call")
    t.evc[j] = kind
    t.sc[T_EVC_N] = j + 1
    t.ev[ev_index, 7] += 1


@njit(cache=True)
def emit_counts(t, ev_index: int, nat_kind: int, nat: int, twos: int, jokers: int) -> None:
    """Append a meld entry's cards: naturals first, then twos, then jokers."""
    if ev_index < 0:
        return
    for _ in range(nat if nat_kind >= 0 else 0):
        emit_card(t, ev_index, nat_kind)
    for _ in range(twos):
        emit_card(t, ev_index, TWO)
    for _ in range(jokers):
        emit_card(t, ev_index, JOKER)


assert EVENT_WIDTH == 8
