"""The search's base policy (``base_policy``): any tactician-family strategy or file, chosen per
search seat at run time (``w.base_params``), reaches both places the search plays it — the first
candidate, and every seat of the imagined deals — and nowhere else; pimc with a given base
plays deals the independent checker passes; the base is recorded in a run's manifest and a
resume plays the same. Bad base policies and budgets are refused in one line (exit 2) in
tests/test_cli_strategies.py."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.core.enums import Decision
from sim.core.profiles import PROFILES
from sim.core.rules import replace
from sim.engine.flow import clear_proposal
from sim.engine.layout import S_DECIDER, S_DECISION, W_ENTRIES, W_LINES
from sim.play.api import make_table
from sim.runs.trace import trace_games
from strategies import tactician
from strategies.hooks import HOOK_OF
from strategies.lookahead import candidates as cands
from strategies.per_profile import tuned_file
from strategies.registry import (
    REGISTRY,
    StrategyError,
    StrategyInfo,
    load,
    with_base_policy,
    with_params,
)
from strategies.search import pimc
from tests.test_search import decision_points
from tests.trace_checker import check_trace

STANDARD = PROFILES["standard"][0]
# A tactician far from cautious on every knob that acts often: its choices differ from
# cautious's at many real positions.
ALT = ('base = "tactician"\nhold_wilds = 2\nmin_pile = 4\nopen_extra = 100\ngo_out = 1\n'
       'grant = 2\nkeep_pairs = 0\ndiscard_safety = 0\nwild_book_first = 0\nblack3_block = 0\n')


@pytest.fixture
def alt_file(tmp_path: Path) -> str:
    path = tmp_path / "alt.toml"
    path.write_text(ALT)
    return str(path)


def searcher(base: str, **params: float) -> StrategyInfo:
    """pimc with base policy ``base`` and a small budget."""
    return with_base_policy(with_params(load("pimc"), "pimc-test", {"worlds": 4, **params}),
                            base, "pimc-test")


def flat(entries: np.ndarray, n: int, line_ends: np.ndarray, lines: int) -> list[int]:
    return [*entries[:n].ravel().tolist(), -1, *line_ends[:lines].tolist()]


def positions(count: int) -> list[np.ndarray]:
    """Snapshots of real pimc games at ``count`` decisions of every kind met."""
    out = []
    for _, game, _ in decision_points(STANDARD, games=1, seed=8):
        out.append(game)
        if len(out) >= count:
            break
    return out


def test_the_base_candidate_is_the_base_policys_choice(alt_file):
    """At real positions, the search's first candidate (baseline 1) is exactly what the
    tactician with the seat's base vector proposes: for cautious and for another vector, which
    disagree at some of them — the vector comes from the seat's strategy, not the code."""
    disagree = 0
    answers: dict[str, list] = {}
    for base in ("cautious", alt_file):
        search = make_table(STANDARD, [searcher(base)] * STANDARD.players)
        heuristic = make_table(STANDARD, [load(base)] * STANDARD.players)
        got = answers[base] = []
        for game in positions(150):
            search.game[:] = game
            heuristic.game[:] = game
            g = search.g
            seat = int(g["sc"][S_DECIDER])
            decision = int(g["sc"][S_DECISION])
            cands.gather(g, search.w, search.t, search.copies, seat, 3, True, 1)
            w = search.w
            first = (int(w["cand_value"][0]),
                     flat(w["cand_prop"][0], int(w["cand_entries"][0]), w["cand_line_end"][0],
                          int(w["cand_lines"][0])))
            h = heuristic.w
            clear_proposal(h)
            value = getattr(tactician, HOOK_OF[decision])(heuristic.g, h, heuristic.t,
                                                           heuristic.copies, seat)
            n = max(value, 0) if decision == Decision.PICK_UP else int(h["sc"][W_ENTRIES])
            want = (int(value), flat(h["prop"], n, h["prop_line_end"], int(h["sc"][W_LINES])))
            assert first == want, (base, Decision.words[decision])
            got.append(first)
    disagree = sum(a != b for a, b in zip(answers["cautious"], answers[alt_file], strict=True))
    assert disagree >= 5, disagree


def rollout_values(info: StrategyInfo, others: str, game: np.ndarray) -> np.ndarray:
    """The search's outcomes per candidate and world at ``game`` (the decider plays ``info``,
    every other seat ``others``)."""
    seat = int(game[0]["sc"][S_DECIDER])
    seats = [info if s == seat else others for s in range(STANDARD.players)]
    table = make_table(STANDARD, seats)
    table.game[:] = game
    params = info.params
    count = pimc.candidate_values(table.g, table.w, table.t, table.copies, seat,
                                  pimc.VIEW_FAIR, 4, 0, int(params["rollout"]),
                                  float(params["epsilon"]), 0)
    assert count > 0
    return np.array(table.w["world_values"][:count, :4])


def test_every_seat_of_the_imagined_deals_plays_the_base_policy(alt_file):
    """With greedy as the first candidate (baseline 0, the same candidates whatever the base),
    the outcomes of the rollouts (rollout 3) change with the base vector, do not change with
    the other seats' own strategies (every seat plays the searcher's base there), are the same
    for the same vector under two names, and ignore the base when the rollouts are greedy."""
    same_name = Path(alt_file).with_name("alt-again.toml")
    same_name.write_text(ALT)
    changed = 0
    for game in positions(60)[20::8]:
        cautious = rollout_values(searcher("cautious", baseline=0), "greedy", game)
        alt = rollout_values(searcher(alt_file, baseline=0), "greedy", game)
        assert cautious.shape == alt.shape
        changed += not np.array_equal(cautious, alt)
        assert np.array_equal(alt, rollout_values(searcher(alt_file, baseline=0), "cautious",
                                                  game))
        assert np.array_equal(alt, rollout_values(searcher(str(same_name), baseline=0),
                                                  "random", game))
        greedy_a = rollout_values(searcher("cautious", baseline=0, rollout=0), "greedy", game)
        greedy_b = rollout_values(searcher(alt_file, baseline=0, rollout=0), "greedy", game)
        assert np.array_equal(greedy_a, greedy_b)
    assert changed >= 2, changed


