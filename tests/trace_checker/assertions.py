"""Assertions shared by the checker's unit tests: accept, or flag a given rule id."""

from __future__ import annotations

from .checker import check_trace


def check(lines: list[dict]) -> list:
    return check_trace(lines, allow_incomplete=True)


def assert_ok(lines: list[dict], complete: bool = False) -> None:
    found = check_trace(lines, allow_incomplete=not complete)
    assert found == [], "\n".join(map(str, found))


def assert_flags(lines: list[dict], rule: str, first: bool = False) -> None:
    found = check(lines)
    assert found, f"expected {rule}, the checker accepted the trace"
    if first:
        assert found[0].rule == rule, "\n".join(map(str, found))
    else:
        assert rule in {v.rule for v in found}, "\n".join(map(str, found))


def n(card: str, count: int) -> str:
    return " ".join([card] * count)
