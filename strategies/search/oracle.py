"""``oracle``: the ``pimc`` search given the true hidden cards. It sees other hands, every
Foot and the stock: a ceiling for how much look-ahead can gain, for measurement only; the
registry marks it ``sees_hidden`` and comparisons refuse it unless asked for explicitly."""

from __future__ import annotations

from sim.engine.hooktypes import hook
from strategies.search.pimc import VIEW_ALL, search


@hook
def decide(g, w, t, x, seat):
    """Every decision: the search with this player's view of the hidden cards."""
    return search(g, w, t, x, seat, VIEW_ALL)


# One compiled hook for every decision (why: strategies.hooks).
choose_pickup = propose_melds = grant = go_out = choose_discard = decide
