"""Every rule id of sections 1-10 is exercised by a test.

A test exercises a rule when it says so where pytest sees it: the id in the test's name
(``test_R_PU4_...``) or in a ``rule`` marker on the test function or its ``Test`` class
(``@pytest.mark.rule("R-PU4", "W3")``, registered in pyproject.toml), read with ``ast``. A
docstring, a comment, a helper's name or a string elsewhere does not count: an id mentioned in
passing is not a test of that rule. (A marker given through ``pytest.param(marks=...)`` or a
module's ``pytestmark`` is not read: put it on the test.)
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
DEFINED = re.compile(r"^- \*\*(R-[A-Z]+\d+|W\d)\*\*", re.MULTILINE)  # where a rule is stated


def ids_in_sections_1_to_10(text: str) -> list[str]:
    """Ids defined in sections 1-10 (not those an introduction cites as examples)."""
    head = text.split("\n## 11.")[0]
    if "\n## 1. " in head:
        head = head.split("\n## 1. ", 1)[1]
    return sorted(set(ID.findall(head)))


def rule_markers(node: ast.AST) -> list[str]:
    """The arguments of ``@pytest.mark.rule(...)`` (or ``@mark.rule(...)``) decorators."""
    out = []
    for dec in getattr(node, "decorator_list", []):
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) \
                and dec.func.attr == "rule" and isinstance(dec.func.value, ast.Attribute) \
                and dec.func.value.attr == "mark":
            for arg in dec.args:
                if not (isinstance(arg, ast.Constant) and isinstance(arg.value, str)):
                    raise AssertionError(f"line {dec.lineno}: a rule marker takes rule ids as "
                                         f"string literals, not {ast.dump(arg)}")
                out.append(arg.value)
    return out


def _tests(tree: ast.Module):
    """Test functions and ``Test`` classes at module level, and test methods of those."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                node.name.startswith("test_"):
            yield node
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            yield node
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef | ast.AsyncFunctionDef) and \
                        sub.name.startswith("test_"):
                    yield sub


def marked_ids(source: str) -> list[str]:
    """Every id given to a ``rule`` marker on a test, as written."""
    return [i for node in _tests(ast.parse(source)) for i in rule_markers(node)]


def citations(source: str) -> set[str]:
    """Ids in the names of tests (``R_PU4`` read as ``R-PU4``) and in their rule markers."""
    texts = []
    for node in _tests(ast.parse(source)):
        texts.append(node.name.replace("_", "-"))
        texts.extend(rule_markers(node))
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


def test_only_test_names_and_rule_markers_cite():
    source = '''\"\"\"Module docstring: R-D1.\"\"\"
# a comment: R-PU4
import pytest
X = "a string: R-G2"


@pytest.mark.rule("R-M5", "W2")
def test_R_T1_and_R_X12_a_name(arg="R-S3"):
    \"\"\"A docstring: R-O1.\"\"\"
    y = "R-E1"  # R-F1


@pytest.mark.rule("R-C1")
def helper_R_M1():
    pass


@pytest.mark.rule("R-G3")
class TestDeals:
    \"\"\"A class docstring: R-X9.\"\"\"
    @pytest.mark.rule("R-D2")
    def test_one(self):
        pass

    def helper_R_S5(self):
        pass
'''
    assert citations(source) == {"R-T1", "R-X12", "R-M5", "W2", "R-G3", "R-D2"}
    assert marked_ids(source) == ["R-M5", "W2", "R-G3", "R-D2"]


def test_every_rule_marker_names_a_rule_of_our_reference():
    """A marker's id is a whole rule id that the reference defines: a typo (a digit too many
    after a real id, or ``PU4`` without its prefix) would otherwise cover nothing and pass
    unseen."""
    ids = set(DEFINED.findall(OWN_REFERENCE.read_text()))  # sections 1-10 and R-V
    assert set(ids_in_sections_1_to_10(OWN_REFERENCE.read_text())) <= ids
    wrong = {}
    for path in (ROOT / "tests").rglob("test_*.py"):
        bad = [i for i in marked_ids(path.read_text()) if i not in ids]
        if bad:
            wrong[str(path.relative_to(ROOT))] = bad
    assert wrong == {}, "rule markers naming no rule of docs/rules.md"


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
