"""How the bots play: a panel every report carries, so readers can judge whether the play looks
like their table's.

Per rule set and strategy, over every partnership-deal the strategy played in the report's
runs: how deals ended (by going out, by the strategy's own partnership going out, by the
stock), turns per deal, pile pick-ups per turn of the partnership (its players' turns: turn k
of a deal is played by seat (dealer + k) mod players), books and points per deal by type (the
score's parts: cards melded, cards left, red threes, book bonuses, going out, exact 22), and
the turn of opening (per partnership-deal) and of reaching the Foot (per player-deal): how
often, the mean and the median among those that did.

Read lazily from the runs' Parquet files (one small aggregate query per run), so it costs a
scan of each run whatever its size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import polars as pl

from analysis.reports.fmt import View, col

PARTS = ("melded", "left", "red3", "books", "out", "grab22")
BOOKS = ("clean", "dirty", "wild", "black3")
CSV = "howplay.csv"
TITLE = "How they play"


@dataclass
class Tally:
    """Sums over the partnership-deals one strategy played under one rule set."""

    sums: dict[str, float] = field(default_factory=dict)
    opens: dict[int, int] = field(default_factory=dict)  # opening turn -> partnership-deals
    feet: dict[int, int] = field(default_factory=dict)  # Foot turn -> player-deals

    def add(self, sums: dict[str, float], opens: Iterable[tuple[int, int]],
            feet: Iterable[tuple[int, int]]) -> None:
        for k, v in sums.items():
            self.sums[k] = self.sums.get(k, 0.0) + float(v or 0)
        for turn, n in opens:
            self.opens[turn] = self.opens.get(turn, 0) + n
        for turn, n in feet:
            self.feet[turn] = self.feet.get(turn, 0) + n


def _team_turns(team: int, teams: int, players: int) -> pl.Expr:
    """Turns the partnership's players took in a deal: turn k (1-based) is seat
    (dealer + k) mod players's."""
    total = pl.lit(0, dtype=pl.Int64)
    for s in range(team, players, teams):
        offset = (pl.lit(s + 2 * players, dtype=pl.Int64) - pl.col("dealer").cast(pl.Int64)
                  - 1) % players
        total = total + (pl.col("turns").cast(pl.Int64) + players - 1 - offset) // players
    return total


def _team_queries(lf: pl.LazyFrame, team: int, teams: int, players: int
                  ) -> list[pl.LazyFrame]:
    """Sums, opening-turn counts and Foot-turn counts of partnership ``team`` in one run."""
    t = str(team)
    opened = pl.col(f"open_turn_{t}") >= 0
    seats = [s for s in range(players) if s % teams == team]
    sums = [pl.len().alias("deals"),
            pl.col("turns").cast(pl.Int64).sum().alias("turns"),
            (pl.col("end_reason") == 1).sum().alias("ended_out"),
            (pl.col("end_reason") == 2).sum().alias("ended_stock"),
            ((pl.col("end_reason") == 1) & (pl.col("out_seat") >= 0)
             & (pl.col("out_seat") % teams == team)).sum().alias("went_out"),
            _team_turns(team, teams, players).sum().alias("team_turns"),
            pl.col(f"pickups_{t}").cast(pl.Int64).sum().alias("pickups"),
            pl.col(f"score_{t}").cast(pl.Int64).sum().alias("score"),
            opened.sum().alias("opened"),
            pl.col(f"open_turn_{t}").filter(opened).cast(pl.Int64).sum().alias("open_turns")]
    sums += [pl.col(f"{p}_{t}").cast(pl.Int64).sum().alias(f"part_{p}") for p in PARTS]
    sums += [pl.col(f"books_{b}_{t}").cast(pl.Int64).sum().alias(f"books_{b}") for b in BOOKS]
    opens = (lf.select(pl.col(f"open_turn_{t}").cast(pl.Int64).alias("turn"))
             .group_by("turn").agg(pl.len().alias("count")))
    feet = (pl.concat([lf.select(pl.col(f"foot_turn_{s}").cast(pl.Int64).alias("turn"))
                       for s in seats])
            .group_by("turn").agg(pl.len().alias("count")))
    return [lf.select(sums), opens, feet]


def tally_run(path: Path, labels: Sequence[str], group: str,
              into: dict[tuple[str, str], Tally]) -> None:
    """Add run ``path``'s partnership-deals to ``into``, partnership t credited to
    ``labels[t]`` under ``group``."""
    from analysis.statistics.frames import scan

    run, lf = scan(path)
    rules = run.spec.rules
    teams, players = rules.partnerships, rules.players
    queries = []
    for team in range(teams):
        queries += _team_queries(lf, team, teams, players)
    frames = pl.collect_all(queries, engine="streaming")
    for team in range(teams):
        sums, opens, feet = frames[3 * team: 3 * team + 3]
        row = sums.row(0, named=True)
        row["player_deals"] = row["deals"] * len(range(team, players, teams))
        into.setdefault((group, labels[team]), Tally()).add(
            row, [(int(a), int(b)) for a, b in opens.iter_rows()],
            [(int(a), int(b)) for a, b in feet.iter_rows()])


