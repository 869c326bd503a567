"""The features of a position from one seat's view: a fixed-length vector of what it may know.

A learned evaluator (``strategies.learned``) scores positions by a model fitted on these
vectors, so they hold only what the seat may know (docs/design.md, "Positions"): its own held
cards and Foot state, each partnership's melds and books, whether each has opened and the
minimum still to meet, the pile (size, top card, frozen), the stock left, every other seat's
card counts and Foot state, the cards known to be held (taken from the pile), the deal and the
scores. Never the other hands' unknown cards, any unpicked Foot's contents (its own too) or the
stock's contents: ``tests/test_learned_features.py`` deals every hidden card anew and gets the
same vector.

The other partnerships are summed up by the *rival*: the one with the most points on the table
(the first of them on a tie), so the vector has the same length for 2 to 6 players.

``FEATURE_NAMES`` documents every slot in order; ``write_features`` fills them in that order,
and a test proves the two agree. A change of meaning or order is a new ``FEATURE_VERSION``: a
model file records the version it was fitted on and is refused by any other.
"""

from __future__ import annotations

from sim.core.cards import CARD_VALUE, N_KINDS, N_NATURALS, N_RANKS
from sim.core.enums import Book, Decision
from sim.core.rules import R_DEALS, R_TOTAL_CARDS
from sim.engine.jit import njit
from sim.engine.layout import (
    M_JOKER,
    M_NAT,
    M_TWO,
    S_DEAL,
    S_DECIDER,
    S_DECISION,
    S_FROZEN_N,
    S_PICKED_UP,
    S_PILE_N,
    S_PLAYERS,
    S_SEAT,
    S_STOCK_N,
    S_TEAMS,
    S_TURN,
)
from sim.engine.legal import (
    books_allow_out,
    foot_count,
    held_count,
    opening_minimum,
    pile_open,
    table_score,
    taken_count,
    team_of,
    top_card,
)
from strategies.lookahead.schema import FEATURE_NAMES, FEATURE_VERSION, N_FEATURES

__all__ = ["FEATURE_NAMES", "FEATURE_VERSION", "N_FEATURES", "rival_of", "write_features"]




@njit(cache=True)
def rival_of(g, team: int) -> int:
    """The other partnership with the most points on the table (the first on a tie)."""
    best = -1
    best_points = -(1 << 40)
    for other in range(g.sc[S_TEAMS]):
        if other == team:
            continue
        points = table_score(g, other)
        if points > best_points:
            best = other
            best_points = points
    return best


@njit(cache=True)
def _team(g, team: int, out, i: int) -> int:
    """The ``_TEAM_FIELDS`` of ``team`` from ``out[i]``; returns the next slot."""
    opened = g.opened[team]
    out[i] = opened
    out[i + 1] = 0 if opened else opening_minimum(g)
    i += 2
    wilds = 0
    for r in range(N_RANKS):
        out[i] = g.meld[team, r, M_NAT] + g.meld[team, r, M_TWO] + g.meld[team, r, M_JOKER]
        wilds += g.meld[team, r, M_TWO] + g.meld[team, r, M_JOKER]
        i += 1
    out[i] = wilds
    i += 1
    for b in range(len(Book)):
        out[i] = g.books[team, b]
        i += 1
    out[i] = g.melded_value[team]
    out[i + 1] = g.red3[team]
    out[i + 2] = table_score(g, team)
    out[i + 3] = g.pickups[team]
    out[i + 4] = 1.0 if books_allow_out(g, g.books[team]) else 0.0
    return i + 5


