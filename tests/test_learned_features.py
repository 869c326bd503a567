"""The learned player's features (strategies/lookahead/features.py): one named slot each, every
slot written, and only what the viewing seat may know.

The hidden-cards check deals every card a seat cannot see anew (tests/hidden_cards.py, the
no-cheating test's own ``redeal``: the other hands but their known cards, every unpicked Foot,
the stock's contents and order, the random stream and the root seed) at every step of the first
two deals of a real game (the second sees a game score), in every profile and with 3 and 6
players, and asks for the same vector from that seat's view. It has teeth: the same redeal
changes the vector of a seat whose hand it dealt anew, a planted peeking variant of
``write_features`` is caught, and planted changes of what the seat does see (its hand, a known
card, the melds, the pile) change the vector.

What each slot means is pinned three ways: the feature names' digest per ``FEATURE_VERSION``
(a change of names without a new version fails), every slot checked by name against a value
computed here from the game record (``expected_features``), and the whole vectors at fixed
positions (tests/golden/features.json, compared in tests/test_golden.py).
"""

from __future__ import annotations

import hashlib
from collections import Counter

import numpy as np
import pytest
from numba import njit

from sim.core.cards import KIND_INDEX, KIND_NAMES, N_KINDS, RANK_NAMES
from sim.core.enums import NO_DECISION, Book, Decision
from sim.core.profiles import PROFILES
from sim.core.records import N_COLUMNS, TeamField
from sim.core.rules import Rules, replace
from sim.engine.finish import finish_deal, team_col
from sim.engine.flow import apply_decision, ended, next_turn, start_deal
from sim.engine.layout import (
    GAME_DTYPE,
    M_JOKER,
    M_NAT,
    M_TWO,
    MAX_CARDS,
    S_DEAL,
    S_DECIDER,
    S_DECISION,
    S_FROZEN_N,
    S_PICKED_UP,
    S_PILE_N,
    S_PLAYERS,
    S_SEAT,
    S_STOCK_N,
    S_TEAMS,
    S_TURN,
)
from sim.engine.scoring import N_PARTS
from sim.play.api import make_table
from sim.play.loop import decide
from strategies.lookahead.features import write_features
from strategies.lookahead.schema import FEATURE_NAMES, FEATURE_VERSION, N_FEATURES
from tests import hidden_cards as hc
from tests.golden.features import deal_steps
from tests.position import position

SHAPES: dict[str, Rules] = {name: rules for name, (rules, _) in PROFILES.items()}
SHAPES["3 players"] = replace(PROFILES["standard"][0], players=3, partnerships=3, decks=4)
SHAPES["6 players"] = replace(PROFILES["standard"][0], players=6, partnerships=3, decks=7)
# The hidden-cards check plays the first two deals of a game in each shape: the second sees
# a game score, and playing (one Python call per step) is most of the check's time.
DEALS = 2


@njit(cache=True)
def peeking_features(g, seat, out):
    """``write_features`` plus one slot that peeks at the next seat's whole hand."""
    n = write_features(g, seat, out)
    nxt = (seat + 1) % g.sc[S_PLAYERS]
    for k in range(g.hand.shape[1]):
        out[0] += g.hand[nxt, k] * (k + 1)
    return n


def positions(rules: Rules, seed: int, games: int = 1, deals: int | None = None):
    """Every step of real games (each pending decision and each moment between turns), with
    greedy and cautious seats alternating; the table is yielded before each step is played.
    Deals are scored into the game score as the engine does, so later deals see one. Each
    game plays its first ``deals`` deals (all of them by default)."""
    table = make_table(rules, ["greedy" if s % 2 == 0 else "cautious"
                               for s in range(rules.players)])
    g, w, t, x, guard, hooks, fast = table.records()
    row = np.zeros(N_COLUMNS, dtype=np.int64)
    parts = np.zeros(N_PARTS, dtype=np.int64)
    for game in range(games):
        g["game_score"][:] = 0
        for deal in range(1, min(deals or rules.deals_per_game, rules.deals_per_game) + 1):
            start_deal(g, w, t, seed, game, deal)
            while not ended(g):
                yield table
                if g["sc"][S_DECISION] == NO_DECISION:
                    next_turn(g, t)
                    continue
                apply_decision(g, w, t, decide(g, w, t, x, guard, hooks, fast))
            finish_deal(g, t, game, deal, row, parts)
            for team in range(rules.partnerships):
                g["game_score"][team] += row[team_col(TeamField.SCORE, team)]


