"""Who the answers are about: the strong players an answer measures, and each of them with one
tactician knob changed.

An answer measured with one player can be a fact about that player, so guide, ask hold-wild,
sweep and rules-compare measure with the strongest fast players of the rules: by default the
first two of the profile's shipped ladder (``strategies.ladder``: ``learned`` where it beats
``tuned``, then ``tuned``), for a rule file the two players built for it once and reused
(``analysis.experiments.player_build``: a tuned heuristic and a learned player on it);
``--player`` names others. Every answer names its players
and says why each was chosen.

The advice is a tactician knob (hold wilds, wait for a pile ...). A tactician-family player
turns it directly; a ``learned`` (or search) player turns it in its base policy, the heuristic
whose move it keeps unless its model (or its search) finds a better one, so it follows the
advice wherever it does not see a clear gain in leaving it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from analysis.experiments.pairings import PlayError, Side, label_of, side, strategy_file
from sim.core.rules import Rules
from strategies.per_profile import is_per_profile, resolve_spec
from strategies.registry import (
    LEARNED_MODULE,
    POLICY_MODULES,
    SEARCH_MODULES,
    TACTICIAN_MODULE,
    StrategyInfo,
    load,
    with_base_policy,
)

KNOBS = ("hold_wilds", "min_pile", "books_before_partner", "go_out", "black3_block",
         "keep_pairs", "discard_safety")


@dataclass(frozen=True)
class Player:
    """A strong player an answer measures: what the engine loads, what tables call it, why it
    was chosen, and its tactician knobs (a learned or search player's: its base policy's)."""

    spec: str
    label: str
    why: str
    knobs: dict[str, float]
    speed: str = "fast"  # "fast" or "search": a search player plays fewer games

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Player:
        return cls(**d)


def knobs_of(info: StrategyInfo) -> dict[str, float]:
    """The tactician knobs a player plays by: its own, or its base policy's; {} for a player
    with neither (greedy, random)."""
    if info.module == TACTICIAN_MODULE:
        return {k: float(v) for k, v in info.params.items()}
    if info.module in POLICY_MODULES:
        return {k: float(v) for k, v in info.base_params.items()}
    return {}


def checked(spec: str, rules: Rules, allow_oracle: bool, why: str,
            need_knobs: bool = True, option: str = "--player") -> Player:
    """``spec`` as a player under ``rules``: a one-line PlayError for a name or file that is
    not a strategy, an oracle without ``allow_oracle``, or (``need_knobs``) a player without
    the tactician's knobs."""
    info = resolve_spec(spec, rules)
    if info.sees_hidden and not allow_oracle:
        raise PlayError(f"{option} {spec} sees hidden cards, so its answers are not those of a "
                        "fair player; pass --allow-oracle to measure it anyway, as a ceiling")
    knobs = knobs_of(info)
    if need_knobs and not all(k in knobs for k in KNOBS):
        raise PlayError(f"{option} {spec}: the advice turns the tactician's knobs "
                        f"({', '.join(KNOBS)}), which it does not play by; give learned, "
                        "pimc, tuned, cautious, the tactician or a strategy file based on them")
    speed = "search" if info.module in SEARCH_MODULES else "fast"
    return Player(spec, label_of(spec), why, knobs, speed)


def check_player_spec(spec: str) -> None:
    """Refuse a ``--player`` that is no strategy now, before anything is played."""
    if not is_per_profile(spec):
        load(spec)


def knob_side(player: Player, folder: Path, rules: Rules, label: str,
              **knobs: float) -> Side:
    """``player`` with tactician knobs changed, as a comparison side: a tactician-family
    player with its own knobs changed; a learned or search player with its base policy's
    (written in full beside it, so the run pins both)."""
    if not knobs:
        return side(player.spec, folder, label=label, rules=rules)
    info = resolve_spec(player.spec, rules)
    if info.module not in POLICY_MODULES:
        return side(player.spec, folder, label=label, rules=rules, **knobs)
    policy = resolve_spec(info.base_policy, rules)
    stem = label_of(player.spec)
    base_file = strategy_file(policy, folder, f"{stem}-base", f"{label} (base policy)", knobs)
    # A learned player keeps the model fitted over the unchanged base (``any_base``): what
    # that measures is said in the guide's method and docs/answers.md.
    played = dataclasses.replace(info, base_policy=base_file, base_params={},
                                 any_base=info.module == LEARNED_MODULE)
    return Side(label, strategy_file(played, folder, stem, label))


SEARCH = "pimc"


def search_spec(player: Player, rules: Rules, folder: Path) -> str:
    """The search player (``pimc`` at its defaults) on ``player``'s heuristic: its base policy
    (a learned player's) or itself (a tactician-family player). Under a profile whose players
    play ``tuned`` that is plain ``pimc``; for a rule file, pimc with the built heuristic as
    its base policy, written to ``folder`` (plain pimc would look for a tuned file the rules
    do not have)."""
    info = resolve_spec(player.spec, rules)
    base = player.spec if info.module == TACTICIAN_MODULE else info.base_policy
    if info.module not in POLICY_MODULES and info.module != TACTICIAN_MODULE:
        raise PlayError(f"{player.label} has no heuristic for the search player to play on")
    if base == "tuned" or not base:
        return SEARCH
    pimc = with_base_policy(load(SEARCH), base, SEARCH)
    return strategy_file(pimc, folder, SEARCH, f"{SEARCH} on {label_of(base)}")