@njit(cache=True)
def write_features(g, seat: int, out) -> int:
    """Fill ``out[0:N_FEATURES]`` with the position ``g`` as ``seat`` sees it (the order of
    ``FEATURE_NAMES``); returns how many slots were written."""
    players = g.sc[S_PLAYERS]
    team = team_of(g, seat)
    rival = rival_of(g, team)
    i = 0
    points = 0
    for k in range(N_KINDS):
        out[i] = g.hand[seat, k]
        points += g.hand[seat, k] * CARD_VALUE[k]
        i += 1
    held = held_count(g, seat)
    pairs = 0
    fit = 0
    for k in range(N_NATURALS):
        if g.hand[seat, k] >= 2:
            pairs += 1
        if g.meld[team, k, M_NAT] > 0:
            fit += g.hand[seat, k]
    out[i] = held
    out[i + 1] = points
    out[i + 2] = g.on_foot[seat]
    out[i + 3] = foot_count(g, seat)
    out[i + 4] = pairs
    out[i + 5] = fit
    i += 6
    partners = 0
    partner_fewest = 0
    partners_foot = 0
    opponents = 0
    opp_fewest = 1 << 20
    opp_held = 0
    opp_foot = 0
    opp_fewest_foot = 1 << 20
    for s in range(players):
        if s == seat:
            continue
        n = held_count(g, s)
        if team_of(g, s) == team:
            partner_fewest = n if partners == 0 else min(partner_fewest, n)
            partners += 1
            partners_foot += g.on_foot[s]
        else:
            opponents += 1
            opp_fewest = min(opp_fewest, n)
            opp_held += n
            opp_foot += g.on_foot[s]
            opp_fewest_foot = min(opp_fewest_foot, foot_count(g, s))
    out[i] = 1.0 if partners > 0 else 0.0
    out[i + 1] = partner_fewest
    out[i + 2] = partners_foot / partners if partners > 0 else 0.0
    out[i + 3] = opp_fewest
    out[i + 4] = opp_held / opponents
    out[i + 5] = opp_foot / opponents
    out[i + 6] = opp_fewest_foot
    i += 7
    for k in range(N_KINDS):
        known = 0
        for s in range(players):
            if team_of(g, s) != team:
                known += g.known[s, k]
        out[i] = known
        i += 1
    i = _team(g, team, out, i)
    i = _team(g, rival, out, i)
    pile_n = g.sc[S_PILE_N]
    pile_points = 0
    for j in range(pile_n):
        pile_points += CARD_VALUE[g.pile[j]]
    out[i] = pile_n
    out[i + 1] = taken_count(g)
    out[i + 2] = g.sc[S_FROZEN_N]
    out[i + 3] = pile_points
    out[i + 4] = 1.0 if pile_open(g, seat) else 0.0
    i += 5
    top = top_card(g)
    for k in range(N_KINDS):
        out[i] = 1.0 if top == k else 0.0
        i += 1
    stock = g.sc[S_STOCK_N]
    stock_share = stock / max(g.rules[R_TOTAL_CARDS], 1)
    out[i] = stock
    out[i + 1] = stock_share
    i += 2
    deal = g.sc[S_DEAL]
    out[i] = deal
    out[i + 1] = 1.0 if deal >= g.rules[R_DEALS] else 0.0
    out[i + 2] = opening_minimum(g)
    out[i + 3] = (g.game_score[team] - g.game_score[rival]) / 1000.0
    i += 4
    to_play = g.sc[S_SEAT]
    decision = g.sc[S_DECISION]
    out[i] = 1.0 if to_play == seat else 0.0
    out[i + 1] = 1.0 if decision >= 0 and g.sc[S_DECIDER] == seat else 0.0
    out[i + 2] = g.sc[S_TURN]
    out[i + 3] = g.sc[S_PICKED_UP] if to_play == seat else 0
    until = seat - to_play
    if until < 0:
        until += players
    out[i + 4] = until
    i += 5
    for d in range(len(Decision)):
        out[i] = 1.0 if decision == d else 0.0
        i += 1
    opp_foot_share = opp_foot / opponents
    out[i] = points if opp_foot > 0 else 0.0
    out[i + 1] = held * opp_foot_share
    out[i + 2] = table_score(g, team) - table_score(g, rival)
    out[i + 3] = points * stock_share
    return i + 4
