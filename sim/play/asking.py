"""A second player asked, in compiled code, what it would meld where the first would meld a
wild (``analysis.experiments.search_choice``: the search's own choice at the branched positions
of ``ask hold-wild``).

The games are the first player's, from the seed: at each position where its line melds a wild
after its partnership opened (``sim.play.branching.play_to_wild_meld``), the second player is
handed a copy of the game record and asked the same decision; the game goes on with the first
player's line, so the positions are those ``collect_holds`` branches. Played here rather than
from Python: a call into a compiled entry point with the hooks tuple costs about a millisecond
to type its arguments, and a Python loop made several a position.
"""

from __future__ import annotations

import numpy as np

from sim.core.cards import JOKER, TWO
from sim.core.records import N_COLUMNS
from sim.core.rules import R_DEALS
from sim.engine.flow import apply_decision, start_deal
from sim.engine.jit import njit
from sim.engine.layout import S_DECIDER, S_TURN, T_ON
from sim.engine.scoring import N_PARTS
from sim.play.branching import line_wilds, play_to_wild_meld
from sim.play.loop import close_deal, decide, new_game

# Columns of a row of ``ask_at_wild_melds`` (analysis.experiments.search_choice_cache.COLUMNS
# names them).
A_GAME = 0
A_DEAL = 1
A_TURN = 2
A_SEAT = 3
A_WILDS_HELD = 4  # wilds in the deciding seat's hand
A_PLAYER_WILDS = 5  # wilds the first player's line melds
A_ASKED_WILDS = 6  # wilds the asked player's line melds
A_ASKED_VALUE = 7  # the asked player's decision value
N_ASKED = 8


@njit(cache=True)
def ask_at_wild_melds(g, w, t, x, guard, hooks, fast, probe_game, pw, pt, px, pguard,
                      phooks, pfast, seed: int, first_game: int, games: int, out) -> int:
    """Play games ``first_game`` .. ``first_game + games - 1`` with the first player's records
    (``g`` .. ``fast``); at each of its wild melds after opening, while ``out`` has room, copy
    the game into ``probe_game[0]`` and ask the second player's records there; one row of
    ``out`` per position (``A_*``). A game is not started once ``out`` is full. Returns the
    rows written."""
    rows = 0
    t.sc[T_ON] = 0
    pt.sc[T_ON] = 0
    record = np.zeros(N_COLUMNS, dtype=np.int64)
    parts = np.zeros(N_PARTS, dtype=np.int64)
    for game in range(first_game, first_game + games):
        if rows >= out.shape[0]:
            break
        new_game(g)
        for deal in range(1, g.rules[R_DEALS] + 1):
            start_deal(g, w, t, seed, game, deal)
            while play_to_wild_meld(g, w, t, x, guard, hooks, fast):
                if rows < out.shape[0]:
                    seat = g.sc[S_DECIDER]
                    probe_game[0] = g
                    value = decide(probe_game[0], pw, pt, px, pguard, phooks, pfast)
                    row = out[rows]
                    row[A_GAME] = game
                    row[A_DEAL] = deal
                    row[A_TURN] = g.sc[S_TURN]
                    row[A_SEAT] = seat
                    row[A_WILDS_HELD] = g.hand[seat, TWO] + g.hand[seat, JOKER]
                    row[A_PLAYER_WILDS] = line_wilds(w)
                    row[A_ASKED_WILDS] = line_wilds(pw)
                    row[A_ASKED_VALUE] = value
                    rows += 1
                apply_decision(g, w, t, 0)  # the first player's line (value 0, a meld)
            close_deal(g, t, game, deal, record, parts)  # as the game loop: the score goes on
    return rows
