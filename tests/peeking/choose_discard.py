"""Greedy that keeps its pairs while many wilds are left in the stock: it counts the wilds in
the stock, which no seat can see."""

from __future__ import annotations

from sim.core.cards import JOKER, TWO
from sim.engine.hooktypes import hook
from sim.engine.layout import S_STOCK_N
from strategies import greedy
from strategies.judgement import least_useful_card


@hook
def choose_discard(g, w, t, x, seat):
    wilds = 0
    for i in range(g.sc[S_STOCK_N]):
        if g.stock[i] == TWO or g.stock[i] == JOKER:
            wilds += 1
    if 9 * wilds > g.sc[S_STOCK_N]:
        return least_useful_card(g, seat, black3_block=True, keep_pairs=True, safety=True)
    return greedy.choose_discard(g, w, t, x, seat)


choose_pickup = greedy.choose_pickup
propose_melds = greedy.propose_melds
grant = greedy.grant
go_out = greedy.go_out
