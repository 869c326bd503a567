"""Discard inference (pimc's ``infer = 1``, hard, and ``infer = 2``, soft): the engine records
each seat's last discard (public, forgotten when a deal starts); with inference the worlds lean
toward the hands that explain the other seats' discards under the base policy, as much as
``infer_slack`` (and, soft, ``infer_temp``) says; without it they are today's worlds exactly;
and pimc inferring plays games the independent checker passes. (It decides only from its
seat's view: tests/test_no_cheating.py checks it.)"""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.cards import BLACK3, KIND_INDEX
from sim.core.enums import NO_DECISION, Decision, SearchStat
from sim.core.profiles import PROFILES
from sim.core.rules import replace
from sim.engine import rng
from sim.engine.determinize import deal_world
from sim.engine.flow import apply_decision, ended, next_turn, start_deal
from sim.engine.layout import GAME_DTYPE, S_DECIDER, S_DECISION, S_SEAT
from sim.play.api import make_table
from sim.play.loop import decide
from sim.runs.trace import trace_games
from strategies.lookahead.heuristics import ask_policy
from strategies.per_profile import tuned_file
from strategies.registry import load, with_base_policy, with_params
from strategies.search import pimc
from tests.trace_checker import check_trace

STANDARD = PROFILES["standard"][0]
FOUR = KIND_INDEX["4"]
# ``_world``'s inference settings (infer_slack, infer_temp, infer_draws): the defaults, and
# strict (slack 0).
SOFT, STRICT = (0.2, 20.0, 8.0), (0.0, 20.0, 8.0)


def inferring(**params: float):
    """pimc with discard inference and a small budget (its default base, tuned)."""
    return with_params(load("pimc"), "pimc-infer", {"worlds": 4, "infer": 1, **params})


def test_the_engine_records_each_seats_last_discard_and_forgets_them_each_deal():
    table = make_table(STANDARD, ["cautious"] * STANDARD.players)
    g, w, t, x = table.g, table.w, table.t, table.copies
    discards = 0
    for deal in (1, 2):
        start_deal(g, w, t, 9, 0, deal)
        expected = [-1] * STANDARD.players
        assert g["last_discard"][: STANDARD.players].tolist() == expected
        while not ended(g):
            if g["sc"][S_DECISION] == NO_DECISION:
                next_turn(g, t)
                continue
            decision, seat = int(g["sc"][S_DECISION]), int(g["sc"][S_DECIDER])
            value = decide(g, w, t, x, table.guard, table.hooks, table.fast)
            apply_decision(g, w, t, value)
            if decision == Decision.DISCARD:
                expected[seat] = value
                discards += 1
            assert g["last_discard"][: STANDARD.players].tolist() == expected
    assert discards > 50


def real_positions(count: int) -> list[np.ndarray]:
    """Pick-up decisions of a cautious game once every seat has discarded."""
    table = make_table(STANDARD, ["cautious"] * STANDARD.players)
    g, w, t, x = table.g, table.w, table.t, table.copies
    out = []
    start_deal(g, w, t, 12, 0, 1)
    while not ended(g) and len(out) < count:
        if g["sc"][S_DECISION] == NO_DECISION:
            next_turn(g, t)
            continue
        if g["sc"][S_DECISION] == Decision.PICK_UP and (g["last_discard"][:4] >= 0).all():
            out.append(table.game.copy())
        apply_decision(g, w, t, decide(g, w, t, x, table.guard, table.hooks, table.fast))
    assert len(out) == count
    return out


def fits(world, w, seat: int, other: int, kind: int) -> bool:
    """Would ``seat``'s base policy, holding ``other``'s hand in ``world`` plus one ``kind``,
    discard ``kind``? Asked on a copy made that seat's discard decision (written here, apart
    from the search's own way of asking)."""
    copy = np.zeros(1, dtype=GAME_DTYPE)
    copy[0] = world
    c = copy[0]
    c["hand"][other, kind] += 1
    c["sc"][S_DECISION] = Decision.DISCARD
    c["sc"][S_DECIDER] = other
    c["sc"][S_SEAT] = other
    return ask_policy(c, w, other, w["base_params"][seat]) == kind


