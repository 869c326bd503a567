"""The strategy guide's advice catalogue and its plan: which tactician knobs are advice under a
rule set, which side each strong player already follows, and the paired comparisons that
measure each piece of advice with each player (``handfoot guide``; the page is built by
``analysis.reports.guide``).

Each piece of tactics advice is one knob of the tactician. It is measured with each strong
player (``analysis.experiments.players``): the player with that one knob changed (A) against
the player itself (B), on the same shuffles in every seating. Where the player already follows
the advice, A plays the alternative; where it follows neither (a player holding one wild, say,
measured on holding two), A follows the advice and B is the player playing the alternative.
An item whose two sides play identically under the rules is skipped, with the reason.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from analysis.experiments.pairings import Pairing, rules_and_profile, slug
from analysis.experiments.players import Player, knob_side
from sim.core.rules import Rules


@dataclass(frozen=True)
class Advice:
    """One piece of advice: the knob, the value that follows it and the value that does not."""

    key: str  # folder-safe, the pairing's value
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
    players: list[Player]
    items: list[Advice]
    skipped: list[Skipped]
    pairings: list[Pairing]
    pairing_players: dict[str, str]  # pairing key -> the player's label

    def params(self, seed: int, games: int) -> dict:
        return {"rules": self.rules, "profile": self.profile,
                "baseline": self.players[0].label,
                "players": [p.to_dict() for p in self.players],
                "pairing_players": self.pairing_players,
                "items": [dataclasses.asdict(i) for i in self.items],
                "skipped": [dataclasses.asdict(s) for s in self.skipped],
                "seed": seed, "games": games}


# --- The advice ---------------------------------------------------------------------------------

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


def plan(rules_spec: str, players: Sequence[Player], folder: Path) -> Plan:
    """Every piece of advice under ``rules_spec`` as one pairing per player: the player with
    the knob changed against the player (or, where it plays neither side, the player on each
    side)."""
    rules, profile = rules_and_profile(rules_spec)
    first = players[0]
    items, skipped = advice_items(first.knobs, rules)
    pairings, owners = [], {}
    for player in players:
        label = player.label
        base_side = knob_side(player, folder, rules, label)
        for item in items:
            way = follows(item, player.knobs)
            changed = item.alternative_value if way == "advice" else item.advice_value
            a = knob_side(player, folder, rules, f"{label} {item.knob}={changed}",
                          **{item.knob: changed})
            if way == "neither":
                alt = item.alternative_value
                b = knob_side(player, folder, rules, f"{label} {item.knob}={alt}",
                              **{item.knob: alt})
            else:
                b = base_side
            key = item.key if len(players) == 1 else f"{slug(label)}--{item.key}"
            owners[key] = label
            pairings.append(Pairing(key=key, a=a, b=b, rules=rules_spec, group=profile,
                                    value=item.key))
    return Plan(rules_spec, profile, list(players), items, skipped, pairings, owners)
