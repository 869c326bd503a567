"""Every corruption in tests/trace_checker/mutations.py is caught on real engine traces.

The `engine_traces` fixture (a list of traces, each a list of line dicts written by the engine)
comes from tests/conftest.py. A mutation that finds no site in any trace fails: the engine traces
must be rich enough to exercise every rule the referee is trusted with.
"""

from __future__ import annotations

import copy

import pytest

try:
    from tests.trace_checker import check_trace
    from tests.trace_checker.mutations import MUTATIONS
except ImportError:  # plain `pytest` puts tests/ (not the repo root) on sys.path
    from trace_checker import check_trace
    from trace_checker.mutations import MUTATIONS


def test_unmutated_engine_traces_pass(engine_traces: list[list[dict]]) -> None:
    assert engine_traces, "no engine traces"
    for k, trace in enumerate(engine_traces):
        found = check_trace(trace)
        assert found == [], f"engine trace {k}:\n" + "\n".join(map(str, found[:20]))


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_mutation_is_caught(name: str, engine_traces: list[list[dict]]) -> None:
    mutate, rule = MUTATIONS[name]
    for k, trace in enumerate(engine_traces):
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
    pytest.fail(f"mutation {name} found no site in any of {len(engine_traces)} engine traces")