def test_without_inference_the_worlds_are_todays_and_strict_inference_fits_every_discard():
    """``infer = 0`` keeps the fair view, whose worlds are ``deal_world``'s from the world's
    key, byte for byte; ``infer = 1`` turns a fair view (only) into the inferring one. At real
    positions, a strict inferring world (slack 0) explains every other seat's last discard
    (but that of the seat whose turn is on), unless no draw did (counted as kept unfit)."""
    plain = make_table(STANDARD, [load("pimc")] * 4)
    infer = make_table(STANDARD, [inferring()] * 4)
    assert pimc.search_view(pimc.VIEW_FAIR, plain.w["params"][0]) == pimc.VIEW_FAIR
    assert pimc.search_view(pimc.VIEW_FAIR, infer.w["params"][0]) == pimc.VIEW_INFER
    for view in (pimc.VIEW_ALL, pimc.VIEW_HANDS):
        assert pimc.search_view(view, infer.w["params"][0]) == view
    today = np.zeros(1, dtype=GAME_DTYPE)
    stats = plain.w["search_stats"][Decision.PICK_UP]
    explained = 0
    for game in real_positions(6):
        plain.game[:] = game
        g = plain.g
        seat = int(g["sc"][S_DECIDER])
        for k in range(8):
            key = np.uint64(rng.mix64(np.uint64(1000 + k)))
            assert pimc._world(g, plain.w, plain.copies, seat, pimc.VIEW_FAIR, SOFT, key)
            deal_world(g, plain.w, seat, today, 0, key)
            assert plain.copies[0].tobytes() == today[0].tobytes()
            unfit = int(stats[SearchStat.KEPT_UNFIT])
            assert pimc._world(g, plain.w, plain.copies, seat, pimc.VIEW_INFER, STRICT, key)
            if stats[SearchStat.KEPT_UNFIT] > unfit:
                continue
            for other in range(4):
                if other not in (seat, int(g["sc"][S_SEAT])):
                    assert fits(plain.copies[0], plain.w, seat, other,
                                int(g["last_discard"][other]))
                    explained += 1
    assert stats[SearchStat.REJECTED] > 0 and explained >= 60


def imagined(table, seat: int, other: int, view: int, slack: float, n: int) -> dict:
    """``n`` worlds of ``seat`` (keys 0..n-1): the share where ``other``'s hand fits its last
    discard (a four), holds a black three, holds a four; and the search's tallies."""
    table.w["search_stats"][:] = 0
    rows = []
    for k in range(n):
        key = np.uint64(rng.world_key(7, 0, 1, 1, 0, k))
        assert pimc._world(table.g, table.w, table.copies, seat, view, (slack, 20.0, 8.0), key)
        world = table.copies[0]
        rows.append((fits(world, table.w, seat, other, FOUR), world["hand"][other, BLACK3] > 0,
                     world["hand"][other, FOUR] > 0))
    shares = np.array(rows, dtype=float).mean(axis=0)
    stats = table.w["search_stats"][Decision.PICK_UP]
    return {"fits": shares[0], "black3": shares[1], "four": shares[2],
            "draws": int(stats[SearchStat.DRAWS]), "rejected": int(stats[SearchStat.REJECTED]),
            "kept_unfit": int(stats[SearchStat.KEPT_UNFIT])}


def test_a_seen_discard_shifts_the_imagined_hand_of_the_seat_that_made_it():
    """The seat before the searcher discarded a four. The base policy (standard's tuned: it
    blocks with a black three, and discards a lone four before any other card) makes that
    discard only from a hand with no black three and, nearly always, no other four. Uniform
    worlds give that seat such cards often; strict inference (slack 0) next to never; with
    slack s a world that does not fit is kept with chance s, so the share of fitting worlds
    is p / (p + s (1 - p)), p the uniform share: met within 4 standard errors of the
    estimates."""
    n = 3000
    table = make_table(STANDARD, [load("pimc")] * 4)
    start_deal(table.g, table.w, table.t, 5, 0, 1)
    seat = int(table.g["sc"][S_SEAT])
    other = (seat - 1) % 4
    table.g["last_discard"][other] = FOUR
    uniform = imagined(table, seat, other, pimc.VIEW_FAIR, 0.2, n)
    assert uniform["draws"] == 0
    p = uniform["fits"]
    for share in (p, 1 - p, uniform["black3"], uniform["four"]):
        assert share > 4 * np.sqrt(share * (1 - share) / n)  # each clearly present
    strict = imagined(table, seat, other, pimc.VIEW_INFER, 0.0, n)
    assert strict["fits"] == 1.0 and strict["kept_unfit"] == 0
    assert strict["black3"] == 0.0  # it would have blocked with it
    # A second four is kept back as a pair: only a hand of pairs, triples and wilds gives one up.
    assert strict["four"] < uniform["four"] / 20
    assert strict["draws"] == n + strict["rejected"]
    slack = 0.2
    soft = imagined(table, seat, other, pimc.VIEW_INFER, slack, n)
    kept = p + slack * (1 - p)
    want = p / kept
    slope = slack / kept**2  # d want / d p: p is an estimate too
    tolerance = 4 * np.sqrt(want * (1 - want) / n + slope**2 * p * (1 - p) / n)
    assert abs(soft["fits"] - want) < tolerance, (soft, want, tolerance)
    assert p < soft["fits"] < 1.0
    acceptance = 1 - soft["rejected"] / soft["draws"]
    assert abs(acceptance - kept) < 4 * np.sqrt(kept * (1 - kept) / soft["draws"]) + \
        4 * np.sqrt(p * (1 - p) / n)


def held_hand(world, other: int, kind: int):
    """``world`` with one ``kind`` taken out of ``other``'s hand (the hand before a discard of
    it is the hand now plus that card: ``discard_likelihood`` adds it back)."""
    copy = np.zeros(1, dtype=GAME_DTYPE)
    copy[0] = world
    copy[0]["hand"][other, kind] -= 1
    return copy[0]


