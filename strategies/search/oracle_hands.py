"""``oracle-hands``: the ``pimc`` search given the other hands and every Foot as they are, but
the stock in an order it draws anew in each world. It sees what perfect inference of the hidden
hands could know at most, and nothing that no player can know (the stock's order), so the gap
from ``pimc`` to it bounds what inference can gain; a ceiling for measurement only, marked
``sees_hidden`` in the registry and refused where a fair player is meant."""

from __future__ import annotations

from sim.engine.hooktypes import hook
from strategies.search.pimc import VIEW_HANDS, search


@hook
def decide(g, w, t, x, seat):
    """Every decision: the search with this player's view of the hidden cards."""
    return search(g, w, t, x, seat, VIEW_HANDS)


# One compiled hook for every decision (why: strategies.hooks).
choose_pickup = propose_melds = grant = go_out = choose_discard = decide
