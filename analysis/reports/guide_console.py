"""What ``handfoot guide`` prints: the verdict in a few lines and one row per piece of advice,
at most ``WIDTH`` columns, so it reads in a terminal of 100 columns; every sentence, interval
and table is in the report (analysis.reports.guide builds both from the same rows)."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from analysis.reports.fmt import pts
from analysis.reports.reach import COSTS, DEPENDS, MIXED, PAYS, UNCLEAR, kind_of

WIDTH = 100
ADVICE_WIDTH = 46  # narrower (not under MIN_ADVICE_WIDTH) to leave room for more players
MIN_ADVICE_WIDTH = 24
CELL_WIDTH = 16  # a player's column: signed points, then the call
CALL_WIDTH = 6  # " pays", " costs", " n.s."
HOLDS_WIDTH = 18
# How far a piece of advice holds, in a column: the report's label says it in full.
SHORT_HOLDS = {PAYS: "pays", COSTS: "costs", UNCLEAR: "no difference",
               DEPENDS: "depends on player", MIXED: "some players only"}
SHORT_CALL = {PAYS: "pays", COSTS: "costs", UNCLEAR: "n.s."}


def guide_console(headline: str, rows: Sequence[dict], players: Sequence[str],
                  note: str, sources: str = "") -> list[str]:
    """The headline wrapped at ``WIDTH``, ``sources`` (where the players came from:
    ``players_sources``), a table of the advice (largest effect first, as ``rows`` come)
    with each player's points per deal and call, and ``note`` (the size of the intervals,
    and where the rest is).
    ``rows`` are ``guide.advice_rows``' dicts (one per piece of advice and player)."""
    cell = max(CELL_WIDTH, *(len(p) + 2 for p in players))
    advice_width = max(MIN_ADVICE_WIDTH,
                       min(ADVICE_WIDTH, WIDTH - 2 - HOLDS_WIDTH - cell * len(players)))
    head = (f"{'advice':<{advice_width}}  {'holds':<{HOLDS_WIDTH}}"
            + "".join(f"{p:>{cell - CALL_WIDTH}}{'':<{CALL_WIDTH}}" for p in players))
    lines = [*textwrap.wrap(headline, WIDTH), *_wrap_whole_words(sources), "", head]
    items = list(dict.fromkeys(r["item"] for r in rows))
    said = [next(r["advice"] for r in rows if r["item"] == i) for i in items]
    for item in items:
        mine = {r["player"]: r for r in rows if r["item"] == item}
        first = next(iter(mine.values()))
        text = first["advice"] + (f" (not: {first['alternative']})"
                                  if said.count(first["advice"]) > 1 else "")
        words = textwrap.wrap(text, advice_width) or [""]
        holds = SHORT_HOLDS[kind_of(first["holds"])]
        cells = "".join(_cell(mine.get(p), cell) for p in players)
        lines.append(f"{words[0]:<{advice_width}}  {holds:<{HOLDS_WIDTH}}{cells}")
        lines += [f"  {w}" for w in words[1:]]
    lines += ["", *textwrap.wrap(
        "Each player's figure: points per deal of following the advice instead of its "
        "alternative, paired on the same shuffles, and its call after Holm's correction "
        f"(n.s.: no measurable difference). {note}", WIDTH)]
    return [line.rstrip() for line in lines]


def players_sources(whys: Sequence[tuple[str, str]]) -> str:
    """One sentence on the players built for a rule file (``player_build.Built.players`` ends
    their why so): whether each was built now (and how long that took) or reused, and from
    where; "" when none was (a shipped ladder's or a chosen player's why is in the report)."""
    parts = []
    for label, why in whys:
        tail = why.rsplit("; ", 1)[-1]
        if tail.startswith(("built now in", "reused from")):
            parts.append(f"{label}, {why.split(': ')[0]}, {tail}")
    return "Players: " + "; ".join(parts) + "." if parts else ""


def _wrap_whole_words(text: str) -> list[str]:
    """``text`` at ``WIDTH`` with paths kept whole (a path longer than a line overflows it
    rather than break where it cannot be copied from)."""
    return textwrap.wrap(text, WIDTH, break_long_words=False, break_on_hyphens=False)


def _cell(row: dict | None, width: int) -> str:
    if row is None:
        return f"{'-':>{width - CALL_WIDTH}}{'':<{CALL_WIDTH}}"
    return (f"{pts(row['diff_deal'], signed=True):>{width - CALL_WIDTH}} "
            f"{SHORT_CALL[row['verdict']]:<{CALL_WIDTH - 1}}")