def hidden_check(rules: Rules, features, seed: int = 7, most: int = 5,
                 deals: int = DEALS) -> tuple[list[str], Counter]:
    """At every step of a game's first ``deals`` deals, from every seat's view: the features
    before and after every card that seat cannot see is dealt anew (and that every slot was
    written, none past them). The differences found (it stops at ``most``) and a tally of
    what was met."""
    scratch = np.zeros(2, dtype=GAME_DTYPE)
    pool = np.zeros(MAX_CARDS, dtype=np.int8)
    stats = np.zeros(hc.N_STATS, dtype=np.int64)
    before = np.zeros(N_FEATURES + 16)
    after = np.zeros(N_FEATURES)
    other = np.zeros((2, N_FEATURES))
    seen: Counter = Counter()
    bad: list[str] = []
    hc.seed_redeals(seed)
    for table in positions(rules, seed, deals=deals):
        g = table.g
        decision = int(g["sc"][S_DECISION])
        pending = "between turns" if decision == NO_DECISION else Decision.words[decision]
        seen[pending] += 1
        seen["a game score met"] += int(g["sc"][S_DEAL] > 1 and g["game_score"].any())
        for viewer in range(rules.players):
            hc.redeal(g, scratch, 1, viewer, False, pool, stats)
            before[:] = np.nan
            assert features(g, viewer, before) == N_FEATURES
            assert np.isfinite(before[:N_FEATURES]).all(), \
                [FEATURE_NAMES[j] for j in np.flatnonzero(~np.isfinite(before[:N_FEATURES]))]
            assert np.isnan(before[N_FEATURES:]).all(), "wrote past its slots"
            features(scratch[1], viewer, after)
            seen["checks"] += 1
            seen["viewer on Foot"] += int(g["on_foot"][viewer])
            opponents_known = sum(int(g["known"][s].sum()) for s in range(rules.players)
                                  if s % rules.partnerships != viewer % rules.partnerships)
            seen["opponents hold known cards"] += opponents_known > 0
            if not np.array_equal(before[:N_FEATURES], after):
                slots = [FEATURE_NAMES[j] for j in np.flatnonzero(before[:N_FEATURES] != after)]
                bad.append(f"seat {viewer}, turn {int(g['sc'][S_TURN])}, {pending}: "
                           f"{slots[:4]}")
                if len(bad) >= most:
                    return bad, seen
            # The redeal's teeth: another seat whose hand it changed sees a changed vector.
            for s in range(rules.players):
                if s != viewer and not np.array_equal(g["hand"][s], scratch[1]["hand"][s]):
                    features(g, s, other[0])
                    features(scratch[1], s, other[1])
                    seen["another seat's hand redealt"] += 1
                    seen["its vector changed"] += not np.array_equal(other[0], other[1])
                    break
    seen["stock changed"] = int(stats[hc.ST_STOCK])
    seen["a Foot changed"] = int(stats[hc.ST_FEET])
    seen["other hands changed"] = int(stats[hc.ST_OTHERS])
    return bad, seen


def test_every_feature_has_one_unique_name():
    """(That ``write_features`` writes exactly these slots, each a finite number, is checked
    at every position of the hidden-cards test below.)"""
    assert len(FEATURE_NAMES) == N_FEATURES == len(set(FEATURE_NAMES))
    assert all(isinstance(n, str) and n.strip() == n and n for n in FEATURE_NAMES)


# The sha256 of the feature names (``"\n".join(FEATURE_NAMES)``) of each feature version. A
# model file is refused by a handfoot of another FEATURE_VERSION, so a change of the names
# (a slot added, removed, moved or renamed) must come with a new version and its digest here:
# pinning the digest keeps a change of meaning from reaching the shipped models silently.
FEATURE_NAMES_SHA256 = {
    1: "51ce662870afc94bc4e6044b80d0f0ae1b39dcb83d79c55a305fe12c070340de",
}


def feature_names_digest(names) -> str:
    return hashlib.sha256("\n".join(names).encode()).hexdigest()


