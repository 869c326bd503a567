"""Scoring (R-S1..R-S6), worked examples W4-W6, and game results (R-X7)."""

from __future__ import annotations

import numpy as np

from analysis.reports.summary import game_totals, summarize
from sim.engine.layout import S_OUT_SEAT
from sim.engine.reasons import E_UNDER_MINIMUM, OK
from sim.engine.scoring import N_PARTS, P_BOOKS, P_LEFT, P_MELDED, P_OUT, P_RED3, score_parts
from tests.position import entries, position


def parts_of(arr, team: int) -> tuple[int, np.ndarray]:
    parts = np.zeros(N_PARTS, dtype=np.int64)
    total = score_parts(arr.g, team, parts)
    return total, parts


def lay(arr, seat, *melds):
    e, n = entries(*melds)
    return arr.lay(seat, e, n)


def test_R_S1_R_S4_W5_book_values():
    """W5: a clean book of nines scores 570; five nines and two twos 390."""
    arr = position(hands={0: ["9"] * 12 + ["2", "2", "4", "4"]}, opened=(0,))
    assert lay(arr, 0, ("9", ["9"] * 7)) == OK
    _, parts = parts_of(arr, 0)
    assert parts[P_MELDED] + parts[P_BOOKS] == 570
    arr = position(hands={0: ["9"] * 5 + ["2", "2", "4", "4"]}, opened=(0,))
    assert lay(arr, 0, ("9", ["9"] * 5 + ["2", "2"])) == OK
    _, parts = parts_of(arr, 0)
    assert parts[P_MELDED] + parts[P_BOOKS] == 390


def test_R_S4_wild_book_bonus_1500():
    arr = position(hands={0: ["2"] * 4 + ["JK"] * 3 + ["4", "4"]}, opened=(0,))
    assert lay(arr, 0, ("W", ["2"] * 4 + ["JK"] * 3)) == OK
    _, parts = parts_of(arr, 0)
    assert parts[P_MELDED] == 4 * 20 + 3 * 50 and parts[P_BOOKS] == 1500


def test_R_S2_R_S6_cards_left_in_hands_and_feet_count_against():
    arr = position(hands={0: ["JK", "B3", "4"], 2: ["A"]}, feet={0: ["K"] * 13},
                   on_foot=(2,))
    total, parts = parts_of(arr, 0)
    assert parts[P_LEFT] == -(50 + 5 + 5 + 20 + 13 * 10)  # R-S6: a black three is -5
    assert total == parts.sum()


def test_R_S3_W6_red_threes_plus_exposed_minus_hidden():
    """W6: a red three in an unpicked Foot scores -100 with the Foot's cards at their values."""
    arr = position(hands={0: ["4"]}, feet={0: ["R3"] + ["9"] * 12})
    arr[0]["red3"][0] = 2
    _, parts = parts_of(arr, 0)
    assert parts[P_RED3] == 2 * 100 - 100
    assert parts[P_LEFT] == -(5 + 12 * 10 + 13 * 5)  # seat 2's dummy Foot of fours too


def test_R_S5_going_out_bonus_only_for_the_partnership_that_went_out():
    arr = position(hands={0: []}, on_foot=(0, 2))
    arr[0]["sc"][S_OUT_SEAT] = 2
    assert parts_of(arr, 0)[1][P_OUT] == 100
    assert parts_of(arr, 1)[1][P_OUT] == 0
    arr[0]["sc"][S_OUT_SEAT] = -1  # the stock ran out: nobody gets it
    assert parts_of(arr, 0)[1][P_OUT] == 0


def test_W4_seven_sixes_are_not_an_opening_in_deal_1():
    arr = position(hands={0: ["6"] * 7 + ["4", "4"]}, deal=1)
    assert lay(arr, 0, ("6", ["6"] * 7)) == E_UNDER_MINIMUM


def test_R_X7_a_tied_game_is_half_a_win_each():
    from sim.core.records import record_dtype

    rec = np.zeros(8, dtype=record_dtype(2, 4))
    rec["score"][:4] = [[100, 0], [0, 100], [50, 50], [0, 0]]  # game 0 tied 150-150
    rec["score"][4:] = [[100, 0], [0, 0], [0, 0], [0, 0]]  # game 1 won by partnership 0
    assert game_totals(rec, 4).tolist() == [[150, 150], [100, 0]]
    s = summarize(rec, 4, ["a", "b"])
    assert s.ties == 1
    assert s.teams[0].win_rate == 0.75 and s.teams[1].win_rate == 0.25


def test_R_S_breakdown_sums_to_the_score_in_every_record():
    from sim.core.rules import Rules
    from sim.play.api import play

    rec = play(Rules(), ["greedy", "random"] * 2, seed=5, first_game=0, n_games=50)
    total = rec["melded"] + rec["left"] + rec["red3"] + rec["books"] + rec["out"]
    assert (total == rec["score"]).all()
    assert (rec["left"] <= 0).all()
    out_team = rec["out_seat"] % 2
    went_out = rec["end_reason"] == 1
    assert (rec["out"][went_out, :][np.arange(went_out.sum()), out_team[went_out]] == 100).all()
    assert (rec["out"][~went_out] == 0).all()
