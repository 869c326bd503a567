"""Every rule id of sections 1-10 is cited by a test (DEVELOPERS.md: rules first)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED_RULES = ROOT.parent / "shared" / "RULES.md"
OWN_REFERENCE = ROOT / "docs" / "rules.md"
ID = re.compile(r"\b(R-[A-Z]+\d+|W\d)\b")


def ids_in_sections_1_to_10(text: str) -> list[str]:
    """Ids defined in sections 1-10 (not those an introduction cites as examples)."""
    head = text.split("\n## 11.")[0]
    if "\n## 1. " in head:
        head = head.split("\n## 1. ", 1)[1]
    return sorted(set(ID.findall(head)))


def cited_ids() -> set[str]:
    """Ids cited in test names and docstrings, written R_PU4 or R-PU4."""
    text = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py")
                     if p.name != Path(__file__).name)
    text = text.replace("_", "-")
    return set(ID.findall(text))


def missing(ids: list[str]) -> list[str]:
    cited = cited_ids()
    return [i for i in ids if i not in cited]


def test_every_rule_of_our_reference_is_cited_by_a_test():
    ids = ids_in_sections_1_to_10(OWN_REFERENCE.read_text())
    assert len(ids) >= 60
    assert missing(ids) == []


def test_every_rule_of_the_shared_rule_book_is_cited_by_a_test():
    if not SHARED_RULES.exists():
        pytest.skip(f"{SHARED_RULES} is absent (it exists only for developers and CI)")
    ids = ids_in_sections_1_to_10(SHARED_RULES.read_text())
    assert missing(ids) == [], "rule ids no test cites"
    own = set(ids_in_sections_1_to_10(OWN_REFERENCE.read_text()))
    assert set(ids) == own, "the project's rules reference and RULES.md list different ids"