def _median(counts: dict[int, int]) -> float:
    reached = sorted((t, n) for t, n in counts.items() if t >= 0)
    total = sum(n for _, n in reached)
    if total == 0:
        return float("nan")
    values = np.array([t for t, _ in reached])
    cum = np.cumsum([n for _, n in reached])
    return float(values[int(np.searchsorted(cum, (total + 1) // 2))])


def _mean(counts: dict[int, int]) -> float:
    reached = [(t, n) for t, n in counts.items() if t >= 0]
    total = sum(n for _, n in reached)
    return sum(t * n for t, n in reached) / total if total else float("nan")


def panel_table(tallies: dict[tuple[str, str], Tally]) -> pl.DataFrame:
    """One row per rule set and strategy."""
    rows = []
    groups = list(dict.fromkeys(group for group, _ in tallies))
    for (group, strategy), tally in sorted(tallies.items(),
                                           key=lambda kv: (groups.index(kv[0][0]), kv[0][1])):
        s = tally.sums
        deals = s["deals"]
        player_deals = s["player_deals"]
        row = {"group": group, "strategy": strategy, "deals": int(deals),
               "share_out": s["ended_out"] / deals, "share_went_out": s["went_out"] / deals,
               "share_stock": s["ended_stock"] / deals, "turns_deal": s["turns"] / deals,
               "pickups_turn": s["pickups"] / s["team_turns"] if s["team_turns"] else 0.0,
               "pickups_deal": s["pickups"] / deals, "score_deal": s["score"] / deals}
        row.update({f"{p}_deal": s[f"part_{p}"] / deals for p in PARTS})
        row.update({f"books_{b}_deal": s[f"books_{b}"] / deals for b in BOOKS})
        opened = sum(n for t, n in tally.opens.items() if t >= 0)
        reached = sum(n for t, n in tally.feet.items() if t >= 0)
        row.update(open_share=opened / deals, open_mean=_mean(tally.opens),
                   open_median=_median(tally.opens), foot_share=reached / player_deals,
                   foot_mean=_mean(tally.feet), foot_median=_median(tally.feet))
        rows.append(row)
    return pl.DataFrame(rows)


def view() -> View:
    return View(CSV, (
        col("rules", "text", "group"), col("strategy", "text", "strategy"),
        col("partnership-deals", "int", "deals"),
        col("ended by going out", "pct", "share_out"),
        col("it went out", "pct", "share_went_out"),
        col("ended by the stock", "pct", "share_stock"),
        col("turns per deal", "num", "turns_deal"),
        col("pick-ups per turn", "num2", "pickups_turn"),
        col("pick-ups per deal", "num2", "pickups_deal"),
        col("clean books", "num2", "books_clean_deal"),
        col("dirty books", "num2", "books_dirty_deal"),
        col("wild books", "num2", "books_wild_deal"),
        col("black-three books", "num2", "books_black3_deal"),
        col("points per deal", "num", "score_deal"),
        col("melded", "num", "melded_deal"), col("left in hand", "num", "left_deal"),
        col("red threes", "num", "red3_deal"), col("book bonuses", "num", "books_deal"),
        col("going out", "num", "out_deal"),
        col("opened", "pct", "open_share"), col("opening turn (mean)", "num", "open_mean"),
        col("opening turn (median)", "num", "open_median"),
        col("on the Foot", "pct", "foot_share"), col("Foot turn (mean)", "num", "foot_mean"),
        col("Foot turn (median)", "num", "foot_median")))


NOTE = ("Per rule set and strategy, over every partnership-deal it played in this report's "
        "runs (a deal counts once for each strategy at the table). It went out: deals ended "
        "by the strategy's own partnership going out. Pick-ups per turn: discard-pile "
        "pick-ups over the partnership's turns. Books and points per partnership per deal; "
        "points by type are the parts of the score (left in hand counts against). Opening: "
        "share of partnership-deals in which the partnership opened, and the turn of the deal "
        "when it did (mean, median); on the Foot: share of player-deals in which the player "
        "picked up the Foot, and the turn.")


def runs_of(content) -> list[tuple[Path, tuple[str, ...], str]]:
    """Every run of a report's content with the strategy of each partnership and the rule
    set's group."""
    from sim.runs.storage import Run

    out = []
    for pair in content.pairs:
        p = pair.pairing
        n = pair.seatings
        for seat, path in enumerate(pair.runs):
            out.append((path, tuple(p.a.label if t == seat else p.b.label for t in range(n)),
                        p.group))
    for path in content.extra_runs:
        spec = Run.open(path).spec
        teams = spec.rules.partnerships
        names = tuple(Path(s).stem if s.endswith(".toml") else s
                      for s in spec.team_strategies)
        out.append((path, tuple(names[t % len(names)] for t in range(teams)), spec.profile))
    return out


def panel(content) -> pl.DataFrame:
    """The panel's table for a report's content (analysis.reports.writer.Content)."""
    tallies: dict[tuple[str, str], Tally] = {}
    for path, labels, group in runs_of(content):
        tally_run(Path(path), labels, group, tallies)
    return panel_table(tallies)
