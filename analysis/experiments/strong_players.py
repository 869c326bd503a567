"""Choosing the strong players an answer measures (``analysis.experiments.players`` has what a
player is): the ``--player`` given, else the first players of the profile's shipped ladder,
else (a rule file) the players built for the rules once and reused
(``analysis.experiments.player_build``, which plays games: so this module is for the commands,
and a report, which must load no compiled code, imports only ``players``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

from analysis.experiments.pairings import Note, PlayError, rules_and_profile
from analysis.experiments.players import Player, checked
from strategies.ladder import ladder


def choose(rules_spec: str, chosen: Sequence[str], allow_oracle: bool = False,
           runs_dir: Path | None = None, jobs: int = 0, note: Note | None = None,
           count: int = 2, need_knobs: bool = True, build_scale: float = 1.0,
           option: str = "--player") -> list[Player]:
    """The players an answer under ``rules_spec`` measures: ``chosen`` (``--player``, in its
    order) or the first ``count`` of the profile's ladder; for rules without a ladder (a rule
    file), the two players built for them once (or reused: ``player_build.ensure_player``,
    under ``runs_dir``)."""
    rules, profile = rules_and_profile(rules_spec)
    if chosen:
        players = [checked(s, rules, allow_oracle, f"chosen with {option}", need_knobs, option)
                   for s in dict.fromkeys(chosen)]
        labels = [p.label for p in players]
        twice = sorted({label for label in labels if labels.count(label) > 1})
        if twice:
            same = [p.spec for p in players if p.label in twice]
            raise PlayError(f"{option} {' and '.join(same)} would both be called "
                            f"'{twice[0]}' in tables and run folders; rename one file")
        return players
    rungs = ladder(profile)
    if rungs is not None:
        return [checked(name, rules, False, rungs.why(name), need_knobs)
                for name in rungs.players[:count]]
    from analysis.experiments.player_build import ensure_player, scaled

    built = ensure_player(rules_spec, runs_dir or Path("runs"), jobs=jobs, note=note,
                          budget=scaled(build_scale))
    return [dataclasses.replace(checked(str(file), rules, False, why, need_knobs), label=label)
            for file, label, why in built.players()[:count]]
