"""Plain-words answers generated from a results table, with their uncertainty stated.

A comparison counts as "better" or "worse" only when its Holm-corrected p-value is under
``ALPHA`` (so the chance of any false call across the whole question stays under 5%), and in
the direction of its mean score difference; everything else is "too close to call". The words
change with the numbers: nothing here is written for a particular outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import polars as pl

from analysis.reports.fmt import pct, pts

ALPHA = 0.05


def call(row: dict) -> str:
    """"better", "worse" or "unclear" for one comparison row (A against the baseline)."""
    p = row.get("p_holm", row["p_value"])
    if p < ALPHA and row["diff_deal"] > 0:
        return "better"
    if p < ALPHA and row["diff_deal"] < 0:
        return "worse"
    return "unclear"


def wilds(value: str) -> str:
    """A hold-wild comparison's value in words."""
    n = int(float(value))
    return f"holding {n} wild{'s' if n != 1 else ''} back"


def _effect(row: dict, what: Callable[[str], str]) -> str:
    even = f"; {pct(row['even'])} is even" if int(row.get("teams") or 2) > 2 else ""
    return (f"{what(row['value'])} wins {pct(row['win_rate'])} of games (95% CI "
            f"{pct(row['win_low'])} to {pct(row['win_high'])}{even}) and scores "
            f"{pts(row['diff_deal'], signed=True)} points per deal (95% CI "
            f"{pts(row['diff_deal_low'], signed=True)} to "
            f"{pts(row['diff_deal_high'], signed=True)})")


def _headline(calls: list[str], groups: list[str], rows: list[dict], subject: str,
              baseline: str, what: Callable[[str], str]) -> str:
    total = len(calls)
    better, worse = calls.count("better"), calls.count("worse")
    sets = f"{len(groups)} rule set{'s' if len(groups) != 1 else ''}"

    def where(kind: str) -> str:
        return "; ".join(f"{what(r['value'])} under {r['group']}"
                         for r, c in zip(rows, calls, strict=True) if c == kind)

    if worse == total:
        return (f"No. {subject.capitalize()} lost points to {baseline} in all {total} "
                f"comparisons, under all {sets} tried.")
    if better == total:
        return (f"Yes. {subject.capitalize()} beat {baseline} in all {total} comparisons, "
                f"under all {sets} tried.")
    if better == 0 and worse > 0:
        rest = total - worse
        others = (f"the other {rest} were too close to call" if worse <= rest else
                  f"the exception{'s' if rest > 1 else ''} ({where('unclear')}) "
                  f"{'were' if rest > 1 else 'was'} too close to call")
        return (f"No. {subject.capitalize()} never measurably helped: it lost points to "
                f"{baseline} in {worse} of {total} comparisons"
                + (f" ({where('worse')})" if worse <= rest else "") + f", and {others}.")
    if worse == 0 and better > 0:
        rest = total - better
        others = (f"the other {rest} were too close to call" if better <= rest else
                  f"the exception{'s' if rest > 1 else ''} ({where('unclear')}) "
                  f"{'were' if rest > 1 else 'was'} too close to call")
        return (f"Yes, in part. {subject.capitalize()} beat {baseline} in {better} of "
                f"{total} comparisons" + (f" ({where('better')})" if better <= rest else "")
                + f" and never measurably hurt; {others}.")
    if better and worse:
        return (f"It depends on the rules. {subject.capitalize()} helped in {better} "
                f"comparisons ({where('better')}) and hurt in {worse} ({where('worse')}).")
    return (f"Cannot tell yet. No comparison of {subject} with {baseline} differs by more "
            "than chance at this number of games.")


def verdict(results: pl.DataFrame, subject: str = "holding wilds back",
            baseline: str = "holding none", what: Callable[[str], str] = wilds,
            players: Mapping[str, str] | None = None, differences: int = 0) -> list[str]:
    """Paragraphs: the answer, one line per rule set, and how sure the answer is.
    ``differences``: how many differences between players share the comparisons' Holm
    family (analysis.reports.reach.one_family), so the family is said as corrected.

    ``results`` has one row per comparison (columns ``group``, ``value``, ``games``,
    ``win_rate``/``win_low``/``win_high``, ``diff_deal``/``_low``/``_high``, ``p_value`` and,
    for a family of comparisons, ``p_holm``); ``players`` names the player asked about under
    each rule set (group)."""
    rows = list(results.iter_rows(named=True))
    calls = [call(r) for r in rows]
    groups = list(dict.fromkeys(r["group"] for r in rows))
    out = [_headline(calls, groups, rows, subject, baseline, what)]
    for group in groups:
        mine = [(r, c) for r, c in zip(rows, calls, strict=True) if r["group"] == group]
        parts = "; ".join(_effect(r, what) for r, _ in mine)
        helped = [r for r, c in mine if c == "better"]
        if helped:
            best = max(helped, key=lambda r: r["diff_deal"])
            tail = f"Best under {group}: {what(best['value'])}."
        elif all(c == "worse" for _, c in mine):
            tail = f"Best under {group}: {baseline}."
        else:
            tail = f"Under {group}, no option is clearly better than {baseline}."
        who = f" ({players[group]})" if players and group in players else ""
        out.append(f"Under {group}{who}, against {baseline}: {parts}. {tail}")
    games = min(r["games"] for r in rows)
    half = max((r["diff_deal_high"] - r["diff_deal_low"]) / 2 for r in rows)
    corrected = "p_holm" in results.columns and len(rows) > 1
    seatings = sorted({int(r.get("teams") or 2) for r in rows})
    if seatings == [2]:
        how = (f"twice, once with each strategy in each seat ({2 * games:,} games)")
    else:
        how = ("once per seating of A: " + ", ".join(
            f"{t} times where there are {t} partnerships or players" for t in seatings)
            + f" ({games * seatings[0]:,} to {games * seatings[-1]:,} games)")
    out.append(
        f"How sure: each comparison played the same {games:,} shuffled games {how}. All "
        "intervals are 95%. "
        + (f"A comparison is called better or worse only when its p-value, corrected for "
           f"the {len(rows)} comparisons{_and_differences(differences)} (Holm), is under "
           f"{ALPHA:g}, so the chance that any call here is a false alarm is under 5%. "
           if corrected else
           f"A comparison is called better or worse only when its p-value is under "
           f"{ALPHA:g}. ")
        + f"Differences smaller than about {pts(half)} points per deal (the widest half-"
        "interval here) cannot be told apart from no difference at this number of games; "
        "more games (--games) narrow every interval in proportion to one over the square "
        "root of the games played.")
    return out


def _and_differences(n: int) -> str:
    """The differences between players in a Holm family, in words ('' for none)."""
    return f" and {n} difference{'s' if n != 1 else ''} between players" if n else ""