def test_a_discards_soft_likelihood_is_a_choice_among_the_held_kinds():
    """For a hand, the likelihoods of discarding each held kind sum to one; with the floor at
    one they are uniform; with no floor and a tiny temperature the base policy's own discard
    (asked by ``fits``, apart from the search's scoring) has all of it."""
    from strategies.search.inference import discard_likelihood

    table = make_table(STANDARD, [load("pimc")] * 4)
    w = table.w
    checked = 0
    for game in real_positions(6):
        g = game[0]
        seat = int(g["sc"][S_DECIDER])
        for other in range(4):
            if other == seat:
                continue
            held = [k for k in range(len(g["hand"][other])) if g["hand"][other, k] > 0]
            if len(held) < 2:
                continue
            for floor, temp in ((0.2, 20.0), (1.0, 20.0), (0.0, 1e-3)):
                chances = [discard_likelihood(held_hand(g, other, k), w, seat, other, k, floor,
                                              temp) for k in held]
                assert abs(sum(chances) - 1.0) < 1e-9, chances
                if floor == 1.0:
                    assert np.allclose(chances, 1.0 / len(held))
                if floor == 0.0:
                    chosen = [k for k, c in zip(held, chances, strict=True) if c > 0.5]
                    assert len(chosen) == 1 and max(chances) > 1 - 1e-9
                    assert fits(held_hand(g, other, chosen[0]), w, seat, other, chosen[0])
            checked += 1
    assert checked >= 12


def test_soft_inference_keeps_each_draw_with_chance_proportional_to_its_likelihood():
    """The seat before the searcher discarded a four (as in the test above). Each soft world
    is one of ``draws`` draws (keys derived from the world's), kept with chance L / sum L: over
    many worlds the share holding a black three is the likelihood-weighted share of the draws,
    within 4 standard errors, and well below the uniform worlds' share (the base policy would
    have blocked with it); the tallies count every draw and the effective draws."""
    from strategies.search.inference import world_likelihood

    n, draws, floor, temp = 1500, 8, 0.2, 20.0
    table = make_table(STANDARD, [load("pimc")] * 4)
    g, w, x = table.g, table.w, table.copies
    start_deal(g, w, table.t, 5, 0, 1)
    seat = int(g["sc"][S_SEAT])
    other = (seat - 1) % 4
    g["last_discard"][other] = FOUR
    w["search_stats"][:] = 0
    got = expected = variance = uniform = 0.0
    for k in range(n):
        key = np.uint64(rng.world_key(7, 0, 1, 1, 0, k))
        weights, black3 = [], []
        for a in range(draws):
            deal_world(g, w, seat, x, 0, np.uint64(rng.mix64(np.uint64((int(key) + a) % 2**64))))
            weights.append(world_likelihood(g, w, x[0], seat, floor, temp))
            black3.append(float(x[0]["hand"][other, BLACK3] > 0))
        chance = float(np.dot(weights, black3) / np.sum(weights))
        expected += chance
        variance += chance * (1 - chance)
        uniform += black3[0]
        assert pimc._world(g, w, x, seat, pimc.VIEW_SOFT, (floor, temp, float(draws)), key)
        got += float(x[0]["hand"][other, BLACK3] > 0)
    assert abs(got - expected) < 4 * np.sqrt(variance) + 1, (got, expected)
    assert got < 0.5 * uniform, (got, uniform)
    stats = w["search_stats"][Decision.PICK_UP]
    assert stats[SearchStat.DRAWS] == n * draws and stats[SearchStat.SOFT_WORLDS] == n
    assert 1000 * n <= stats[SearchStat.EFFECTIVE_DRAWS] < 1000 * n * draws


def test_soft_inference_is_the_fair_view_turned_soft():
    soft = make_table(STANDARD, [inferring(infer=2)] * 4)
    assert pimc.search_view(pimc.VIEW_FAIR, soft.w["params"][0]) == pimc.VIEW_SOFT
    for view in (pimc.VIEW_ALL, pimc.VIEW_HANDS):
        assert pimc.search_view(view, soft.w["params"][0]) == view


CHECKER_SHAPES = {"standard": (STANDARD, 2),
                  "3 players": (replace(STANDARD, players=3, partnerships=3, decks=4), 1)}


@pytest.mark.parametrize("infer", [1, 2])
@pytest.mark.parametrize("shape", list(CHECKER_SHAPES))
def test_pimc_inferring_from_discards_passes_the_checker(shape, infer):
    rules, games = CHECKER_SHAPES[shape]
    search = inferring(infer=infer)
    if rules != STANDARD:  # no profile: no tuned player of its own
        search = with_base_policy(search, str(tuned_file("standard")), "pimc-infer")
    seats = [search if s % 2 == 0 else "cautious" for s in range(rules.players)]
    lines = list(trace_games(rules, seats, 23, 0, games))
    assert check_trace(lines) == []
