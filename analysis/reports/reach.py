"""How far a verdict holds: one piece of advice measured with several strong players.

A verdict measured with one player can be a fact about that player. So each piece of advice is
measured with every strong player of the answer (``analysis.experiments.players``): for each,
a paired comparison of the player with one knob changed against itself on the same shuffles.
Whether the players differ is a question of its own: where two players measured the same
advice on the same shuffles (same rules and seed), the difference of their effects is tested
the same way, shuffle by shuffle (``between``). Every comparison of the page and every such
difference are one Holm family (``one_family``).

The label of a piece of advice says what its players' calls have in common:

- every call the same: it pays (or costs) for every strong player measured, or makes no
  measurable difference for any (one player: the same words for that player);
- the calls differ, and for two players whose calls differ the paired difference of their
  effects is significant after Holm: it depends on the player (``DEPENDS``);
- the calls differ but no such difference is significant, or could not be tested (the players
  did not play the same shuffles): the label says what each player showed and why it does not
  say the players differ, e.g. "pays for learned; no measurable difference for tuned (the
  players' effects do not differ measurably)". One player's significant effect beside
  another's unclear one is no evidence that the players differ: the unclear one can be the
  same effect measured less sharply. These are ``MIXED`` (``kind_of``): a page or card lists
  them apart from both what holds for every player and what depends on the player.

The labels are generated from the numbers, never written for a case.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from analysis.reports.fmt import View, col
from analysis.reports.verdict import ALPHA
from analysis.statistics.intervals import holm
from analysis.statistics.paired import PairingError, effect_difference

PAYS, COSTS, UNCLEAR = "pays", "costs", "no measurable difference"
DEPENDS = "depends on the player"
MIXED = "mixed"  # a kind (``kind_of``), never a label: the label gives each player's call
WORDS = {"better": PAYS, "worse": COSTS, "unclear": UNCLEAR}  # a comparison's call, in words
ONE = " (the one player measured)"
# Why a label with differing calls does not say the players differ.
NOT_DIFFERENT = "the players' effects do not differ measurably"
NOT_PAIRED = "not played on the same shuffles, so the players' effects were not compared"
NOT_TESTED = "the players' effects were not compared"
# The between-player test's outcome, in words (its "verdict" column).
DIFFER, SAME, UNPAIRED = ("the effects differ", "no measurable difference between them",
                          "not compared: not the same shuffles")


# --- The difference between two players' effects ---------------------------------------------

@dataclass(frozen=True)
class Effect:
    """One player's measured effect of one piece of advice, as the per-shuffle margins behind
    it, so that two players' effects can be differenced shuffle by shuffle."""

    unit: str  # what was measured (a piece of advice; a rule set and a number of wilds)
    player: str
    diffs: pl.DataFrame  # the pairing's per-shuffle table (analysis.statistics.paired.rotated)
    sign: float  # +1 where A of the pairing plays the advice, -1 where it plays the alternative
    shuffles: tuple | None  # (rules id, seed): equal for two pairings on the same shuffles
    deals_per_game: int


BETWEEN_SCHEMA = {"unit": pl.String, "first": pl.String, "second": pl.String,
                  "players": pl.String, "paired": pl.Boolean, "games": pl.Int64,
                  "diff_game": pl.Float64, "diff_game_low": pl.Float64,
                  "diff_game_high": pl.Float64, "diff_deal": pl.Float64,
                  "diff_deal_low": pl.Float64, "diff_deal_high": pl.Float64,
                  "p_value": pl.Float64, "why": pl.String}


def between(effects: Sequence[Effect]) -> pl.DataFrame:
    """For every unit measured with two or more players, every two of them (in the order
    given): the first's effect minus the second's, per game and per deal, with its 95%
    interval and p-value, paired by shuffle (``effect_difference``). Two effects not measured
    on the same shuffles give a row with ``paired`` false, no numbers and ``why``: they cannot
    be differenced shuffle by shuffle, and two independent intervals are not this test."""
    by: dict[str, list[Effect]] = {}
    for e in effects:
        by.setdefault(e.unit, []).append(e)
    rows = [_difference(a, b) for mine in by.values()
            for k, a in enumerate(mine) for b in mine[k + 1:]]
    return pl.DataFrame(rows, schema=BETWEEN_SCHEMA)


def _difference(a: Effect, b: Effect) -> dict:
    row = {"unit": a.unit, "first": a.player, "second": b.player,
           "players": f"{a.player} - {b.player}"}
    nan = dict.fromkeys(("diff_game", "diff_game_low", "diff_game_high", "diff_deal",
                         "diff_deal_low", "diff_deal_high", "p_value"), math.nan)
    if a.shuffles is None or a.shuffles != b.shuffles or a.deals_per_game != b.deals_per_game:
        return {**row, **nan, "paired": False, "games": 0,
                "why": "the two comparisons were not played on the same shuffles (rules and "
                       "seed)"}
    try:
        est = effect_difference(a.diffs, b.diffs, (a.sign, b.sign))
    except PairingError as exc:
        return {**row, **nan, "paired": False, "games": 0, "why": str(exc)}
    deal = est.scaled(1.0 / a.deals_per_game)
    return {**row, "paired": True, "games": est.n, "diff_game": est.mean,
            "diff_game_low": est.low, "diff_game_high": est.high, "diff_deal": deal.mean,
            "diff_deal_low": deal.low, "diff_deal_high": deal.high, "p_value": est.p_value,
            "why": ""}


