"""The search player's own meld at the branched positions of ``ask hold-wild``
(analysis.reports.search_choices), from constructed rows: the asked positions are joined to the
branched ones only where both the place and the situation match, and the share holding and the
value of holding where it held and where it melded are computed from the joined rows; and under
a rule file the search is pimc on the player's heuristic (plain pimc needs a tuned file)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest

from analysis.experiments.search_choice_cache import COLUMNS
from analysis.reports import search_choices as sc
from analysis.statistics.holding import (
    F_DEAL,
    F_GAME,
    F_HOLD,
    F_MELD,
    F_SEAT,
    F_TURN,
    F_WILDS_HELD,
    F_WILDS_MELDED,
    MIN_PER_GROUP,
    N_FEATURES,
    Collected,
)
from sim.core.rules import Rules


def branched(places: list[tuple[int, int, int, int, int, int, float, float]]) -> Collected:
    """Branched positions: (game, deal, turn, seat, wilds held, wilds melded, meld, hold)."""
    rows = np.zeros((len(places), N_FEATURES))
    for i, (game, deal, turn, seat, held, melded, meld, hold) in enumerate(places):
        rows[i, [F_GAME, F_DEAL, F_TURN, F_SEAT, F_WILDS_HELD, F_WILDS_MELDED, F_MELD,
                 F_HOLD]] = (game, deal, turn, seat, held, melded, meld, hold)
    return Collected("standard", "learned", Rules(), rows, games=50)


def choices(asked: list[tuple[int, int, int, int, int, int, int]]) -> pl.DataFrame:
    """Asked positions: (game, deal, turn, seat, wilds held, player's wilds, search's)."""
    return pl.DataFrame({c: [float(a[i]) if i < 7 else 1.0 for a in asked]
                         for i, c in enumerate(COLUMNS)})


def test_only_positions_matching_in_place_and_wilds_are_joined():
    c = branched([(0, 1, 10, 2, 2, 1, 100.0, 160.0),  # hold - meld = +60
                  (1, 2, 7, 0, 3, 2, 50.0, 20.0),  # -30
                  (2, 1, 4, 1, 1, 1, 0.0, 10.0)])
    asked = choices([(1, 2, 7, 0, 3, 2, 2),  # matches the second; the search melds both wilds
                     (0, 1, 10, 2, 2, 1, 0),  # matches the first; the search holds its wild
                     (2, 1, 4, 1, 2, 1, 0),  # the third's place, but 2 wilds in hand, not 1
                     (5, 1, 1, 1, 1, 1, 0)])  # no branched position there
    kept, rows = sc.joined(asked, c)
    assert kept.height == 2 and rows.shape == (2, N_FEATURES)
    assert kept["game"].to_list() == [1.0, 0.0]  # in the asked order
    assert rows[:, F_GAME].tolist() == [1.0, 0.0]  # each with its own branched row
    assert (rows[:, F_HOLD] - rows[:, F_MELD]).tolist() == [-30.0, 60.0]
    mismatch = choices([(0, 1, 10, 2, 2, 2, 0)])  # same place, the line melds 2 wilds, not 1
    assert sc.joined(mismatch, c)[0].height == 0
    nothing, empty = sc.joined(asked.head(0), c)
    assert nothing.height == 0 and empty.shape == (0, N_FEATURES)

    table = sc.table([("standard, learned", "learned", kept, rows)])
    assert table.height == 1  # two positions: no situation has enough of them
    top = table.row(0, named=True)
    assert top["situation"] == "all positions asked" and top["positions"] == 2
    assert top["search_holds"] == 0.5 and top["search_holds_all"] == 0.5
    assert 0.0 <= top["holds_low"] <= 0.5 <= top["holds_high"] <= 1.0
    assert top["value_held"] is None and top["n_held"] == 1  # one position is too few


def test_the_share_holding_and_the_value_where_it_held():
    """40 positions in 20 games: the search holds back at the 10 where holding pays (+50),
    holds nothing back at the 30 where it costs (-20); 3 of the 10 hold every wild."""
    rng = np.random.default_rng(3)
    places, asked = [], []
    for i in range(40):
        game, held = i // 2, 2 + i % 2
        good = i < 10
        meld = float(rng.integers(-100, 100))
        places.append((game, 1 + i % 4, i, i % 4, held, 2, meld,
                       meld + (50.0 if good else -20.0)))
        asked.append((game, 1 + i % 4, i, i % 4, held, 2, (0 if i < 3 else 1) if good else 2))
    kept, rows = sc.joined(choices(asked), branched(places))
    assert kept.height == 40
    table = sc.table([("standard, learned", "learned", kept, rows)])
    top = table.row(0, named=True)
    assert top["positions"] == 40
    assert top["search_holds"] == pytest.approx(10 / 40)
    assert top["search_holds_all"] == pytest.approx(3 / 40)
    assert top["holds_low"] < 0.25 < top["holds_high"]
    assert top["value_held"] == pytest.approx(50.0) and top["n_held"] == 10
    assert top["value_melded"] == pytest.approx(-20.0) and top["n_melded"] == 30
    # situations with at least MIN_PER_GROUP positions: every deal bin has only 10
    cases = table.filter(pl.col("case") != "all")
    assert all(n >= MIN_PER_GROUP for n in cases["positions"])
    assert "wilds held" not in cases["situation"].to_list()  # 20 and 20: too few each
    assert set(cases["case"]) == {"on the Hand", "2-5 cards held", "no wild book yet",
                                  "partner on the Hand", "an opponent at 1-4 cards"}
    text = sc.words(table, 55, "pimc")
    assert len(text) == 1
    assert text[0].startswith(
        "The search's own choice under standard, learned: at 40 of the positions where "
        "learned would meld a wild (of 55 asked), pimc holds back some of those wilds in "
        "25.0% (95% CI ")
    assert "and all of them in 7.5%." in text[0]
    assert "Where it held, holding there (played on by learned) was worth +50 points per " \
           "decision" in text[0]
    assert "where it melded, -20 (95% CI" in text[0]


def test_the_search_is_asked_under_a_rule_file(tmp_path):
    from analysis.experiments.search_choice import ensure_choices
    from analysis.experiments.search_choice_cache import read_choices
    from sim.core.profiles import load_rules

    path = tmp_path / "club.toml"
    path.write_text('base = "standard"\ngoing_out_bonus = 250\n')
    from analysis.experiments.players import checked, search_spec

    rules = load_rules(str(path))
    player = checked("cautious", rules, False, "constructed")
    search = search_spec(player, rules, tmp_path / "strategies")
    assert search.endswith(".toml")  # pimc on cautious: plain pimc needs a tuned file
    found = ensure_choices(tmp_path / "holding", "club", "club, cautious", "cautious",
                           "cautious", rules, positions=1, seed=1, search=search)
    meta, rows = read_choices(found)
    assert rows.height == 1 and meta["search"] == "pimc"


def test_the_search_is_asked_in_chunks_of_games_that_do_not_change_the_rows():
    """The games are asked a round of chunks at a time, in parallel: one chunk a round (one
    job) and two (two jobs) give the same rows, those of one game after another, and the games
    counted up to the last position needed."""
    from analysis.experiments.search_choice import ask_search
    from sim.core.profiles import load_rules

    rules = load_rules("standard")
    one, games_one = ask_search(rules, "cautious", "pimc", 3, 60, jobs=1)
    two, games_two = ask_search(rules, "cautious", "pimc", 3, 60, jobs=2)
    assert one.shape == (60, len(COLUMNS)) and np.array_equal(one, two)
    assert games_one == games_two == int(one[-1, 0]) + 1 >= 2  # more than one round
    assert np.all(np.diff(one[:, 0]) >= 0)  # game after game


def test_the_compiled_ask_gives_the_rows_of_a_decision_by_decision_replay():
    """sim.play.asking plays the games and asks the search in compiled code; the same games
    replayed from Python, one engine call at a time (the player's moves up to each wild meld,
    the search asked on a copy of the game record), give the same rows."""
    from analysis.experiments.search_choice import ask_search
    from sim.core.cards import JOKER, TWO
    from sim.core.profiles import load_rules
    from sim.core.records import N_COLUMNS
    from sim.engine.flow import apply_decision, start_deal
    from sim.engine.layout import S_DECIDER, S_TURN, T_ON, W_ENTRIES
    from sim.engine.scoring import N_PARTS
    from sim.play.api import make_table
    from sim.play.branching import play_to_wild_meld
    from sim.play.loop import close_deal, decide, new_game

    rules = load_rules("standard")
    compiled, _ = ask_search(rules, "cautious", "pimc", 5, 25, jobs=1)
    seats = rules.players
    real, probe = make_table(rules, ["cautious"] * seats), make_table(rules, ["pimc"] * seats)
    g, w, t = real.records()[:3]
    t["sc"][T_ON] = probe.records()[2]["sc"][T_ON] = 0
    pw = probe.records()[1]
    rows: list[tuple] = []
    record, parts = np.zeros(N_COLUMNS, dtype=np.int64), np.zeros(N_PARTS, dtype=np.int64)
    game = 0
    while len(rows) < 25:
        new_game(g)
        for deal in range(1, rules.deals_per_game + 1):
            start_deal(g, w, t, 5, game, deal)
            while play_to_wild_meld(*real.records()):
                if len(rows) < 25:
                    seat = int(g["sc"][S_DECIDER])
                    probe.game[0] = real.game[0]
                    value = decide(*probe.records())
                    rows.append((game, deal, int(g["sc"][S_TURN]), seat,
                                 int(g["hand"][seat, TWO] + g["hand"][seat, JOKER]),
                                 int(w["prop"][:int(w["sc"][W_ENTRIES]), 2:4].sum()),
                                 int(pw["prop"][:int(pw["sc"][W_ENTRIES]), 2:4].sum()),
                                 int(value)))
                apply_decision(g, w, t, 0)
            close_deal(g, t, game, deal, record, parts)
        game += 1
    assert np.array_equal(compiled, np.array(rows, dtype=np.float64))