def test_feature_names_are_pinned_to_their_version():
    assert FEATURE_VERSION in FEATURE_NAMES_SHA256, (
        f"FEATURE_VERSION {FEATURE_VERSION} has no digest in FEATURE_NAMES_SHA256: add "
        f"{FEATURE_VERSION}: \"{feature_names_digest(FEATURE_NAMES)}\"")
    assert feature_names_digest(FEATURE_NAMES) == FEATURE_NAMES_SHA256[FEATURE_VERSION], (
        f"feature names changed: bump FEATURE_VERSION and add its digest "
        f"({FEATURE_VERSION + 1}: \"{feature_names_digest(FEATURE_NAMES)}\" in "
        f"FEATURE_NAMES_SHA256), and refit the shipped models")


@pytest.mark.parametrize("shape", list(SHAPES))
def test_features_see_nothing_hidden_from_the_viewer(shape):
    rules = SHAPES[shape]
    bad, seen = hidden_check(rules, write_features)
    assert bad == [], f"{shape}: the features changed with hidden cards only: {bad}"
    # What was met: the pending decisions of every turn, positions between turns, a seat on
    # its Foot, opponents holding known cards (taken from the pile), and redeals that changed
    # the stock, the Feet and the other hands.
    assert {"between turns", "pick-up", "meld", "discard"} <= set(seen), seen
    assert seen["checks"] > 1000, seen  # 1,512 to 4,428 (3 players to 6) in the two deals
    assert seen["a game score met"] > 0, seen  # the second deal, after the first was scored
    assert seen["viewer on Foot"] > 0 and seen["opponents hold known cards"] > 0, seen
    assert seen["stock changed"] > 0 and seen["a Foot changed"] > 0, seen
    assert seen["other hands changed"] > 0.9 * seen["checks"], seen
    assert seen["its vector changed"] == seen["another seat's hand redealt"] > 0, seen


def test_a_peeking_feature_is_caught():
    bad, _ = hidden_check(SHAPES["standard"], peeking_features, most=1)
    assert len(bad) == 1 and "own 4 held" in bad[0], bad


def _planted(g, seat: int, what: str):
    """A copy of the position ``g`` with one thing ``seat`` sees changed."""
    h = np.zeros(1, dtype=GAME_DTYPE)
    h[0] = g
    p = h[0]
    opponent = (seat + 1) % int(p["sc"][S_PLAYERS])
    if what == "own hand":
        k = int(np.argmax(p["hand"][seat]))
        p["hand"][seat, k] -= 1
        p["hand"][seat, (k + 1) % N_KINDS] += 1
    elif what == "a known card":
        p["hand"][opponent, 4] += 1
        p["known"][opponent, 4] += 1
    elif what == "own melds":
        team = seat % int(p["sc"][S_TEAMS])
        p["meld"][team, 5, M_NAT] += 3
        p["opened"][team] = 1
    elif what == "the pile":
        n = int(p["sc"][S_PILE_N])
        p["pile"][n] = 6 if n == 0 or p["pile"][n - 1] != 6 else 7
        p["sc"][S_PILE_N] = n + 1
    elif what == "the stock's size":
        p["sc"][S_STOCK_N] -= 1
    return h


@pytest.fixture(scope="module")
def snapshots() -> np.ndarray:
    """Positions of a real standard game, one every 25 steps while the stock lasts."""
    out = [table.game.copy() for i, table in enumerate(positions(SHAPES["standard"], seed=5))
           if i % 25 == 0 and table.g["sc"][S_STOCK_N] >= 5]
    return np.concatenate(out)


@pytest.mark.parametrize("what", ["own hand", "a known card", "own melds", "the pile",
                                  "the stock's size"])
def test_what_the_viewer_sees_changes_the_vector(what, snapshots):
    """The vector is not constant: a planted change of something the seat sees changes it,
    at every one of a real game's positions tried."""
    changed = 0
    a = np.zeros(N_FEATURES)
    b = np.zeros(N_FEATURES)
    for g in snapshots:
        write_features(g, 0, a)
        write_features(_planted(g, 0, what)[0], 0, b)
        changed += not np.array_equal(a, b)
    assert len(snapshots) >= 20 and changed == len(snapshots), (changed, len(snapshots))


