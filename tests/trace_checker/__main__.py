"""`python -m tests.trace_checker FILE.jsonl`: print violations, exit 1 if any."""

from __future__ import annotations

import argparse
import sys

from .checker import run_file
from .checks import CHECKS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.trace_checker", description=__doc__)
    parser.add_argument("files", nargs="*", help="JSON Lines trace file(s)")
    parser.add_argument(
        "--allow-incomplete", action="store_true", help="accept a trace that stops mid-deal"
    )
    parser.add_argument(
        "--disable",
        action="append",
        default=[],
        metavar="CHECK",
        help="do not perform this check (an id RULE/name of --list-checks); repeatable",
    )
    parser.add_argument(
        "--list-checks", action="store_true", help="print every check id and what it catches"
    )
    args = parser.parse_args(argv)
    if args.list_checks:
        for check, what in CHECKS.items():
            print(f"{check}: {what}")
        return 0
    if not args.files:
        parser.error("give at least one trace file")
    unknown = sorted(set(args.disable) - CHECKS.keys())
    if unknown:
        parser.error(f"unknown check id(s) {unknown}; see --list-checks")
    status = 0
    for path in args.files:
        checker = run_file(path, allow_incomplete=args.allow_incomplete, disabled=args.disable)
        prefix = f"{path}: " if len(args.files) > 1 else ""
        for v in checker.violations:
            print(f"{prefix}{v}")
        if checker.violations:
            status = 1
        else:
            print(f"{prefix}OK: {checker.deals} deals, {checker.lines} lines")
    return status


if __name__ == "__main__":
    sys.exit(main())
