"""Deal setup (R-D1..R-D5, R-X4, R-X16): shuffle the shoe, deal Hands and Feet, turn the pile."""

from __future__ import annotations

from numba import njit

from sim import events as ev
from sim import rng
from sim.cards import JOKER, N_KINDS, RED3, TWO
from sim.rules import (
    R_FOOT_SIZE,
    R_GRAB22_BONUS,
    R_GRAB22_PPM,
    R_HAND_SIZE,
    R_STARTING_CARD,
    R_TOTAL_CARDS,
    STARTING_BURY,
    STARTING_NONE,
)
from sim.state import (
    S_ASKED,
    S_DEAL,
    S_DEALER,
    S_ENDED,
    S_FROZEN_N,
    S_GAME,
    S_GRANTED,
    S_LINE,
    S_OUT_SEAT,
    S_PICKED_UP,
    S_PILE_N,
    S_PLAYERS,
    S_STOCK_N,
    S_TEAMS,
    S_TURN,
)


@njit(cache=True)
def dealer_of(players: int, deal: int) -> int:
    """R-X16: seat 0 starts deal 1; the dealer moves one seat left each deal (R-D5)."""
    return (players - 1 + deal - 1) % players


@njit(cache=True)
def reset(st) -> None:
    st.hand[:, :] = 0
    st.foot[:, :] = 0
    st.on_foot[:] = 0
    st.first_turn_done[:] = 0
    st.meld[:, :, :] = 0
    st.books[:, :] = 0
    st.rank_books[:, :] = 0
    st.booked[:, :] = 0
    st.grab22[:] = 0
    st.taken[:, :] = 0
    st.melded_value[:] = 0
    st.red3[:] = 0
    st.opened[:] = 0
    st.open_turn[:] = -1
    st.foot_turn[:] = -1
    for s in (S_TURN, S_ENDED, S_GRANTED, S_ASKED, S_PICKED_UP, S_LINE, S_FROZEN_N):
        st.sc[s] = 0
    st.sc[S_OUT_SEAT] = -1


@njit(cache=True)
def _bury(st, card: int) -> None:
    """R-D3, R-X4: put a card at a uniformly random position of the stock."""
    n = st.sc[S_STOCK_N]
    pos = rng.below(st.rng, rng.STREAM_DEAL, n + 1)
    for i in range(n, pos, -1):
        st.stock[i] = st.stock[i - 1]
    st.stock[pos] = card
    st.sc[S_STOCK_N] = n + 1


@njit(cache=True)
def setup_deal(st, seed: int, game: int, deal: int) -> None:
    """Shuffle and deal one deal; afterwards the state is TRACE.md's ``deal`` line."""
    reset(st)
    players = st.sc[S_PLAYERS]
    st.sc[S_DEAL] = deal
    st.sc[S_GAME] = game
    st.sc[S_DEALER] = dealer_of(players, deal)
    st.rng[rng.STREAM_DEAL] = rng.key(seed, game, deal, rng.STREAM_DEAL)
    st.rng[rng.STREAM_STRATEGY] = rng.key(seed, game, deal, rng.STREAM_STRATEGY)
    total = st.rules[R_TOTAL_CARDS]
    # Lay the shoe out in kind order, then shuffle it: the stock array is the shuffled shoe.
    i = 0
    for k in range(N_KINDS):
        for _ in range(st.deck[k]):
            st.stock[i] = k
            i += 1
    rng.shuffle(st.rng, rng.STREAM_DEAL, st.stock, total)
    n = total
    hand_size = st.rules[R_HAND_SIZE]
    foot_size = st.rules[R_FOOT_SIZE]
    for seat in range(players):
        for _ in range(hand_size):
            n -= 1
            st.hand[seat, st.stock[n]] += 1
    for seat in range(players):
        for _ in range(foot_size):
            n -= 1
            st.foot[seat, st.stock[n]] += 1
    st.sc[S_STOCK_N] = n
    st.sc[S_PILE_N] = 0
    start = st.rules[R_STARTING_CARD]
    if start != STARTING_NONE:  # R-V10: some profiles turn no starting card
        # R-D3: turn the top card; a red three or a wild is buried and another turned.
        while True:
            n = st.sc[S_STOCK_N] - 1
            card = st.stock[n]
            st.sc[S_STOCK_N] = n
            if start == STARTING_BURY and (card == RED3 or card == TWO or card == JOKER):
                _bury(st, card)
            else:
                break
        st.pile[0] = card
        st.sc[S_PILE_N] = 1
    _grab22(st, players)
    _emit_deal(st, players)


@njit(cache=True)
def _grab22(st, players: int) -> None:
    """R-V11: the exact-22 grab, a dexterity event modelled as a chance per player."""
    ppm = st.rules[R_GRAB22_PPM]
    if ppm == 0 or st.rules[R_GRAB22_BONUS] == 0:
        return
    teams = st.sc[S_TEAMS]
    for seat in range(players):
        if rng.below(st.rng, rng.STREAM_DEAL, 1_000_000) < ppm:
            st.grab22[seat % teams] += st.rules[R_GRAB22_BONUS]


@njit(cache=True)
def _emit_deal(st, players: int) -> None:
    e = ev.emit(
        st, ev.EV_DEAL, 0, st.sc[S_DEAL], st.sc[S_DEALER], st.sc[S_PILE_N], st.sc[S_STOCK_N]
    )
    if e < 0:
        return
    for part in range(2):
        for seat in range(players):
            for k in range(N_KINDS):
                count = st.hand[seat, k] if part == 0 else st.foot[seat, k]
                for _ in range(count):
                    ev.emit_card(st, e, k)
    for i in range(st.sc[S_PILE_N]):
        ev.emit_card(st, e, st.pile[i])
    for i in range(st.sc[S_STOCK_N] - 1, -1, -1):
        ev.emit_card(st, e, st.stock[i])