# Card values (R-C3) written out here, not read from the engine, so that the slot test below
# computes every slot on its own; a melded black three counts -5 (R-V7).
VALUE = {"4": 5, "5": 5, "6": 5, "7": 5, "8": 10, "9": 10, "10": 10, "J": 10, "Q": 10, "K": 10,
         "A": 20, "2": 20, "JK": 50, "R3": 0, "B3": 5}
MELDED_VALUE = {**VALUE, "W": 0, "B3": -5}
NATURALS = KIND_NAMES[:11]


def expected_features(g, seat: int, rules: Rules) -> dict[str, float]:
    """Every slot, by name, as its name and docs/learned.md say, computed in plain Python from
    the game record and the rule set (none of ``strategies.learned``'s or the engine's
    helpers)."""
    sc = g["sc"]
    players, teams = rules.players, rules.partnerships
    team = seat % teams
    deal = int(sc[S_DEAL])
    d = min(deal, 4) - 1
    hand = dict(zip(KIND_NAMES, g["hand"][seat].tolist(), strict=True))
    held = [int(n) for n in g["hand"][:players].sum(axis=1)]
    foot = [int(n) for n in g["foot"][:players].sum(axis=1)]
    on_foot = g["on_foot"][:players].tolist()
    melds = g["meld"][:teams].tolist()  # [team][rank] = [naturals, twos, jokers]
    books = g["books"][:teams].tolist()  # [team] = [clean, dirty, wild, black3]
    melded = [sum(n * MELDED_VALUE[kind] for kind, n in zip(KIND_NAMES, booked, strict=True))
              + sum(m[M_NAT] * MELDED_VALUE[rank] + m[M_TWO] * VALUE["2"]
                    + m[M_JOKER] * VALUE["JK"] for rank, m in zip(RANK_NAMES, ms, strict=True))
              for booked, ms in zip(g["booked"][:teams].tolist(), melds, strict=True)]
    table_points = [melded[p] + clean * rules.clean_book_bonus
                    + (dirty + black3) * rules.dirty_book_bonus + wild * rules.wild_book_bonus
                    + int(g["red3"][p]) * rules.red3_bonus
                    for p, (clean, dirty, wild, black3) in enumerate(books)]
    # The rival: the other partnership with the most points on the table, the first on a tie.
    rival = max((p for p in range(teams) if p != team), key=lambda p: table_points[p])
    minimum = rules.opening_minimums[d]

    def side(p):
        opened = int(g["opened"][p])
        clean, dirty, wild, black3 = books[p]
        f = {"opened": opened, "opening minimum still to meet": 0 if opened else minimum}
        for rank, m in zip(RANK_NAMES, melds[p], strict=True):
            f[f"meld {rank} cards"] = sum(m)
        f["wilds in open melds"] = sum(m[M_TWO] + m[M_JOKER] for m in melds[p])
        f.update({"clean books": clean, "dirty books": dirty, "wild books": wild,
                  "black3 books": black3, "melded card points": melded[p],
                  "red threes exposed": g["red3"][p], "points on the table": table_points[p],
                  "pile pick-ups": g["pickups"][p]})
        f["book requirement to go out met"] = int(
            clean + black3 >= rules.out_clean_books[d] and dirty >= rules.out_dirty_books[d]
            and wild >= rules.out_wild_books[d])
        return f

    points = sum(n * VALUE[k] for k, n in hand.items())
    partners = [s for s in range(players) if s != seat and s % teams == team]
    opponents = [s for s in range(players) if s % teams != team]
    opp_foot = [on_foot[s] for s in opponents]
    want = {f"own {k} held": n for k, n in hand.items()}
    want.update({
        "own cards held": held[seat], "own card points held": points,
        "own on Foot": on_foot[seat], "own Foot cards": foot[seat],
        "own natural pairs held": sum(hand[k] >= 2 for k in NATURALS),
        "own naturals that fit own melds": sum(
            hand[k] for k in NATURALS if melds[team][RANK_NAMES.index(k)][M_NAT] > 0),
        "has partner": int(bool(partners)),
        "partner fewest cards held": min((held[s] for s in partners), default=0),
        "partners on Foot (share)":
            sum(on_foot[s] for s in partners) / len(partners) if partners else 0,
        "opponent fewest cards held": min(held[s] for s in opponents),
        "opponents mean cards held": sum(held[s] for s in opponents) / len(opponents),
        "opponents on Foot (share)": sum(opp_foot) / len(opponents),
        "opponent fewest Foot cards": min(foot[s] for s in opponents)})
    known = g["known"][opponents].sum(axis=0).tolist()
    want.update({f"opponents known {kind}": n for kind, n in zip(KIND_NAMES, known, strict=True)})
    want.update({f"own side {f}": v for f, v in side(team).items()})
    want.update({f"rival {f}": v for f, v in side(rival).items()})
    pile = [KIND_NAMES[k] for k in g["pile"][: int(sc[S_PILE_N])]]
    size = rules.pickup_size
    taken = {"top": min(size, len(pile)), "whole": len(pile),
             "exact": size if len(pile) >= size else 0}[rules.pickup_rule]
    top = pile[-1] if pile else None
    want.update({
        "pile cards": len(pile), "pile cards a pick-up takes": taken,
        "pile frozen cards set aside": sc[S_FROZEN_N],
        "pile card points": sum(VALUE[k] for k in pile),
        "pile open to own pick-up": int(
            top is not None and top not in ("R3", "B3") and taken > 0
            and (rules.wild_top_pickup or top not in ("2", "JK")) and hand[top] >= 2)})
    for kind in KIND_NAMES:
        want[f"pile top {kind}"] = int(top == kind)
    stock_share = int(sc[S_STOCK_N]) / rules.total_cards
    to_play, decision = int(sc[S_SEAT]), int(sc[S_DECISION])
    want.update({
        "stock cards": sc[S_STOCK_N], "stock share of the shoe": stock_share,
        "deal number": deal, "last deal": int(deal >= rules.deals_per_game),
        "opening minimum": minimum,
        "game score own minus rival (x1000)":
            (int(g["game_score"][team]) - int(g["game_score"][rival])) / 1000,
        "own turn": int(to_play == seat),
        "own decision pending": int(decision != NO_DECISION and sc[S_DECIDER] == seat),
        "turn number": sc[S_TURN],
        "picked up this turn": sc[S_PICKED_UP] if to_play == seat else 0,
        "seats until own turn": (seat - to_play) % players})
    for code, word in enumerate(Decision.words):
        want[f"pending {word}"] = int(decision == code)
    want.update({
        "own card points x an opponent on Foot": points if any(opp_foot) else 0,
        "own cards held x opponents on Foot share": held[seat] * (sum(opp_foot) / len(opponents)),
        "table points own minus rival": table_points[team] - table_points[rival],
        "own card points x stock share": points * stock_share})
    return {name: float(v) for name, v in want.items()}


