"""The event buffer: what the engine appends while tracing, decoded to JSONL by ``sim.trace``.

A row is ``[type, seat, a, b, c, d, card_offset, card_count]``; variable-length card lists
(a draw, a pick-up, a meld entry, the deal itself) go to a separate int8 card stream. When
tracing is off every ``emit`` returns at once, so the hot loop pays one branch.
"""

from __future__ import annotations

from numba import njit

from sim.state import EVENT_WIDTH, S_EV_N, S_EVC_N, S_TRACE

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
def emit(st, etype: int, seat: int, a: int, b: int, c: int, d: int) -> int:
    """Append one event row; returns its index (or -1 when not tracing)."""
    if st.sc[S_TRACE] == 0:
        return -1
    i = st.sc[S_EV_N]
    if i >= st.ev.shape[0]:
        raise RuntimeError("trace event buffer full: trace fewer games per call")
    row = st.ev[i]
    row[0] = etype
    row[1] = seat
    row[2] = a
    row[3] = b
    row[4] = c
    row[5] = d
    row[6] = st.sc[S_EVC_N]
    row[7] = 0
    st.sc[S_EV_N] = i + 1
    return i


@njit(cache=True)
def emit_card(st, ev_index: int, kind: int) -> None:
    """Append one card to the list of event ``ev_index``."""
    if ev_index < 0:
        return
    j = st.sc[S_EVC_N]
    if j >= st.evc.shape[0]:
        raise RuntimeError("trace card buffer full: trace fewer games per call")
    st.evc[j] = kind
    st.sc[S_EVC_N] = j + 1
    st.ev[ev_index, 7] += 1


@njit(cache=True)
def emit_counts(st, ev_index: int, nat_kind: int, nat: int, twos: int, jokers: int) -> None:
    """Append a meld entry's cards: naturals first, then twos, then jokers."""
    if ev_index < 0:
        return
    for _ in range(nat if nat_kind >= 0 else 0):
        emit_card(st, ev_index, nat_kind)
    for _ in range(twos):
        emit_card(st, ev_index, 11)
    for _ in range(jokers):
        emit_card(st, ev_index, 12)


assert EVENT_WIDTH == 8
