"""``handfoot ask hold-wild``: is holding a wild back worth it?

Asked of the strongest heuristic player of each rule set (``baseline``: the tuned tactician
where a tuned file ships for the profile, else ``cautious``), in all six profiles, individual
play included: the player holding 1, 2 or 3 wilds back from its melds until it reaches the
Foot plays against the same player holding none, on the same shuffles in every seating. Then,
decision by decision (analysis.holding), every time that player would meld a wild the rest of
the deal is played both ways from the same deal, and the value of holding is reported by
situation. The answer is generated from the numbers (analysis.verdict, analysis.holding) and
states its uncertainty.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from analysis import figures, holding, plots
from analysis.compare import METHOD
from analysis.fmt import col, deals_view, many_seats, results_view, sides_view
from analysis.playing import Pairing, PairRuns, PlayError, rules_and_profile, side
from analysis.report import Content, Figure, Section
from analysis.tables import analyse, deals_table, results_table, sides_table
from analysis.verdict import verdict
from sim.core.profiles import PROFILES as ALL_PROFILES
from sim.core.profiles import profile_name
from sim.core.rules import Rules
from sim.runs.lineup import TUNED, tuned_profiles

PROFILES = tuple(ALL_PROFILES)
VALUES = (1, 2, 3)
GAMES = 6_000  # shuffles per seating of each comparison (the command's default)
POSITIONS = 25_000  # branched positions per rule set (the command's default)
QUESTION = ("Is holding a wild worth it? Does the strongest heuristic player of each rule set "
            "do better if it keeps 1, 2 or 3 wild cards back from its melds until it reaches "
            "its Foot, rather than melding them at once, and in which situations does holding "
            "one back pay?")
_HOLD = " hold "


def baseline(rules: Rules) -> str:
    """The strongest heuristic of a rule set: its tuned tactician where a tuned file ships
    for the profile (``handfoot tune``), else ``cautious``."""
    return TUNED if profile_name(rules) in tuned_profiles() else "cautious"


def player_of(pairing: Pairing) -> str:
    """The player a hold-wild pairing asks about (its labels are '<player> hold <n>')."""
    name = pairing.b.label.rpartition(_HOLD)[0] if _HOLD in pairing.b.label else ""
    return name or "tactician"  # reports made before the baseline was named


def plan(profiles: Sequence[str], values: Sequence[int], folder: Path,
         strategy: str | None = None) -> list[Pairing]:
    """Per rule set: the baseline (or ``strategy``) holding each of ``values`` wilds back
    against itself holding none."""
    out = []
    for spec in profiles:
        rules, profile = rules_and_profile(spec)
        player = strategy or baseline(rules)
        none = side(player, folder, label=f"{player}{_HOLD}0", rules=rules, hold_wilds=0)
        for v in values:
            if v == 0:
                raise PlayError("hold 0 is the baseline; compare 1, 2 or 3 against it")
            out.append(Pairing(key=f"{_slug(profile)}-hold{v}",
                               a=side(player, folder, label=f"{player}{_HOLD}{v}",
                                      rules=rules, hold_wilds=v),
                               b=none, rules=spec, group=profile, value=str(v)))
    return out


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text).strip("-")


def collect_positions(pairs: Sequence[PairRuns], folder: Path, positions: int, seed: int,
                      jobs: int = 0, rerun: bool = False) -> list[str]:
    """The branched positions of each rule set's baseline (holding none), one file each under
    ``folder``; their paths (for the report's parameters)."""
    out, seen = [], set()
    for pair in pairs:
        p = pair.pairing
        if p.group in seen:
            continue
        seen.add(p.group)
        rules, _ = rules_and_profile(p.rules)
        found = holding.ensure_positions(folder, _slug(p.group), p.group, player_of(p),
                                         p.b.spec, rules, positions, seed, jobs=jobs,
                                         rerun=rerun)
        out.append(str(found.path))
    return out


def _players(pairs: Sequence[PairRuns]) -> dict[str, str]:
    return {p.pairing.group: player_of(p.pairing) for p in pairs}


def _who(players: dict[str, str]) -> str:
    """Who the answer is about, in words."""
    by: dict[str, list[str]] = {}
    for group, player in players.items():
        by.setdefault(player, []).append(group)
    parts = []
    for player, groups in by.items():
        where = ", ".join(groups) if len(groups) < len(players) or len(players) == 1 else \
            f"all {len(groups)} rule sets"
        why = (" (the tactician as handfoot tune tuned it for each)" if player == TUNED else
               " (the strongest heuristic where no tuned file ships)" if player == "cautious"
               else "")
        parts.append(f"{player}{why} under {where}")
    return "The player asked about: " + "; ".join(parts) + "."


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    items = analyse(pairs)
    results = results_table(items, correct=True)
    players = _players(pairs)
    found = [holding.read_positions(Path(p)) for p in params.get("holding", [])]
    table = holding.effects_table(found)
    lines = verdict(results, players=players)
    answer = [lines[0], _who(players), *lines[1:-1]]
    rows = list(results.iter_rows(named=True))
    for c in found:
        if len(c.rows) < 2:
            answer.append(f"Decision by decision under {c.profile} ({c.player}): it never "
                          "melded a wild after opening in the games played, so there is "
                          "nothing to branch.")
            continue
        answer += holding.verdict(holding.effects(c.rows), c.player, c.profile)
        shape = holding.curve(c, [r for r in rows if r["group"] == c.profile])
        if shape:
            answer.append(shape)
    answer.append(lines[-1])
    figs = []
    if out is not None:
        figs.append(Figure(plots.effect(results, "wilds held back (hold_wilds)", out),
                           "Holding 1, 2 or 3 wilds against holding none",
                           "Score difference per deal and game win rate of each rule set's "
                           "player holding wilds back against the same player holding none; "
                           "bars are 95% intervals (uncorrected; the verdict uses "
                           "Holm-corrected p-values)."))
        if table.height:
            figs.append(Figure(holding.plot(table, out), "Holding a wild, decision by decision",
                               "Points of deal margin per decision, holding the wilds the "
                               "player would meld minus melding them, both played to the end "
                               "of the deal from the same deal by the same player; by "
                               "situation, 95% intervals clustered by game; blue: the "
                               "interval excludes 0."))
    sections = [Section("Holding wilds against holding none",
                        results_view(True, (col("rules", "text", "group"),
                                            col("wilds held", "text", "value")),
                                     ranks=many_seats(results)),
                        note="A holds wilds back, B holds none (the same player otherwise); "
                             "p (Holm): corrected for every comparison in the table.")]
    tables = {"results.csv": results, "sides.csv": sides_table(items),
              "deals.csv": deals_table(items)}
    if table.height:
        tables["holding.csv"] = table
        per = ", ".join(f"{c.profile} {len(c.rows):,} from {c.games:,} games "
                        f"({c.decisions_per_deal:.1f} per deal)" for c in found)
        sections.append(Section("Decision by decision: the value of holding a wild",
                                holding.view(),
                                note="Every decision in which the player melded a wild after "
                                     "opening, played on both ways from the same deal; "
                                     f"positions: {per}. Intervals: 95%, from the paired "
                                     "differences, clustered by game."))
    sections += [Section("Each strategy", sides_view(), in_summary=False),
                 Section("Deals", deals_view(), in_summary=False)]
    return Content(
        kind="hold-wild", title="Is holding a wild worth it?", question=QUESTION,
        answer=answer, tables=tables, sections=sections,
        figures=figs + figures.common(items, results, out),
        method=METHOD + [
            "The player of each rule set is its strongest heuristic: the tactician tuned for "
            "the profile (handfoot tune; strategies/tuned/<profile>.toml) where one ships, "
            "else cautious. Holding wilds: its hold_wilds parameter (strategies show "
            "tactician), which keeps up to that many wilds out of its melds while on the Hand "
            "once the partnership has opened and made its wild books; every other parameter "
            "as the player has it, in both strategies.",
            "Holm's correction across all comparisons (statsmodels multipletests); a "
            "comparison is called better or worse only when its corrected p is under 0.05.",
            "Decision by decision (analysis.holding, sim.play.branching): games of the player "
            "(holding none) in every seat; at every meld decision in which its line melds a "
            "wild after its partnership has opened, the rest of the deal is played twice on "
            "copies of the real deal, once with the line as proposed and once with its wilds "
            "left in hand (natural parts kept, melds too small without their wilds dropped), "
            "the player playing every seat afterwards and the strategies' random stream "
            "reset between the two (common random numbers). The outcome is the deal's score "
            "margin of the player's partnership over the best other one; holding minus "
            "melding per decision gets a t-interval with a cluster-robust standard error by "
            "game. A situation is shown with at least "
            f"{holding.MIN_PER_GROUP} positions."],
        params=params, pairs=pairs)