# The named-slot test's positions: every step of one deal of each game below, kept every so
# many steps (and every grant or go-out pending): (shape, seed, deal, game score, every).
# With the built positions (``built_positions``) they meet every slot with two values at least
# and tell every two slots apart (both asserted): 3 to 6 players, partnerships and individual
# play, a rival that is not the first other partnership, the first and the last deal with game
# scores, every pending decision, a frozen pile, melded black threes, held red threes, exact
# and whole pick-ups.
SLOT_GAMES = (("standard", 5, 1, (0, 0), 11), ("standard", 5, 4, (2350, 3100), 11),
              ("3 players", 2, 2, (400, 900, -100), 9), ("6 players", 3, 3, (1200, -300, 800), 17),
              ("brouillette", 1, 3, (900, -400, 1200, 150), 9), ("eleven", 6, 1, (0, 0), 11),
              ("simpson", 7, 2, (300, -200, 0, 100), 11), ("saskatchewan", 4, 4, (2500, 2800), 13))


def built_positions() -> list[tuple[np.ndarray, Rules, str]]:
    """What real games of the built-in heuristics seldom show: a joker on top of the pile
    (open to a held pair of them), jokers known in opponents' hands, black-three books on
    both sides (in different numbers). The melded card points are set by hand."""
    standard = SHAPES["standard"]
    p = position(hands={0: ["JK", "JK", "9", "R3"], 1: ["JK", "8", "8"], 2: ["5"] * 6,
                        3: ["JK", "JK", "Q"]},
                 melds=[(0, "K", ["K"] * 4 + ["2"]), (1, "W", ["2", "2", "JK"])],
                 books={0: (1, 0, 0), 1: (0, 1, 1)}, opened=(0, 1), on_foot=(2,),
                 pile=["4", "Q", "JK"], stock=["7"] * 40, deal=2, rules=standard)
    g = p[0]
    g["known"][1, KIND_INDEX["JK"]] = 1
    g["known"][3, KIND_INDEX["JK"]] = 2
    g["melded_value"][:2] = (60 + 7 * 10, 90 + 6 * 10 + 20 + 7 * 20)
    g["game_score"][:2] = (-700, 450)
    g["sc"][S_TURN] = 31
    g["sc"][S_SEAT] = g["sc"][S_DECIDER] = 0
    g["sc"][S_DECISION] = Decision.PICK_UP
    rules = PROFILES["brouillette-partners"][0]
    q = position(hands={0: ["B3", "B3", "6"], 1: ["7", "7"], 2: ["A"] * 3, 3: ["10"]},
                 melds=[(0, "B3", ["B3"] * 3), (1, "9", ["9"] * 4)], opened=(0, 1),
                 pile=["5", "B3"], stock=["8"] * 30, deal=3, rules=rules)
    h = q[0]
    h["books"][0, Book.BLACK3] = 1
    h["books"][1, Book.BLACK3] = 2
    h["booked"][0, KIND_INDEX["B3"]] = 7
    h["booked"][1, KIND_INDEX["B3"]] = 14
    h["melded_value"][:2] = (-15 - 35, 40 - 70)
    h["sc"][S_TURN] = 44
    h["sc"][S_SEAT] = h["sc"][S_DECIDER] = 1
    h["sc"][S_DECISION] = Decision.MELD
    return [(p.game.copy(), standard, "built: jokers"), (q.game.copy(), rules, "built: black3")]


