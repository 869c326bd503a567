"""What the other seats' discards say about their hands: the search's discard inference.

Every discard is public, and the engine keeps each seat's last one this deal
(``g.last_discard``). A seat that plays anything like the searcher's base policy discards its
least useful card, so a world in which that seat's imagined hand makes the seen discard a poor
choice is an unlikely world. Two ways to use that (``infer``):

- ``fits_discards`` (``infer = 1``, hard): a world whose hand the base policy would not have
  discarded from as seen is kept only with chance ``infer_slack``. Measured, it kept 8.6% of
  the draws and gained nothing: one unexplained discard nearly rules a world out, though real
  players (and the base policy in another position than the one it is asked in) often discard
  otherwise.
- ``world_likelihood`` (``infer = 2``, soft): how likely the seen discards are in a world,
  each under a Boltzmann choice over the base policy's discard scores
  (``strategies.judgement.discard_usefulness``: lower is discarded first) at temperature
  ``infer_temp``, mixed with a uniform choice among the held kinds with weight ``infer_slack``
  (the floor: a seat that plays otherwise is never ruled out). The search draws
  ``infer_draws`` worlds for each world it plays and keeps one with chance proportional to its
  likelihood (sampling importance resampling, as Kermit weighs Skat deals by the bidding and
  play seen: Buro et al. 2009; policy-based inference, Rebstock et al. 2019).

Both ask about the present position, not the one of the discard (the table, the pile and what
was taken from it may have changed since: only the seat just before the searcher, asked at
the searcher's pick-up, is asked in its own position but for the pile's top card, which the
discard does not read); the slack absorbs that too. Only public facts (the discards) and the
world's imagined hands are read: a world is built from the searcher's view alone.
"""

from __future__ import annotations

import numpy as np

from sim.core.cards import N_KINDS, RED3
from sim.core.enums import Decision
from sim.engine import rng
from sim.engine.jit import njit
from sim.engine.layout import S_PLAYERS, S_SEAT
from sim.engine.legal import must_discard_red3
from strategies import params as P
from strategies.judgement import KIND_SPAN, discard_usefulness
from strategies.lookahead.heuristics import ask_policy_for


@njit(cache=True)
def _would_discard(world, w, seat: int, other: int, kind: int) -> bool:
    """Would the searching ``seat``'s base policy, holding ``other``'s imagined hand as it was
    before its last discard (the world's hand plus that ``kind``: a seat's hand does not
    change between its turns), have discarded ``kind``? The world is left as it was."""
    world.hand[other, kind] += 1
    choice = ask_policy_for(Decision.DISCARD, world, w, other, w.base_params[seat])
    world.hand[other, kind] -= 1
    return choice == kind


@njit(cache=True)
def inferred_seat(g, seat: int, other: int) -> int:
    """The kind ``other``'s last discard this deal says something about, or -1: none made, the
    searcher itself, or the seat whose turn is on (its hand has changed since)."""
    kind = g.last_discard[other]
    if other == seat or other == g.sc[S_SEAT] or kind < 0 or kind >= N_KINDS:
        return -1
    return kind


@njit(cache=True)
def fits_discards(g, w, world, seat: int, slack: float) -> bool:
    """Keep the world (``infer = 1``)? Each other seat whose last discard the base policy
    would not have made in this world keeps it only with chance ``slack``, drawn from the
    world's stream: a world is kept with chance ``slack`` to the number of discards it does
    not explain."""
    for other in range(g.sc[S_PLAYERS]):
        kind = inferred_seat(g, seat, other)
        if kind < 0:
            continue
        if not _would_discard(world, w, seat, other, kind) and \
                rng.uniform(w.rng, rng.STREAM_WORLD) >= slack:
            return False
    return True


@njit(cache=True)
def discard_likelihood(world, w, seat: int, other: int, kind: int, floor: float,
                       temperature: float) -> float:
    """The chance that ``other``, holding its imagined hand plus ``kind``, discards ``kind``:
    ``floor`` times a uniform choice among its held kinds plus (1 - ``floor``) times a
    Boltzmann choice over the searching seat's base policy's discard scores (its
    black-three, pair and safety knobs) at ``temperature`` points. A held red three that the
    rules make the next discard is the policy's only choice. The world is left as it was."""
    base = w.base_params[seat]
    black3_block = int(base[P.P_BLACK3_BLOCK]) == 1
    keep_pairs = int(base[P.P_KEEP_PAIRS]) == 1
    safety = int(base[P.P_DISCARD_SAFETY]) == 1
    world.hand[other, kind] += 1
    forced = must_discard_red3(world, other)
    # One pass over the held kinds: their count and the Boltzmann sum, kept relative to the
    # least score so far (rescaled when a lower one comes: no exponent overflows). A tie goes
    # to the lowest kind, as in least_useful_card's keys: each score gets kind / KIND_SPAN of
    # a point, too little to matter otherwise.
    held = 0
    least = np.inf
    total = 0.0
    mine = 0.0
    for k in range(N_KINDS):
        if world.hand[other, k] == 0:
            continue
        held += 1
        u = discard_usefulness(world, other, k, black3_block, keep_pairs, safety) + \
            k / KIND_SPAN
        if u < least:
            total *= np.exp((u - least) / temperature)  # 0 while nothing is summed
            least = u
        total += np.exp(-(u - least) / temperature)
        if k == kind:
            mine = u
    if forced:
        policy = 1.0 if kind == RED3 else 0.0
    else:
        policy = np.exp(-(mine - least) / temperature) / total
    world.hand[other, kind] -= 1
    return floor / held + (1.0 - floor) * policy


@njit(cache=True)
def world_likelihood(g, w, world, seat: int, floor: float, temperature: float) -> float:
    """How likely the other seats' last discards are in ``world`` (``infer = 2``): the
    product of ``discard_likelihood`` over the seats ``inferred_seat`` names."""
    out = 1.0
    for other in range(g.sc[S_PLAYERS]):
        kind = inferred_seat(g, seat, other)
        if kind >= 0:
            out *= discard_likelihood(world, w, seat, other, kind, floor, temperature)
    return out
