"""Every rule id of sections 1-10 is cited by a test (DEVELOPERS.md: rules first).

A citation is a test's name (``test_R_PU4_...``) or a docstring (of a test module, class or
function), read with ``ast``: a comment or a string elsewhere in a test does not count.
"""

from __future__ import annotations

import ast
import os
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


def citations(source: str) -> set[str]:
    """Ids in the names of test functions and classes and in docstrings, written R_PU4 or
    R-PU4 (a name's underscores read as dashes)."""
    tree = ast.parse(source)
    texts = [ast.get_docstring(tree) or ""]
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            if node.name.startswith(("test_", "Test")):
                texts.append(node.name.replace("_", "-"))
            texts.append(ast.get_docstring(node) or "")
    return set(ID.findall("\n".join(texts)))


def cited_ids() -> set[str]:
    cited: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        if path.name != Path(__file__).name:
            cited |= citations(path.read_text())
    return cited


def missing(ids: list[str]) -> list[str]:
    cited = cited_ids()
    return [i for i in ids if i not in cited]


def test_only_names_and_docstrings_cite():
    source = '''"""Module docstring: R-D1."""
# a comment: R-PU4
X = "a string: R-G2"


def test_R_T1_and_R_X12_a_name(arg="R-S3"):
    """A docstring: R-O1."""
    y = "R-E1"  # R-F1


def helper_R_M1():
    pass
'''
    assert citations(source) == {"R-D1", "R-T1", "R-X12", "R-O1"}


def test_every_rule_of_our_reference_is_cited_by_a_test():
    ids = ids_in_sections_1_to_10(OWN_REFERENCE.read_text())
    assert len(ids) >= 60
    assert missing(ids) == []


def test_every_rule_of_the_shared_rule_book_is_cited_by_a_test():
    """The shared rule book sits beside the repository for developers and in CI: where it is
    expected (the CI environment variable is set) its absence fails this test."""
    if not SHARED_RULES.exists():
        if os.environ.get("CI"):
            pytest.fail(f"{SHARED_RULES} is absent, and CI is set: it must exist there")
        pytest.skip(f"{SHARED_RULES} is absent (it exists only for developers and CI)")
    ids = ids_in_sections_1_to_10(SHARED_RULES.read_text())
    assert missing(ids) == [], "rule ids no test cites"
    own = set(ids_in_sections_1_to_10(OWN_REFERENCE.read_text()))
    assert set(ids) == own, "the project's rules reference and RULES.md list different ids"


def test_an_absent_shared_rule_book_fails_in_ci_and_skips_elsewhere(monkeypatch, tmp_path):
    monkeypatch.setitem(globals(), "SHARED_RULES", tmp_path / "RULES.md")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set"):
        test_every_rule_of_the_shared_rule_book_is_cited_by_a_test()
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception):
        test_every_rule_of_the_shared_rule_book_is_cited_by_a_test()