@pytest.fixture(scope="module")
def slot_views() -> list[tuple[np.ndarray, int, Rules, str, dict[str, float]]]:
    """(position, seat, rules, where, the expected slots) for every seat of every kept
    position."""
    kept = built_positions()
    for shape, seed, deal, score, every in SLOT_GAMES:
        rules = SHAPES[shape]
        for i, table in enumerate(deal_steps(rules, seed, deal, score)):
            if i % every == 0 or table.g["sc"][S_DECISION] in (Decision.GRANT, Decision.GO_OUT):
                kept.append((table.game.copy(), rules, f"{shape} seed {seed} deal {deal} step {i}"))
    return [(g, seat, rules, f"{where}, seat {seat}", expected_features(g[0], seat, rules))
            for g, rules, where in kept for seat in range(rules.players)]


def check_named_slots(features, views) -> list[str]:
    """Where ``features`` disagrees with ``expected_features`` (at most a few, by name)."""
    slot = {name: j for j, name in enumerate(FEATURE_NAMES)}
    out = np.zeros(N_FEATURES)
    bad: list[str] = []
    for g, seat, _, where, want in views:
        assert set(want) == set(FEATURE_NAMES), (
            f"slots without an independent check: {sorted(set(FEATURE_NAMES) - set(want))}; "
            f"checks of no slot: {sorted(set(want) - set(FEATURE_NAMES))}")
        assert features(g[0], seat, out) == N_FEATURES
        bad += [f"{name}: {out[slot[name]]}, want {v} ({where})"
                for name, v in want.items() if out[slot[name]] != v]
        if len(bad) >= 4:
            break
    return bad


def test_named_slots_hold_what_their_names_say(slot_views):
    """``FEATURE_NAMES`` and ``write_features`` agree slot by slot: every slot holds, at every
    kept position (real games in several shapes, and built ones) and from every seat's view,
    the number its name says, computed here from the game record (``expected_features``,
    which must name every slot: a slot added without a check fails). The positions meet every
    slot with two values at least and no two slots with the same values everywhere, so a slot
    moved, swapped with another or misnamed fails."""
    bad = check_named_slots(write_features, slot_views)
    assert bad == [], bad
    table = np.array([[want[name] for name in FEATURE_NAMES] for *_, want in slot_views])
    constant = [FEATURE_NAMES[j] for j in np.flatnonzero((table == table[0]).all(axis=0))]
    assert constant == [], f"slots met with one value only: {constant}"
    columns, first = np.unique(table.T, axis=0, return_inverse=True)
    same = [[FEATURE_NAMES[j] for j in np.flatnonzero(first == c)] for c in range(len(columns))]
    assert len(columns) == N_FEATURES, \
        f"slots no position tells apart: {[names for names in same if len(names) > 1]}"
