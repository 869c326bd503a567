"""The one dispatcher: every decision hook, routed by the seat's integer strategy id.

Calling kernels by id keeps numba's cache valid across processes (passing jitted functions as
arguments recompiles per matchup; DESIGN.md). A new compiled strategy adds its id here and in
``strategies.registry``.
"""

from __future__ import annotations

from numba import njit

from strategies import greedy, random_play, tactician, toolkit

RANDOM = 0
GREEDY = 1
TACTICIAN = 2  # also serves cautious, a fixed parameter vector


@njit(cache=True)
def choose_pickup(st, seat: int) -> int:
    """Entries (in ``st.entries``) to pick up the pile with, or 0 to draw."""
    if st.strategy[seat] == RANDOM:
        return random_play.choose_pickup(st, seat)
    if st.strategy[seat] == TACTICIAN:
        return tactician.choose_pickup(st, seat)
    return greedy.choose_pickup(st, seat)


@njit(cache=True)
def meld_phase(st, seat: int) -> int:
    """Lay melds through ``sim.melds.lay_line``; return 1 to ask to go out."""
    if st.strategy[seat] == RANDOM:
        return random_play.meld_phase(st, seat)
    if st.strategy[seat] == TACTICIAN:
        return tactician.meld_phase(st, seat)
    return greedy.meld_phase(st, seat)


@njit(cache=True)
def grant(st, seat: int, asker: int) -> bool:
    if st.strategy[seat] == RANDOM:
        return random_play.grant(st, seat, asker)
    if st.strategy[seat] == TACTICIAN:
        return tactician.grant(st, seat, asker)
    return greedy.grant(st, seat, asker)


@njit(cache=True)
def go_out(st, seat: int) -> int:
    """With a grant: meld everything; return the final discard or -1 (one shared plan)."""
    return toolkit.meld_out(st, seat)


@njit(cache=True)
def choose_discard(st, seat: int) -> int:
    if st.strategy[seat] == RANDOM:
        return random_play.choose_discard(st, seat)
    if st.strategy[seat] == TACTICIAN:
        return tactician.choose_discard(st, seat)
    return greedy.choose_discard(st, seat)
