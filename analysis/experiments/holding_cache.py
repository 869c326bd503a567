"""The cache of branched positions beside a report's runs: ``runs/<name>/holding/<key>.parquet``
(one row per position, ``analysis.statistics.holding.COLUMNS``) and ``<key>.json`` saying how
they were made (rules, strategy as played, seed, number, engine build).

Kept apart from the experiment that plays the positions (analysis.experiments.holding) so
that ``handfoot report`` reads them back without loading the engine; a command run again
with the same settings reuses them.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import polars as pl

from analysis.statistics.holding import COLUMNS, N_FEATURES, Collected
from sim.core.rules import Rules

FORMAT = "handfoot-holding/1"


def paths(folder: Path, key: str) -> tuple[Path, Path]:
    """The Parquet file of rows and the JSON file that says how they were made."""
    return folder / f"{key}.parquet", folder / f"{key}.json"


def cached(folder: Path, key: str, meta: dict, rules: Rules) -> Collected | None:
    """The positions under ``key`` if they were made exactly as ``meta`` says, else None."""
    data, info = paths(folder, key)
    if not (data.is_file() and info.is_file()):
        return None
    try:
        have = json.loads(info.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if have.get("format") != FORMAT or {k: have.get(k) for k in meta} != meta:
        return None
    return read_positions(data, rules)


def write_positions(folder: Path, key: str, meta: dict, rows: np.ndarray, games: int,
                    profile: str, player: str, rules: Rules) -> Collected:
    """Store ``rows`` (found in the first ``games`` games) and how they were made."""
    data, info = paths(folder, key)
    folder.mkdir(parents=True, exist_ok=True)
    pl.DataFrame({name: rows[:, i] for i, name in enumerate(COLUMNS)}).write_parquet(data)
    info.write_text(json.dumps({"format": FORMAT, **meta, "games": games, "rows": len(rows)},
                               indent=2) + "\n", encoding="utf-8")
    return Collected(profile, player, rules, rows, games, data)


def read_positions(path: Path, rules: Rules | None = None) -> Collected:
    """A holding file written by ``write_positions`` (and the JSON beside it)."""
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a holding file")
    frame = pl.read_parquet(path)
    rows = np.stack([frame[name].to_numpy().astype(np.float64) for name in COLUMNS], axis=1) \
        if frame.height else np.zeros((0, N_FEATURES))
    if rules is None:
        from sim.core.profiles import rules_from_knobs

        rules = rules_from_knobs(meta["rules"])
    return Collected(meta["profile"], meta["player"], rules, rows, int(meta["games"]), path)
