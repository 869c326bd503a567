"""``handfoot guide``: a strategy guide for one rule set, every piece of advice measured.

Each piece of tactics advice is one knob of the tactician (``strategies show tactician``). It
is measured against the strongest heuristic of the profile, the baseline (``tuned`` where the
profile has a tuned file, else ``cautious``; ``--baseline`` overrides): a paired comparison of
the baseline with that one knob changed (A) against the baseline itself (B), on the same
shuffles in every seating. Where the baseline already follows the advice, A plays the
alternative; where it follows neither (a tuned player holding one wild, say, measured on
holding two), A follows the advice and B is the baseline playing the alternative.

Every effect is reported the same way round: following the advice relative to playing the
alternative (positive points per deal: the advice pays). The win rate shown is that of the
side following the advice: A's when A follows it, otherwise B's (with more than two
partnerships or players, the mean share of the ones following it). The p-values are Holm-
corrected across every piece of advice of the page, and the words of the verdict (pays,
costs, no measurable difference) are generated from those numbers.

Every alternative is a way a sensible player plays: holding a wild never keeps a player from
opening (the tactician holds only once the partnership has opened and made its wild books),
and not blocking with black threes still discards them, in the ordinary order. An item whose
two sides play identically under the rules is not played, and the page says why.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from analysis.experiments.pairings import Pairing, PairRuns, PlayError, rules_and_profile, side
from analysis.reports import plots
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import View, col, many_seats, pct, pts, results_view
from analysis.reports.verdict import ALPHA, call
from sim.core.rules import Rules
from strategies.per_profile import TUNED, resolve_spec, tuned_profiles
from strategies.registry import StrategyInfo

FALLBACK = "cautious"
PAYS, COSTS, UNCLEAR = "pays", "costs", "no measurable difference"
WORDS = {"better": PAYS, "worse": COSTS, "unclear": UNCLEAR}
QUESTION = ("Which pieces of the usual tactics advice make a strong player win more under "
            "these rules, which cost, and which make no measurable difference?")


@dataclass(frozen=True)
class Advice:
    """One piece of advice: the knob, the value that follows it and the value that does not."""

    key: str  # folder-safe, the pairing's key
    knob: str
    advice: str
    alternative: str
    advice_value: int
    alternative_value: int


@dataclass(frozen=True)
class Skipped:
    advice: str
    alternative: str
    knob: str
    reason: str


@dataclass
class Plan:
    rules: str
    profile: str
    baseline: str
    why: str  # why this baseline, in words
    baseline_info: StrategyInfo
    items: list[Advice]
    skipped: list[Skipped]
    pairings: list[Pairing]

    def params(self, seed: int, games: int) -> dict:
        base = self.baseline_info
        return {"rules": self.rules, "profile": self.profile, "baseline": self.baseline,
                "baseline_why": self.why, "baseline_summary": base.summary,
                "baseline_params": {k: float(v) for k, v in base.params.items()},
                "items": [dataclasses.asdict(i) for i in self.items],
                "skipped": [dataclasses.asdict(s) for s in self.skipped],
                "seed": seed, "games": games}


# --- The advice ---------------------------------------------------------------------------------

def default_baseline(profile: str) -> tuple[str, str]:
    """``tuned`` where the profile has a shipped tuned file, else ``cautious``; and why."""
    if profile in tuned_profiles():
        return TUNED, f"the tactician tuned for {profile}, the strongest heuristic for it"
    return FALLBACK, (f"the strongest heuristic available: {profile} has no tuned file"
                      if not profile.startswith("custom") else
                      "the strongest heuristic available: a rule file has no tuned file")


def default_name(rules_spec: str, profile: str) -> str:
    """reports/guide-<profile>/ (a rule file: guide-<its file name>)."""
    return f"guide-{Path(rules_spec).stem if rules_spec.endswith('.toml') else profile}"


def _wilds(n: int) -> str:
    return f"{n} wild{'s' if n != 1 else ''}"


def advice_items(base: dict[str, float], rules: Rules) -> tuple[list[Advice], list[Skipped]]:
    """The pieces of advice for a baseline with knob values ``base`` under ``rules``, and
    those whose two sides would play identically there (with the reason)."""
    b = {k: int(v) for k, v in base.items()}
    items: list[Advice] = []
    skipped: list[Skipped] = []
    for n in sorted({1, 2} | ({b["hold_wilds"]} - {0})):
        items.append(Advice(f"hold{n}", "hold_wilds",
                            f"hold {_wilds(n)} back until on the Foot",
                            "meld every wild at once", n, 0))
    wait = b["min_pile"] if b["min_pile"] > 1 else 6
    pile = Advice("min-pile", "min_pile", "pick up any pile you can",
                  f"wait for a pile of {wait} cards or more", 1, wait)
    if rules.pickup_rule == "exact" and wait <= rules.pickup_size:
        skipped.append(_skip(pile, f"a pile can be taken only when it holds "
                                   f"{rules.pickup_size} cards or more, so waiting for "
                                   f"{wait} changes nothing"))
    else:
        items.append(pile)
    books = Advice("books", "books_before_partner",
                   "leave natural books one short until the partner is on the Foot",
                   "complete books as soon as you can", 0, 1)
    if rules.partnerships == rules.players:
        skipped.append(_skip(books, "individual play: there is no partner to wait for, so "
                                    "both sides complete books as soon as they can"))
    else:
        items.append(books)
    for late in sorted({1, 2} | ({b["go_out"]} - {0})):
        items.append(Advice(f"go-out{late}", "go_out", "go out as soon as you are allowed",
                            "keep scoring: go out only when ahead on the "
                            + ("deal" if late == 1 else "game"), 0, late))
    items.append(Advice("black3", "black3_block", "discard black threes first, to block the pile",
                        "discard black threes in the ordinary order, as a low card", 1, 0))
    items.append(Advice("keep-pairs", "keep_pairs", "keep natural pairs when discarding",
                        "discard by card value, breaking pairs", 1, 0))
    items.append(Advice("discard-safety", "discard_safety",
                        "discard safely: not a rank the next opponent took from the pile",
                        "discard without regard to what the next opponent took", 1, 0))
    return items, skipped


def _skip(item: Advice, reason: str) -> Skipped:
    return Skipped(item.advice, item.alternative, item.knob, reason)


def follows(item: Advice, base: dict[str, float]) -> str:
    """Which side of ``item`` the baseline plays: advice, alternative or neither."""
    value = int(base[item.knob])
    if value == item.advice_value:
        return "advice"
    if value == item.alternative_value:
        return "alternative"
    return "neither"


def baseline_info(spec: str, rules: Rules) -> StrategyInfo:
    """The baseline as it plays under ``rules``; it must have every knob the guide turns."""
    info = resolve_spec(spec, rules)
    names = {p.name for p in info.param_specs}
    needed = ("hold_wilds", "min_pile", "books_before_partner", "go_out", "black3_block",
              "keep_pairs", "discard_safety")
    missing = [k for k in needed if k not in names]
    if missing:
        raise PlayError(f"--baseline {spec}: the guide turns the tactician's knobs "
                        f"({', '.join(missing)}); give the tactician, cautious, tuned or a "
                        "strategy file based on them")
    if info.sees_hidden:
        raise PlayError(f"--baseline {spec} sees hidden cards; it cannot be a baseline")
    return info


def plan(rules_spec: str, baseline: str | None, folder: Path) -> Plan:
    """Every piece of advice under ``rules_spec`` as a pairing against the baseline."""
    rules, profile = rules_and_profile(rules_spec)
    spec, why = (baseline, "chosen with --baseline") if baseline else default_baseline(profile)
    info = baseline_info(spec, rules)
    items, skipped = advice_items(info.params, rules)
    label = Path(spec).stem if spec.endswith(".toml") else spec
    base_side = side(spec, folder, label=label, rules=rules)
    pairings = []
    for item in items:
        way = follows(item, info.params)
        changed = item.alternative_value if way == "advice" else item.advice_value
        a = side(spec, folder, rules=rules, label=f"{label} {item.knob}={changed}",
                 **{item.knob: changed})
        if way == "neither":
            alt = item.alternative_value
            b = side(spec, folder, rules=rules, label=f"{label} {item.knob}={alt}",
                     **{item.knob: alt})
        else:
            b = base_side
        pairings.append(Pairing(key=item.key, a=a, b=b, rules=rules_spec, group=profile,
                                value=item.key))
    return Plan(rules_spec, profile, spec, why, info, items, skipped, pairings)


# --- From the numbers to the page ---------------------------------------------------------------

def advice_rows(results: pl.DataFrame, params: dict) -> pl.DataFrame:
    """The results table turned the advice's way round, one row per piece of advice, sorted
    by the size of its effect on points per deal (largest first)."""
    base = params["baseline_params"]
    items = {i["key"]: Advice(**i) for i in params["items"]}
    rows = []
    for r in results.iter_rows(named=True):
        item = items[r["key"]]
        way = follows(item, base)
        sign = -1.0 if way == "advice" else 1.0  # A plays the alternative where B follows
        teams = int(r.get("teams", 2))
        lo, hi = sorted((_win(r["win_low"], sign, teams), _win(r["win_high"], sign, teams)))
        row = {"advice": item.advice, "alternative": item.alternative, "knob": item.knob,
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
    rows.sort(key=lambda x: -abs(x["diff_deal"]))
    return pl.DataFrame(rows)


def _win(share: float, sign: float, teams: int) -> float:
    """The win share of the side following the advice: A's, or the mean of B's partnerships
    (they share what A does not win)."""
    return share if sign > 0 else (1.0 - share) / (teams - 1)


def _clause(row: dict) -> str:
    return (f"wins {pct(row['win_rate'])} of games (95% CI {pct(row['win_low'])} to "
            f"{pct(row['win_high'])}; even is {pct(row['even'])}) and scores "
            f"{pts(row['diff_deal'], signed=True)} points per deal (95% CI "
            f"{pts(row['diff_deal_low'], signed=True)} to "
            f"{pts(row['diff_deal_high'], signed=True)})")


def _plays(way: str, baseline: str) -> str:
    return {"advice": f"{baseline} follows it", "alternative": f"{baseline} does not follow it",
            "neither": f"{baseline} plays neither side"}[way]


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def guide_verdict(rows: Sequence[dict], skipped: Sequence[dict], baseline: str, profile: str,
                  why: str = "") -> list[str]:
    """Paragraphs, every word chosen by the numbers: the headline, one sentence per piece of
    advice (in the order of ``rows``), what was not measured, and how sure it is. Each row has
    ``advice``, ``alternative``, ``verdict``, ``baseline_plays``, ``games``, ``teams``, the win
    rate and points per deal of following the advice with their intervals, ``p_holm``."""
    if not rows:
        return [f"Nothing to measure under {profile}: every piece of advice plays the same as "
                "its alternative there."]
    groups = {w: [r for r in rows if r["verdict"] == w] for w in (PAYS, COSTS, UNCLEAR)}
    n = len(rows)

    said = [r["advice"] for r in rows]

    def name(r: dict) -> str:  # the advice, and its alternative where the advice repeats
        return r["advice"] + (f" rather than {r['alternative']}"
                              if said.count(r["advice"]) > 1 else "")

    def names(kind: str) -> str:
        return "; ".join(f"{name(r)} ({pts(r['diff_deal'], signed=True)} per deal)"
                         for r in groups[kind])

    counts = (f"{len(groups[PAYS])} of {n} pieces of advice pay, {len(groups[COSTS])} "
              f"cost{'s' if len(groups[COSTS]) == 1 else ''} and {len(groups[UNCLEAR])} "
              f"make{'s' if len(groups[UNCLEAR]) == 1 else ''} no measurable difference")
    against = f"{baseline} ({why})" if why else baseline
    head = [f"Under {profile}, measured against {against}: {counts}."]
    if groups[PAYS]:
        head.append(f"Worth following: {names(PAYS)}.")
    if groups[COSTS]:
        head.append(f"Better not: {names(COSTS)}.")
    if groups[UNCLEAR]:
        head.append(f"Too close to call at this number of games: {names(UNCLEAR)}.")
    out = [" ".join(head)]
    for r in rows:
        word = r["verdict"]
        verb = {PAYS: "pays", COSTS: "costs", UNCLEAR: "makes no measurable difference"}[word]
        line = (f"{_cap(r['advice'])} {verb} ({_plays(r['baseline_plays'], baseline)}): "
                f"against {r['alternative']}, the side following it {_clause(r)}.")
        if word != UNCLEAR and r["baseline_plays"] == ("alternative" if word == PAYS else
                                                       "advice"):
            line += (f" {baseline} would gain by "
                     + ("following it." if word == PAYS else "dropping it."))
        out.append(line)
    if skipped:
        out.append("Not measured under " + profile + ": " + "; ".join(
            f"{s['advice']} against {s['alternative']} ({s['reason']})" for s in skipped) + ".")
    games = min(r["games"] for r in rows)
    seats = max(int(r.get("teams", 2)) for r in rows)
    half = max((r["diff_deal_high"] - r["diff_deal_low"]) / 2 for r in rows)
    where = "partnership" if seats == 2 else "partnership or seat"
    out.append(
        f"How sure: each piece of advice was a paired comparison of {baseline} with one knob "
        f"changed against {baseline}, on the same {games:,} shuffled games played "
        f"{'twice' if seats == 2 else f'{seats} times'}, once with the changed player in each "
        f"{where} ({seats * games:,} games). All intervals are 95%. A piece of advice is said "
        f"to pay or cost only when its p-value, corrected for the {n} comparisons (Holm), is "
        f"under {ALPHA:g}, so the chance that any of these calls is a false alarm is under "
        f"5%. Effects smaller than about {pts(half)} points per deal (the widest half-"
        "interval here) cannot be told apart from no difference at this number of games; "
        "more games (--games) narrow every interval in proportion to one over the square root "
        "of the games played.")
    return out


def advice_plot(rows: pl.DataFrame, out: Path, name: str = "guide.png") -> str:
    """Win rate of the side following each piece of advice and its points per deal over the
    alternative, 95% intervals, largest effect on top."""
    import textwrap

    import matplotlib.pyplot as plt
    import numpy as np

    data = list(rows.iter_rows(named=True))
    n = len(data)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 1.4 + 0.62 * n), sharey=True,
                                      gridspec_kw={"width_ratios": (1, 1)})
    y = np.arange(n)[::-1]
    for ax, (mid, lo, hi, scale, title) in zip((left, right), (
            ("win_rate", "win_low", "win_high", 100, "win rate following the advice, %"),
            ("diff_deal", "diff_deal_low", "diff_deal_high", 1,
             "advice - alternative, points per deal")), strict=True):
        m = np.array([r[mid] for r in data]) * scale
        err = np.array([[r[mid] - r[lo], r[hi] - r[mid]] for r in data]).T * scale
        colours = ["tab:green" if r["verdict"] == PAYS else "tab:red" if r["verdict"] == COSTS
                   else "tab:grey" for r in data]
        for i in range(n):
            ax.errorbar(m[i], y[i], xerr=err[:, i:i + 1], fmt="o", color=colours[i],
                        capsize=3)
        ref = sorted({r["even"] for r in data}) if scale == 100 else [0.0]
        for x in ref:
            ax.axvline(x * scale, color="grey", lw=1, ls="--")
        ax.set_title(title + " (95% CI)", fontsize=10)
        ax.grid(axis="x", alpha=0.3)
    labels = [textwrap.fill(f"{r['advice']} (not: {r['alternative']})", 48) for r in data]
    left.set_yticks(y, labels, fontsize=8)
    fig.tight_layout()
    fig.savefig(out / name, dpi=plots.DPI)
    plt.close(fig)
    return name


def guide_view(ranks: bool) -> View:
    cols = [col("advice", "text", "advice"), col("instead of", "text", "alternative"),
            col("baseline plays", "text", "baseline_plays"),
            col("advice wins (95% CI)", "pct_ci", "win_rate", "win_low", "win_high")]
    if ranks:
        cols.append(col("even", "pct", "even"))
    cols += [col("points per deal (95% CI)", "pts_ci", "diff_deal", "diff_deal_low",
                 "diff_deal_high"),
             col("p (Holm)", "p", "p_holm"), col("verdict", "text", "verdict")]
    return View("guide.csv", tuple(cols))


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """Every piece of advice the advice's way round, largest effect first, with a verdict
    in words."""
    measured = Comparisons.read(pairs, holm=True)
    results = measured.results
    rows = advice_rows(results, params)
    baseline, profile = params["baseline"], params["profile"]
    skipped = pl.DataFrame(params["skipped"],
                           schema={k: pl.String for k in ("advice", "alternative", "knob",
                                                          "reason")})
    ranks = many_seats(results)
    figs = []
    if out is not None:
        figs.append(Figure(advice_plot(rows, out),
                           f"Each piece of advice against {baseline}",
                           "Win rate of the side following the advice and its points per deal "
                           "relative to the alternative, largest effect first; bars are 95% "
                           "intervals (uncorrected; the verdict uses Holm-corrected p-values). "
                           "Right of the dashed line the advice pays; green: it pays, red: it "
                           "costs, grey: no measurable difference (Holm)."))
    sections = [Section(f"The advice under {profile}, against {baseline}, largest effect "
                        "first", guide_view(ranks),
                        note="Effects are those of following the advice relative to playing "
                             "the alternative; 'baseline plays' says which side the baseline "
                             "takes. p (Holm): corrected for every piece of advice on the "
                             "page.")]
    if len(skipped):
        sections.append(Section("Not measured", View("skipped.csv", (
            col("advice", "text", "advice"), col("instead of", "text", "alternative"),
            col("knob", "text", "knob"), col("why", "text", "reason")))))
    sections += [
        Section("Each comparison as played (A: the baseline with one knob changed)",
                results_view(True, (col("advice", "text", "value"),), ranks=ranks),
                note="A against B as played; the advice table above turns these round where "
                     "A plays the alternative.", in_summary=False)]
    tables = {"guide.csv": rows}
    if len(skipped):
        tables["skipped.csv"] = skipped
    knobs = ", ".join(f"{k} = {v:g}" for k, v in params["baseline_params"].items())
    return Content(
        title=f"Strategy guide: {profile}", question=QUESTION,
        answer=guide_verdict(list(rows.iter_rows(named=True)),
                             list(skipped.iter_rows(named=True)), baseline, profile,
                             params.get("baseline_why", "")),
        tables=tables, sections=sections, figures=figs,
        method=[
            f"Baseline: {baseline} ({params['baseline_summary']}), the strongest heuristic "
            f"available for {profile} (tuned where the profile has a tuned file, else "
            f"cautious, unless --baseline names another); its knobs: {knobs}.",
            "Each piece of advice is one knob of the tactician (strategies show tactician): "
            "the baseline with that knob changed (A) against the baseline (B); every other "
            "knob as the baseline plays it.",
            "Sign convention: every effect is that of following the advice relative to "
            "playing the alternative, so a positive number means the advice pays. Where the "
            "baseline follows the advice (A plays the alternative) the points are turned "
            "round and the win rate is the baseline's (with more than two partnerships or "
            "players, the mean share of the ones following it).",
            "Every alternative is a sensible way to play: a held wild never keeps a player "
            "from opening, and a player not blocking still discards black threes, as low "
            "cards; advice whose two sides play identically under the rules is not played.",
            "Holm's correction across all pieces of advice of the page (statsmodels "
            "multipletests); advice is said to pay or cost only when its corrected p is under "
            "0.05, and the verdict's words are generated from these numbers."],
        comparisons=measured)
