"""``handfoot ask hold-wild``: is holding a wild back worth it?

Asked of the strongest fast players of each rule set (analysis.experiments.players: the
shipped ladder's first two, learned and tuned; for a rule file the two built for it), in all
six profiles, individual play included: each player holding 1, 2 or 3 wilds back from its melds
until it reaches the Foot plays against the same player holding none, on the same shuffles in
every seating, and the answer says how far it holds across the players (analysis.reports.
reach). Then, decision by decision (analysis.experiments.holding plays them, analysis.
statistics.holding measures them), every time the player would meld a wild the rest of the
deal is played both ways from the same deal by that player, the value of holding is reported
by situation, and at a sample of those positions the search player's own meld is shown
(analysis.reports.search_choices). Every word of the answer is generated from the numbers
(analysis.reports.verdict and the decision-level words here) and states its uncertainty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

import polars as pl

from analysis.experiments.holding_cache import read_positions
from analysis.experiments.pairings import (
    Pairing,
    PairRuns,
    PlayError,
    rules_and_profile,
    slug,
)
from analysis.experiments.players import Player, knob_side
from analysis.reports import hold_rule, plots, search_choices
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import View, col, many_seats, pct, pts, results_view
from analysis.reports.reach import (
    WORDS,
    Effect,
    between,
    between_view,
    one_family,
    reach,
    tested,
)
from analysis.reports.tables import Analysed
from analysis.reports.verdict import call, verdict, wilds
from analysis.statistics.hold_rule import METHOD as HOLD_RULE_METHOD
from analysis.statistics.hold_rule import find_rule
from analysis.statistics.holding import (
    F_WILDS_HELD,
    MIN_PER_GROUP,
    Collected,
    HoldEffect,
    effect_where,
    effects,
    effects_table,
    knob_acts,
)
from sim.core.profiles import PROFILES as ALL_PROFILES

PROFILES = tuple(ALL_PROFILES)
VALUES = (1, 2, 3)
GAMES = 3_000  # shuffles per seating of each comparison (the command's default)
POSITIONS = 25_000  # branched positions per rule set and player (the command's default)
# Of those, positions the search player is asked about: all of them. Asked at 40,000 of
# learned's standard positions (seed 1), "holding where the search holds" was +29 points a
# decision, 95% CI +3 to +56 (half-width 27); the half-width goes as one over the root of the
# positions, so 25,000 give about 34, inside the 40 the answer needs, at about 2.7 ms a
# position on 2 cores.
SEARCH_POSITIONS = POSITIONS
QUESTION = ("Is holding a wild worth it? Do the strongest players of each rule set do better "
            "if they keep 1, 2 or 3 wild cards back from their melds until they reach their "
            "Foot, rather than melding them at once; does the answer hold whoever the strong "
            "player is, and in which situations does holding one back pay?")
_HOLD = " hold "


GROUP_SEP = ", "  # a pairing's group: "<profile>, <player>"


def player_of(pairing: Pairing) -> str:
    """The player a hold-wild pairing asks about (its labels are '<player> hold <n>')."""
    name = pairing.b.label.rpartition(_HOLD)[0] if _HOLD in pairing.b.label else ""
    return name or "tactician"  # reports made before the baseline was named


def profile_of(group: str, player: str) -> str:
    """The rule set of a pairing's group ('<profile>, <player>'; older reports: the profile)."""
    suffix = f"{GROUP_SEP}{player}"
    return group[: -len(suffix)] if group.endswith(suffix) else group


def plan(profiles: Sequence[str], values: Sequence[int], folder: Path,
         players: Mapping[str, Sequence[Player]]) -> list[Pairing]:
    """Per rule set and strong player (``players[rules spec]``, from
    ``analysis.experiments.players.choose``): the player holding each of ``values`` wilds
    back against itself holding none."""
    out = []
    for spec in profiles:
        rules, profile = rules_and_profile(spec)
        for player in players[spec]:
            name = player.label
            none = knob_side(player, folder, rules, f"{name}{_HOLD}0", hold_wilds=0)
            for v in values:
                if v == 0:
                    raise PlayError("hold 0 is the baseline; compare 1, 2 or 3 against it")
                out.append(Pairing(key=f"{slug(profile)}-{slug(name)}-hold{v}",
                                   a=knob_side(player, folder, rules, f"{name}{_HOLD}{v}",
                                               hold_wilds=v),
                                   b=none, rules=spec, group=f"{profile}{GROUP_SEP}{name}",
                                   value=str(v)))
    return out


