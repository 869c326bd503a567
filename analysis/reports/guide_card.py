"""The guide's strategy card: its advice rows sorted into what to do, what to avoid, what
depends on the player, what pays or costs for some players only and what does not matter, each
with one number (analysis.reports.card lays it out on one printed page).

The sections follow the label's kind (``analysis.reports.reach.kind_of``): 'Depends on the
player' holds only advice whose players differ measurably (the paired difference of their
effects, in the page's Holm family). Advice that pays (or costs) for one player and makes no
measurable difference for another, the two not shown to differ, is neither a rule for every
player nor a difference between players: it goes under 'For some players only', each player's
call beside its figure, so the card claims no more than was measured.

The number is the first player's (the strongest measured) points per deal from following the
advice; the other players' figures go beside it, so a line that holds for every player shows
how much it is worth to each. Every word comes from the measured rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from analysis.experiments.pairings import rules_and_profile
from analysis.experiments.players import Player
from analysis.reports.card import Card, CardLine
from analysis.reports.fmt import cap, pts
from analysis.reports.reach import COSTS, DEPENDS, MIXED, PAYS, UNCLEAR, kind_of

FILE = "card.html"


def _line(rows: Sequence[dict], avoid: bool = False, calls: bool = False) -> CardLine:
    """A line in a player's words: what to do, rather than what; the number is what doing it
    is worth a deal to the first player (an 'avoid' line says to play the alternative, so its
    numbers are turned round). With ``calls`` each player's figure carries its call."""
    first = rows[0]
    do, instead = ((first["alternative"], first["advice"]) if avoid else
                   (first["advice"], first["alternative"]))
    sign = -1.0 if avoid else 1.0
    detail = (", " if not calls else "; ").join(
        f"{r['player']} {pts(sign * r['diff_deal'], signed=True)}"
        + (f", {r['verdict']}" if calls else "") for r in rows)
    return CardLine(f"{cap(do)}, rather than {instead}",
                    f"{pts(sign * first['diff_deal'], 0, signed=True)} points a deal",
                    detail if len(rows) > 1 else "")


def card_of(rows: Sequence[dict], players: Sequence[Player], rules_spec: str,
            profile: str) -> Card:
    """The card of a guide from its advice rows (``guide.advice_rows``, with ``holds``)."""
    rules, _ = rules_and_profile(rules_spec)
    items = list(dict.fromkeys(r["item"] for r in rows))
    by = {i: [r for r in rows if r["item"] == i] for i in items}

    def lines(kind: str) -> list[CardLine]:
        chosen = [i for i in items if kind_of(by[i][0]["holds"]) == kind]
        return [_line(by[i], avoid=kind == COSTS, calls=kind == MIXED) for i in chosen]

    names = [p.label for p in players]
    per_player = {r["player"]: r["games"] for r in rows}
    games = max(per_player.values(), default=0)
    fewer = "".join(f" ({p}: {g:,})" for p, g in per_player.items() if g != games)
    seats = max((int(r.get("teams", 2)) for r in rows), default=2)
    footnote = (f"Measured by handfoot with {', '.join(names)}: each piece of advice is the "
                f"player with one habit changed against itself, on the same {games:,} "
                f"shuffles{fewer} played {seats} ways; a line is listed under 'do' or 'avoid' "
                "only when it pays (costs) for every player measured, and under 'depends on "
                "the player' only when two players' effects differ measurably (paired by "
                "shuffle), after Holm's correction over every test. Points a deal: what "
                "playing the line is worth to the first player.")
    return Card(title=f"Strategy card: {profile}", rules=rules_spec, rules_id=rules.rules_id,
                players=names, follow=lines(PAYS), avoid=lines(COSTS),
                depends=lines(DEPENDS),
                no_matter=[f"{cap(by[i][0]['advice'])} or {by[i][0]['alternative']}"
                           for i in items if kind_of(by[i][0]["holds"]) == UNCLEAR],
                footnote=footnote, report_link="index.html", mixed=lines(MIXED))
