"""``pimc``: perfect-information Monte Carlo search.

At each decision with more than one sensible candidate (``strategies.lookahead.candidates``) it
imagines ``worlds`` deals of the cards it cannot see (``sim.engine.determinize``), plays every
candidate on in each of them to the end of the deal with a fast base policy
(``strategies.search.rollout``), and takes the candidate with the best mean outcome. Every
candidate meets the same worlds and the same rollout randomness (common random numbers), so
the comparison between candidates is far sharper than each candidate's own estimate.

With ``race`` the worlds are a budget spent where the decision is close (as SPARTA does,
Lerer et al. 2020): worlds are added ``race`` at a time; after each round a candidate that
trails the leader by more than ``prune`` standard errors of the paired difference stops
getting worlds, and the race ends once the leader alone is left against the base move and is
clear of it, or ``worlds`` is spent. A decision with one sensible candidate costs nothing.

The base policy (the first candidate, kept unless another is clearly better, and the play of
every seat in the rollouts) is the seat's own ``w.base_params[seat]``: a tactician vector its
strategy names (``base_policy``), read at run time. Rollout search improves on its base policy
(Tesauro and Galperin 1996), so the stronger the base, the stronger the search; and every
seat of an imagined deal plays it, the searcher's partner and opponents too.

With ``infer`` the worlds also weigh what the other seats did (discard inference,
``strategies.search.inference``): with ``infer = 1`` a world in which the base policy, holding
another seat's imagined hand, would not have made that seat's last discard is kept only with
chance ``infer_slack``; with ``infer = 2`` each world played is one of ``infer_draws`` draws,
kept with chance proportional to how likely the seen discards are in it (a softened base
policy). Either way the worlds lean toward the hands that explain the discards seen, beside
the cards known to be held.

It decides only from what its seat may know: a world is built from the seat's view alone (its
base policy is its own configuration, not a hidden card; every discard is public).
"""

from __future__ import annotations

import numpy as np

from sim.core.enums import Decision, SearchStat
from sim.engine import rng
from sim.engine.determinize import copy_truth, copy_truth_but_stock, deal_world
from sim.engine.hooktypes import hook
from sim.engine.jit import njit
from sim.engine.layout import (
    MAX_WORLDS,
    S_DECISION,
    S_SEAT,
)
from strategies.going_out import plan_go_out
from strategies.judgement import going_out_wins_deal
from strategies.lookahead import candidates as cands
from strategies.lookahead.playing import (
    decision_step,
    play_candidate,
    quiet,
    resume,
    world_key,
)
from strategies.plans import ENTRIES2
from strategies.search.inference import fits_discards, world_likelihood
from strategies.search.params import (
    INFER_DISCARDS,
    INFER_SOFT,
    P_BASELINE,
    P_CAUTION,
    P_DISCARDS,
    P_EPSILON,
    P_HORIZON,
    P_INFER,
    P_INFER_DRAWS,
    P_INFER_SLACK,
    P_INFER_TEMP,
    P_LEAF,
    P_MELD_VARIANTS,
    P_PRUNE,
    P_RACE,
    P_ROLLOUT,
    P_WORLDS,
    ROLLOUT_POLICY,
)
from strategies.search.rollout import leaf_value, play_on, play_own_turns, value_for

ROLLOUT_SALT = 0x5DEECE66D  # the rollouts' random stream differs from the world's shuffle
# Worlds drawn, at most, to find one that fits what the seat saw (the asker can go out; with
# inference, the other seats' discards).
WORLD_TRIES = 64

# What a searching seat's worlds are built from: its own view (a fair player); the true
# position, the stock's order too (``oracle``); the true hands and Feet with the stock
# reshuffled (``oracle-hands``: what perfect inference of the hands could know at most); its
# own view, the worlds filtered by the other seats' last discards (``infer = 1``), or resampled
# by their likelihood (``infer = 2``).
VIEW_FAIR, VIEW_ALL, VIEW_HANDS, VIEW_INFER, VIEW_SOFT = 0, 1, 2, 3, 4


@njit(cache=True)
def search_view(view: int, params) -> int:
    """The view a search with ``params`` builds its worlds from: a fair view with discard
    inference on (``infer``) infers; the oracles' views are the truth, nothing to infer."""
    if view == VIEW_FAIR and int(params[P_INFER]) == INFER_DISCARDS:
        return VIEW_INFER
    if view == VIEW_FAIR and int(params[P_INFER]) == INFER_SOFT:
        return VIEW_SOFT
    return view


@njit(cache=True)
def inference(params) -> tuple[float, float, float]:
    """What the worlds' inference reads from the searcher's own ``params``, taken before the
    rollouts set every seat's parameters to the base policy's: (infer_slack, infer_temp,
    infer_draws)."""
    return (params[P_INFER_SLACK], max(params[P_INFER_TEMP], 1e-6),
            max(params[P_INFER_DRAWS], 1.0))