def _under(group: str, player: str) -> str:
    """A group in words: '<profile>, <player>' as it is; an older report's profile with its
    player in brackets."""
    return group if group.endswith(f"{GROUP_SEP}{player}") else f"{group} ({player})"


def why_in_general(chosen: Mapping[str, Sequence[Player]]) -> dict[str, str]:
    """Why each player was asked, in words true of every rule set it was asked under: its own
    reason where it plays under one rule set only (or was chosen with --player), else its
    place on the ladders of those rule sets."""
    where: dict[str, list[tuple[int, Player]]] = {}
    for players_of_rules in chosen.values():
        for rank, p in enumerate(players_of_rules):
            where.setdefault(p.label, []).append((rank, p))
    out = {}
    for label, seen in where.items():
        ranks = {rank for rank, _ in seen}
        first = seen[0][1]
        if len(seen) == 1 or first.why.startswith("chosen") or len(ranks) > 1:
            out[label] = first.why
        else:
            place = ("the strongest fast player measured" if ranks == {0} else
                     "the next strongest fast player measured")
            out[label] = f"{place} for each of the {len(seen)} rule sets it was asked under " \
                         "(strategies/ladder.toml)"
    return out


def players(pairs: Sequence[PairRuns]) -> dict[str, str]:
    """The player asked about in each group (a rule set and a player)."""
    return {p.pairing.group: player_of(p.pairing) for p in pairs}


def _who(players: dict[str, str], why: Mapping[str, str]) -> str:
    """Who the answer is about, in words generated from who played under each rule set."""
    names = list(dict.fromkeys(players.values()))
    parts = [f"{n} ({why[n]})" if n in why else n for n in names]
    by_rules: dict[str, list[str]] = {}
    for group, player in players.items():
        by_rules.setdefault(profile_of(group, player), []).append(player)
    counts = {len(v) for v in by_rules.values()}
    if counts == {1}:
        reach_words = ("Each rule set is measured with one player, so the answer does not say "
                       "whether it holds for other players.")
    elif min(counts) > 1:
        same = len({tuple(v) for v in by_rules.values()}) == 1
        whom = "each of them" if same else "its own strong players"
        reach_words = (f"Each rule set is measured with {whom}, so the answer says how far it "
                       "holds whoever the strong player is.")
    else:
        one = [r for r, v in by_rules.items() if len(v) == 1]
        reach_words = ("Each rule set is measured with two or more players, except "
                       + ", ".join(one) + " (one player), so how far the answer holds is said "
                       "where two or more were measured.")
    return f"The strong players asked: {'; '.join(parts)}. {reach_words}"


def unit(profile: str, value: str) -> str:
    """What one answer is about: a rule set and a number of wilds held."""
    return f"{profile}: {wilds(value)}"


def player_effects(items: Sequence[Analysed], who: Mapping[str, str]) -> list[Effect]:
    """Each pairing as its player's effect of holding, with its per-shuffle margins (for the
    difference between players, ``reach.between``)."""
    out = []
    for a in items:
        pairing = a.pair.pairing
        player = who.get(pairing.group, "")
        out.append(Effect(unit(profile_of(pairing.group, player), pairing.value), player,
                          a.diffs, 1.0, a.shuffles, a.result.deals_per_game))
    return out


def reach_lines(results: pl.DataFrame, who: Mapping[str, str],
                differences: pl.DataFrame | None = None) -> list[str]:
    """How far each answer holds: per rule set and number of wilds held, the calls of every
    player measured and the differences between them (``differences``, after
    ``reach.one_family``; none: not compared), labelled by ``analysis.reports.reach``."""
    tests = [] if differences is None else differences.to_dicts()
    rows = list(results.iter_rows(named=True))
    cells: dict[tuple[str, str], list[dict]] = {}
    for r in rows:
        player = who.get(r["group"], "")
        cells.setdefault((profile_of(r["group"], player), r["value"]), []).append(
            {**r, "player": player})
    if all(len(v) < 2 for v in cells.values()):
        return []
    by_profile: dict[str, list[str]] = {}
    for (profile, value), mine in cells.items():
        calls = [WORDS[call(r)] for r in mine]
        label = reach(calls, [r["player"] for r in mine],
                      [t for t in tests if t["unit"] == unit(profile, value)])
        figures = ", ".join(f"{r['player']} {pts(r['diff_deal'], signed=True)}" for r in mine)
        by_profile.setdefault(profile, []).append(
            f"{wilds(value)}: {label} ({figures} points per deal)")
    return ["How far it holds, whoever the strong player: " + " ".join(
        f"Under {profile}: {'; '.join(parts)}." for profile, parts in by_profile.items())]


