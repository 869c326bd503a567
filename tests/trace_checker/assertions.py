"""Assertions shared by the checker's unit tests: accept, or flag a given rule id or check."""

from __future__ import annotations

from .checker import Violation, check_trace


def check(lines: list[dict]) -> list:
    return check_trace(lines, allow_incomplete=True)


def assert_ok(lines: list[dict], complete: bool = False) -> None:
    found = check_trace(lines, allow_incomplete=not complete)
    assert found == [], "\n".join(map(str, found))


def _is(v: Violation, expected: str) -> bool:
    """`expected` is a check id (checks.py, `RULE/name`) or a bare rule id."""
    return v.check == expected if "/" in expected else v.rule == expected


def assert_flags(lines: list[dict], rule: str, first: bool = False) -> None:
    """`rule`: a rule id (any check reporting it will do) or a check id (that check only)."""
    found = check(lines)
    assert found, f"expected {rule}, the checker accepted the trace"
    if first:
        assert _is(found[0], rule), "\n".join(map(str, found))
    else:
        assert any(_is(v, rule) for v in found), "\n".join(map(str, found))


def n(card: str, count: int) -> str:
    return " ".join([card] * count)
