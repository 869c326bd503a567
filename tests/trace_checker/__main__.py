"""`python -m tests.trace_checker FILE.jsonl`: print violations, exit 1 if any."""

from __future__ import annotations

import argparse
import sys

from .checker import run_file


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.trace_checker", description=__doc__)
    parser.add_argument("files", nargs="+", help="JSON Lines trace file(s)")
    parser.add_argument(
        "--allow-incomplete", action="store_true", help="accept a trace that stops mid-deal"
    )
    args = parser.parse_args(argv)
    status = 0
    for path in args.files:
        checker = run_file(path, allow_incomplete=args.allow_incomplete)
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
