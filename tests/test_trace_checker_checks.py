"""The referee's named checks (tests/trace_checker/checks.py) and switching them off.

Every violation names the one check that found it (`RULE/name`); `disabled=` turns named checks
off so that a test can show which check catches a corruption (test_trace_checker_mutations.py).
"""

from __future__ import annotations

import ast
import copy
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

try:
    from tests.trace_checker import CHECKS, TraceChecker, check_file, check_trace
    from tests.trace_checker.assertions import check, n
    from tests.trace_checker.builder import TraceBuilder, make_deal
    from tests.trace_checker.checks import checks_of_rule, rule_of
except ImportError:  # plain `pytest` puts tests/ (not the repo root) on sys.path
    from trace_checker import CHECKS, TraceChecker, check_file, check_trace
    from trace_checker.assertions import check, n
    from trace_checker.builder import TraceBuilder, make_deal
    from trace_checker.checks import checks_of_rule, rule_of

REPO = Path(__file__).resolve().parent.parent
CHECKER = REPO / "tests" / "trace_checker" / "checker.py"
ID = re.compile(r"(?:TRACE|PROFILE|CARDS|R-[A-Z]+\d*)/[a-z0-9]+(?:-[a-z0-9]+)*")


def test_check_ids_are_rule_slash_name() -> None:
    for check_id, what in CHECKS.items():
        assert ID.fullmatch(check_id), check_id
        assert what and not what[0].isupper(), f"{check_id}: describe what the check catches"
    assert checks_of_rule("R-S") == ["R-S/game-totals", "R-S/deal-score"]
    assert "R-S1/melded" not in checks_of_rule("R-S")  # a rule id is not a prefix match


def test_every_report_names_a_registered_check_and_every_check_is_used() -> None:
    """checker.py reports only through registered ids, written out literally, and each id of
    checks.py appears there (ids chosen at run time are picked from literals too)."""
    source = CHECKER.read_text()
    literals = set(re.findall(r'"(' + ID.pattern + r')"', source))
    assert literals == set(CHECKS), (
        f"unregistered: {sorted(literals - set(CHECKS))}; unused: {sorted(set(CHECKS) - literals)}"
    )
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("report", "_stop"):
            first = node.args[0]
            assert not (isinstance(first, ast.Constant) and first.value not in CHECKS), node.lineno


def deal_of_nines() -> TraceBuilder:
    """Seat 0 opens with 9 x 6 (60 >= 50) and discards; the deal goes on."""
    d = make_deal(hands=[n("9", 6) + " K"], stock_top="4 5 6 7")
    return TraceBuilder(d).draw(0).meld(0, ("9", n("9", 6))).discard(0, "K")


def test_violations_carry_their_check() -> None:
    b = deal_of_nines()
    bad = copy.deepcopy(b.lines)
    bad[1]["cards"] = ["4", "4"]
    (v,) = check(bad)
    assert (v.rule, v.check) == ("R-T2", "R-T2/draw-cards")
    assert str(v) == f"line 2: [R-T2] {v.message} (R-T2/draw-cards)"
    assert all(rule_of(c) in c for c in CHECKS)


def test_a_disabled_check_reports_nothing_and_the_others_still_run() -> None:
    b = deal_of_nines()
    bad = copy.deepcopy(b.lines)
    bad[2]["melds"][0]["cards"] = ["9"] * 4  # 40 < 50, two nines stay held
    assert [v.check for v in check(bad)] == ["R-O1/minimum"]
    assert check_trace(bad, allow_incomplete=True, disabled={"R-O1/minimum"}) == []
    bad[3]["card"] = "Q"  # not held either: stops the deal
    assert [v.check for v in check(bad)] == ["R-O1/minimum", "CARDS/not-held"]
    only = check_trace(bad, allow_incomplete=True, disabled={"R-O1/minimum"})
    assert [v.check for v in only] == ["CARDS/not-held"]


def test_a_disabled_stopping_check_lets_the_replay_go_on() -> None:
    """CARDS/not-held stops the deal; disabled, the replay goes on and conservation (CARDS too,
    another check) sees the card that came from nowhere."""
    b = deal_of_nines()
    bad = copy.deepcopy(b.lines)
    bad[3]["card"] = "Q"
    assert [v.check for v in check(bad)] == ["CARDS/not-held"]
    found = check_trace(bad, allow_incomplete=True, disabled={"CARDS/not-held"})
    assert [v.check for v in found] == ["CARDS/conservation"]
    both = {"CARDS/not-held", "CARDS/conservation"}
    assert check_trace(bad, allow_incomplete=True, disabled=both) == []


def test_disabled_checks_only_silence_their_own_findings() -> None:
    """With the format check off, the malformed draw still meets the draw check; with the
    draw check off, the referee draws the stock's cards and nothing later contradicts them."""
    b = deal_of_nines()
    bad = copy.deepcopy(b.lines)
    bad[1]["cards"] = "not a list"
    assert [v.check for v in check(bad)] == ["TRACE/field"]
    found = check_trace(bad, allow_incomplete=True, disabled={"TRACE/field"})
    assert [v.check for v in found] == ["R-T2/draw-cards"]
    bad[1]["cards"] = ["4", "4"]
    assert check_trace(bad, allow_incomplete=True, disabled={"R-T2/draw-cards"}) == []


def test_unknown_check_ids_are_refused() -> None:
    bad = deal_of_nines().lines
    with pytest.raises(ValueError, match="unknown check id"):
        check_trace(bad, disabled={"R-T2"})  # a rule id is not a check id
    with pytest.raises(ValueError, match="unknown check id"):
        TraceChecker(disabled=["R-S/total"])


def test_command_line_lists_and_disables_checks(tmp_path: Path) -> None:
    bad = deal_of_nines().lines
    bad[1]["cards"] = ["4", "4"]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in bad) + "\n")
    assert [v.check for v in check_file(path, allow_incomplete=True)] == ["R-T2/draw-cards"]
    assert check_file(path, allow_incomplete=True, disabled={"R-T2/draw-cards"}) == []

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "tests.trace_checker", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )

    listed = run("--list-checks")
    assert listed.returncode == 0
    assert len(listed.stdout.splitlines()) == len(CHECKS)
    assert "R-V4/closed-kind-over-seven: " in listed.stdout
    found = run("--allow-incomplete", str(path))
    assert found.returncode == 1 and "(R-T2/draw-cards)" in found.stdout
    off = run("--allow-incomplete", "--disable", "R-T2/draw-cards", str(path))
    assert off.returncode == 0 and off.stdout.startswith("OK: 1 deals")
    assert run("--disable", "R-T2", str(path)).returncode == 2  # not a check id
