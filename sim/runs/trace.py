"""Decode the engine's event buffer into the JSON Lines of docs/trace.md."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

import numpy as np

from sim.core.cards import KIND_NAMES, RANK_NAMES
from sim.core.enums import Ending
from sim.core.profiles import profile_name
from sim.core.records import N_COLUMNS
from sim.core.rules import Rules
from sim.engine import events as ev
from sim.engine.layout import T_EV_N, T_EVC_N
from strategies.registry import StrategyInfo


class TraceError(ValueError):
    """A trace file that cannot be read as JSON Lines; the message names the line."""


def _cards(buf, row) -> list[str]:
    off, n = int(row[6]), int(row[7])
    return [KIND_NAMES[k] for k in buf["evc"][off : off + n]]


def decode(buf, rules: Rules, seed: int, game: int) -> Iterator[dict]:
    """Yield the trace lines of the events in the trace record ``buf`` (one game's deals)."""
    events = buf["ev"][: int(buf["sc"][T_EV_N])]
    profile = profile_name(rules)
    rules_dict = rules.to_dict()
    players, teams = rules.players, rules.partnerships
    pending: dict | None = None  # a meld or pickup line still collecting entries
    pending_line = -1
    totals = [0] * teams
    i = 0
    while i < len(events):
        row = events[i]
        etype, seat = int(row[0]), int(row[1])
        if etype == ev.EV_MELD:
            entry = {"rank": RANK_NAMES[int(row[2])], "cards": _cards(buf, row)}
            if int(row[4]):
                entry["book"] = True  # naturals onto a closed book (R-V4)
            line_id = int(row[3])
            if pending is not None and pending_line == line_id:
                pending["melds"].append(entry)
            else:
                if pending is not None:
                    yield pending
                pending = {"type": "meld", "seat": seat, "melds": [entry]}
                pending_line = line_id
            i += 1
            continue
        if pending is not None:
            yield pending
            pending = None
        if etype == ev.EV_DEAL:
            cards = _cards(buf, row)
            h, f = rules.hand_size, rules.foot_size
            hands = [cards[s * h : (s + 1) * h] for s in range(players)]
            base = players * h
            feet = [cards[base + s * f : base + (s + 1) * f] for s in range(players)]
            base += players * f
            n_pile = int(row[4])
            yield {
                "type": "deal", "profile": profile, "rules": rules_dict, "seed": seed,
                "game": game, "deal": int(row[2]), "dealer": int(row[3]), "hands": hands,
                "feet": feet, "discard": cards[base : base + n_pile],
                "stock": cards[base + n_pile :],
            }
        elif etype == ev.EV_RED3:
            yield {"type": "red3", "seat": seat, "count": int(row[2]),
                   "replaced_with": _cards(buf, row)}
        elif etype == ev.EV_FOOT:
            yield {"type": "foot", "seat": seat}
        elif etype == ev.EV_DRAW:
            yield {"type": "draw", "seat": seat, "cards": _cards(buf, row)}
        elif etype == ev.EV_PICKUP:
            pending = {"type": "pickup", "seat": seat, "taken": _cards(buf, row), "melds": []}
            pending_line = int(row[2])
        elif etype == ev.EV_FREEZE:
            yield {"type": "freeze", "seat": seat, "cards": _cards(buf, row)}
        elif etype == ev.EV_RESTOCK:
            yield {"type": "restock", "cards": _cards(buf, row)}
        elif etype == ev.EV_ASK:
            yield {"type": "ask", "seat": seat, "granted": bool(row[2])}
        elif etype == ev.EV_DISCARD:
            yield {"type": "discard", "seat": seat, "card": KIND_NAMES[int(row[2])]}
        elif etype == ev.EV_OUT:
            yield {"type": "out", "seat": seat}
        elif etype == ev.EV_END:
            scores, breakdown = [], []
            for t in range(teams):
                srow = events[i + 1 + t]
                parts = {"melded": int(srow[2]), "left": int(srow[3]), "red3": int(srow[4]),
                         "books": int(srow[5]), "out": int(srow[6])}
                if rules.grab22_bonus:
                    parts["grab22"] = int(srow[7])
                breakdown.append(parts)
                scores.append(sum(parts.values()))
            for t in range(teams):
                totals[t] += scores[t]
            yield {"type": "end", "reason": Ending.word(int(row[2])), "scores": scores,
                   "breakdown": breakdown}
            i += 1 + teams
            continue
        i += 1
    if pending is not None:
        yield pending
    best = max(totals)
    winners = [t for t in range(teams) if totals[t] == best]
    yield {"type": "game", "game": game, "totals": totals,
           "winner": winners[0] if len(winners) == 1 else None}


def trace_games(rules: Rules, seat_strategies: Sequence[str | StrategyInfo], seed: int,
                first_game: int, n_games: int) -> Iterator[dict]:
    """Play games with tracing on (and conservation checked); yield trace lines."""
    from sim.play.api import make_table, run_compiled
    from sim.play.loop import play_games

    table = make_table(rules, seat_strategies, trace=True, checked=True)
    rows = np.zeros((rules.deals_per_game, N_COLUMNS), dtype=np.int64)
    for game in range(first_game, first_game + n_games):
        table.t["sc"][T_EV_N] = 0
        table.t["sc"][T_EVC_N] = 0
        run_compiled(table, play_games, seed, game, 1, rows)
        yield from decode(table.t, rules, seed, game)


def write_jsonl(lines: Iterator[dict], out: IO[str]) -> int:
    count = 0
    for line in lines:
        out.write(json.dumps(line, separators=(",", ":")))
        out.write("\n")
        count += 1
    return count


def read_trace(path: Path) -> Iterator[dict]:
    """The events of a JSON Lines trace file (docs/trace.md), one dict per line, read lazily;
    a ``TraceError`` naming the line for a line that is not JSON."""
    try:
        handle = Path(path).open(encoding="utf-8")
    except OSError as exc:
        raise TraceError(f"cannot read trace {path}: {exc.strerror}") from None
    with handle:
        for number, text in enumerate(handle, 1):
            if text.strip():
                try:
                    yield json.loads(text)
                except json.JSONDecodeError as exc:
                    raise TraceError(f"{path}:{number}: not JSON ({exc.msg})") from None
