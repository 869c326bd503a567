"""``oracle``: the ``pimc`` search given the true hidden cards. It sees other hands, every
Foot and the stock: a ceiling for how much look-ahead can gain, for measurement only; the
registry marks it ``sees_hidden`` and comparisons refuse it unless asked for explicitly."""

from __future__ import annotations

from sim.engine.hooktypes import hook
from strategies.search.pimc import VIEW_ALL, search


@hook
def choose_pickup(g, w, t, x, seat):
    return search(g, w, t, x, seat, VIEW_ALL)


@hook
def propose_melds(g, w, t, x, seat):
    return search(g, w, t, x, seat, VIEW_ALL)


@hook
def grant(g, w, t, x, seat):
    return search(g, w, t, x, seat, VIEW_ALL)


@hook
def go_out(g, w, t, x, seat):
    return search(g, w, t, x, seat, VIEW_ALL)


@hook
def choose_discard(g, w, t, x, seat):
    return search(g, w, t, x, seat, VIEW_ALL)
