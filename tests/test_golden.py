"""Play that should not change does not: the per-deal records (25 games) and the traces (2
games) of every profile with every strategy, mixed tables and other table shapes are byte for
byte those the engine produced before the architecture change (commit 715d02a), saved as
digests in tests/golden/expected.json. A case whose play changed on purpose is regenerated
with ``python -m tests.golden.cases`` and the reason recorded in expected.json's "changed"."""

from __future__ import annotations

import json

import pytest

from tests.golden.cases import EXPECTED, cases, digest

EXPECTED_DIGESTS = json.loads(EXPECTED.read_text())


@pytest.mark.parametrize("name,rules,strategy", list(cases()), ids=lambda v: str(v)[:40])
def test_records_and_traces_are_byte_identical(name, rules, strategy):
    assert digest(rules, strategy) == EXPECTED_DIGESTS["cases"][name]