@njit(cache=True)
def _draw(g, w, x, seat: int, key, attempt: int, grant: bool) -> bool:
    """Deal draw number ``attempt`` of the world of ``key`` into ``x[0]``; whether it fits a
    grant (the asker can go out in it; any draw fits another decision)."""
    deal_world(g, w, seat, x, 0, rng.mix64(key + np.uint64(attempt)))
    if not grant:
        return True
    n, _ = plan_go_out(x[0], w, g.sc[S_SEAT], ENTRIES2)
    return n >= 0


@njit(cache=True)
def _soft_world(g, w, x, seat: int, floor: float, temperature: float, draws: int, key,
                grant: bool) -> bool:
    """``VIEW_SOFT``: ``draws`` worlds drawn from keys derived from ``key``, one kept with
    chance proportional to its likelihood (``inference.world_likelihood``; a grant's draw
    where the asker cannot go out has none), left in ``x[0]``. Tallies the draws, the worlds
    kept and their effective number of draws ((sum L)^2 / sum L^2, in thousandths: ``draws``
    when the discards say nothing, 1 when one draw explains them alone). False when no draw
    fits."""
    decision = g.sc[S_DECISION]
    total = 0.0
    total_sq = 0.0
    chosen = -1
    for attempt in range(draws):
        if not _draw(g, w, x, seat, key, attempt, grant):
            continue
        weight = world_likelihood(g, w, x[0], seat, floor, temperature)
        total += weight
        total_sq += weight * weight
        # one draw kept with chance weight / total so far: in the end, weight / sum of all
        if weight > 0.0 and rng.uniform(w.rng, rng.STREAM_WORLD) * total < weight:
            chosen = attempt
    w.search_stats[decision, SearchStat.DRAWS] += draws
    if chosen < 0:
        return False
    w.search_stats[decision, SearchStat.SOFT_WORLDS] += 1
    w.search_stats[decision, SearchStat.EFFECTIVE_DRAWS] += int(1000.0 * total * total /
                                                                total_sq)
    if chosen != draws - 1:  # x[0] holds the last draw; the kept one is dealt again
        _draw(g, w, x, seat, key, chosen, False)
    return True


@njit(cache=True)
def _world(g, w, x, seat: int, view: int, infer, key) -> bool:
    """Deal world ``x[0]`` from ``key`` as the seat's ``view`` allows. A partner answering an
    ask knows the asker can go out (it asked), so only worlds where the asker's imagined cards
    allow it are drawn; with ``VIEW_INFER`` a world is kept as ``fits_discards`` says, with
    ``VIEW_SOFT`` one of several draws is kept by its likelihood (``_soft_world``). ``infer``
    is (infer_slack, infer_temp, infer_draws). Draws that do not fit are replaced by draws
    from keys derived from ``key`` (the same for every candidate: they all meet the same
    worlds), up to WORLD_TRIES; then the last draw the asker fits is kept (counted as ``kept
    unfit``). False when the asker fits none."""
    if view == VIEW_ALL:
        copy_truth(g, x, 0, key)
        return True
    if view == VIEW_HANDS:
        copy_truth_but_stock(g, w, x, 0, key)
        return True
    grant = g.sc[S_DECISION] == Decision.GRANT
    if view == VIEW_SOFT:
        return _soft_world(g, w, x, seat, infer[0], infer[1], int(infer[2]), key, grant)
    infer_discards = view == VIEW_INFER
    if not grant and not infer_discards:
        deal_world(g, w, seat, x, 0, key)
        return True
    decision = g.sc[S_DECISION]
    fallback = -1
    for attempt in range(WORLD_TRIES):
        if not _draw(g, w, x, seat, key, attempt, grant):
            continue
        if not infer_discards:
            return True
        w.search_stats[decision, SearchStat.DRAWS] += 1
        if fits_discards(g, w, x[0], seat, infer[0]):
            return True
        w.search_stats[decision, SearchStat.REJECTED] += 1
        fallback = attempt
    if fallback < 0:
        return False
    w.search_stats[decision, SearchStat.KEPT_UNFIT] += 1
    _draw(g, w, x, seat, key, fallback, False)
    return True


@njit(cache=True)
def _begin(w, seat: int, policy: int) -> None:
    """Before rollouts, for ``ROLLOUT_POLICY``: every seat's parameters set to the searcher's
    base policy (the seats' own kept aside)."""
    if policy == ROLLOUT_POLICY:  # every seat plays the searcher's base policy in the rollouts
        for s in range(w.params.shape[0]):
            for j in range(w.params.shape[1]):
                w.saved_params[s, j] = w.params[s, j]
                w.params[s, j] = w.base_params[seat, j]