# --- Decision by decision: words from the numbers -----------------------------------------

def holding_view() -> View:
    """The decision-by-decision table: holding minus melding by situation."""
    return View("holding.csv", (
        col("rules", "text", "group"), col("player", "text", "player"),
        col("situation", "text", "situation"), col("case", "text", "case"),
        col("positions", "int", "positions"), col("share of decisions", "pct", "share"),
        col("holding - melding per decision (95% CI)", "pts_ci", "mean", "low", "high"),
        col("holding better", "pct", "share_better"),
        col("holding worse", "pct", "share_worse")))


def _ci(e: HoldEffect) -> str:
    return (f"{pts(e.mean, 0, signed=True)} points per decision (95% CI "
            f"{pts(e.low, 0, signed=True)} to {pts(e.high, 0, signed=True)}, "
            f"{e.positions:,} decisions)")


def decisions_verdict(found: list[HoldEffect], player: str, profile: str) -> list[str]:
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
    line = (f"Decision by decision under {_under(profile, player)}: {head}, "
            f"{pts(overall.mean, 0, signed=True)} points of deal margin per decision (95% CI "
            f"{pts(overall.low, 0, signed=True)} to {pts(overall.high, 0, signed=True)}) over "
            f"{overall.positions:,} decisions in which it would have melded a wild. ")
    line += (f"Holding pays in these situations: {where(pays)}. " if pays else
             "In no situation measured does holding clearly pay. ")
    line += (f"It costs most in these: {where(costs)}." if costs else
             "In no situation measured does holding clearly cost.")
    return [line]


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
    inside = effect_where(c, acts, "where the knob acts")
    outside = effect_where(c, ~acts, "elsewhere")
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
    text = (f"The curve under {_under(c.profile, c.player)}, per deal against holding none: "
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
    held = c.rows[:, F_WILDS_HELD]
    one = effect_where(c, acts & (held == 1), "1 wild")
    more = effect_where(c, acts & (held >= 2), "2 or more wilds")
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


# --- The report ---------------------------------------------------------------------------------

def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """The game-level comparisons, then the decision-by-decision section from the branched
    positions the command kept (params["holding"]), each with words from the numbers."""
    measured = Comparisons.read(pairs, holm=True)
    who = players(pairs)
    tests = between(player_effects(measured.items, who))
    results, differences = one_family(measured.results, tests)
    measured = Comparisons(measured.items, results)
    found = [read_positions(Path(p)) for p in params.get("holding", [])]
    table = effects_table(found)
    lines = verdict(results, differences=tested(differences))
    answer = [lines[0], *reach_lines(results, who, differences),
              _who(who, params.get("player_why", {})), *lines[1:-1]]
    rows = list(results.iter_rows(named=True))
    for c in found:
        if len(c.rows) < 2:
            answer.append(f"Decision by decision under {_under(c.profile, c.player)}: it never "
                          "melded a wild after opening in the games played, so there is "
                          "nothing to branch.")
            continue
        answer += decisions_verdict(effects(c.rows), c.player, c.profile)
        shape = curve(c, [r for r in rows if r["group"] == c.profile])
        if shape:
            answer.append(shape)
    rules_found = [(c.profile, c.player, find_rule(c.rows)) for c in found if len(c.rows) >= 2]
    answer += [hold_rule.words(leaves, group) for group, _, leaves in rules_found]
    rule_table = hold_rule.table(rules_found)
    asked = search_choices.read_all(params.get("search_choices", []), found)
    choice_table = search_choices.table(asked)
    if choice_table.height:
        answer += search_choices.words(choice_table, int(params.get("search_positions", 0)),
                                       "pimc")
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
            figs.append(Figure(plots.holding(table, out), "Holding a wild, decision by decision",
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
                             "p (Holm): corrected for every comparison in the table and every "
                             "difference between players.")]
    tables = {}
    if table.height:
        tables["holding.csv"] = table
        per = ", ".join(f"{c.profile} {len(c.rows):,} from {c.games:,} games "
                        f"({c.decisions_per_deal:.1f} per deal)" for c in found)
        sections.append(Section("Decision by decision: the value of holding a wild",
                                holding_view(),
                                note="Every decision in which the player melded a wild after "
                                     "opening, played on both ways from the same deal; "
                                     f"positions: {per}. Intervals: 95%, from the paired "
                                     "differences, clustered by game."))
    if rule_table.height:
        tables[hold_rule.CSV] = rule_table
        sections.append(Section("Decision by decision: when holding pays, held out of sample",
                                hold_rule.view(),
                                note="Each rule set's and player's branched positions: the "
                                     "situations of a depth-2 regression tree fitted on the "
                                     "even-numbered games, each measured again on the "
                                     "odd-numbered games alone; a rule (pays or costs) only "
                                     "where the held-out interval excludes zero on the side "
                                     "the fit found."))
    if choice_table.height:
        tables[search_choices.CSV] = choice_table
        sections.append(Section("Decision by decision: what the search would meld there",
                                search_choices.view(),
                                note="At the first branched positions of each rule set's "
                                     "first player, the search player (pimc, its defaults, "
                                     "from the seat's view only) was handed the position and "
                                     "asked for its meld line. Holds some back: its line "
                                     "melds fewer of the wilds than the player's. The value "
                                     "columns are the branched holding - melding at the "
                                     "positions where it held and where it melded (95% CI, "
                                     "clustered by game)."))
    if differences.height:
        tables["between.csv"] = differences
        sections.append(Section(
            "Between the players: the difference of their effects",
            between_view((col("rules and wilds held", "text", "unit"),)),
            note="The first player's effect of holding minus the second's, per shuffle (both "
                 "played the same shuffles, same rules and seed), then its mean and 95% "
                 "t-interval over the shuffles; p (Holm): in the same family as every "
                 "comparison. The answer says it depends on the player only when two players "
                 "whose calls differ differ here.", in_summary=False))
    return Content(
        title="Is holding a wild worth it?", question=QUESTION,
        answer=answer, tables=tables, sections=sections, figures=figs,
        method=[
            "The players of each rule set are its strongest fast players measured (the "
            "shipped ladder, strategies/ladder.toml: learned, then tuned; for a rule file, "
            "the two players built for it once; --player names others); every comparison "
            "is made with each. Holding wilds: the tactician's hold_wilds knob (strategies "
            "show tactician), which keeps up to that many wilds out of its melds while on the "
            "Hand once the partnership has opened and made its wild books; a learned player "
            "turns it in its base policy, whose move it keeps unless its model finds a better "
            "one by its margin. Every other knob as the player has it, in both strategies.",
            "How far it holds: for each rule set and number of wilds, the players' calls "
            "together (analysis.reports.reach): it pays (costs) for every strong player "
            "measured, makes no measurable difference for any, depends on the player (two "
            "players whose calls differ differ measurably: the first's effect minus the "
            "second's, shuffle by shuffle over the shuffles both played, significant in the "
            "same Holm family), or, where the calls differ but the players are not shown to "
            "differ, what each player showed.",
            "Holm's correction across all comparisons and differences between players "
            "(statsmodels multipletests); a comparison is called better or worse only when its "
            "corrected p is under 0.05.",
            "Decision by decision (analysis.experiments.holding, sim.play.branching): games of "
            "the player (holding none) in every seat; at every meld decision in which its line "
            "melds a wild after its partnership has opened, the rest of the deal is played "
            "twice on copies of the real deal, once with the line as proposed and once with its "
            "wilds left in hand (natural parts kept, melds too small without their wilds "
            "dropped), the player playing every seat afterwards and the strategies' random "
            "stream reset between the two (common random numbers). The outcome is the deal's "
            "score margin of the player's partnership over the best other one; holding minus "
            "melding per decision gets a t-interval with a cluster-robust standard error by "
            f"game. A situation is shown with at least {MIN_PER_GROUP} positions.",
            "When holding pays (analysis.statistics.hold_rule): " + HOLD_RULE_METHOD + "; a "
            "situation is stated as a rule only where its held-out interval excludes zero on "
            "the side the fit found.",
            "The search's own choice (analysis.experiments.search_choice, "
            "sim.play.asking): the same games are played again in compiled code, and at the "
            "positions that were branched (by default all of them) the search player (pimc "
            "at its defaults) is given a copy of the position and asked what it would meld; "
            "it sees only what the seat may see. The rows are joined to the branched "
            "positions by game, deal, turn and seat (and must agree on the wilds in hand and "
            "in the line)."],
        comparisons=measured)

