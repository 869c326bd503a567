"""Every corruption in tests/trace_checker/mutations.py is caught on real engine traces, by the
check it names.

The `engine_traces` fixture (a list of traces, each a list of line dicts written by the engine)
and `engine_traces_by_profile` (profile name -> such a list, for every named profile) come from
tests/conftest.py; `engine_traces_by_rule_set` (below) holds games of the rule files of
`RULE_SETS`. A mutation that finds no site in any trace of its profile fails: the engine
traces must be rich enough to exercise every rule the referee is trusted with.

A mutation names a check id (checks.py, `RULE/name`), not a bare rule id, since several checks
report the same rule id: `test_mutation_needs_the_check_it_names` switches the named check off
and shows the mutation is then no longer reported under that expectation, so no neighbouring
check sharing the rule id can stand in for it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

try:
    from tests.trace_checker import check_trace
    from tests.trace_checker.checks import CHECKS, checks_of_rule, rule_of
    from tests.trace_checker.mutations import (
        MUTATIONS,
        PROFILE_MUTATIONS,
        RULE_SET_MUTATIONS,
        RULE_SETS,
        Mutation,
        caught_by,
        first_site,
    )
except ImportError:  # plain `pytest` puts tests/ (not the repo root) on sys.path
    from trace_checker import check_trace
    from trace_checker.checks import CHECKS, checks_of_rule, rule_of
    from trace_checker.mutations import (
        MUTATIONS,
        PROFILE_MUTATIONS,
        RULE_SET_MUTATIONS,
        RULE_SETS,
        Mutation,
        caught_by,
        first_site,
    )

PROFILES = ("standard", "eleven", "saskatchewan", "simpson", "brouillette", "brouillette-partners")
RULE_SET_GAMES = 20
RULE_SET_SEED = 3002


def _toml(knobs: dict[str, object]) -> str:
    """An engine rule file: `standard` with the knobs of a RULE_SETS entry."""

    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        return json.dumps(v)

    return 'base = "standard"\n' + "".join(f"{k} = {value(v)}\n" for k, v in knobs.items())


@pytest.fixture(scope="session")
def engine_traces_by_rule_set(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list]:
    """For every rule set of RULE_SETS: whole games of greedy seats written by
    `handfoot trace --rules FILE`, one list of line dicts per game.

    Only the games the referee accepts are kept, so that the mutations corrupt legal play
    whatever the state of the engine (a game it plays illegally is no base for a corruption).
    """
    from sim.cli import main  # the engine's public command line (docs/trace.md: `handfoot trace`)

    folder = tmp_path_factory.mktemp("rule_sets")
    out: dict[str, list] = {}
    for name, knobs in RULE_SETS.items():
        rules = folder / f"{name}.toml"
        rules.write_text(_toml(knobs))
        path = folder / f"{name}.jsonl"
        args = ["trace", "--games", str(RULE_SET_GAMES), "--seed", str(RULE_SET_SEED)]
        main([*args, "--rules", str(rules), "--strategy", "greedy", "--out", str(path)])
        games: list[list[dict]] = [[]]
        for text in Path(path).read_text().splitlines():
            games[-1].append(json.loads(text))
            if games[-1][-1]["type"] == "game":
                games.append([])
        legal = [g for g in games if g and not check_trace(g)]
        assert len(legal) >= RULE_SET_GAMES // 2, f"{name}: the referee rejects most games"
        for game in legal:
            assert game[0]["rules"]["books"] == knobs.get("books", game[0]["rules"]["books"])
        out[name] = legal
    return out


_FOUND: dict[int, list] = {}  # violations of each corrupted trace, all checks on


def _caught(name: str, mutate: Mutation, check: str, traces: list[list[dict]]) -> list[dict]:
    """Apply `mutate` to the first trace where it finds a site (first_site also fails when it
    modifies its input); `check` must report it. Returns the corrupted trace."""
    site = first_site(mutate, traces)
    if site is None:
        pytest.fail(f"mutation {name} found no site in any of {len(traces)} engine traces")
    k, mutated = site
    if id(mutated) not in _FOUND:  # the corrupted trace lives on in first_site's memory
        _FOUND[id(mutated)] = check_trace(mutated)
    found = _FOUND[id(mutated)]
    assert caught_by(found, check), (
        f"{name} on engine trace {k}: expected {check}, found:\n" + "\n".join(map(str, found[:10]))
    )
    return mutated


def test_unmutated_engine_traces_pass(engine_traces: list[list[dict]]) -> None:
    assert engine_traces, "no engine traces"
    for k, trace in enumerate(engine_traces):
        found = check_trace(trace)
        assert found == [], f"engine trace {k}:\n" + "\n".join(map(str, found[:20]))


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_mutation_is_caught(name: str, engine_traces: list[list[dict]]) -> None:
    mutate, check = MUTATIONS[name]
    _caught(name, mutate, check, engine_traces)


def test_every_named_profile_has_engine_traces(
    engine_traces_by_profile: dict[str, list[list[dict]]],
) -> None:
    missing = [p for p in PROFILES if not engine_traces_by_profile.get(p)]
    assert not missing, f"no engine traces for profiles {missing}"
    for name, traces in engine_traces_by_profile.items():
        for trace in traces:
            assert trace[0]["type"] == "deal" and trace[0]["profile"] == name
            assert trace[0]["rules"], f"{name}: deal line without a rules object"


@pytest.mark.parametrize("profile", PROFILES)
def test_unmutated_engine_traces_pass_every_profile(
    profile: str, engine_traces_by_profile: dict[str, list[list[dict]]]
) -> None:
    """Whole games of every named profile are legal for the referee (knobs read from `rules`)."""
    traces = engine_traces_by_profile[profile]
    for k, trace in enumerate(traces):
        found = check_trace(trace)
        assert found == [], (
            f"{profile} engine trace {k} rejected by the referee (engine bug or referee bug: see "
            f"the violations):\n" + "\n".join(map(str, found[:20]))
        )


def test_every_profile_has_a_profile_mutation() -> None:
    covered = {profile for _, _, profile in PROFILE_MUTATIONS.values()}
    assert covered >= set(PROFILES) - {"standard"}


@pytest.mark.parametrize("name", list(PROFILE_MUTATIONS))
def test_profile_mutation_is_caught(
    name: str, engine_traces_by_profile: dict[str, list[list[dict]]]
) -> None:
    mutate, check, profile = PROFILE_MUTATIONS[name]
    _caught(name, mutate, check, engine_traces_by_profile[profile])


@pytest.mark.parametrize("name", list(RULE_SET_MUTATIONS))
@pytest.mark.rule("R-V4", "R-V7", "R-M4")
def test_rule_set_mutation_is_caught(
    name: str, engine_traces_by_rule_set: dict[str, list[list[dict]]]
) -> None:
    """R-V4 with R-V7 and R-M4: black-three and wild melds close at 7 even where completed books
    take more naturals (rule file: books "naturals", black3_melds, 8 decks)."""
    mutate, check, rule_set = RULE_SET_MUTATIONS[name]
    _caught(name, mutate, check, engine_traces_by_rule_set[rule_set])


# -- each mutation is caught by the check it names, not by a neighbour -------------------------
ALL_MUTATIONS: dict[str, tuple[Mutation, str, str]] = {
    **{name: (fn, check, "standard") for name, (fn, check) in MUTATIONS.items()},
    **{name: (fn, check, f"profile {p}") for name, (fn, check, p) in PROFILE_MUTATIONS.items()},
    **{name: (fn, check, f"rules {r}") for name, (fn, check, r) in RULE_SET_MUTATIONS.items()},
}
# Mutations whose rule id other checks report as well (R-S: the deal score and the game totals;
# CARDS: a card not held and conservation; ...): a bare rule id could be met by a neighbour.
SHARED = [
    n for n, (_, check, _) in ALL_MUTATIONS.items() if len(checks_of_rule(rule_of(check))) > 1
]


def test_every_mutation_names_a_registered_check() -> None:
    unknown = {n: check for n, (_, check, _) in ALL_MUTATIONS.items() if check not in CHECKS}
    assert not unknown, f"mutations naming no check of checks.py: {unknown}"
    for name in ("score_off_by_five", "simpson:pickup_short_pile", "discard_not_held"):
        assert name in SHARED  # R-S, R-PU and CARDS are each reported by several checks


def _traces(
    where: str,
    engine_traces: list[list[dict]],
    by_profile: dict[str, list[list[dict]]],
    by_rule_set: dict[str, list[list[dict]]],
) -> list[list[dict]]:
    kind, _, key = where.partition(" ")
    if kind == "standard":
        return engine_traces
    return by_profile[key] if kind == "profile" else by_rule_set[key]


@pytest.mark.parametrize("name", SHARED)
def test_mutation_needs_the_check_it_names(
    name: str,
    request: pytest.FixtureRequest,
    engine_traces: list[list[dict]],
    engine_traces_by_profile: dict[str, list[list[dict]]],
) -> None:
    """With every check on, the named check reports the mutation; with that one check disabled
    (the others still run, and replay goes on past the line it would have stopped at), the
    mutation is not reported under the expectation: no other check satisfies it."""
    mutate, check, where = ALL_MUTATIONS[name]
    by_rule_set = request.getfixturevalue("engine_traces_by_rule_set") if "rules" in where else {}
    traces = _traces(where, engine_traces, engine_traces_by_profile, by_rule_set)
    mutated = _caught(name, mutate, check, traces)
    without = check_trace(mutated, disabled={check})
    assert not caught_by(without, check), (
        f"{name}: with {check} disabled the expectation is still met:\n"
        + "\n".join(map(str, without[:10]))
    )
    assert all(v.check != check for v in without)


@pytest.mark.parametrize(
    ("name", "neighbour"),
    [("score_off_by_five", "R-S/game-totals"), ("discard_not_held", "CARDS/conservation")],
)
def test_a_bare_rule_id_would_be_met_by_a_neighbour(
    name: str, neighbour: str, engine_traces: list[list[dict]]
) -> None:
    """Why mutations name checks: with the named check disabled, a neighbour still reports the
    same rule id (a game's totals no longer add up; the card that was never held upsets the
    count), so an expectation of the bare rule id would pass without the check it aims at."""
    mutate, check = MUTATIONS[name]
    mutated = _caught(name, mutate, check, engine_traces)
    without = check_trace(mutated, disabled={check})
    assert rule_of(neighbour) == rule_of(check)
    assert any(v.check == neighbour for v in without), "\n".join(map(str, without[:10]))
    assert not caught_by(without, check)
