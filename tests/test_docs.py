"""The project's own documents: every document that code, tests or the README cite exists in
the repository, every rule id cited anywhere is in the project's rule book (docs/rules.md,
which covers every profile), and the knob table there is the one the code generates."""

from __future__ import annotations

import re
from pathlib import Path

from sim.core.rules import knob_table_markdown

ROOT = Path(__file__).resolve().parent.parent
RULE_BOOK = ROOT / "docs" / "rules.md"
RULE_ID = re.compile(r"\b(R-[A-Z]+\d+)\b")
DOC_PATH = re.compile(r"(?<![\w/.-])((?:docs|reports|tests|sim|strategies|analysis)/[\w./-]*"
                      r"\.md|README\.md)\b")


def sources() -> list[Path]:
    files = [p for folder in ("sim", "strategies", "analysis", "tests")
             for p in (ROOT / folder).rglob("*.py")]
    return files + [ROOT / "README.md", ROOT / "Makefile", *ROOT.glob("docs/*.md")]


def test_every_cited_document_exists():
    missing = set()
    for path in sources():
        for match in DOC_PATH.findall(path.read_text(encoding="utf-8")):
            base = path.parent if path.suffix == ".md" and match.startswith("../") else ROOT
            if not (base / match).exists() and not match.startswith("reports/"):
                missing.add(f"{path.relative_to(ROOT)}: {match}")
    assert not missing, sorted(missing)


def test_no_citation_of_documents_outside_the_repository():
    outside = re.compile(r"\b(DESIGN|RULES|TRACE|DEVELOPERS)\.md\b|\.\./shared/")
    allowed = {ROOT / "tests" / "test_rule_coverage.py"}  # reads the developers' copy in CI
    found = [f"{p.relative_to(ROOT)}: {m.group(0)}" for p in sources() if p not in allowed
             for m in outside.finditer(p.read_text(encoding="utf-8"))]
    assert not found, found


def cited_rule_ids(text: str) -> set[str]:
    """Rule ids as code writes them (R-PU4), and as test names do (test_R_PU4_...)."""
    names = " ".join(re.findall(r"def (test_\w+)", text)).replace("_", "-")
    return set(RULE_ID.findall(text)) | set(RULE_ID.findall(names))


def test_every_rule_id_cited_in_code_is_in_the_rule_book():
    book = set(RULE_ID.findall(RULE_BOOK.read_text(encoding="utf-8")))
    unknown = {f"{p.relative_to(ROOT)}: {rule}" for p in sources() if p != RULE_BOOK
               for rule in cited_rule_ids(p.read_text(encoding="utf-8")) if rule not in book}
    assert not unknown, sorted(unknown)


def test_the_rule_book_covers_every_profile_and_knob():
    from sim.core.profiles import PROFILES
    from sim.core.rules import KNOBS

    text = RULE_BOOK.read_text(encoding="utf-8")
    for name in PROFILES:
        assert f"### `{name}`" in text, f"profile {name} has no section"
    for knob in KNOBS:
        assert f"`{knob}`" in text, f"knob {knob} is not documented"


def test_the_knob_table_is_the_generated_one():
    assert knob_table_markdown() in RULE_BOOK.read_text(encoding="utf-8"), (
        "docs/rules.md's knob table differs from sim.core.rules.knob_table_markdown(): "
        "paste its output into section 14")
