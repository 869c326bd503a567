"""What the search player would do at the branched positions of ``ask hold-wild``.

The decision-by-decision section branches every position where the strong player would meld a
wild (analysis.experiments.holding, ``sim.play.branching.collect_holds``). Here the same games
are played again (the same seed, deals and strategies, so the same positions come up: the
branches there never touch the real game), all in compiled code
(``sim.play.asking.ask_at_wild_melds``: each call into the engine from Python cost about a
millisecond), and at the first ``positions`` of those decisions the search player (``pimc`` at
its defaults) is handed a copy of the position and asked what it would meld. A row records
where it was (game, deal, turn, seat), the wilds in the player's line and in the search's line,
and the wilds in hand (``sim.play.asking``'s ``A_*`` columns, named by ``COLUMNS``); the report
joins the rows to the branched positions by where they were and checks the situation matches,
so it can say how often the search holds and whether it holds where holding pays.

The search decides from the seat's view only: it imagines the cards the seat cannot see, as in
play. The rows are kept beside the branched positions (``<key>-search.parquet`` and ``.json``
saying how they were made), so a report rebuilt, or a command run again, reuses them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import polars as pl

from analysis.experiments.pairings import PairRuns, rules_and_profile, slug
from analysis.experiments.search_choice_cache import COLUMNS, FORMAT, paths
from sim.core.rules import Rules

SEARCH = "pimc"
MAX_GAMES = 2_000  # a player that seldom melds a wild after opening stops here


def ask_search(rules: Rules, player_spec: str, search_spec: str, seed: int,
               positions: int, jobs: int = 1) -> tuple[np.ndarray, int]:
    """The first ``positions`` branched positions of ``player_spec``'s games (seed ``seed``,
    games 0, 1, ...), each with the search's meld line there; and the games played.

    Chunks of games are asked in parallel (this machine's cores, or the cluster a command
    plays on: ``sim.runs.where``), a round at a time, until enough positions are found; a
    game's positions depend on the seed alone, so the rows are those of one game after
    another, whatever the split."""
    from sim.runs import on_cluster
    from strategies.per_profile import resolve_seats

    player = tuple(resolve_seats([player_spec] * rules.players, rules))
    search = tuple(resolve_seats([search_spec] * rules.players, rules))
    parts: list[np.ndarray] = []
    have = next_game = 0
    per_game = math.inf  # positions a game: the first round plays a game a worker to learn it
    mixed = tuple(search[i] if i % 2 else player[i] for i in range(rules.players))
    with on_cluster.workers(rules, mixed, jobs) as spread:  # warmed for, and models of, both
        workers = spread.workers
        while have < positions and next_game < MAX_GAMES:
            need = positions - have
            games = min(MAX_GAMES - next_game, max(workers, math.ceil(need / per_game)))
            size = math.ceil(games / workers)
            calls = [(rules, player, search, seed, first, min(size, next_game + games - first),
                      need, spread.models) for first in range(next_game, next_game + games, size)]
            found = spread.map(_ask_chunk, calls)
            parts.extend(found)
            have += sum(len(part) for part in found)
            next_game += games
            per_game = max(0.25, have / next_game)
    table = np.concatenate(parts) if parts else np.zeros((0, len(COLUMNS)))
    if len(table) >= positions and positions:  # whole games, up to the last one needed
        table = table[:positions]
        return table, int(table[-1, 0]) + 1
    return table, next_game


def _ask_chunk(rules: Rules, player: tuple, search: tuple, seed: int, first_game: int,
               games: int, most: int, models: tuple = ()) -> np.ndarray:
    """The branched positions of games ``first_game`` .. ``first_game + games - 1`` (at most
    ``most``: the rest of the chunk is not played), each with the search's meld line."""
    from sim.play.api import make_table
    from sim.play.asking import N_ASKED, ask_at_wild_melds
    from sim.runs.runner import receive_models

    receive_models(models)
    real = make_table(rules, player)
    probe = make_table(rules, search)
    out = np.zeros((max(most, 0), N_ASKED), dtype=np.int64)
    rows = ask_at_wild_melds(*real.records(), probe.game, *probe.records()[1:], seed,
                             first_game, games, out)
    return out[:rows].astype(np.float64)


def ensure_choices(folder: Path, key: str, group: str, player: str, spec: str, rules: Rules,
                   positions: int, seed: int, search: str = SEARCH,
                   rerun: bool = False, jobs: int = 1) -> Path:
    """The search's choices at ``spec``'s branched positions, read from ``folder`` when made
    the same way, else asked and written there; the rows' path."""
    from sim.runs.storage import engine_build
    from strategies.per_profile import resolve_spec

    def played(s: str) -> dict:
        info = resolve_spec(s, rules)
        return {"module": info.module,
                "params": {k: float(v) for k, v in sorted(info.params.items())},
                "base_params": {k: float(v) for k, v in sorted(info.base_params.items())},
                "model_sha256": info.model_sha256}

    meta = {"format": FORMAT, "group": group, "player": player, "strategy": spec,
            "played": played(spec), "search": SEARCH, "search_played": played(search),
            "rules_id": rules.rules_id, "seed": seed, "positions": positions,
            "engine": engine_build()}
    data, info = paths(folder, key)
    if not rerun and data.is_file() and info.is_file():
        try:
            have = json.loads(info.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            have = {}
        if {k: have.get(k) for k in meta} == meta:
            return data
    rows, games = ask_search(rules, spec, search, seed, positions, jobs=jobs)
    folder.mkdir(parents=True, exist_ok=True)
    pl.DataFrame({c: rows[:, i] for i, c in enumerate(COLUMNS)}).write_parquet(data)
    info.write_text(json.dumps({**meta, "games": games, "rows": len(rows)}, indent=2) + "\n",
                    encoding="utf-8")
    return data


def collect_search_choices(pairs: Sequence[PairRuns], players: Mapping[str, str],
                           folder: Path, positions: int, seed: int,
                           searches: Mapping[str, str] | None = None,
                           rerun: bool = False, jobs: int = 1) -> list[str]:
    """The search's choices at the branched positions of each rule set's first player (B of
    its first pairing: the player holding none), one file each under ``folder``; the search
    player of each rule set (its spec) is ``searches[rules spec]``, else plain pimc."""
    out, seen = [], set()
    for pair in pairs:
        p = pair.pairing
        rules, profile = rules_and_profile(p.rules)
        if profile in seen:
            continue
        seen.add(profile)
        search = (searches or {}).get(p.rules, SEARCH)
        out.append(str(ensure_choices(folder, slug(p.group), p.group, players[p.group],
                                      p.b.spec, rules, positions, seed, search=search,
                                      rerun=rerun, jobs=jobs)))
    return out
