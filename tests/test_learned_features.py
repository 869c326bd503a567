"""The learned player's features (strategies/learned/features.py): one named slot each, every
slot written, and only what the viewing seat may know.

The hidden-cards check deals every card a seat cannot see anew (tests/hidden_cards.py, the
no-cheating test's own ``redeal``: the other hands but their known cards, every unpicked Foot,
the stock's contents and order, the random stream and the root seed) at every step of the first
two deals of a real game (the second sees a game score), in every profile and with 3 and 6
players, and asks for the same vector from that seat's view. It has teeth: the same redeal
changes the vector of a seat whose hand it dealt anew, a planted peeking variant of
``write_features`` is caught, and planted changes of what the seat does see (its hand, a known
card, the melds, the pile) change the vector.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from numba import njit

from sim.core.cards import KIND_NAMES, N_KINDS, RANK_NAMES
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
    S_DECISION,
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
from strategies.learned.features import write_features
from strategies.learned.schema import FEATURE_NAMES, N_FEATURES
from tests import hidden_cards as hc

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


def test_named_slots_hold_what_their_names_say(snapshots):
    """``FEATURE_NAMES`` and ``write_features`` agree slot by slot: each slot named below
    holds, at every position of a real game and from two seats' views, the number its name
    says, read from the game record here (so a slot moved or misnamed fails)."""
    slot = {name: j for j, name in enumerate(FEATURE_NAMES)}
    out = np.zeros(N_FEATURES)
    met = Counter()
    for g in snapshots:
        sc = g["sc"]
        for seat in (0, 1):
            team = seat % int(sc[S_TEAMS])
            write_features(g, seat, out)
            want = {"own cards held": g["hand"][seat].sum(), "own on Foot": g["on_foot"][seat],
                    "own Foot cards": g["foot"][seat].sum(), "has partner": 1,
                    "pile cards": sc[S_PILE_N], "stock cards": sc[S_STOCK_N],
                    "deal number": sc[S_DEAL], "turn number": sc[S_TURN],
                    "own turn": int(sc[S_SEAT] == seat), "own side opened": g["opened"][team]}
            for k, kind in enumerate(KIND_NAMES):
                want[f"own {kind} held"] = g["hand"][seat, k]
                want[f"opponents known {kind}"] = sum(
                    g["known"][s, k] for s in range(int(sc[S_PLAYERS]))
                    if s % int(sc[S_TEAMS]) != team)
                top = g["pile"][sc[S_PILE_N] - 1] if sc[S_PILE_N] else -1
                want[f"pile top {kind}"] = int(top == k)
            for r, rank in enumerate(RANK_NAMES):
                want[f"own side meld {rank} cards"] = sum(g["meld"][team, r, m]
                                                          for m in (M_NAT, M_TWO, M_JOKER))
            for b, book in enumerate(Book.words):
                want[f"own side {book} books"] = g["books"][team, b]
            for d, word in enumerate(Decision.words):
                want[f"pending {word}"] = int(sc[S_DECISION] == d)
            got = {name: out[slot[name]] for name in want}
            assert got == {name: float(v) for name, v in want.items()}, \
                {n: (got[n], want[n]) for n in want if got[n] != want[n]}
            met["opened"] += int(g["opened"][team])
            met["known"] += int(g["known"].sum() > 0)
            met["books"] += int(g["books"][team].sum() > 0)
    assert all(met[k] > 0 for k in ("opened", "known", "books")), met
