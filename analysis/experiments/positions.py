"""What to do in a position: every candidate action of the seat to play, played on in many
imagined worlds of the cards it cannot see, with its expected deal score difference and a 95%
interval, and the recommended one.

The candidates and worlds are the ``pimc`` search's (strategies.search): every candidate meets
the same worlds, so differences between candidates come from paired outcomes. Every seat of an
imagined deal is played on by the search's base policy (pimc's, or ``base_policy``), as in
pimc's own rollouts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.statistics.intervals import mean_estimate, wilson_interval
from sim.core.cards import KIND_NAMES, RANK_KIND, RANK_NAMES
from sim.core.enums import Decision
from sim.engine.layout import MAX_WORLDS
from sim.play.positions import Position, PositionError
from strategies.search.params import ROLLOUT_POLICY, SEARCH_DEFAULTS


@dataclass(frozen=True)
class CandidateValue:
    """One candidate: what it does, its mean outcome and 95% interval over the worlds, its
    paired difference from the best candidate (with interval), and how often its side ends
    the deal ahead of every other (with Wilson's interval): the deal's win chance, which is
    the game's only in its last deal."""

    label: str
    mean: float
    low: float
    high: float
    diff_from_best: float
    diff_low: float
    diff_high: float
    win: float = float("nan")
    win_low: float = float("nan")
    win_high: float = float("nan")

    def row(self) -> dict:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Analysis:
    seat: int
    decision: str
    worlds: int
    candidates: list[CandidateValue]
    recommended: int  # index into candidates (the best mean)
    base_policy: str = ""  # the policy that played the imagined deals on

    def to_dict(self) -> dict:
        return {"seat": self.seat, "decision": self.decision, "worlds": self.worlds,
                "base_policy": self.base_policy,
                "recommended": self.candidates[self.recommended].label,
                "candidates": [c.row() for c in self.candidates]}


def _entry_words(entry: np.ndarray) -> str:
    rank, nat, twos, jokers, onto = (int(v) for v in entry)
    kind = RANK_KIND[rank]
    cards = ([KIND_NAMES[kind]] * nat if kind >= 0 else []) + ["2"] * twos + ["JK"] * jokers
    where = f" onto the {RANK_NAMES[rank]} book" if onto else ""
    return " ".join(cards) + where


def describe(w, c: int, decision: int) -> str:
    """A candidate in words."""
    value = int(w["cand_value"][c])
    n = int(w["cand_entries"][c])
    melds = "; ".join(_entry_words(w["cand_prop"][c, i]) for i in range(n))
    if decision == Decision.PICK_UP:
        return "draw" if n == 0 else f"pick up the pile, melding {melds}"
    if decision == Decision.MELD:
        if value == 1:
            return "ask to go out"
        return f"lay {melds}" if n else "lay nothing"
    if decision == Decision.GRANT:
        return "grant" if value == 1 else "refuse"
    if decision == Decision.DISCARD:
        return f"discard {KIND_NAMES[value]}"
    return f"go out: lay {melds}" + (f", discard {KIND_NAMES[value]}" if value >= 0 else "")


def analyze(position: Position, worlds: int = 256, rollout: int | None = None,
            horizon: int | None = None, base_policy: str | None = None) -> Analysis:
    """Play every candidate of the seat to play on in ``worlds`` imagined worlds, each seat
    played on by ``base_policy`` (a tactician-family strategy or file; default pimc's)."""
    from sim.engine.layout import S_DECIDER, S_DECISION
    from sim.play.api import make_table
    from strategies.registry import load, with_base_policy
    from strategies.search.pimc import VIEW_FAIR, candidate_values

    if worlds < 2:
        raise PositionError(f"--worlds must be at least 2 (got {worlds})")
    g = position.g
    seat = int(g["sc"][S_DECIDER])
    decision = int(g["sc"][S_DECISION])
    if position.view is not None and position.view != seat:
        raise PositionError(f"seat: the position is seat {position.view}'s view, but seat "
                            f"{seat} is to decide")
    rules = position.rules
    search = load("pimc")
    if base_policy is not None:
        search = with_base_policy(search, base_policy, "--base-policy")
    table = make_table(rules, [search] * rules.players)
    table.game[0] = position.game[0]
    params = dict(SEARCH_DEFAULTS)
    policy = int(params["rollout"] if rollout is None else rollout)
    depth = int(params["horizon"] if horizon is None else horizon)
    values = []
    count = 0
    for first in range(0, worlds, MAX_WORLDS):
        chunk = min(MAX_WORLDS, worlds - first)
        count = candidate_values(table.g, table.w, table.t, table.copies, seat, VIEW_FAIR, chunk,
                                 first, policy, float(params["epsilon"]), depth)
        if count == 0:
            raise PositionError("no imagined world fits the position (the asker cannot go "
                                "out in any deal of the unseen cards)")
        values.append(np.array(table.w["world_values"][:count, :chunk]))
    outcomes = np.concatenate(values, axis=1)
    best = int(np.argmax(outcomes.mean(axis=1)))
    out = []
    for c in range(count):
        own = mean_estimate(outcomes[c])
        diff = mean_estimate(outcomes[c] - outcomes[best]) if c != best else None
        ahead = int((outcomes[c] > 0).sum())
        win_low, win_high = wilson_interval(ahead, outcomes.shape[1])
        out.append(CandidateValue(
            describe(table.w, c, decision), own.mean, own.low, own.high,
            0.0 if diff is None else diff.mean, 0.0 if diff is None else diff.low,
            0.0 if diff is None else diff.high, ahead / outcomes.shape[1], win_low, win_high))
    played_by = table.seats[seat].base_policy if policy == ROLLOUT_POLICY else \
        ("greedy", "random", "greedy with random choices")[policy]
    return Analysis(seat, Decision.words[decision], worlds, out, best, played_by)


def format_analysis(result: Analysis) -> str:
    """The candidates ranked by expected deal margin, best first (the recommended one
    starred), each with its interval, its paired difference from the best and its win chance
    (the share of imagined deals its side ends ahead), like a backgammon program's analysis."""
    lines = [f"seat {result.seat} to decide: {result.decision} "
             f"({result.worlds:,} imagined deals of the unseen cards, every seat played on by "
             f"{result.base_policy or 'the base policy'})",
             "", f"{'candidate':<34} {'margin':>6} {'95% CI':>13}  {'vs best':>6} "
                 f"{'95% CI':>13}  {'won':>4} {'95% CI':>8}"]
    order = sorted(range(len(result.candidates)),
                   key=lambda i: (i != result.recommended, -result.candidates[i].mean))
    for i in order:
        c = result.candidates[i]
        mark = "*" if i == result.recommended else " "
        vs = (f"{'':>6} {'':>13}" if i == result.recommended else
              f"{c.diff_from_best:>+6.0f} {f'{c.diff_low:+.0f}..{c.diff_high:+.0f}':>13}")
        won = f"{c.win_low:.0%}-{c.win_high:.0%}"
        lines.append(f"{mark}{c.label[:33]:<33} {c.mean:>+6.0f} "
                     f"{f'{c.low:+.0f}..{c.high:+.0f}':>13}  {vs}  {c.win:>4.0%} "
                     f"{won:>8}".rstrip())
    lines.append("")
    lines.append(f"recommended: {result.candidates[result.recommended].label}")
    lines.append("margin: points your side's deal score beats the best other side's by; "
                 "won: how often your side")
    lines.append("ends the deal ahead (the game's win chance only in its last deal).")
    return "\n".join(lines)
