"""Named rule profiles (docs/rules.md sections 12-13) and rule files (TOML with ``base = NAME``)."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

from sim.core.rules import Rules, RulesError, replace
from sim.core.tomlfile import read_toml

STANDARD = Rules()

_SIMPSON = replace(
    STANDARD,
    partnerships=4, decks=5, hand_size=11, foot_size=11, pickup_rule="exact", pickup_size=7,
    wild_top_pickup=False, wild_ratio="more", books="grow", wild_melds=False,
    red3_rule="discard", red3_bonus=0, red3_penalty=500, clean_book_bonus=300,
    dirty_book_bonus=100, wild_book_bonus=0, out_clean_books=(1, 1, 1, 1),
    out_dirty_books=(1, 1, 1, 1), out_wild_books=(0, 0, 0, 0), final_discard_required=True,
    starting_card="none",
)
_BROUILLETTE = replace(
    _SIMPSON, clean_book_bonus=500, dirty_book_bonus=300, out_clean_books=(1, 1, 1, 2),
    out_dirty_books=(1, 1, 1, 2), final_discard_required=False, wild_discard="freeze",
    black3_melds=True,
)

PROFILES: dict[str, tuple[Rules, str]] = {
    "standard": (STANDARD, "sections 1-10: 5 decks, 13/13, top 7, books 500/300/1500 "
                           "[000, 001, 003, 004]"),
    "eleven": (replace(
        STANDARD, decks=4, hand_size=11, foot_size=11, pickup_size=5, wild_melds=False,
        max_wilds_per_meld=2, books="naturals", wild_book_bonus=0, red3_rule="discard",
        red3_bonus=0, red3_penalty=300, out_wild_books=(0, 0, 0, 0)),
        "simpler house game: 4 decks, 11/11, top 5, no wild melds, growing-by-naturals books, "
        "red threes discarded (-300) [002]"),
    "saskatchewan": (replace(
        STANDARD, hand_size=11, foot_size=13, wild_ratio="more", books="grow",
        deal4_concealed_book=True, pickup_rule="whole", out_clean_books=(1, 1, 1, 1),
        out_dirty_books=(1, 1, 1, 1), out_wild_books=(1, 1, 1, 1)),
        "11/13, naturals > wilds, growing books, whole pile, concealed book in deal 4, "
        "out with 1+1+1 [000]"),
    "simpson": (_SIMPSON, "individual, 11/11, exactly 7 from 7+, growing books, no wild melds, "
                          "red threes -500, books 300/100, final discard [000]"),
    "brouillette": (_BROUILLETTE, "simpson with books 500/300, 2+2 in deal 4, frozen pile, "
                                  "black-three melds [000]"),
    "brouillette-partners": (replace(
        _BROUILLETTE, partnerships=2, out_clean_books=(2, 2, 2, 4),
        out_dirty_books=(2, 2, 2, 4), partner_foot_required=False),
        "brouillette in partnerships: 2+2 in deals 1-3, 4+4 in deal 4 [000]"),
}


# R-V1: how many decks each profile's rule book deals for a table of ``players``. A rule file
# that changes ``players`` without naming ``decks`` gets its base profile's rule, so a
# 6-player standard file deals 7 decks instead of the 4-player count left over from the base.
DECK_RULES: dict[str, tuple[int, int, str]] = {  # profile -> (decks per player, extra, words)
    "standard": (1, 1, "players + 1"),
    "saskatchewan": (1, 1, "players + 1"),
    "simpson": (1, 1, "players + 1"),
    "brouillette": (1, 1, "players + 1"),
    "brouillette-partners": (1, 1, "players + 1"),
    "eleven": (1, 0, "one per player"),
}


def profile_decks(profile: str, players: int) -> int:
    """Decks the profile deals for ``players`` (R-V1)."""
    per_player, extra, _ = DECK_RULES[profile]
    return per_player * players + extra


def get_profile(name: str) -> Rules:
    if name not in PROFILES:
        known = ", ".join(PROFILES)
        raise RulesError(f"unknown rule profile '{name}' (known: {known})")
    return PROFILES[name][0]


def profile_name(rules: Rules) -> str:
    """The profile a rule set equals, or 'custom'."""
    for name, (preset, _) in PROFILES.items():
        if preset == rules:
            return name
    return "custom"


def _coerce(name: str, value, default):
    """TOML lists become tuples; an integer given for a per-deal knob applies to every deal."""
    if isinstance(default, tuple):
        if isinstance(value, int) and not isinstance(value, bool):
            return (value,) * len(default)
        if isinstance(value, list):
            return tuple(value)
    return value


def rules_from_mapping(data: dict, origin: str) -> Rules:
    return explained_rules_from_mapping(data, origin)[0]


def explained_rules_from_mapping(data: dict, origin: str) -> tuple[Rules, list[str]]:
    """The rule set of a rule file's table, and a note for every knob the file did not name
    but that follows from one it did (the decks of R-V1)."""
    data = dict(data)
    base_name = data.pop("base", "standard")
    if not isinstance(base_name, str):
        raise RulesError(f"{origin}: 'base' must be a profile name")
    base = get_profile(base_name)
    known = {f.name: f for f in fields(Rules)}
    changes = {}
    for key, value in data.items():
        if key not in known:
            raise RulesError(f"rule '{key}': unknown knob in {origin} (see 'handfoot rules "
                             f"show standard')")
        changes[key] = _coerce(key, value, known[key].default)
    notes = []
    players = changes.get("players")
    if (players is not None and "decks" not in changes and base_name in DECK_RULES
            and isinstance(players, int) and not isinstance(players, bool)
            and players != base.players):
        changes["decks"] = profile_decks(base_name, players)
        notes.append(f"decks = {changes['decks']}: {DECK_RULES[base_name][2]} for "
                     f"{players} players, the {base_name} deck rule (R-V1), because the file "
                     "changes players without naming decks")
    return replace(base, **changes), notes


def load_rules(spec: str) -> Rules:
    """A profile name, or a TOML rule file that may say ``base = "saskatchewan"``."""
    return explain_rules(spec)[0]


def explain_rules(spec: str) -> tuple[Rules, list[str]]:
    """``load_rules`` and the notes of ``explained_rules_from_mapping`` (for ``rules show``)."""
    if spec in PROFILES:
        return PROFILES[spec][0], []
    path = Path(spec)
    if spec.endswith(".toml") or path.exists():
        return explained_rules_from_mapping(read_toml(spec, "rule file", RulesError), spec)
    return get_profile(spec), []


def rules_from_knobs(knobs: dict) -> Rules:
    """Rebuild a ``Rules`` from its ``to_dict()`` form without naming any field here.

    JSON turns tuples into lists, so lists become tuples again; knobs this version does not
    know are an error rather than silently dropped.
    """
    known = {f.name for f in fields(Rules)}
    unknown = sorted(set(knobs) - known)
    if unknown:
        raise RulesError(f"unknown rule knob(s) {', '.join(unknown)}")

    def tuples(value):
        return tuple(tuples(v) for v in value) if isinstance(value, list) else value

    return Rules(**{name: tuples(value) for name, value in knobs.items()})
