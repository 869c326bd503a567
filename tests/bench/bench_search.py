"""Timing a search player's decisions: the loop behind ``make bench``'s search lines
(``tests.bench.bench.search_decisions``) and ``make bench-ab``'s search mode
(``tests.bench.bench_ab --search``).

The search player sits in the even seats, ``opponent`` in the odd ones; each of the search
player's decisions is timed around its hook alone (the opponents and the engine's application
of a proposal are not counted). The first game compiles or loads the engine and is neither
timed nor counted. The final position of every deal is hashed into a digest of the play, so two
trees that are timed against each other can also be shown to have played the same games.

Run as a script (``python tests/bench/bench_search.py GAMES``, with ``PYTHONPATH`` pointing at any
tree whose search player has this API, from commit 7d5ffb1 on), it prints one JSON line timed
in process CPU time: ``tests.bench.bench_ab`` runs this file against an older tree, so both
trees are timed by the same loop. It therefore imports only names both trees have.
"""

from __future__ import annotations

import hashlib
import json
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

SEED = 4242  # the seed of make bench's search lines


@dataclass
class SearchTiming:
    """What ``time_search`` measured: seconds per decision of the search player (every one,
    and those where it searched), its ``w.search_stats`` and ``w.search_left_for`` over the
    timed games, and the digest of the play."""

    times: list[float]
    searched: list[float]
    stats: np.ndarray
    left_for: np.ndarray
    digest: str

    @property
    def rollouts(self) -> int:
        from sim.core.enums import SearchStat

        return int(self.stats[:, SearchStat.ROLLOUTS].sum())

    def summary(self) -> dict:
        """Milliseconds per decision (mean, p95, max; mean of the searched ones), worlds per
        searched decision and rollouts per second of search."""
        from sim.core.enums import SearchStat

        return {"decisions": len(self.times), "searched": len(self.searched),
                "ms_per_decision_mean": round(1000 * float(np.mean(self.times)), 3),
                "ms_per_decision_p95": round(1000 * float(np.percentile(self.times, 95)), 3),
                "ms_per_decision_max": round(1000 * float(np.max(self.times)), 3),
                "ms_per_searched_mean": round(1000 * float(np.mean(self.searched)), 3),
                "worlds_per_searched": round(float(self.stats[:, SearchStat.WORLDS].sum())
                                             / max(len(self.searched), 1), 1),
                "rollouts": self.rollouts,
                "rollouts_per_s": round(self.rollouts / max(float(np.sum(self.searched)),
                                                            1e-9))}


def time_search(rules, search, opponent: str, games: int, seed: int = SEED,
                clock: Callable[[], float] = time.perf_counter) -> SearchTiming:
    """Play ``games`` + 1 games of ``search`` (a StrategyInfo) in the even seats against
    ``opponent``, timing each of the search player's decisions with ``clock``."""
    from sim.core.enums import NO_DECISION, SearchStat
    from sim.engine.flow import apply_decision, clear_proposal, ended, next_turn, start_deal
    from sim.engine.layout import S_DECIDER, S_DECISION
    from sim.play.api import make_table
    from sim.play.loop import decide
    from strategies.hooks import hooks_of

    table = make_table(rules, [search, opponent] * (rules.players // 2))
    g, w, t, x = table.g, table.w, table.t, table.copies
    search_hooks = hooks_of(search)
    times, searched = [], []
    play = hashlib.sha256()
    for game in range(games + 1):  # the first game compiles: not timed, not counted
        if game == 1:
            w["search_stats"][:] = 0
            w["search_left_for"][:] = 0
        for deal in range(1, rules.deals_per_game + 1):
            start_deal(g, w, t, seed, game, deal)
            while not ended(g):
                if g["sc"][S_DECISION] == NO_DECISION:
                    next_turn(g, t)
                    continue
                seat = int(g["sc"][S_DECIDER])
                if seat % 2:
                    apply_decision(g, w, t, decide(g, w, t, x, table.guard, table.hooks,
                                                   table.fast))
                    continue
                clear_proposal(w)
                kind = int(g["sc"][S_DECISION])
                before = int(w["search_stats"][kind, SearchStat.SEARCHED])
                begin = clock()
                value = search_hooks[kind](g, w, t, x, seat)
                elapsed = clock() - begin
                if game:
                    times.append(elapsed)
                    if w["search_stats"][kind, SearchStat.SEARCHED] > before:
                        searched.append(elapsed)
                apply_decision(g, w, t, value)
            play.update(table.game.tobytes())
    return SearchTiming(times, searched, np.array(w["search_stats"]),
                        np.array(w["search_left_for"]), play.hexdigest())


def main(argv: list[str]) -> None:
    """pimc at its defaults (or the search strategy ``argv[1]``, a name or file) against
    tuned under standard for ``argv[0]`` games, timed in process CPU time: one JSON line (the
    summary and the digest of the play)."""
    from sim.core.rules import Rules
    from strategies.per_profile import resolve_spec

    search = resolve_spec(argv[1] if len(argv) > 1 else "pimc", Rules())
    timing = time_search(Rules(), search, "tuned", int(argv[0]), clock=time.process_time)
    print(json.dumps({**timing.summary(), "digest": timing.digest}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
