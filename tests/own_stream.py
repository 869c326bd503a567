"""``random`` drawing its choices from a stream of its own: a test-only strategy module.

Every seat draws its random choices from one strategies' stream, keyed by (seed, game, deal)
(sim.engine.rng), so ``random`` against ``random`` in the paired design plays the same game in
every seating and calibrates nothing (every paired difference is 0). This copy plays exactly
``random``'s hooks, but before each of its decisions it moves the shared stream through a
bijective scramble, ``state -> mix64(state ^ SALT)``, and draws from there: its draws are not
the ones ``random`` would have made, yet they are uniform in the same way, so it is ``random``
in every respect but the stream. The shared stream is left where this copy's draws left it,
so no two of its decisions start from the same state. Nothing outside the tests uses it: the
default play of every registered strategy is untouched.
"""

from __future__ import annotations

import numpy as np

from sim.engine import rng
from sim.engine.hooktypes import hook
from strategies import random_play
from strategies.registry import StrategyInfo

SALT = np.uint64(0xD1B54A32D192ED03)

INFO = StrategyInfo("random-own-stream", __name__,
                    "random, drawing from its own stream (tests only)")


@hook
def choose_pickup(g, w, t, x, seat):
    w.rng[rng.STREAM_STRATEGY] = rng.mix64(w.rng[rng.STREAM_STRATEGY] ^ SALT)
    return random_play.choose_pickup(g, w, t, x, seat)


@hook
def propose_melds(g, w, t, x, seat):
    w.rng[rng.STREAM_STRATEGY] = rng.mix64(w.rng[rng.STREAM_STRATEGY] ^ SALT)
    return random_play.propose_melds(g, w, t, x, seat)


@hook
def grant(g, w, t, x, seat):
    w.rng[rng.STREAM_STRATEGY] = rng.mix64(w.rng[rng.STREAM_STRATEGY] ^ SALT)
    return random_play.grant(g, w, t, x, seat)


@hook
def go_out(g, w, t, x, seat):
    w.rng[rng.STREAM_STRATEGY] = rng.mix64(w.rng[rng.STREAM_STRATEGY] ^ SALT)
    return random_play.go_out(g, w, t, x, seat)


@hook
def choose_discard(g, w, t, x, seat):
    w.rng[rng.STREAM_STRATEGY] = rng.mix64(w.rng[rng.STREAM_STRATEGY] ^ SALT)
    return random_play.choose_discard(g, w, t, x, seat)
