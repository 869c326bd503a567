"""Playing games while recording positions for a learned evaluator (``handfoot learn``): the
driver. It builds the table, sizes the arrays for the sample rate, runs the compiled loop
(``sim.play.recording_kernels``, which says what a row is and how its target is found) and
hands back the rows, and names their columns for a recording run's chunk files.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from sim.core.records import N_COLUMNS, to_records
from sim.core.rules import Rules
from sim.engine.layout import MAX_CANDIDATES
from sim.play.api import make_table, run_compiled
from sim.play.recording_kernels import (
    M_DEAL,
    M_GAME,
    M_INDEX,
    M_SEAT,
    META_COLUMNS,
    ROWS_PER_DEAL,
    record_games,
)
from strategies.lookahead.features import N_FEATURES
from strategies.lookahead.schema import feature_column
from strategies.registry import TACTICIAN_MODULE, StrategyInfo

__all__ = ["M_DEAL", "M_GAME", "M_INDEX", "M_SEAT", "META_COLUMNS", "label_model_of", "record",
           "samples_table"]


def record(rules: Rules, seat_strategies: Sequence[str | StrategyInfo], seed: int,
           first_game: int, n_games: int, sample_rate: float, explore: float, worlds: int,
           label_horizon: int = 0, label_model: np.ndarray | None = None):
    """Play ``n_games`` games recording positions; returns the deal records and the recorded
    rows as (features float32 [rows, N_FEATURES], meta int64 [rows, len(META_COLUMNS)],
    targets float64 [rows]). Every seat's base policy for the candidates is its own
    tactician vector (or, for a search or learned player, its base policy). With
    ``label_horizon`` > 0 the targets are the leaf search's: the base policy for that many of
    the seat's own turns, then the value model ``label_model`` (a flat array)."""
    if (label_horizon > 0) != (label_model is not None):
        raise ValueError("a leaf-search label needs both a horizon and a value model")
    table = make_table(rules, seat_strategies)
    for s, info in enumerate(table.seats):
        if info.module == TACTICIAN_MODULE:
            table.work[0]["base_params"][s] = table.work[0]["params"][s]
    deals = n_games * rules.deals_per_game
    cap = int(deals * (ROWS_PER_DEAL * sample_rate + 8)) * (MAX_CANDIDATES if worlds else 1)
    rows = np.zeros((deals, N_COLUMNS), dtype=np.int64)
    feats = np.zeros((cap, N_FEATURES), dtype=np.float32)
    meta = np.zeros((cap, len(META_COLUMNS)), dtype=np.int64)
    targets = np.zeros(cap, dtype=np.float64)
    n = np.zeros(1, dtype=np.int64)
    label = np.zeros(1) if label_model is None else np.ascontiguousarray(label_model,
                                                                           dtype=np.float64)

    def kernel(g, w, t, x, guard, hooks, fast):
        n[0] = record_games(g, w, t, x, guard, hooks, fast, seed, first_game, n_games, rows,
                            sample_rate, explore, worlds, label_horizon, label, feats, meta,
                            targets)

    run_compiled(table, kernel)
    k = int(n[0])
    return (to_records(rows, seed, rules.partnerships, rules.players), feats[:k].copy(),
            meta[:k].copy(), targets[:k].copy())


def label_model_of(recording) -> np.ndarray | None:
    """The flat value model a recording run's leaf-search labels use (None: labels searched
    to the end of the deal); its file must still be the one whose sha256 was recorded."""
    from strategies.learned.model_file import flat_for

    if recording.label_horizon == 0:
        return None
    return flat_for(recording.label_model, recording.label_model_sha256)


def samples_table(feats: np.ndarray, meta: np.ndarray, targets: np.ndarray) -> dict:
    """The recorded rows as named columns (a chunk file of a recording run): the meta
    columns, the outcome (``target``) and one column per feature slot."""
    table = {name: meta[:, i] for i, name in enumerate(META_COLUMNS)}
    table["target"] = targets
    for j in range(feats.shape[1]):
        table[feature_column(j)] = feats[:, j]
    return table
