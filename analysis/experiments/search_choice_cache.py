"""The search's choices at the hold-wild branched positions as kept beside a report's runs
(``<key>-search.parquet`` and ``<key>-search.json``; analysis.experiments.search_choice plays
them). Apart from the experiment so that a report rebuilt reads them without the engine."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl

FORMAT = "handfoot-search-choices/1"
COLUMNS = ("game", "deal", "turn", "seat", "wilds_held", "player_wilds", "search_wilds",
           "search_out")


def paths(folder: Path, key: str) -> tuple[Path, Path]:
    return folder / f"{key}-search.parquet", folder / f"{key}-search.json"


def read_choices(path: Path) -> tuple[dict, pl.DataFrame]:
    """How the rows were made, and the rows."""
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a search-choices file")
    return meta, pl.read_parquet(path)