def one_family(results: pl.DataFrame,
               differences: pl.DataFrame) -> tuple[pl.DataFrame, pl.DataFrame]:
    """``results`` (one row per comparison) and ``differences`` (``between``) with ``p_holm``
    corrected over all of them together: the page's one Holm family, so the chance of any
    false call on it, a player's or a difference between players, stays under 5%. A
    difference that could not be paired is no hypothesis of the family (its p_holm is nan);
    ``differences`` gains its outcome in words (``verdict``)."""
    paired = differences["paired"].to_list()
    tested = [p for p, ok in zip(differences["p_value"], paired, strict=True) if ok]
    family = holm(list(results["p_value"]) + tested)
    n = results.height
    corrected = iter(family[n:])
    p_between = [next(corrected) if ok else math.nan for ok in paired]
    verdicts = [UNPAIRED if not ok else DIFFER if p < ALPHA else SAME
                for ok, p in zip(paired, p_between, strict=True)]
    return (results.with_columns(pl.Series("p_holm", family[:n], dtype=pl.Float64)),
            differences.with_columns(pl.Series("p_holm", p_between, dtype=pl.Float64),
                                     pl.Series("verdict", verdicts, dtype=pl.String)))


def tested(differences: pl.DataFrame | Sequence[dict] | None) -> int:
    """How many between-player differences are hypotheses of the page's Holm family."""
    if differences is None:
        return 0
    rows = differences.to_dicts() if isinstance(differences, pl.DataFrame) else differences
    return sum(1 for r in rows if r["paired"])


def between_view(first: Sequence = ()) -> View:
    """The between-player table: each difference of two players' effects."""
    return View("between.csv", (
        *first, col("players", "text", "players"),
        col("difference of their effects, points per deal (95% CI)", "pts_ci", "diff_deal",
            "diff_deal_low", "diff_deal_high"),
        col("shuffles", "int", "games"), col("p (Holm)", "p", "p_holm"),
        col("the players' effects", "text", "verdict")))


# --- The label ---------------------------------------------------------------------------------

def reach(calls: Sequence[str], players: Sequence[str],
          tests: Sequence[dict] | None = None) -> str:
    """The label of one piece of advice from its calls (``PAYS``, ``COSTS`` or ``UNCLEAR``),
    one per player in the order of ``players``, and its between-player tests (``one_family``'s
    rows for this piece of advice: ``first``, ``second``, ``paired``, ``p_holm``). It depends
    on the player only where two players whose calls differ differ significantly (two players
    that both pay, by different amounts, still both pay); otherwise a label whose calls differ
    names each player's call and why it does not say they differ."""
    if len(calls) != len(players) or not calls:
        raise ValueError("one call per player")
    kind = calls[0]
    if len(set(calls)) == 1:
        if len(players) == 1:
            return f"{kind} for {players[0]}{ONE}"
        if kind == UNCLEAR:
            return f"{UNCLEAR} for any strong player measured"
        return f"{kind} for every strong player measured"
    call_of = dict(zip(players, calls, strict=True))
    apart = {(a, b) for k, a in enumerate(players) for b in players[k + 1:]
             if call_of[a] != call_of[b]}
    mine = [t for t in (tests or ()) if (t["first"], t["second"]) in apart
            or (t["second"], t["first"]) in apart]
    if any(t["paired"] and t["p_holm"] < ALPHA for t in mine):
        return DEPENDS
    compared = {frozenset((t["first"], t["second"])) for t in mine if t["paired"]}
    if all(frozenset(pair) in compared for pair in apart):
        why = NOT_DIFFERENT
    elif any(not t["paired"] for t in mine):
        why = NOT_PAIRED
    else:
        why = NOT_TESTED
    return f"{each(calls, players)} ({why})"


def each(calls: Sequence[str], players: Sequence[str]) -> str:
    """What each player showed, the players of one call together, in the order of their first
    player: 'pays for learned; no measurable difference for tuned'."""
    whom: dict[str, list[str]] = {}
    for c, p in zip(calls, players, strict=True):
        whom.setdefault(c, []).append(p)
    return "; ".join(f"{c} for {_and(ps)}" for c, ps in whom.items())


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def holds_for_all(label: str, kind: str) -> bool:
    """Whether ``label`` says ``kind`` (PAYS, COSTS, UNCLEAR) whatever the player (or for the
    one player measured)."""
    every = ("any" if kind == UNCLEAR else "every") + " strong player measured"
    return label == f"{kind} for {every}" or (label.startswith(f"{kind} for ")
                                              and label.endswith(ONE) and ";" not in label)


def kind_of(label: str) -> str:
    """Where a label belongs: PAYS, COSTS or UNCLEAR (whatever the player), DEPENDS, or MIXED
    (calls that differ between players that do not measurably differ, or were not compared)."""
    if label == DEPENDS:
        return DEPENDS
    for kind in (PAYS, COSTS, UNCLEAR):
        if holds_for_all(label, kind):
            return kind
    return MIXED
