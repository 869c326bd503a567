"""Greedy that refuses an ask when the asker still holds a joker: it reads the asker's hand,
which the granting partner cannot see."""

from __future__ import annotations

from sim.core.cards import JOKER
from sim.engine.hooktypes import hook
from sim.engine.layout import S_SEAT
from strategies import greedy


@hook
def grant(g, w, t, x, seat):
    if g.hand[g.sc[S_SEAT], JOKER] > 0:
        return 0
    return greedy.grant(g, w, t, x, seat)


choose_pickup = greedy.choose_pickup
propose_melds = greedy.propose_melds
go_out = greedy.go_out
choose_discard = greedy.choose_discard