@njit(cache=True)
def _end(w, policy: int) -> None:
    """After rollouts: what ``_begin`` changed, put back."""
    if policy == ROLLOUT_POLICY:
        for s in range(w.params.shape[0]):
            for j in range(w.params.shape[1]):
                w.params[s, j] = w.saved_params[s, j]


@njit(cache=True)
def _play_worlds(g, w, t, x, seat: int, view: int, infer, first: int, n: int,
                 key_offset: int, policy: int, epsilon: float, horizon: int, leaf: bool,
                 count: int) -> int:
    """Play every racing candidate (``w.cand_alive``) on in worlds ``first`` .. ``first + n -
    1`` (world k drawn from key number ``key_offset + k``); ``w.world_values[c, k]`` gets
    candidate c's outcome. Every candidate meets the same world and the same rollout stream.
    Returns the rollouts played, or -1 when no world consistent with the decision was found.
    The trace is off meanwhile and the strategies' stream put back after."""
    trace_on, stream = quiet(w, t)
    step = decision_step(g)
    rollouts = 0
    for k in range(first, first + n):
        key = world_key(g, step, key_offset + k)
        if not _world(g, w, x, seat, view, infer, key):
            rollouts = -1
            break
        for c in range(count):
            if w.cand_alive[c] == 0:
                continue
            w.rng[rng.STREAM_STRATEGY] = key ^ ROLLOUT_SALT
            play_candidate(x, w, t, c)
            if leaf:
                play_own_turns(x[1], w, t, x, policy, epsilon, horizon, seat)
                w.world_values[c, k] = leaf_value(x[1], w, seat)
            else:
                play_on(x[1], w, t, x, policy, epsilon, horizon)
                w.world_values[c, k] = value_for(x[1], seat)
            rollouts += 1
    resume(w, t, trace_on, stream)
    return rollouts


@njit(cache=True)
def evaluate(g, w, t, x, seat: int, view: int, infer, worlds: int, first_world: int,
             policy: int, epsilon: float, horizon: int, count: int, leaf: bool) -> bool:
    """Play each of the ``count`` candidates on in worlds ``first_world`` ..
    ``first_world + worlds - 1``; ``w.world_values[c, k - first_world]`` gets the outcome of
    candidate c in world k (with ``leaf``, the seat's value model, ``w.value_model[seat]``,
    after ``horizon`` of its own turns). The trace is off and the strategies' stream is put
    back after. False when no world consistent with the decision could be drawn."""
    for c in range(count):
        w.cand_alive[c] = 1
    _begin(w, seat, policy)
    played = _play_worlds(g, w, t, x, seat, view, infer, 0, worlds, first_world, policy,
                          epsilon, horizon, leaf, count)
    _end(w, policy)
    return played >= 0


@njit(cache=True)
def paired(w, a: int, b: int, worlds: int) -> tuple[float, float]:
    """Mean and standard error of candidate ``a``'s outcome minus ``b``'s over the first
    ``worlds`` worlds (the same worlds for both: the difference is sharp)."""
    total = 0.0
    total_sq = 0.0
    for k in range(worlds):
        d = w.world_values[a, k] - w.world_values[b, k]
        total += d
        total_sq += d * d
    mean = total / worlds
    se = 0.0
    if worlds > 1:
        var = (total_sq - worlds * mean * mean) / (worlds - 1)
        se = np.sqrt(max(var, 0.0) / worlds)
    return mean, se


@njit(cache=True)
def choose(w, count: int, worlds: int, caution: float) -> int:
    """The racing candidate with the best lower bound on its gain over candidate 0 (the base
    heuristic's choice): mean paired difference over the worlds minus ``caution`` standard
    errors. With few worlds a rare swing makes some candidate look best by luck; the bound
    keeps the search from trading a sound choice for a lucky one."""
    best = 0
    best_bound = 0.0
    for c in range(1, count):
        if w.cand_alive[c] == 0:
            continue
        mean, se = paired(w, c, 0, worlds)
        bound = mean - caution * se
        if bound > best_bound:
            best = c
            best_bound = bound
    return best


