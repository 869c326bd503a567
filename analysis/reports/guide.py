"""``handfoot guide``: a strategy guide for one rule set, every piece of advice measured with
several strong players, and how far each verdict holds.

Each piece of tactics advice is one knob of the tactician (``strategies show tactician``). It
is measured with each strong player of the rules (analysis.experiments.players: by default the
first two fast players of the profile's shipped ladder, ``learned`` and ``tuned``; for a rule
file the two players built for it once and reused (a tuned heuristic and a learned player on
it, ranked by a match); ``--player`` names
others): a paired comparison of the player with that one knob changed (A) against the player
itself (B), on the same shuffles in every seating. Where the player already follows the
advice, A plays the alternative; where it follows neither (a player holding one wild, say,
measured on holding two), A follows the advice and B is the player playing the alternative.

Every effect is reported the same way round: following the advice relative to playing the
alternative (positive points per deal: the advice pays). Where two players measured the same
advice on the same shuffles, the difference of their effects is tested shuffle by shuffle
(analysis.reports.reach.between). The p-values are Holm-corrected across every comparison and
every such difference of the page, all players together, and each piece of advice is labelled
by how far its verdict holds (analysis.reports.reach): it pays (or costs) for every strong
player measured, makes no measurable difference for any, depends on the player (two players
whose calls differ differ significantly), or, where the calls differ but the players are not
shown to differ, the label says what each player showed.

Every alternative is a way a sensible player plays: holding a wild never keeps a player from
opening (the tactician holds only once the partnership has opened and made its wild books),
and not blocking with black threes still discards them, in the ordinary order. An item whose
two sides play identically under the rules is not played, and the page says why.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import polars as pl

from analysis.experiments.guide_plan import Advice, follows
from analysis.experiments.pairings import PairRuns, label_of
from analysis.experiments.players import Player
from analysis.reports import plots
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import View, cap, col, many_seats, pct, pts, pval, results_view
from analysis.reports.guide_console import guide_console, players_sources
from analysis.reports.reach import (
    COSTS,
    DEPENDS,
    MIXED,
    PAYS,
    UNCLEAR,
    WORDS,
    Effect,
    between,
    between_view,
    kind_of,
    one_family,
    reach,
    tested,
)
from analysis.reports.tables import Analysed
from analysis.reports.verdict import ALPHA, call

QUESTION = ("Which pieces of the usual tactics advice make strong players win more under "
            "these rules, which cost, which make no measurable difference, and does the "
            "answer hold whoever the strong player is?")


# --- From the numbers to the page ---------------------------------------------------------------

def players_of(params: dict) -> list[Player]:
    """The players a guide measured (a guide made before it measured several: its baseline)."""
    if "players" in params:
        return [Player.from_dict(p) for p in params["players"]]
    return [Player(params["baseline"], label_of(params["baseline"]),
                   params.get("baseline_why", ""), params["baseline_params"])]


def _owner(key: str, value: str, params: dict) -> tuple[Advice, str]:
    """The piece of advice and the player of the pairing ``key`` (its ``value``: the advice's
    key)."""
    items = {i["key"]: Advice(**i) for i in params["items"]}
    owners = params.get("pairing_players", {})
    return items[value or key], owners.get(key, players_of(params)[0].label)


def _sign(item: Advice, base: dict[str, float]) -> float:
    """+1 where A of the pairing follows the advice, -1 where it plays the alternative (the
    player B follows the advice), so that sign x (A - B) is following it minus not."""
    return -1.0 if follows(item, base) == "advice" else 1.0


def player_effects(items: Sequence[Analysed], params: dict) -> list[Effect]:
    """Each pairing as a player's effect of a piece of advice, the advice's way round, with
    its per-shuffle margins (for the difference between players, ``reach.between``)."""
    knobs = {p.label: p.knobs for p in players_of(params)}
    out = []
    for a in items:
        item, player = _owner(a.pair.pairing.key, a.pair.pairing.value, params)
        out.append(Effect(item.key, player, a.diffs, _sign(item, knobs[player]), a.shuffles,
                          a.result.deals_per_game))
    return out


def advice_rows(results: pl.DataFrame, params: dict,
                differences: pl.DataFrame | None = None) -> pl.DataFrame:
    """The results table turned the advice's way round, one row per piece of advice and
    player, sorted by the size of the first player's effect on points per deal (largest
    first), each advice's players together in the order measured; ``holds`` is its label
    (``reach``) from the players' calls and ``differences``, the between-player tests of the
    same Holm family (``reach.one_family``; none: the players' effects were not compared)."""
    players = players_of(params)
    knobs = {p.label: p.knobs for p in players}
    rows = []
    for r in results.iter_rows(named=True):
        item, player = _owner(r["key"], r.get("value") or "", params)
        base = knobs[player]
        way = follows(item, base)
        sign = _sign(item, base)  # A plays the alternative where B follows
        teams = int(r.get("teams", 2))
        lo, hi = sorted((_win(r["win_low"], sign, teams), _win(r["win_high"], sign, teams)))
        row = {"advice": item.advice, "alternative": item.alternative, "knob": item.knob,
               "item": item.key, "player": player,
               "advice_value": item.advice_value, "alternative_value": item.alternative_value,
               "baseline_value": int(base[item.knob]), "baseline_plays": way,
               "win_rate": _win(r["win_rate"], sign, teams), "win_low": lo, "win_high": hi,
               "even": r.get("even", 0.5), "games": r["games"], "teams": teams,
               "p_value": r["p_value"], "p_holm": r.get("p_holm", r["p_value"]),
               "a": r["a"], "b": r["b"], "key": r["key"]}
        for unit in ("deal", "game"):
            d, dlo, dhi = (r[f"diff_{unit}"], r[f"diff_{unit}_low"], r[f"diff_{unit}_high"])
            row[f"diff_{unit}"] = sign * d
            row[f"diff_{unit}_low"], row[f"diff_{unit}_high"] = sorted((sign * dlo, sign * dhi))
        row["verdict"] = WORDS[call(row)]
        rows.append(row)
    order = [p.label for p in players]
    lead = {r["item"]: abs(r["diff_deal"]) for r in rows if r["player"] == order[0]}
    rows.sort(key=lambda x: (-lead.get(x["item"], abs(x["diff_deal"])), x["item"],
                             order.index(x["player"])))
    out = pl.DataFrame(rows)
    tests = [] if differences is None else differences.to_dicts()
    labels = {item: reach([r["verdict"] for r in rows if r["item"] == item],
                          [r["player"] for r in rows if r["item"] == item],
                          [t for t in tests if t["unit"] == item])
              for item in dict.fromkeys(r["item"] for r in rows)}
    return out.with_columns(pl.col("item").replace_strict(labels).alias("holds"))


def between_rows(differences: pl.DataFrame, rows: pl.DataFrame) -> pl.DataFrame:
    """The between-player tests with the advice they are about, in the order of ``rows``."""
    first = {r["item"]: r for r in reversed(rows.to_dicts())}
    order = list(dict.fromkeys(rows["item"].to_list()))
    out = [{"advice": first[t["unit"]]["advice"],
            "alternative": first[t["unit"]]["alternative"], "item": t["unit"], **t}
           for t in sorted(differences.to_dicts(), key=lambda t: order.index(t["unit"]))
           if t["unit"] in first]
    return pl.DataFrame(out, schema={"advice": pl.String, "alternative": pl.String,
                                     "item": pl.String, **differences.schema})


def _win(share: float, sign: float, teams: int) -> float:
    """The win share of the side following the advice: A's, or the mean of B's partnerships
    (they share what A does not win)."""
    return share if sign > 0 else (1.0 - share) / (teams - 1)


def held_rows(rows: pl.DataFrame, differences: pl.DataFrame | None = None) -> pl.DataFrame:
    """One row per piece of advice: how far its verdict holds, each player's figure and each
    difference between players (``differences``, after ``reach.one_family``), in the order of
    ``rows`` (the first player's largest effect first)."""
    tests = [] if differences is None else differences.to_dicts()
    out = []
    for item in dict.fromkeys(rows["item"].to_list()):
        mine = rows.filter(pl.col("item") == item).to_dicts()
        first = mine[0]
        out.append({"advice": first["advice"], "alternative": first["alternative"],
                    "item": item, "holds": first["holds"],
                    "figures": "; ".join(_figure(r) for r in mine),
                    "between": "; ".join(_difference(t) for t in tests if t["unit"] == item),
                    "diff_deal": first["diff_deal"], "diff_deal_low": first["diff_deal_low"],
                    "diff_deal_high": first["diff_deal_high"],
                    "players": ", ".join(r["player"] for r in mine)})
    return pl.DataFrame(out)


def _difference(test: dict, p: bool = False) -> str:
    """A between-player test in words: 'learned - tuned: -110.0 (-130.0 to -90.0), the
    effects differ' (with ``p``, its corrected p-value too)."""
    if not test["paired"]:
        return f"{test['players']}: {test['verdict']}"
    return (f"{test['players']}: {pts(test['diff_deal'], signed=True)} "
            f"({pts(test['diff_deal_low'], signed=True)} to "
            f"{pts(test['diff_deal_high'], signed=True)}"
            + (f"; p Holm {pval(test['p_holm'])}" if p else "") + f"), {test['verdict']}")


def _figure(row: dict) -> str:
    return (f"{row['player']} {pts(row['diff_deal'], signed=True)} "
            f"({pts(row['diff_deal_low'], signed=True)} to "
            f"{pts(row['diff_deal_high'], signed=True)}), {row['verdict']}")


def _clause(row: dict) -> str:
    return (f"wins {pct(row['win_rate'])} of games (95% CI {pct(row['win_low'])} to "
            f"{pct(row['win_high'])}; even is {pct(row['even'])}) and scores "
            f"{pts(row['diff_deal'], signed=True)} points per deal (95% CI "
            f"{pts(row['diff_deal_low'], signed=True)} to "
            f"{pts(row['diff_deal_high'], signed=True)})")


def _plays(way: str, player: str) -> str:
    return {"advice": f"{player} follows it", "alternative": f"{player} does not follow it",
            "neither": f"{player} plays neither side"}[way]


def _and(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _groups(items: list[str], by: dict[str, list[dict]]) -> dict[str, list[str]]:
    return {k: [i for i in items if kind_of(by[i][0]["holds"]) == k]
            for k in (PAYS, COSTS, UNCLEAR, DEPENDS, MIXED)}


def headline(rows: Sequence[dict], players: Sequence[Player], profile: str) -> str:
    """The verdict's first sentence: how many pieces of advice pay, cost, depend on the
    player or make no measurable difference (``rows`` as ``guide_verdict``'s, not empty)."""
    names = [p.label for p in players]
    items = list(dict.fromkeys(r["item"] for r in rows))
    groups = _groups(items, {i: [r for r in rows if r["item"] == i] for i in items})
    n = len(items)
    every = "whatever the player" if len(names) > 1 else f"for {names[0]}"
    counts = [f"{len(groups[PAYS])} of {n} pieces of advice pay {every}",
              f"{len(groups[COSTS])} cost {every}"]
    if len(names) > 1:
        counts.append(f"{len(groups[DEPENDS])} depend on the player")
        if groups[MIXED]:
            counts.append(f"{len(groups[MIXED])} pay or cost for some players only (the "
                          "players not shown to differ)")
    counts.append(f"{len(groups[UNCLEAR])} make no measurable difference"
                  + (" for any" if len(names) > 1 else ""))
    who = (f"the strong players {_and(names)}" if len(names) > 1 else names[0])
    return (f"Under {profile}, measured with {who}: {', '.join(counts[:-1])} and "
            f"{counts[-1]}.")


def guide_verdict(rows: Sequence[dict], skipped: Sequence[dict], players: Sequence[Player],
                  profile: str, differences: Sequence[dict] = ()) -> list[str]:
    """Paragraphs, every word chosen by the numbers: the headline (how far each piece of
    advice holds across the players), one sentence per piece of advice with each player's
    figure and each difference between players, what was not measured, and how sure it is.
    ``rows`` are ``advice_rows``' (one per piece of advice and player, with ``holds``),
    ``differences`` the between-player tests of the same Holm family (``reach.one_family``).

    Advice whose players' calls differ but whose players do not measurably differ (or were
    not compared) is said in its own sentence, each player's call given: neither 'whatever
    the player' nor 'depends on the player' would be true of it."""
    if not rows:
        return [f"Nothing to measure under {profile}: every piece of advice plays the same as "
                "its alternative there."]
    names = [p.label for p in players]
    items = list(dict.fromkeys(r["item"] for r in rows))
    by = {i: [r for r in rows if r["item"] == i] for i in items}
    said = [by[i][0]["advice"] for i in items]

    def name(i: str) -> str:  # the advice, and its alternative where the advice repeats
        r = by[i][0]
        return r["advice"] + (f" rather than {r['alternative']}"
                              if said.count(r["advice"]) > 1 else "")

    def figures(i: str) -> str:
        return ", ".join(f"{r['player']} {pts(r['diff_deal'], signed=True)}" for r in by[i])

    groups = _groups(items, by)
    n = len(items)
    head = [headline(rows, players, profile)]
    whom = "every strong player measured" if len(names) > 1 else names[0]
    if groups[PAYS]:
        head.append(f"Worth following ({PAYS} for {whom}): "
                    + "; ".join(f"{name(i)} ({figures(i)} per deal)" for i in groups[PAYS])
                    + ".")
    if groups[COSTS]:
        head.append(f"Better not ({COSTS} for {whom}): "
                    + "; ".join(f"{name(i)} ({figures(i)} per deal)" for i in groups[COSTS])
                    + ".")
    if groups[DEPENDS]:
        head.append("Depends on the player: " + "; ".join(
            f"{name(i)} (" + ", ".join(f"{r['player']} {pts(r['diff_deal'], signed=True)}, "
                                       f"{r['verdict']}" for r in by[i]) + ")"
            for i in groups[DEPENDS]) + ".")
    if groups[MIXED]:
        head.append("For some players only, the players not shown to differ: " + "; ".join(
            f"{name(i)} (" + ", ".join(f"{r['player']} {pts(r['diff_deal'], signed=True)}, "
                                       f"{r['verdict']}" for r in by[i]) + ")"
            for i in groups[MIXED]) + ".")
    if groups[UNCLEAR]:
        head.append("Too close to call at this number of games: "
                    + "; ".join(name(i) for i in groups[UNCLEAR]) + ".")
    out = [" ".join(head)]
    for p in players:
        out.append(f"{p.label}: {p.why}.")
    for i in items:
        first = by[i][0]
        parts = []
        for r in by[i]:
            line = (f"{r['player']} ({_plays(r['baseline_plays'], r['player'])}): the side "
                    f"following it {_clause(r)}, {r['verdict']}")
            if r["verdict"] != UNCLEAR and r["baseline_plays"] == (
                    "alternative" if r["verdict"] == PAYS else "advice"):
                line += (f"; {r['player']} would gain by "
                         + ("following it" if r["verdict"] == PAYS else "dropping it"))
            parts.append(line)
        parts += [f"the difference of their effects, {_difference(t, p=True)}"
                  for t in differences if t["unit"] == i]
        out.append(f"{cap(first['advice'])} against {first['alternative']}: "
                   f"{first['holds']}. " + "; ".join(parts) + ".")
    if skipped:
        out.append("Not measured under " + profile + ": " + "; ".join(
            f"{s['advice']} against {s['alternative']} ({s['reason']})" for s in skipped) + ".")
    per_player = {r["player"]: r["games"] for r in rows}
    games = max(per_player.values())
    fewer = {p: g for p, g in per_player.items() if g != games}
    seats = max(int(r.get("teams", 2)) for r in rows)
    half = max((r["diff_deal_high"] - r["diff_deal_low"]) / 2 for r in rows)
    where = "partnership" if seats == 2 else "partnership or seat"
    except_ = ("; " + ", ".join(f"{p}: {g:,}" for p, g in fewer.items())) if fewer else ""
    extra = tested(differences)
    what = f"{n} pieces of advice x {len(names)} player{'s' if len(names) != 1 else ''}"
    if extra:
        what += f", and {extra} difference{'s' if extra != 1 else ''} between players"
    family = f"{'tests' if extra else 'comparisons'} of the page ({what}, Holm)"
    apart = (" Two players are said to differ (the advice depends on the player) only when "
             "the difference of their effects, paired shuffle by shuffle and corrected in the "
             "same family, is under it too." if len(names) > 1 else "")
    out.append(
        f"How sure: each piece of advice was a paired comparison, for each player, of the "
        f"player with one knob changed against the player, on the same {games:,} shuffled "
        f"games{except_}, played {'twice' if seats == 2 else f'{seats} times'}, once with "
        f"the changed player in each {where} ({seats * games:,} games). All intervals are "
        f"95%. A "
        f"piece of advice is said to pay or cost for a player only when its p-value, "
        f"corrected for all {len(rows) + extra} {family}, is under {ALPHA:g}, so the chance "
        f"that any of these calls is a false alarm is under 5%.{apart} Effects smaller "
        f"than about {pts(half)} points per deal (the widest half-interval here) cannot be "
        "told apart from no difference at this number of games; more games (--games) narrow "
        "every interval in proportion to one over the square root of the games played.")
    return out


MARKERS = ("o", "s", "^", "D", "v")


def advice_plot(rows: pl.DataFrame, out: Path, name: str = "guide.png") -> str:
    """Win rate of the side following each piece of advice and its points per deal over the
    alternative, one marker per player, 95% intervals, largest effect on top."""
    import textwrap

    import matplotlib.pyplot as plt

    data = list(rows.iter_rows(named=True))
    items = list(dict.fromkeys(r["item"] for r in data))
    players = list(dict.fromkeys(r["player"] for r in data))
    n = len(items)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 1.4 + 0.62 * n * max(1, len(players))
                                                     ** 0.5), sharey=True,
                                      gridspec_kw={"width_ratios": (1, 1)})
    base_y = {item: float(n - 1 - k) for k, item in enumerate(items)}
    step = 0.5 / max(1, len(players))
    offset = {p: (len(players) - 1) / 2 * step - k * step for k, p in enumerate(players)}
    for ax, (mid, lo, hi, scale, title) in zip((left, right), (
            ("win_rate", "win_low", "win_high", 100, "win rate following the advice, %"),
            ("diff_deal", "diff_deal_low", "diff_deal_high", 1,
             "advice - alternative, points per deal")), strict=True):
        for r in data:
            colour = ("tab:green" if r["verdict"] == PAYS else "tab:red"
                      if r["verdict"] == COSTS else "tab:grey")
            y = base_y[r["item"]] + offset[r["player"]]
            ax.errorbar(r[mid] * scale, y, xerr=[[(r[mid] - r[lo]) * scale],
                                                 [(r[hi] - r[mid]) * scale]],
                        fmt=MARKERS[players.index(r["player"]) % len(MARKERS)],
                        color=colour, capsize=3)
        ref = sorted({r["even"] for r in data}) if scale == 100 else [0.0]
        for x in ref:
            ax.axvline(x * scale, color="grey", lw=1, ls="--")
        ax.set_title(title + " (95% CI)", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    first = {r["item"]: r for r in reversed(data)}
    labels = [textwrap.fill(f"{first[i]['advice']} (not: {first[i]['alternative']})", 48)
              for i in items]
    left.set_yticks([base_y[i] for i in items], labels, fontsize=8)
    if len(players) > 1:
        handles = [plt.Line2D([], [], color="black", ls="", marker=MARKERS[k % len(MARKERS)],
                              label=p) for k, p in enumerate(players)]
        right.legend(handles=handles, title="player", fontsize=8, loc="best")
    fig.tight_layout()
    fig.savefig(out / name, dpi=plots.DPI)
    plt.close(fig)
    return name


def held_view() -> View:
    return View("holds.csv", (
        col("advice", "text", "advice"), col("instead of", "text", "alternative"),
        col("how far it holds", "text", "holds"),
        col("each player: points per deal (95% CI), verdict", "text", "figures"),
        col("between the players: difference of their effects per deal (95% CI)", "text",
            "between")))


def guide_view(ranks: bool) -> View:
    cols = [col("advice", "text", "advice"), col("instead of", "text", "alternative"),
            col("player", "text", "player"), col("player plays", "text", "baseline_plays"),
            col("advice wins (95% CI)", "pct_ci", "win_rate", "win_low", "win_high")]
    if ranks:
        cols.append(col("even", "pct", "even"))
    cols += [col("points per deal (95% CI)", "pts_ci", "diff_deal", "diff_deal_low",
                 "diff_deal_high"),
             col("p (Holm)", "p", "p_holm"), col("verdict", "text", "verdict"),
             col("how far it holds", "text", "holds")]
    return View("guide.csv", tuple(cols))


def interval_note(rows: pl.DataFrame) -> str:
    """How wide the printed figures' intervals are at this size, and how to narrow them: the
    console shows no interval (the report shows each). The size is read off the rows, so a
    guide rebuilt from older params reads the same."""
    half = float(((rows["diff_deal_high"] - rows["diff_deal_low"]) / 2).median())
    games = int(rows["games"].max())
    return (f"At {games:,} shuffles per comparison, each played in every seating, "
            f"a figure's 95% interval is about ±{half:,.0f} points per deal (the median); four "
            "times the shuffles (--games) halve it. Every sentence of the verdict, each "
            "interval and the method are in the report.")


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """Every piece of advice the advice's way round for every player, how far each verdict
    holds (with the difference between the players, paired by shuffle, in the page's one Holm
    family), largest effect first, with a verdict in words."""
    measured = Comparisons.read(pairs, holm=True)
    tests = between(player_effects(measured.items, params))
    results, differences = one_family(measured.results, tests)
    measured = Comparisons(measured.items, results)
    rows = advice_rows(results, params, differences)
    differences = between_rows(differences, rows)
    players = players_of(params)
    names = _and([p.label for p in players])
    profile = params["profile"]
    skipped = pl.DataFrame(params["skipped"],
                           schema={k: pl.String for k in ("advice", "alternative", "knob",
                                                          "reason")})
    held = held_rows(rows, differences)
    ranks = many_seats(results)
    figs = []
    if out is not None:
        figs.append(Figure(advice_plot(rows, out),
                           f"Each piece of advice, measured with {names}",
                           "Win rate of the side following the advice and its points per deal "
                           "relative to the alternative, one marker per player, largest effect "
                           "first; bars are 95% intervals (uncorrected; the verdict uses "
                           "Holm-corrected p-values). Right of the dashed line the advice "
                           "pays; green: it pays, red: it costs, grey: no measurable "
                           "difference (Holm)."))
    sections = [
        Section(f"How far each piece of advice holds under {profile} (players: {names})",
                held_view(),
                note="A piece of advice pays (or costs) for every strong player measured when "
                     "each player's comparison says so after Holm's correction over every "
                     "test on the page, and makes no measurable difference for any when none "
                     "does. It depends on the player only when two players whose calls differ "
                     "differ measurably: the difference of their effects, paired shuffle by "
                     "shuffle, is significant in the same family. Otherwise the label says "
                     "what each player showed."),
        Section(f"The advice under {profile}, each player, largest effect first",
                guide_view(ranks),
                note="Effects are those of following the advice relative to playing "
                     "the alternative; 'player plays' says which side the player takes "
                     "as it stands. p (Holm): corrected for every test on the page.")]
    if differences.height:
        sections.append(Section(
            "Between the players: the difference of their effects", between_view(
                (col("advice", "text", "advice"), col("instead of", "text", "alternative"))),
            note="The first player's effect of following the advice minus the second's, per "
                 "shuffle (both played the same shuffles, same rules and seed), then its mean "
                 "and 95% t-interval over the shuffles; p (Holm): corrected for every test on "
                 "the page. Two players whose calls differ are said to differ only when this "
                 "is significant.", in_summary=False))
    if len(skipped):
        sections.append(Section("Not measured", View("skipped.csv", (
            col("advice", "text", "advice"), col("instead of", "text", "alternative"),
            col("knob", "text", "knob"), col("why", "text", "reason")))))
    sections += [
        Section("Each comparison as played (A: a player with one knob changed)",
                results_view(True, (col("advice", "text", "value"),), ranks=ranks),
                note="A against B as played; the advice table above turns these round where "
                     "A plays the alternative.", in_summary=False)]
    tables = {"holds.csv": held, "guide.csv": rows}
    if differences.height:
        tables["between.csv"] = differences
    if len(skipped):
        tables["skipped.csv"] = skipped
    method = [
        f"Players: {'; '.join(f'{p.label}, {p.why}' for p in players)}. By default the "
        "first two fast players of the profile's shipped ladder (strategies/ladder.toml); "
        "for a rule file, the two players built for it once (a tuned heuristic and a "
        "learned player on it, ranked by a match) and reused; --player names others.",
        "Each piece of advice is one knob of the tactician (strategies show tactician): the "
        "player with that knob changed (A) against the player (B); every other knob as the "
        "player plays it. A learned or search player turns the knob in its base policy, the "
        "heuristic whose move it keeps unless its model (or search) finds a better one by "
        "its margin, so it follows the advice except where it sees a clear gain in leaving "
        "it.",
        "Sign convention: every effect is that of following the advice relative to "
        "playing the alternative, so a positive number means the advice pays. Where the "
        "player follows the advice (A plays the alternative) the points are turned "
        "round and the win rate is the player's (with more than two partnerships or "
        "players, the mean share of the ones following it).",
        "Every alternative is a sensible way to play: a held wild never keeps a player "
        "from opening, and a player not blocking still discards black threes, as low "
        "cards; advice whose two sides play identically under the rules is not played.",
        "Between the players: for each piece of advice and two players, the first's effect "
        "minus the second's, shuffle by shuffle over the shuffles both played (same rules and "
        "seed), with a t-interval and t-test over the shuffles like every comparison's "
        "(analysis.reports.reach.between); players not on the same shuffles are not "
        "compared, and the page says so.",
        "Holm's correction across every comparison and every difference between players of "
        "the page, all players together (statsmodels multipletests); advice is said to pay "
        "or cost for a player only when its corrected p is under 0.05. How far it holds: "
        "'pays (costs) for every strong player measured' when every player's call is the "
        "same; 'depends on the player' only when two players whose calls differ differ "
        "significantly (corrected p of their difference under 0.05); otherwise what each "
        "player showed ('pays for learned; no measurable difference for tuned') and why the "
        "players are not said to differ. The words are generated from these numbers."]
    for p in players:
        knobs = ", ".join(f"{k} = {v:g}" for k, v in p.knobs.items())
        method.append(f"{p.label}'s tactician knobs (a learned player's: its base policy's): "
                      f"{knobs}.")
    method.append("A learned player turns the knob in its base policy and keeps its model as "
                  "fitted, over the unchanged base (its strategy file says any_base = true): "
                  "its verdicts are those of the shipped player playing the habit, not of a "
                  "player refitted to it. `make refit-check` measures how far refitting moves "
                  "them (docs/answers.md).")
    if out is not None and params.get("card"):
        from analysis.reports.card import write_card
        from analysis.reports.guide_card import FILE, card_of

        write_card(card_of(rows.to_dicts(), players, params["rules"], profile), out, FILE)
        method.insert(0, f"The strategy card of these rules, one printed page: {FILE} (in "
                         "this report's folder).")
    console = (guide_console(headline(rows.to_dicts(), players, profile), rows.to_dicts(),
                             [p.label for p in players], interval_note(rows),
                             players_sources([(p.label, p.why) for p in players]))
               if rows.height else [])
    return Content(
        title=f"Strategy guide: {profile}", question=QUESTION, console=console,
        answer=guide_verdict(rows.to_dicts(), skipped.to_dicts(), players, profile,
                             differences.to_dicts()),
        tables=tables, sections=sections, figures=figs, method=method,
        comparisons=measured)
