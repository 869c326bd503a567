"""Play that should not change does not: the per-deal records (25 games) and the traces (2
games) of every profile with every strategy, mixed tables and other table shapes are byte for
byte those the engine produced before the architecture change (commit 715d02a), saved as
digests in tests/golden/expected.json. A case whose play changed on purpose is regenerated
with ``python -m tests.golden.cases`` and the reason recorded in expected.json's "changed".
The search player's cases (``*-pimc``) and the learned player's (``*-learned``, which also pin
its shipped models: a refitted model changes them) play fewer games.

The learned player's features at fixed positions are likewise those of
tests/golden/features.json, slot by slot (tests/golden/features.py says how the positions are
reached). Regenerate it (``python -m tests.golden.features "why" >
tests/golden/features.json``) only for a new FEATURE_VERSION (a change of meaning, for which
the models are refitted) or a change of play up to those positions made on purpose; a vector
that moved while nothing was meant to change is the bug this test exists to catch."""

from __future__ import annotations

import json

import pytest

from strategies.lookahead.schema import FEATURE_NAMES, FEATURE_VERSION
from tests.golden.cases import EXPECTED, cases, digest
from tests.golden.features import CASES as FEATURE_CASES
from tests.golden.features import FEATURES, vectors

EXPECTED_DIGESTS = json.loads(EXPECTED.read_text())
EXPECTED_VECTORS = json.loads(FEATURES.read_text())


@pytest.mark.parametrize("name,rules,strategy", list(cases()), ids=lambda v: str(v)[:40])
def test_records_and_traces_are_byte_identical(name, rules, strategy):
    assert digest(rules, strategy) == EXPECTED_DIGESTS["cases"][name]


def test_feature_vectors_at_fixed_positions_are_unchanged():
    regenerate = ('python -m tests.golden.features "why" > tests/golden/features.json, only '
                  "for a new FEATURE_VERSION or a change of play made on purpose")
    assert EXPECTED_VECTORS["feature_version"] == FEATURE_VERSION, \
        f"features.json holds version {EXPECTED_VECTORS['feature_version']}: {regenerate}"
    assert set(EXPECTED_VECTORS["vectors"]) == set(FEATURE_CASES), regenerate
    changed = []
    for name, case in FEATURE_CASES.items():
        saved = EXPECTED_VECTORS["vectors"][name]
        views = vectors(*case)
        assert set(views) == set(saved), f"{name}: other seats ({regenerate})"
        for seat, vector in views.items():
            assert list(saved[seat]) == list(FEATURE_NAMES), \
                f"{name}, {seat}: the slots' names or order changed ({regenerate})"
            changed += [f"{name}, {seat}, {slot}: {value} (was {saved[seat][slot]})"
                        for slot, value in vector.items() if value != saved[seat][slot]]
    assert changed == [], f"{len(changed)} slots changed ({regenerate}): {changed[:8]}"