@njit(cache=True)
def keep_racing(w, count: int, worlds: int, prune: float, caution: float) -> bool:
    """After ``worlds`` worlds: stop the candidates that trail the leader (the best mean, the
    base move's counted as 0) by more than ``prune`` standard errors of their paired
    difference, and those that tied it in every world so far (a discard of a card that plays
    no part, say: the same outcome whichever is taken). True while the race is open: more than
    one alternative to the base move is left, or one is left that is not yet clear of it by
    ``prune`` standard errors (at least ``caution``: a race stopped early on a lucky round
    would trade a sound move for a lucky one, so stopping asks more than the final choice)."""
    leader = 0
    lead = 0.0
    for c in range(1, count):
        if w.cand_alive[c] == 1:
            mean, _ = paired(w, c, 0, worlds)
            if mean > lead:
                leader = c
                lead = mean
    left = 0
    for c in range(1, count):
        if w.cand_alive[c] == 0 or c == leader:
            continue
        mean, se = paired(w, c, leader, worlds)
        if mean + prune * se <= 0.0:  # behind, or the same as the leader in every world
            w.cand_alive[c] = 0
        else:
            left += 1
    if leader == 0:
        return left > 0
    if left > 0:
        return True
    mean, se = paired(w, leader, 0, worlds)
    return mean - max(prune, caution) * se <= 0.0


@njit(cache=True)
def race(g, w, t, x, seat: int, view: int, infer, budget: int, step: int,
         prune: float, caution: float, policy: int, epsilon: float, horizon: int, leaf: bool,
         count: int) -> int:
    """Worlds added ``step`` at a time, up to ``budget``, while ``keep_racing`` says the
    choice is open; returns the worlds played (-1 when no consistent world was found)."""
    for c in range(count):
        w.cand_alive[c] = 1
    _begin(w, seat, policy)
    done = 0
    rollouts = 0
    while done < budget:
        n = min(step, budget - done)
        played = _play_worlds(g, w, t, x, seat, view, infer, done, n, 0, policy, epsilon,
                              horizon, leaf, count)
        if played < 0:
            done = -1
            break
        done += n
        rollouts += played
        if done < budget and not keep_racing(w, count, done, prune, caution):
            break
    _end(w, policy)
    if done > 0:
        decision = g.sc[S_DECISION]
        w.search_stats[decision, SearchStat.WORLDS] += done
        w.search_stats[decision, SearchStat.ROLLOUTS] += rollouts
    return done


@njit(cache=True)
def search(g, w, t, x, seat: int, view: int) -> int:
    """Choose among the candidates by their mean outcome over the worlds; the choice is left
    in ``w.prop`` and its value returned."""
    params = w.params[seat]
    decision = g.sc[S_DECISION]
    count = cands.gather(g, w, t, x, seat, int(params[P_DISCARDS]),
                         params[P_MELD_VARIANTS] > 0, int(params[P_BASELINE]))
    w.search_stats[decision, SearchStat.DECISIONS] += 1
    if count <= 1:
        cands.load(w, 0)
        return w.cand_value[0]
    w.search_stats[decision, SearchStat.SEARCHED] += 1
    budget = min(max(int(params[P_WORLDS]), 1), MAX_WORLDS)
    step = int(params[P_RACE])
    if step <= 0:
        step = budget
    worlds = race(g, w, t, x, seat, search_view(view, params), inference(params), budget,
                  step, params[P_PRUNE], params[P_CAUTION], int(params[P_ROLLOUT]),
                  params[P_EPSILON], int(params[P_HORIZON]),
                  params[P_LEAF] > 0 and params[P_HORIZON] > 0, count)
    if worlds > 0:
        best = choose(w, count, worlds, params[P_CAUTION])
    elif decision == Decision.GRANT:  # no world where the asker can go out
        return 1 if going_out_wins_deal(g, seat) else 0
    else:
        best = 0
    if best != 0:
        w.search_stats[decision, SearchStat.LEFT_BASE] += 1
        w.search_left_for[decision, w.cand_kind[best]] += 1
    cands.load(w, best)
    return w.cand_value[best]


@hook
def decide(g, w, t, x, seat):
    """Every decision: the search with this player's view of the hidden cards."""
    return search(g, w, t, x, seat, VIEW_FAIR)


# One compiled hook for every decision (why: strategies.hooks).
choose_pickup = propose_melds = grant = go_out = choose_discard = decide


@njit(cache=True)
def candidate_values(g, w, t, x, seat: int, view: int, worlds: int, first_world: int,
                     policy: int, epsilon: float, horizon: int) -> int:
    """The pending decision's candidates (``w.cand_*``) and their outcomes in worlds
    ``first_world`` .. + ``worlds`` (``w.world_values``), for a position analysis; returns how
    many candidates there are (0 when no consistent world was found)."""
    params = w.params[seat]
    count = cands.gather(g, w, t, x, seat, int(params[P_DISCARDS]),
                         params[P_MELD_VARIANTS] > 0, int(params[P_BASELINE]))
    if not evaluate(g, w, t, x, seat, search_view(view, params), inference(params), worlds,
                    first_world, policy, epsilon, horizon, count, False):
        return 0
    return count
