"""The pairings of a comparison, as plain data: A against B under one rule set, and the run
folders of its seatings.

Every report names its pairings in its manifest, so rebuilding a report reads them back from
here without loading the engine (analysis.experiments.playing plays them). Strategies with
parameters are written out in full as TOML files named by a hash of their content
(``<runs>/<name>/strategies/``), so a run's manifest pins every parameter and an edited
strategy can never be mistaken for the one a run was made with. A name that resolves per rule
set (``tuned``) stays a name; the run's manifest records what it resolved to.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from sim.core.profiles import load_rules, profile_name
from sim.core.rules import Rules
from sim.runs.storage import RunError
from strategies.per_profile import SEARCH, is_per_profile, resolve_played, resolve_spec
from strategies.registry import StrategyInfo, base_policy_lines, load, model_lines

STRATEGY_DIR = "strategies"
Note = Callable[[str], None]


class PlayError(RunError):
    """A run folder that is in the way of the runs a command needs."""


@dataclass(frozen=True)
class Side:
    """One strategy in a comparison: what readers see and what the engine loads."""

    label: str
    spec: str


@dataclass(frozen=True)
class Pairing:
    """A against B under one rule set; ``group`` and ``value`` place it in tables and plots."""

    key: str  # folder-safe: the runs are <key>-ab and <key>-ba
    a: Side
    b: Side
    rules: str  # profile name or rule file
    group: str  # rows and panels are grouped by this (the profile)
    value: str = ""  # the swept parameter value, if any

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> Pairing:
        return cls(key=d["key"], a=Side(**d["a"]), b=Side(**d["b"]), rules=d["rules"],
                   group=d["group"], value=d.get("value", ""))


@dataclass(frozen=True)
class PairRuns:
    """The runs of a pairing, one per seating: ``runs[r]`` has A as partnership r."""

    pairing: Pairing
    runs: tuple[Path, ...]

    @property
    def ab(self) -> Path:
        return self.runs[0]

    @property
    def ba(self) -> Path:
        return self.runs[1]

    @property
    def seatings(self) -> int:
        return len(self.runs)


def seating_name(seat: int, teams: int) -> str:
    """The suffix of seating ``seat``'s run folder: ab/ba for two partnerships, a0, a1 ...
    otherwise."""
    if teams == 2:
        return ("ab", "ba")[seat]
    return f"a{seat}"


# --- Strategies ---------------------------------------------------------------------------------

def label_of(spec: str) -> str:
    """A strategy's name in tables and folders: a name as it is, a file by its stem."""
    return Path(spec).stem if spec.endswith(".toml") else spec


def side(spec: str, folder: Path, label: str | None = None, rules: Rules | None = None,
         allow_oracle: bool = False, **params: float) -> Side:
    """A strategy by name or file, optionally with parameters changed.

    Non-parametric registered strategies stay names; parametric ones (and every file) are
    written in full to ``folder`` so runs pin every parameter. A per-profile name (``tuned``)
    stays a name unless parameters are changed, which needs ``rules`` to resolve it first (so
    does ``pimc``, whose defaults are its profile's: strategies/search_defaults.toml); with
    ``rules`` a search player's base policy is checked against them here, so a missing one is
    refused under the name given. A strategy that sees hidden cards (``oracle``) is refused
    unless ``allow_oracle``: it is a ceiling for measurement, and a comparison with it would
    not be a fair game.
    """
    if is_per_profile(spec) or spec == SEARCH:
        if not params:
            return Side(label or spec, spec)
        if rules is None:
            raise PlayError(f"strategy '{spec}' resolves per rule set; give it parameters "
                            "only where the rules are known")
        info = resolve_spec(spec, rules)
    else:
        info = load(spec)
        if rules is not None:
            resolve_played(info, rules)  # its base policy and model must exist under the rules
    if info.sees_hidden and not allow_oracle:
        raise PlayError(f"strategy '{spec}' sees hidden cards, so a comparison with it is "
                        "not a fair game; pass --allow-oracle to measure against it anyway")
    if params and not info.parametric:
        raise PlayError(f"strategy '{spec}' takes no parameters")
    specs = {p.name: p for p in info.param_specs}
    for name in params:
        if name not in specs:
            known = ", ".join(specs)
            raise PlayError(f"unknown parameter '{name}' (known: {known})")
    stem = label_of(spec)
    shown = label or (stem + "".join(f" {k}={_num(v)}" for k, v in params.items()))
    if not info.parametric:
        if spec.endswith(".toml"):
            raise PlayError(f"strategy file {spec}: only parametric strategies can be files")
        return Side(shown, spec)
    return Side(shown, strategy_file(info, folder, stem, shown, params))


def strategy_file(info: StrategyInfo, folder: Path, stem: str, shown: str,
                  params: dict | None = None) -> str:
    """Write ``info`` with ``params`` changed in full to ``folder`` (named by a hash of its
    content) and return its path."""
    values = {**info.params, **(params or {})}
    lines = [f'base = "{info.base}"', *base_policy_lines(info), *model_lines(info)] + \
        [f"{p.name} = {_num(values.get(p.name, 0))}" for p in info.param_specs]
    text = "\n".join(lines) + "\n"
    digest = hashlib.sha256(text.encode()).hexdigest()[:10]
    folder.mkdir(parents=True, exist_ok=True)
    path = (folder / f"{stem}-{digest}.toml").resolve()
    if not path.exists():
        path.write_text(f"# {shown}: written by handfoot for a comparison\n{text}",
                        encoding="utf-8")
    load(str(path))  # the file must load as what it says
    return str(path)


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else repr(float(value))


# --- Rules -------------------------------------------------------------------------------------

def rules_and_profile(rules_spec: str) -> tuple[Rules, str]:
    """The rules of a profile name or rule file, and the name tables show for them (a rule
    file that matches no profile: ``custom (<file>)``)."""
    rules = load_rules(rules_spec)
    name = profile_name(rules)
    return rules, name if name != "custom" else f"custom ({rules_spec})"


def seatings(pairing: Pairing) -> int:
    """How many seatings the pairing's rules need: one per partnership (or player)."""
    return load_rules(pairing.rules).partnerships


def slug(text: str) -> str:
    """``text`` as a folder-safe key: every character but letters, digits, - and _ is -."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text).strip("-")
