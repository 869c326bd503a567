"""Every corruption in tests/trace_checker/mutations.py is caught on real engine traces.

The `engine_traces` fixture (a list of traces, each a list of line dicts written by the engine)
and `engine_traces_by_profile` (profile name -> such a list, for every named profile) come from
tests/conftest.py. A mutation that finds no site in any trace of its profile fails: the engine
traces must be rich enough to exercise every rule the referee is trusted with.
"""

from __future__ import annotations

import copy

import pytest

try:
    from tests.trace_checker import check_trace
    from tests.trace_checker.mutations import MUTATIONS, PROFILE_MUTATIONS, Mutation
except ImportError:  # plain `pytest` puts tests/ (not the repo root) on sys.path
    from trace_checker import check_trace
    from trace_checker.mutations import MUTATIONS, PROFILE_MUTATIONS, Mutation

PROFILES = ("standard", "eleven", "saskatchewan", "simpson", "brouillette", "brouillette-partners")


def _caught(name: str, mutate: Mutation, rule: str, traces: list[list[dict]]) -> None:
    """Apply `mutate` to the first trace where it finds a site; `rule` must be reported."""
    for k, trace in enumerate(traces):
        before = copy.deepcopy(trace)
        mutated = mutate(trace)
        assert trace == before, f"{name} modified its input"
        if mutated is None:
            continue
        found = check_trace(mutated)
        assert rule in {v.rule for v in found}, (
            f"{name} on engine trace {k}: expected {rule}, found:\n"
            + "\n".join(map(str, found[:10]))
        )
        return
    pytest.fail(f"mutation {name} found no site in any of {len(traces)} engine traces")


def test_unmutated_engine_traces_pass(engine_traces: list[list[dict]]) -> None:
    assert engine_traces, "no engine traces"
    for k, trace in enumerate(engine_traces):
        found = check_trace(trace)
        assert found == [], f"engine trace {k}:\n" + "\n".join(map(str, found[:20]))


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_mutation_is_caught(name: str, engine_traces: list[list[dict]]) -> None:
    mutate, rule = MUTATIONS[name]
    _caught(name, mutate, rule, engine_traces)


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
    mutate, rule, profile = PROFILE_MUTATIONS[name]
    _caught(name, mutate, rule, engine_traces_by_profile[profile])
