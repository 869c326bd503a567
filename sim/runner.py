"""Spread games over cores with joblib, in chunks whose results do not depend on the split.

Each game's shuffles depend only on (seed, game index), so any chunking and any number of
workers give identical records. numba's cache is warmed in the parent first, so workers load
the compiled engine instead of compiling their own copies.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
from joblib import Parallel, delayed
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

from sim.api import play
from sim.rules import Rules

os.environ.setdefault("NUMBA_NUM_THREADS", "1")


def warm_cache(rules: Rules, seat_strategies: Sequence[str]) -> None:
    """Compile (or load from the cache) once, before any worker starts."""
    play(rules, seat_strategies, seed=0, first_game=0, n_games=1)


def _chunk(rules: Rules, seats: Sequence[str], seed: int, first: int, n: int) -> np.ndarray:
    return play(rules, seats, seed, first, n)


def chunk_bounds(n_games: int, chunk_size: int) -> list[tuple[int, int]]:
    return [(start, min(chunk_size, n_games - start)) for start in range(0, n_games, chunk_size)]


def run_games(rules: Rules, seat_strategies: Sequence[str], seed: int, n_games: int,
              jobs: int = 1, chunk_size: int = 5000, progress: bool = True) -> np.ndarray:
    """Play ``n_games`` games over ``jobs`` workers; records in game order."""
    warm_cache(rules, seat_strategies)
    bounds = chunk_bounds(n_games, chunk_size)
    tasks = (delayed(_chunk)(rules, list(seat_strategies), seed, first, n) for first, n in bounds)
    results: list[np.ndarray] = []
    columns = (TextColumn("[progress.description]{task.description}"), BarColumn(),
               TextColumn("{task.completed:,}/{task.total:,} games"),
               TextColumn("{task.fields[rate]}"), TimeRemainingColumn())
    with Progress(*columns, disable=not progress, transient=True) as bar:
        task = bar.add_task("simulating", total=n_games, rate="")
        if jobs == 1:
            stream = (_chunk(rules, seat_strategies, seed, first, n) for first, n in bounds)
        else:
            stream = Parallel(n_jobs=jobs, backend="loky", return_as="generator")(tasks)
        for rec in stream:
            results.append(rec)
            bar.advance(task, len(rec) // rules.deals_per_game)
            elapsed = bar.tasks[0].elapsed or 0.0
            done = bar.tasks[0].completed
            if elapsed > 0:
                bar.update(task, rate=f"{done * rules.deals_per_game / elapsed:,.0f} deals/s")
    return np.concatenate(results) if results else np.zeros(0)
