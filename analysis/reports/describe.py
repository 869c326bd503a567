"""What the deals of a pairing looked like: small histograms per side, from lazy scans.

Every run of a pairing is read, and each partnership's columns are credited to the strategy
that played them (A is partnership r in the run of seating r, B every other partnership).
Every table is tidy (one count per row) and tiny whatever the size of the run: deal lengths in
turns, per-deal scores in bins of ``SCORE_BIN`` points, and the turns of opening and of
reaching the Foot. Means with intervals come from the per-game tables (analysis.statistics.paired).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analysis.experiments.pairings import PairRuns
from analysis.statistics.frames import scan
from sim.runs.storage import Run

SCORE_BIN = 100


@dataclass
class Description:
    """Tidy histograms over any number of pairings (``concat`` merges them)."""

    turns: pl.DataFrame  # key, group, turns, count (deals)
    scores: pl.DataFrame  # key, group, side, role, score, count (partnership-deals; bin start)
    milestones: pl.DataFrame  # key, group, side, role, event, turn, count (-1: never)

    @staticmethod
    def concat(parts: list[Description]) -> Description:
        return Description(*(pl.concat([getattr(p, name) for p in parts])
                             for name in ("turns", "scores", "milestones")))


def _queries(lf: pl.LazyFrame, players: int, teams: int) -> list[pl.LazyFrame]:
    """Every histogram of one run, as lazy queries collected together: deal lengths, then
    per partnership its scores, its opening turns and its players' Foot turns."""

    def hist(frame: pl.LazyFrame, expr: pl.Expr, name: str) -> pl.LazyFrame:
        return frame.select(expr.alias(name)).group_by(name).agg(pl.len().alias("count"))

    queries = [hist(lf, pl.col("turns").cast(pl.Int64), "turns")]
    for team in range(teams):
        score = pl.col(f"score_{team}").cast(pl.Int64)
        queries.append(hist(lf, (score // SCORE_BIN) * SCORE_BIN, "score"))
        queries.append(hist(lf, pl.col(f"open_turn_{team}").cast(pl.Int64), "turn"))
        feet = pl.concat([lf.select(pl.col(f"foot_turn_{s}").cast(pl.Int64).alias("turn"))
                          for s in range(players) if s % teams == team])
        queries.append(feet.group_by("turn").agg(pl.len().alias("count")))
    return queries


def describe_run(path: Path, key: str, group: str, labels: tuple[str, ...],
                 roles: tuple[str, ...]) -> Description:
    """One run, in which partnership t played ``labels[t]`` in the role ``roles[t]``."""
    run, lf = scan(path)
    rules = run.spec.rules
    teams = rules.partnerships
    frames = pl.collect_all(_queries(lf, rules.players, teams), engine="streaming")
    tag = [pl.lit(key).alias("key"), pl.lit(group).alias("group")]
    scores, milestones = [], []
    for team in range(teams):
        score_h, open_h, foot_h = frames[1 + 3 * team: 4 + 3 * team]
        who = tag + [pl.lit(labels[team]).alias("side"), pl.lit(roles[team]).alias("role")]
        scores.append(score_h.select(*who, "score", "count"))
        milestones.append(open_h.select(*who, pl.lit("open").alias("event"), "turn", "count"))
        milestones.append(foot_h.select(*who, pl.lit("foot").alias("event"), "turn", "count"))
    return Description(turns=frames[0].select(*tag, "turns", "count"),
                       scores=pl.concat(scores), milestones=pl.concat(milestones))


_KEYS = {"turns": ["key", "group", "turns"],
         "scores": ["key", "group", "side", "role", "score"],
         "milestones": ["key", "group", "side", "role", "event", "turn"]}


def describe_pair(pair: PairRuns) -> Description:
    """Every run of a pairing, each partnership credited to the strategy it played."""
    p = pair.pairing
    n = pair.seatings
    parts = []
    for seat, path in enumerate(pair.runs):
        labels = tuple(p.a.label if t == seat else p.b.label for t in range(n))
        roles = tuple("A" if t == seat else "B" for t in range(n))
        parts.append(describe_run(path, p.key, p.group, labels, roles))
    both = Description.concat(parts)
    return Description(**{name: getattr(both, name).group_by(cols)
                          .agg(pl.col("count").sum()).sort(cols)
                          for name, cols in _KEYS.items()})


def run_facts(path: Path) -> dict:
    """What a report's manifest says about a run it used."""
    run = Run.open(path)
    spec = run.spec
    return {"name": run.manifest.get("name", path.name), "path": str(path.resolve()),
            "status": run.manifest["status"], "profile": spec.profile,
            "rules_id": spec.rules.rules_id,
            "strategies": {"teams": list(spec.team_strategies),
                           "seats": list(spec.seat_strategies)},
            "seed": spec.seed, "games": spec.games,
            "deals": sum(c.get("rows", 0) for c in run.chunks if c["status"] == "done"),
            "chunks": len(run.chunks), "engine": run.manifest["engine"]["sources_sha256"],
            "created": run.manifest.get("created")}