def test_each_search_seat_plays_its_own_base(alt_file):
    """Two pimc seats with different bases at one table: each seat's row of w.base_params is
    its own strategy's vector (the other seats' rows are zero)."""
    from strategies.registry import base_vector, param_vector

    seats = [searcher("cautious"), "greedy", searcher(alt_file), "cautious"]
    table = make_table(STANDARD, seats)
    base = table.w["base_params"]
    assert np.array_equal(base[0], param_vector(REGISTRY["cautious"]))
    assert np.array_equal(base[2], base_vector(searcher(alt_file)))
    assert not np.array_equal(base[0], base[2])
    assert not base[1].any() and not base[3].any()


SHAPES = {"standard": STANDARD, "eleven": PROFILES["eleven"][0],
          "3 players": replace(STANDARD, players=3, partnerships=3, decks=4)}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_pimc_with_a_given_base_policy_passes_the_checker(shape, alt_file):
    rules = SHAPES[shape]
    bases = [alt_file, str(tuned_file("standard")), "tactician"]
    seats = [searcher(bases[s % len(bases)]) if s % 2 == 0 else "cautious"
             for s in range(rules.players)]
    lines = list(trace_games(rules, seats, 23, 0, 1))
    assert check_trace(lines) == []


def test_tuned_as_a_base_resolves_per_profile():
    """``base_policy = "tuned"`` is the tuned file of the rules being played; a rule file that
    is no profile has none, and says how to name one."""
    info = searcher("tuned")
    assert info.base_policy == "tuned" and not info.base_params  # resolved with the rules
    for profile in ("standard", "eleven"):
        table = make_table(PROFILES[profile][0], [info] * 4)
        assert table.seats[0].base_params == load(str(tuned_file(profile))).params
    custom = replace(STANDARD, decks=6)
    with pytest.raises(StrategyError, match="base policy 'tuned'.*base_policy = \"cautious\""):
        make_table(custom, [info] * 4)


def test_a_strategy_file_names_its_base_policy(tmp_path, alt_file):
    """``base_policy`` in a search player's file: a name, or a file read from the strategy
    file's folder; the other keys stay parameters; the registered defaults are untouched."""
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "policy.toml").write_text(ALT)
    path = folder / "search.toml"
    path.write_text('base = "pimc"\nbase_policy = "policy.toml"\nworlds = 8\n')
    info = load(str(path))
    assert info.base_policy == str(folder / "policy.toml")
    assert info.base_params == load(alt_file).params and info.params["worlds"] == 8
    path.write_text('base = "pimc"\n[params]\nbase_policy = "tactician"\n')
    assert load(str(path)).base_params == REGISTRY["tactician"].params
    assert load(str(path)).played != searcher("cautious").played  # the base is part of the play


def test_the_default_base_is_the_profiles_tuned_player():
    """The registered pimc (and oracle) build on ``tuned``: resolved per profile where the
    table is made, so each profile's search rolls out that profile's strongest heuristic."""
    for name in ("pimc", "oracle"):
        assert REGISTRY[name].base_policy == "tuned" and not REGISTRY[name].base_params
    for profile, (rules, _) in PROFILES.items():
        table = make_table(rules, ["pimc"] * rules.players)
        want = load(str(tuned_file(profile))).params
        assert all(info.base_params == want for info in table.seats), profile
    with pytest.raises(StrategyError, match="base policy 'tuned' \\(pimc's default"):
        make_table(replace(STANDARD, decks=6), ["pimc"] * 4)


def test_the_manifest_records_the_base_and_a_resume_plays_it(tmp_path, capsys, alt_file):
    """The run's manifest records each search seat's base policy and its resolved vector;
    the records do not depend on --jobs; resuming with another base is refused."""
    import json

    from tests.runhelpers import check_played, cli, records

    path = tmp_path / "search.toml"
    path.write_text(f'base = "pimc"\nbase_policy = "{alt_file}"\nworlds = 2\n')
    seats = [str(path), "cautious"] * 2
    for jobs in ("1", "2"):
        code, _, err = cli(capsys, "simulate", "--games", "4", "--chunk-size", "1", "--jobs",
                           jobs, "--team0", str(path), "--team1", "cautious", "--out-dir",
                           str(tmp_path), "--name", f"run{jobs}", "--no-progress")
        assert code == 0, err
    m = check_played(tmp_path / "run1", seats, STANDARD, 4)
    played = m["strategies"]["played"][0]
    assert played["base_policy"] == alt_file and played["base_params"] == load(alt_file).params
    assert records(tmp_path / "run1").equals(records(tmp_path / "run2"))
    other = tmp_path / "other.toml"
    other.write_text('base = "pimc"\nbase_policy = "cautious"\nworlds = 2\n')
    code, _, err = cli(capsys, "simulate", "--resume", str(tmp_path / "run1"), "--team0",
                       str(other), "--team1", "cautious")
    assert code == 2 and "different strategies" in err
    assert json.loads((tmp_path / "run1" / "manifest.json").read_text())["status"] == "complete"
