"""The search's budget curve as a figure: ``python -m analysis.reports.budget_curve CSV PNG``.

The CSV (one row per budget: budget, opponent, win_rate, lo, hi, ms_per_decision) holds the
figures measured by ``handfoot compare`` and ``make bench``; docs/search-budget.csv is the
README's, and this draws docs/search-budget.png from it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import polars as pl

from analysis.reports.plots import budget_curve


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m analysis.reports.budget_curve CSV PNG", file=sys.stderr)
        return 2
    source, target = Path(argv[0]), Path(argv[1])
    try:
        table = pl.read_csv(source)
    except (OSError, pl.exceptions.PolarsError) as exc:
        print(f"budget_curve: cannot read {source}: {exc}".splitlines()[0], file=sys.stderr)
        return 2
    budget_curve(table, target.parent, target.name)
    print(target)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
