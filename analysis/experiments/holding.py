"""When does holding a wild pay? The experiment: every time the baseline player would meld a
wild (after its partnership has opened), the rest of the deal is played both ways on copies of
the real deal — the line as the player proposed it, and the same line with its wilds held
back — with the baseline playing every seat afterwards (``sim.play.branching``). Each such
decision becomes one row (analysis.statistics.holding, which measures them).

The rows of a report are kept beside its runs (analysis.experiments.holding_cache), so
``handfoot report`` rebuilds the section without playing, and a command run again reuses them.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

from analysis.experiments import holding_cache
from analysis.experiments.pairings import PairRuns, rules_and_profile, slug
from analysis.statistics.holding import COLUMNS, N_FEATURES, Collected, HoldEffect, hold_effect
from sim.core.rules import Rules
from sim.play import branching as br

# The statistics read the rows by the names of COLUMNS: they must be the engine's layout.
if len(COLUMNS) != br.N_FEATURES or any(getattr(br, f"F_{name.upper()}", None) != i
                                        for i, name in enumerate(COLUMNS)):
    raise ImportError("analysis.statistics.holding.COLUMNS differs from the F_* columns of "
                      "sim.play.branching")


# --- Collecting ---------------------------------------------------------------------------------

def collect(rules: Rules, seats: Sequence, positions: int, seed: int = 1,
            jobs: int = 1, games_per_chunk: int = 200) -> tuple[np.ndarray, int]:
    """Every branched position (rows of ``sim.play.branching``) of the first games of
    ``seats`` that hold at least ``positions`` of them, and the number of those games; chunks
    of games in parallel, each chunk's games fixed by the seed (so the rows do not depend on
    ``jobs``)."""
    from sim.runs import on_cluster

    with on_cluster.workers(rules, seats, jobs) as spread:
        per_game = 10.0  # a first guess, refined after the first round
        chunks: list[np.ndarray] = []
        have = 0
        next_game = 0
        while have < positions:
            games = max(games_per_chunk, math.ceil((positions - have) / per_game))
            starts = list(range(next_game, next_game + games, games_per_chunk))
            sizes = [min(games_per_chunk, next_game + games - s) for s in starts]
            parts = spread.map(_chunk, [(rules, list(seats), seed, s, n, spread.models)
                                        for s, n in zip(starts, sizes, strict=True)])
            for part in parts:
                chunks.append(part)
                have += len(part)
            next_game += games
            per_game = max(0.5, have / next_game)
            if next_game > 50 * max(positions, 1) and have == 0:
                break  # a player that never melds a wild after opening
    rows = np.concatenate(chunks) if chunks else np.zeros((0, N_FEATURES))
    if len(rows) > positions:  # keep whole games only: up to the game of the last one needed
        last = rows[positions - 1, br.F_GAME]
        rows = rows[rows[:, br.F_GAME] <= last]
        return rows, int(last) + 1
    return rows, next_game


def _chunk(rules: Rules, seats: list, seed: int, first_game: int, games: int,
           models: tuple = ()) -> np.ndarray:
    from sim.play.api import make_table, run_compiled
    from sim.runs.runner import receive_models

    receive_models(models)

    table = make_table(rules, seats)
    out = np.zeros((games * 400, br.N_FEATURES))
    rows = np.zeros(1, dtype=np.int64)

    def run(*records):
        rows[0] = br.collect_holds(*records, seed, first_game, games, out)

    run_compiled(table, run)
    return out[: rows[0]].copy()


def _played(spec: str, rules: Rules) -> dict:
    from strategies.per_profile import resolve_spec

    info = resolve_spec(spec, rules)
    return {"module": info.module, "params": {k: float(v) for k, v in
                                               sorted(info.params.items())}}


def ensure_positions(folder: Path, key: str, profile: str, player: str, spec: str,
                     rules: Rules, positions: int, seed: int, jobs: int = 0,
                     rerun: bool = False) -> Collected:
    """The branched positions of ``spec`` playing every seat under ``rules``: read from
    ``folder/<key>.parquet`` when it was made the same way (rules, strategy as played, seed,
    number, engine build), else collected and written there."""
    from sim.runs.storage import engine_build

    meta = {"profile": profile, "player": player, "strategy": spec,
            "played": _played(spec, rules), "rules_id": rules.rules_id,
            "rules": rules.to_dict(), "seed": seed,
            "positions": positions, "engine": engine_build()}
    if not rerun:
        found = holding_cache.cached(folder, key, meta, rules)
        if found is not None:
            return found
    rows, games = collect(rules, [spec] * rules.players, positions, seed=seed, jobs=jobs)
    return holding_cache.write_positions(folder, key, meta, rows, games, profile, player,
                                         rules)


def collect_positions(pairs: Sequence[PairRuns], players: Mapping[str, str], folder: Path,
                      positions: int, seed: int, jobs: int = 0,
                      rerun: bool = False) -> list[str]:
    """The branched positions of each rule set's player holding none (B of its first
    pairing; ``players`` names it per group), one file each under ``folder``; their paths
    (for the report's parameters)."""
    out, seen = [], set()
    for pair in pairs:
        p = pair.pairing
        if p.group in seen:
            continue
        seen.add(p.group)
        rules, _ = rules_and_profile(p.rules)
        found = ensure_positions(folder, slug(p.group), p.group, players[p.group],
                                 p.b.spec, rules, positions, seed, jobs=jobs, rerun=rerun)
        out.append(str(found.path))
    return out




# --- A constructed position ------------------------------------------------------------------

def position_value(position, strategy: str = "cautious", worlds: int = 400) -> HoldEffect:
    """Holding minus melding in one position (a ``sim.play.positions.Position`` whose
    pending decision is a meld): the strategy's line and the same line without its wilds,
    each played to the end of the deal by ``strategy`` in every seat, in the same ``worlds``
    imagined deals of the cards the seat cannot see (common random numbers)."""
    from sim.core.enums import Decision
    from sim.engine.layout import S_DECIDER, S_DECISION, W_ENTRIES, W_LINES
    from sim.play.api import make_table, run_compiled
    from sim.play.loop import decide
    from sim.play.positions import PositionError
    from strategies.per_profile import resolve_seats

    g = position.g
    if int(g["sc"][S_DECISION]) != Decision.MELD:
        raise PositionError("decision: holding a wild is a choice of the meld decision")
    seat = int(g["sc"][S_DECIDER])
    rules = position.rules
    table = make_table(rules, resolve_seats([strategy] * rules.players, rules))
    table.game[0] = position.game[0]
    value = decide(*table.records())
    wilds = int(table.w["prop"][: int(table.w["sc"][W_ENTRIES]), 2:4].sum())
    if value != 0 or wilds == 0 or int(table.w["sc"][W_LINES]) != 1:
        raise PositionError(f"{strategy} melds no wild in this position: nothing to hold")
    table.game[0] = position.game[0]
    out = np.zeros((worlds, 2))
    run_compiled(table, br.hold_or_meld_in_worlds, seat, worlds, out)
    d = out[:, 1] - out[:, 0]
    return hold_effect("position", "position", d, np.arange(worlds))
