"""Lazy reads of run folders: per-game totals and small histograms, never the whole table.

Every query here is a polars scan of the run's Parquet chunks (after ``Run.scan`` has checked
each file against its sha256) that reduces to at most one row per game, and usually to a few
hundred rows, so a ten-million-deal run is analysed in bounded memory. The streaming engine
runs each query chunk by chunk.
"""

from __future__ import annotations

from pathlib import Path

import polars as pl

from sim.runs.storage import Run


def scan(path: Path) -> tuple[Run, pl.LazyFrame]:
    """The run and its per-deal records as a lazy frame (files verified first)."""
    run = Run.open(path)
    return run, run.scan()


def collect(lf: pl.LazyFrame) -> pl.DataFrame:
    return lf.collect(engine="streaming")


# Per-game sums kept for every run: enough for paired differences, per-side means and deal
# statistics clustered by game. Int32 holds any of them (a game is 4 deals of < 1,000 turns).
def game_sums(teams: int) -> dict[str, pl.Expr]:
    """Per-game sums of a run with ``teams`` partnerships (or seats, in individual play)."""
    return {
        **{f"total_{t}": pl.col(f"score_{t}") for t in range(teams)},
        "turns": pl.col("turns"),
        "out": pl.col("end_reason") == 1, "stock": pl.col("end_reason") == 2,
        "truncated": pl.col("truncated"),
        **{f"{kind}_{t}": pl.col(f"books_{kind}_{t}") for kind in ("clean", "dirty", "wild")
           for t in range(teams)},
    }


def games_of(frame: pl.DataFrame | pl.LazyFrame, teams: int) -> pl.DataFrame:
    """``game_sums`` of per-deal records already in memory (tests, small experiments): the
    same table ``game_table`` reads from a run folder."""
    aggs = [e.cast(pl.Int32).sum().alias(name) for name, e in game_sums(teams).items()]
    aggs.append(pl.len().cast(pl.Int32).alias("deals"))
    return frame.lazy().group_by("game", maintain_order=True).agg(aggs).collect().sort("game")


def game_table(run: Run) -> pl.DataFrame:
    """One row per game, sorted by game: ``game_sums`` summed over the game's deals and the
    number of deals.

    Chunks hold whole games, so each chunk file is reduced on its own and only the per-game
    rows are kept: memory grows with the number of games (about 56 bytes each per
    partnership), never with a hash table over every deal of the run.
    """
    run.verify()
    sums = game_sums(run.spec.rules.partnerships)
    aggs = [e.cast(pl.Int32).sum().alias(name) for name, e in sums.items()]
    aggs.append(pl.len().cast(pl.Int32).alias("deals"))
    parts = [pl.scan_parquet(run.chunk_path(i)).group_by("game", maintain_order=True)
             .agg(aggs).collect() for i in run.done()]
    if not parts:
        raise ValueError(f"{run.path} has no finished chunks")
    table = pl.concat(parts, rechunk=False)  # chunks in game order: usually sorted already
    return table if table["game"].is_sorted() else table.sort("game")
