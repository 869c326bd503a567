"""When does holding a wild pay? Decision by decision: every time the baseline player would
meld a wild (after its partnership has opened), the rest of the deal is played both ways on
copies of the real deal — the line as the player proposed it, and the same line with its wilds
held back — with the baseline playing every seat afterwards (``sim.play.branching``). The
difference (held minus melded, in points of deal margin) is measured per situation with 95%
intervals from the paired outcomes, clustered by game (the positions of one game share its
deals).

The branched positions of a report are kept beside its runs (``runs/<name>/holding/``, one
Parquet file per rule set and a JSON file saying how they were made), so ``handfoot report``
rebuilds the section without playing, and a command run again reuses them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl

from analysis.fmt import View, col, pct, pts
from sim.core.rules import Rules
from sim.play import branching as br

FORMAT = "handfoot-holding/1"

# Situations: (name, column, bins as (label, low, high) inclusive).
SITUATIONS: tuple[tuple[str, int, tuple[tuple[str, float, float], ...]], ...] = (
    ("deal", br.F_DEAL, (("deal 1", 1, 1), ("deal 2", 2, 2), ("deal 3", 3, 3),
                         ("deal 4", 4, 4))),
    ("hand or Foot", br.F_ON_FOOT, (("on the Hand", 0, 0), ("on the Foot", 1, 1))),
    ("cards held", br.F_HELD, (("2-5 cards held", 0, 5), ("6-10 cards held", 6, 10),
                               ("11-15 cards held", 11, 15), ("16+ cards held", 16, 1e9))),
    ("wilds held", br.F_WILDS_HELD, (("1 wild in hand", 1, 1), ("2 wilds in hand", 2, 2),
                                     ("3+ wilds in hand", 3, 1e9))),
    ("wild books made", br.F_WILD_BOOKS, (("no wild book yet", 0, 0),
                                          ("a wild book made", 1, 1e9))),
    ("partner on the Foot", br.F_PARTNER_ON_FOOT, (("partner on the Hand", 0, 0),
                                                   ("partner on the Foot", 1, 1))),
    ("fewest cards of an opponent", br.F_FEWEST_OPPONENT,
     (("an opponent at 1-4 cards", 0, 4), ("fewest opponent cards 5-10", 5, 10),
      ("fewest opponent cards 11-20", 11, 20), ("fewest opponent cards 21+", 21, 1e9))),
)
MIN_PER_GROUP = 30
COLUMNS = ("deal", "on_foot", "held", "wilds_held", "wild_books", "partner_on_foot",
           "fewest_opponent", "wilds_melded", "meld", "hold", "seat", "game", "turn")
assert len(COLUMNS) == br.N_FEATURES


@dataclass(frozen=True)
class HoldEffect:
    """Holding minus melding in one situation: mean points of deal margin per decision,
    95% interval (clustered by game), number of branched positions, and how often holding
    did better and worse."""

    situation: str
    group: str
    positions: int
    mean: float
    low: float
    high: float
    share_better: float
    share_worse: float = 0.0

    def row(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Collected:
    """The branched positions of one rule set, and who played them."""

    profile: str  # the group the report shows (profile name)
    player: str  # the baseline player, as readers see it
    rules: Rules
    rows: np.ndarray  # one row per position (sim.play.branching's columns)
    games: int  # games played to find them (every position of these games is kept)
    path: Path | None = None

    @property
    def decisions_per_deal(self) -> float:
        return len(self.rows) / max(1, self.games * self.rules.deals_per_game)


# --- Collecting ---------------------------------------------------------------------------------

def collect(rules: Rules, seats: Sequence, positions: int, seed: int = 1,
            jobs: int = 1, games_per_chunk: int = 200) -> tuple[np.ndarray, int]:
    """Every branched position (rows of ``sim.play.branching``) of the first games of
    ``seats`` that hold at least ``positions`` of them, and the number of those games; chunks
    of games in parallel, each chunk's games fixed by the seed (so the rows do not depend on
    ``jobs``)."""
    from joblib import Parallel, cpu_count, delayed

    workers = cpu_count() if jobs <= 0 else jobs
    per_game = 10.0  # a first guess, refined after the first round
    chunks: list[np.ndarray] = []
    have = 0
    next_game = 0
    while have < positions:
        games = max(games_per_chunk, math.ceil((positions - have) / per_game))
        starts = list(range(next_game, next_game + games, games_per_chunk))
        sizes = [min(games_per_chunk, next_game + games - s) for s in starts]
        parts = Parallel(n_jobs=min(workers, len(starts)))(
            delayed(_chunk)(rules, list(seats), seed, s, n)
            for s, n in zip(starts, sizes, strict=True))
        for part in parts:
            chunks.append(part)
            have += len(part)
        next_game += games
        per_game = max(0.5, have / next_game)
        if next_game > 50 * max(positions, 1) and have == 0:
            break  # a player that never melds a wild after opening
    rows = np.concatenate(chunks) if chunks else np.zeros((0, br.N_FEATURES))
    if len(rows) > positions:  # keep whole games only: up to the game of the last one needed
        last = rows[positions - 1, br.F_GAME]
        rows = rows[rows[:, br.F_GAME] <= last]
        return rows, int(last) + 1
    return rows, next_game


def _chunk(rules: Rules, seats: list, seed: int, first_game: int, games: int) -> np.ndarray:
    from sim.play.api import make_table, run_compiled

    table = make_table(rules, seats)
    out = np.zeros((games * 400, br.N_FEATURES))
    rows = np.zeros(1, dtype=np.int64)

    def run(*records):
        rows[0] = br.collect_holds(*records, seed, first_game, games, out)

    run_compiled(table, run)
    return out[: rows[0]].copy()


def _played(spec: str, rules: Rules) -> dict:
    from sim.runs.lineup import resolve_spec

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

    meta = {"format": FORMAT, "profile": profile, "player": player, "strategy": spec,
            "played": _played(spec, rules), "rules_id": rules.rules_id,
            "rules": rules.to_dict(), "seed": seed,
            "positions": positions, "engine": engine_build()}
    data, info = folder / f"{key}.parquet", folder / f"{key}.json"
    if not rerun and data.is_file() and info.is_file():
        try:
            have = json.loads(info.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            have = {}
        if {k: have.get(k) for k in meta} == meta:
            return read_positions(data, rules)
    rows, games = collect(rules, [spec] * rules.players, positions, seed=seed, jobs=jobs)
    folder.mkdir(parents=True, exist_ok=True)
    pl.DataFrame({name: rows[:, i] for i, name in enumerate(COLUMNS)}).write_parquet(data)
    info.write_text(json.dumps({**meta, "games": games, "rows": len(rows)}, indent=2) + "\n",
                    encoding="utf-8")
    return Collected(profile, player, rules, rows, games, data)


def read_positions(path: Path, rules: Rules | None = None) -> Collected:
    """A holding file written by ``ensure_positions`` (and the JSON beside it)."""
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    if meta.get("format") != FORMAT:
        raise ValueError(f"{path} is not a holding file")
    frame = pl.read_parquet(path)
    rows = np.stack([frame[name].to_numpy().astype(np.float64) for name in COLUMNS], axis=1) \
        if frame.height else np.zeros((0, br.N_FEATURES))
    if rules is None:
        from sim.core.profiles import rules_from_knobs

        rules = rules_from_knobs(meta["rules"])
    return Collected(meta["profile"], meta["player"], rules, rows, int(meta["games"]), path)


# --- Estimating ---------------------------------------------------------------------------------

def clustered_mean(values: np.ndarray, clusters: np.ndarray,
                   level: float = 0.95) -> tuple[float, float, float]:
    """Mean and its 95% t-interval with a cluster-robust standard error (positions of one
    game are not independent: they share its deals)."""
    from scipy import stats

    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    mean = float(x.mean())
    _, inverse = np.unique(clusters, return_inverse=True)
    k = int(inverse.max()) + 1 if n else 0
    if k < 2:
        return mean, math.nan, math.nan
    sums = np.bincount(inverse, weights=x - mean, minlength=k)
    se = math.sqrt(k / (k - 1) * float((sums ** 2).sum())) / n
    if se == 0.0:
        return mean, mean, mean
    t = float(stats.t.ppf(0.5 + level / 2, k - 1))
    return mean, mean - t * se, mean + t * se


def _effect(situation: str, group: str, d: np.ndarray, games: np.ndarray) -> HoldEffect:
    mean, low, high = clustered_mean(d, games)
    return HoldEffect(situation, group, len(d), mean, low, high, float((d > 0).mean()),
                      float((d < 0).mean()))


def effects(rows: np.ndarray) -> list[HoldEffect]:
    """Holding minus melding overall and in every situation with enough positions."""
    d = rows[:, br.F_HOLD] - rows[:, br.F_MELD]
    games = rows[:, br.F_GAME]
    out = [_effect("all decisions", "all", d, games)]
    for name, column, bins in SITUATIONS:
        for label, low, high in bins:
            mask = (rows[:, column] >= low) & (rows[:, column] <= high)
            if mask.sum() >= MIN_PER_GROUP:
                out.append(_effect(name, label, d[mask], games[mask]))
    return out


def knob_acts(c: Collected) -> np.ndarray:
    """The positions where the ``hold_wilds`` knob acts: on the Hand, once the partnership's
    wild books for the deal are made (strategies.tactician)."""
    need = np.array(c.rules.out_wild_books, dtype=np.float64)
    deal = c.rows[:, br.F_DEAL].astype(np.int64)
    return (c.rows[:, br.F_ON_FOOT] == 0) & (c.rows[:, br.F_WILD_BOOKS] >= need[deal - 1])


def effects_table(collected: Sequence[Collected]) -> pl.DataFrame:
    """One row per rule set and situation: positions, their share of the rule set's
    decisions, holding minus melding with its interval, and how often holding did better or
    worse."""
    rows = []
    for c in collected:
        if len(c.rows) < 2:
            continue
        total = len(c.rows)
        for e in effects(c.rows):
            rows.append({"group": c.profile, "player": c.player, "situation": e.situation,
                         "case": e.group, "positions": e.positions,
                         "share": e.positions / total, "mean": e.mean, "low": e.low,
                         "high": e.high, "share_better": e.share_better,
                         "share_worse": e.share_worse})
    return pl.DataFrame(rows, schema={"group": pl.String, "player": pl.String,
                                      "situation": pl.String, "case": pl.String,
                                      "positions": pl.Int64, "share": pl.Float64,
                                      "mean": pl.Float64, "low": pl.Float64,
                                      "high": pl.Float64, "share_better": pl.Float64,
                                      "share_worse": pl.Float64})


def view() -> View:
    return View("holding.csv", (
        col("rules", "text", "group"), col("player", "text", "player"),
        col("situation", "text", "situation"), col("case", "text", "case"),
        col("positions", "int", "positions"), col("share of decisions", "pct", "share"),
        col("holding - melding per decision (95% CI)", "pts_ci", "mean", "low", "high"),
        col("holding better", "pct", "share_better"),
        col("holding worse", "pct", "share_worse")))


def plot(table: pl.DataFrame, out: Path, name: str = "holding.png") -> str:
    """Holding minus melding per decision with 95% intervals, one panel per rule set, one
    row per situation."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    groups = list(dict.fromkeys(table["group"].to_list()))
    cases = list(dict.fromkeys(zip(table["situation"].to_list(), table["case"].to_list(),
                                   strict=True)))
    cols = min(3, len(groups))
    nrows = -(-len(groups) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(4.6 * cols + 1.6, 0.8 + 0.22 * len(cases)
                                                   * nrows), squeeze=False, sharey=True)
    y = {case: i for i, case in enumerate(reversed(cases))}
    for ax, group in zip(axes.ravel(), groups, strict=False):
        g = table.filter(pl.col("group") == group)
        pos = np.array([y[(s, c)] for s, c in zip(g["situation"], g["case"], strict=True)])
        m = g["mean"].to_numpy()
        err = np.stack([m - g["low"].to_numpy(), g["high"].to_numpy() - m])
        clear = (g["low"].to_numpy() > 0) | (g["high"].to_numpy() < 0)
        for mask, colour in ((clear, "tab:blue"), (~clear, "tab:grey")):
            ax.errorbar(m[mask], pos[mask], xerr=err[:, mask], fmt="o", ms=3, capsize=2,
                        color=colour)
        ax.axvline(0, color="grey", lw=1, ls="--")
        ax.set_title(f"{group} ({g['player'][0]})", fontsize=9)
        ax.set_xlabel("holding - melding, points per decision", fontsize=8)
        ax.grid(axis="x", alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_yticks(list(y.values()), ["all decisions" if c == "all" else c for _, c in y],
                      fontsize=7)
    for ax in axes.ravel()[len(groups):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(out / name, dpi=110)
    plt.close(fig)
    return name


# --- Words ----------------------------------------------------------------------------------------

def _ci(e: HoldEffect) -> str:
    return (f"{pts(e.mean, 0, signed=True)} points per decision (95% CI "
            f"{pts(e.low, 0, signed=True)} to {pts(e.high, 0, signed=True)}, "
            f"{e.positions:,} decisions)")


def verdict(found: list[HoldEffect], player: str, profile: str) -> list[str]:
    """Plain sentences generated from the measured effects (never written by hand)."""
    overall = found[0]
    pays = [e for e in found[1:] if e.low > 0]
    costs = [e for e in found[1:] if e.high < 0]

    def where(items: list[HoldEffect]) -> str:
        best = sorted(items, key=lambda e: -abs(e.mean))[:4]
        return "; ".join(f"{e.group}, {_ci(e)}" for e in best)

    if overall.low > 0:
        head = "holding pays on the whole"
    elif overall.high < 0:
        head = "holding costs on the whole"
    else:
        head = "on the whole holding neither clearly pays nor clearly costs"
    line = (f"Decision by decision under {profile} ({player}): {head}, "
            f"{pts(overall.mean, 0, signed=True)} points of deal margin per decision (95% CI "
            f"{pts(overall.low, 0, signed=True)} to {pts(overall.high, 0, signed=True)}) over "
            f"{overall.positions:,} decisions in which it would have melded a wild. ")
    line += (f"Holding pays in these situations: {where(pays)}. " if pays else
             "In no situation measured does holding clearly pay. ")
    line += (f"It costs most in these: {where(costs)}." if costs else
             "In no situation measured does holding clearly cost.")
    return [line]


def _effect_of(c: Collected, mask: np.ndarray, name: str) -> HoldEffect | None:
    if mask.sum() < MIN_PER_GROUP:
        return None
    d = c.rows[:, br.F_HOLD] - c.rows[:, br.F_MELD]
    return _effect(name, name, d[mask], c.rows[mask, br.F_GAME])


def curve(c: Collected, game_rows: Sequence[dict]) -> str:
    """Why the game-level curve (hold 1, 2, 3 against hold 0) has its level and its shape,
    from the decision-level measurements: where the knob acts, how often, what holding once
    is worth there, and how that changes with the wilds in hand (the settings differ only
    where the player holds 2 or more)."""
    if not game_rows or len(c.rows) < 2 * MIN_PER_GROUP:
        return ""
    ordered = sorted(game_rows, key=lambda r: int(float(r["value"])))
    values = [int(float(r["value"])) for r in ordered]
    diffs = [float(r["diff_deal"]) for r in ordered]
    acts = knob_acts(c)
    deals = max(1, c.games * c.rules.deals_per_game)
    inside = _effect_of(c, acts, "where the knob acts")
    outside = _effect_of(c, ~acts, "elsewhere")
    game = ", ".join(f"holding {v} {pts(d, 0, signed=True)}" for v, d in
                     zip(values, diffs, strict=True))
    order = sorted(range(len(values)), key=lambda i: diffs[i])  # most costly first
    if all(diffs[i] >= diffs[i + 1] for i in range(len(diffs) - 1)):
        shape = "each wild more held back costs more"
    elif all(diffs[i] <= diffs[i + 1] for i in range(len(diffs) - 1)):
        shape = "holding more wilds back costs less, not more"
    else:
        shape = (f"not monotone: holding {values[order[0]]} costs most and holding "
                 f"{values[order[-1]]} least")
    text = (f"The curve under {c.profile} ({c.player}), per deal against holding none: "
            f"{game} ({shape}). ")
    if inside is None:
        return text + ("The knob acts (on the Hand, once the wild books are made) in fewer "
                       f"than {MIN_PER_GROUP} of the {len(c.rows):,} decisions branched, so "
                       "single held decisions cannot explain the curve: it comes from how "
                       "the held wilds change the rest of the deal.")
    per_deal = inside.positions / deals
    text += (f"The knob acts only on the Hand once the wild books are made, in "
             f"{per_deal:.2f} decisions per deal ({pct(inside.positions / len(c.rows), 0)} of "
             f"the decisions to meld a wild); holding back once there is worth {_ci(inside)}")
    if outside is not None:
        text += f"; elsewhere it is worth {_ci(outside)}"
    text += ". "
    predicted = inside.mean * per_deal
    level = sum(diffs) / len(diffs)
    if level != 0 and predicted / level > 0:
        ratio = predicted / level
        share = ("about all of" if 0.75 <= ratio <= 1.33 else
                 f"about {ratio:.1f} times" if ratio > 1.33 else f"about {pct(ratio, 0)} of")
        text += (f"Held once at each of them, that is about {pts(predicted, 0, signed=True)} "
                 f"points per deal: {share} the curve's level. ")
    else:
        text += (f"Held once at each of them, that is about {pts(predicted, 0, signed=True)} "
                 "points per deal, not the curve's level: holding throughout changes the rest "
                 "of the deal, not one decision. ")
    held = c.rows[:, br.F_WILDS_HELD]
    one = _effect_of(c, acts & (held == 1), "1 wild")
    more = _effect_of(c, acts & (held >= 2), "2 or more wilds")
    if one is None or more is None or 1 not in values or max(values) < 2:
        return text + ("Too few of those decisions hold 1 wild, or 2 or more, to say why the "
                       "settings differ.")
    slope = diffs[-1] - diffs[values.index(1)]
    text += (f"The settings differ only where the player holds 2 or more wilds "
             f"({more.positions / deals:.2f} decisions per deal): holding there is worth "
             f"{_ci(more)}, against {_ci(one)} with 1 wild. ")
    if more.low > one.high:
        expect = "less"
    elif more.high < one.low:
        expect = "more"
    else:
        return text + ("Those intervals overlap, so the decisions cannot say whether holding "
                       f"more should cost more or less; the curve's slope (holding "
                       f"{values[-1]} minus holding 1: {pts(slope, 0, signed=True)} points per "
                       "deal) is of the size they leave open.")
    seen = "less" if slope > 0 else "more"
    text += (f"So holding more should cost {expect} than holding 1"
             + (", as the curve shows." if expect == seen else
                f"; the curve shows the opposite (holding {values[-1]} minus holding 1: "
                f"{pts(slope, 0, signed=True)} points per deal), so its shape comes from how "
                "the held wilds change later play, not from single decisions."))
    return text


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
    from sim.runs.lineup import resolve_seats

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
    return _effect("position", "position", d, np.arange(worlds))
