"""Deal setup (R-D1..R-D5, R-X4, R-X16): shuffle the shoe, deal Hands and Feet, turn the pile."""

from __future__ import annotations

from sim.core.cards import JOKER, N_KINDS, RED3, TWO
from sim.core.rules import (
    R_FOOT_SIZE,
    R_GRAB22_BONUS,
    R_GRAB22_PPM,
    R_HAND_SIZE,
    R_STARTING_CARD,
    R_TOTAL_CARDS,
    STARTING_BURY,
    STARTING_NONE,
)
from sim.engine import events as ev
from sim.engine import rng
from sim.engine.jit import njit
from sim.engine.layout import (
    S_ASKED,
    S_DEAL,
    S_DEALER,
    S_ENDED,
    S_ERROR,
    S_FROZEN_N,
    S_GAME,
    S_GRANTED,
    S_LINE,
    S_OUT_SEAT,
    S_PICKED_UP,
    S_PILE_N,
    S_PLAYERS,
    S_SEED,
    S_STOCK_N,
    S_TURN,
    S_WANT_OUT,
)
from sim.engine.legal import team_of


@njit(cache=True)
def dealer_of(players: int, deal: int) -> int:
    """R-X16: seat 0 starts deal 1; the dealer moves one seat left each deal (R-D5)."""
    return (players - 1 + deal - 1) % players


@njit(cache=True)
def reset(g) -> None:
    g.hand[:, :] = 0
    g.foot[:, :] = 0
    g.on_foot[:] = 0
    g.first_turn_done[:] = 0
    g.meld[:, :, :] = 0
    g.books[:, :] = 0
    g.rank_books[:, :] = 0
    g.booked[:, :] = 0
    g.grab22[:] = 0
    g.taken[:, :] = 0
    g.known[:, :] = 0
    g.melded_value[:] = 0
    g.red3[:] = 0
    g.opened[:] = 0
    g.pickups[:] = 0
    g.open_turn[:] = -1
    g.foot_turn[:] = -1
    g.last_discard[:] = -1
    for s in (S_TURN, S_ENDED, S_GRANTED, S_ASKED, S_PICKED_UP, S_LINE, S_FROZEN_N, S_ERROR,
              S_WANT_OUT):
        g.sc[s] = 0
    g.sc[S_OUT_SEAT] = -1


@njit(cache=True)
def _bury(g, card: int) -> None:
    """R-D3, R-X4: put a card at a uniformly random position of the stock."""
    n = g.sc[S_STOCK_N]
    pos = rng.below(g.rng, rng.STREAM_DEAL, n + 1)
    for i in range(n, pos, -1):
        g.stock[i] = g.stock[i - 1]
    g.stock[pos] = card
    g.sc[S_STOCK_N] = n + 1


@njit(cache=True)
def setup_deal(g, t, seed: int, game: int, deal: int) -> None:
    """Shuffle and deal one deal; afterwards the state is docs/trace.md's ``deal`` line."""
    reset(g)
    players = g.sc[S_PLAYERS]
    g.sc[S_DEAL] = deal
    g.sc[S_GAME] = game
    g.sc[S_DEALER] = dealer_of(players, deal)
    g.sc[S_SEED] = seed
    g.rng[rng.STREAM_DEAL] = rng.key(seed, game, deal, rng.STREAM_DEAL)
    total = g.rules[R_TOTAL_CARDS]
    # Lay the shoe out in kind order, then shuffle it: the stock array is the shuffled shoe.
    i = 0
    for k in range(N_KINDS):
        for _ in range(g.deck[k]):
            g.stock[i] = k
            i += 1
    rng.shuffle(g.rng, rng.STREAM_DEAL, g.stock, total)
    n = total
    hand_size = g.rules[R_HAND_SIZE]
    foot_size = g.rules[R_FOOT_SIZE]
    for seat in range(players):
        for _ in range(hand_size):
            n -= 1
            g.hand[seat, g.stock[n]] += 1
    for seat in range(players):
        for _ in range(foot_size):
            n -= 1
            g.foot[seat, g.stock[n]] += 1
    g.sc[S_STOCK_N] = n
    g.sc[S_PILE_N] = 0
    start = g.rules[R_STARTING_CARD]
    if start != STARTING_NONE:  # R-V10: some profiles turn no starting card
        # R-D3: turn the top card; a red three or a wild is buried and another turned.
        while True:
            n = g.sc[S_STOCK_N] - 1
            card = g.stock[n]
            g.sc[S_STOCK_N] = n
            if start == STARTING_BURY and (card == RED3 or card == TWO or card == JOKER):
                _bury(g, card)
            else:
                break
        g.pile[0] = card
        g.sc[S_PILE_N] = 1
    _grab22(g, players)
    _emit_deal(g, t, players)


@njit(cache=True)
def _grab22(g, players: int) -> None:
    """R-V11: the exact-22 grab, a dexterity event modelled as a chance per player."""
    ppm = g.rules[R_GRAB22_PPM]
    if ppm == 0 or g.rules[R_GRAB22_BONUS] == 0:
        return
    for seat in range(players):
        if rng.below(g.rng, rng.STREAM_DEAL, 1_000_000) < ppm:
            g.grab22[team_of(g, seat)] += g.rules[R_GRAB22_BONUS]


@njit(cache=True)
def _emit_deal(g, t, players: int) -> None:
    e = ev.emit(
        t, ev.EV_DEAL, 0, g.sc[S_DEAL], g.sc[S_DEALER], g.sc[S_PILE_N], g.sc[S_STOCK_N]
    )
    if e < 0:
        return
    for part in range(2):
        for seat in range(players):
            for k in range(N_KINDS):
                count = g.hand[seat, k] if part == 0 else g.foot[seat, k]
                for _ in range(count):
                    ev.emit_card(t, e, k)
    for i in range(g.sc[S_PILE_N]):
        ev.emit_card(t, e, g.pile[i])
    for i in range(g.sc[S_STOCK_N] - 1, -1, -1):
        ev.emit_card(t, e, g.stock[i])
