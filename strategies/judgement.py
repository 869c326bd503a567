"""Judgements a heuristic makes from what its seat may know: the deal's margin as it sees it,
whether going out wins, and which card is least useful to keep."""

from __future__ import annotations

from sim.core.cards import BLACK3, BLACK3_RANK, CARD_VALUE, JOKER, N_KINDS, N_NATURALS, RED3, TWO
from sim.core.rules import R_BLACK3_MELDS, R_OUT_BONUS
from sim.engine.jit import njit
from sim.engine.layout import M_JOKER, M_NAT, M_TWO, S_PLAYERS, S_TEAMS
from sim.engine.legal import (
    foot_count,
    held_count,
    must_discard_red3,
    next_seat,
    table_score,
    team_of,
)


@njit(cache=True)
def held_value(g, seat: int) -> int:
    total = 0
    for k in range(N_KINDS):
        total += g.hand[seat, k] * CARD_VALUE[k]
    return total


@njit(cache=True)
def deal_margin(g, seat: int, going_out: bool, with_game: bool) -> int:
    """Our partnership's lead on points as ``seat`` sees it, if the deal ended now (with the
    going-out bonus when ``going_out``; the game's earlier deals when ``with_game``).

    Hidden cards are estimated at 10 points each (a seat sees only their number); the seat's
    own cards count at their values unless it is the one going out."""
    team = team_of(g, seat)
    ours = table_score(g, team)
    if going_out:
        ours += g.rules[R_OUT_BONUS]
    if with_game:
        ours += g.game_score[team]
    teams = g.sc[S_TEAMS]
    for s in range(team, g.sc[S_PLAYERS], teams):
        if s == seat:
            ours -= held_value(g, seat)
        elif not going_out:  # a partner going out melds everything
            ours -= 10 * (held_count(g, s) + foot_count(g, s))
    best_other = -(1 << 40)
    for other in range(teams):
        if other == team:
            continue
        theirs = table_score(g, other)
        if with_game:
            theirs += g.game_score[other]
        for s in range(other, g.sc[S_PLAYERS], teams):
            theirs -= 10 * (held_count(g, s) + foot_count(g, s))
        best_other = max(best_other, theirs)
    return ours - best_other


@njit(cache=True)
def going_out_wins_deal(g, seat: int) -> bool:
    """R-X3's default grant: going out now wins the deal on points (the asker will hold no
    cards; the grantor's own cards count against)."""
    return deal_margin(g, seat, True, False) > 0


@njit(inline="always")
def _natural_usefulness(g, seat: int, team: int, after: int, kind: int, rank: int,
                        keep_pairs: bool, safety: bool) -> int:
    """How useful a held natural (or melding black three) of ``kind`` is: its count and value,
    a meld of its ``rank`` on the table, a pair kept, a card the next seat ``after`` took
    from the pile (so may want again). Written with selects rather than branches: these
    compares are coin flips to a branch predictor."""
    count = g.hand[seat, kind]
    size = g.meld[team, rank, M_NAT] + g.meld[team, rank, M_TWO] + g.meld[team, rank, M_JOKER]
    score = count * 20 + CARD_VALUE[kind]
    score += 30 if size > 0 else 0
    score += 40 if keep_pairs and count == 2 else 0
    score += 15 if safety and count == 1 and g.taken[after, kind] > 0 else 0
    return score


@njit(cache=True)
def discard_usefulness(g, seat: int, kind: int, black3_block: bool, keep_pairs: bool,
                       safety: bool) -> int:
    """Lower is discarded first: (blocking) black threes, then lone low naturals; wilds last.

    Without ``black3_block`` a black three takes its place in the ordinary order: as a lone
    5-point card (never a pair: it cannot be melded), so it still leaves the hand before any
    pair or lone high card; where black threes meld (R-M5) it is scored as a natural of its
    meld rank. (Every strategy but the tactician at ``black3_block = 0`` blocks.)"""
    if kind == BLACK3:
        if black3_block:
            return -1000
        if g.rules[R_BLACK3_MELDS] == 0:
            return 20 + CARD_VALUE[BLACK3]
    if kind == TWO or kind == JOKER:
        return 1000 + CARD_VALUE[kind]
    if kind >= N_NATURALS and kind != BLACK3:
        return 2000
    rank = BLACK3_RANK if kind == BLACK3 else kind
    return _natural_usefulness(g, seat, team_of(g, seat), next_seat(g, seat), kind, rank,
                               keep_pairs, safety)


# least_useful_card ranks the held kinds by one key each: usefulness times KIND_SPAN plus the
# kind, so the least key is the least useful kind, the lowest kind on a tie.
KIND_SPAN = 16
assert N_KINDS <= KIND_SPAN
NO_KEY = 1 << 40  # above every key: a kind not held


@njit(cache=True)
def least_useful_card(g, seat: int, black3_block: bool, keep_pairs: bool,
                      safety: bool) -> int:
    """The discard: a forced red three (R-V6), else the held kind of least usefulness
    (``discard_usefulness``; the first such kind on a tie). Callers name the three flags:
    ``black3_block`` discards a held black three first (it blocks the next player's pick-up),
    ``keep_pairs`` values a held pair higher, ``safety`` values a single card of a kind the
    next player took from the pile higher (discarding it may feed them).

    The naturals are scored in one pass with the seat's partnership and neighbour worked out
    once; a blocking black three (-1000) is below every other score, so it is chosen at once.
    Each held kind's key (usefulness x KIND_SPAN + kind) goes into a running minimum, which
    picks the same kind as keeping the first least score would, but with no branch on which
    kinds are held (a coin flip to the branch predictor): the compiler scores the naturals
    side by side, in vector registers."""
    if must_discard_red3(g, seat):
        return RED3
    if black3_block and g.hand[seat, BLACK3] > 0:
        return BLACK3
    team = team_of(g, seat)
    after = next_seat(g, seat)
    best = NO_KEY
    for k in range(N_NATURALS):
        score = _natural_usefulness(g, seat, team, after, k, k, keep_pairs, safety)
        best = min(best, score * KIND_SPAN + k if g.hand[seat, k] > 0 else NO_KEY)
    for k in range(N_NATURALS, N_KINDS):
        if g.hand[seat, k] > 0:
            score = discard_usefulness(g, seat, k, black3_block, keep_pairs, safety)
            best = min(best, score * KIND_SPAN + k)
    return -1 if best == NO_KEY else best & (KIND_SPAN - 1)
