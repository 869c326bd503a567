"""The strategy card: one printed page of what to do under one rule set, for a strong player.

Each line is a piece of advice in a player's words and one number (what following it is
worth); the lines fall into what to do (it pays for every strong player measured), what to
avoid (it costs for every one), what depends on the player (players that differ measurably),
what pays or costs for some players only (the players not shown to differ), and what does not
matter. The card
is the template card.html.j2 (analysis/reports/templates), laid out to print on one A4 or Letter
page, and shown on a screen as a card. Plain Python: building and writing a card loads no
compiled code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from analysis.reports import templating

TEMPLATE = "card.html.j2"


@dataclass(frozen=True)
class CardLine:
    """One piece of advice on the card."""

    advice: str  # in a player's words, e.g. "Hold 2 wilds back until you are on your Foot"
    number: str  # one number, e.g. "+150 points a deal"
    detail: str = ""  # optional short note, e.g. "learned +150, tuned +120"


@dataclass(frozen=True)
class Card:
    """A rule set's strategy card."""

    title: str  # "Strategy card: standard"
    rules: str  # profile name or rule file
    rules_id: str
    players: list[str]  # the strong players measured, e.g. ["learned", "tuned"]
    follow: list[CardLine]  # pays for every strong player measured
    avoid: list[CardLine]  # costs for every strong player measured
    depends: list[CardLine]  # depends on the player
    no_matter: list[str]  # what does not matter (advice in words)
    footnote: str  # how it was measured, one or two sentences
    report_link: str = ""  # relative link to the guide report ("index.html")
    # pays or costs for some players, not others, the players not shown to differ
    mixed: list[CardLine] = field(default_factory=list)


def render_card(card: Card) -> str:
    """The card's page (card.html.j2)."""
    return templating.render(TEMPLATE, title=card.title, card=card)


def write_card(card: Card, folder: Path, file: str = "card.html") -> Path:
    """Write ``card`` as ``folder/file`` (one page that prints on one sheet); its path."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / file
    path.write_text(render_card(card), encoding="utf-8")
    return path
