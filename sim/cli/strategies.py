"""``handfoot strategies list`` and ``handfoot strategies show NAME|FILE``."""

from __future__ import annotations

import click

from sim.cli.options import rules_option
from sim.core.profiles import load_rules
from strategies.per_profile import (
    PER_PROFILE,
    SEARCH,
    is_per_profile,
    resolve_base,
    resolve_model,
    resolve_spec,
    tuned_profiles,
)
from strategies.registry import (
    BASE_POLICY_KEY,
    LEARNED_MODULE,
    MODEL_KEY,
    POLICY_MODULES,
    REGISTRY,
    StrategyError,
    StrategyInfo,
    base_policy_lines,
    load,
    policy_choices,
)


@click.group(epilog="Examples: handfoot strategies list;  handfoot strategies show tactician;  "
                    "handfoot strategies show tuned --rules eleven;  "
                    "handfoot strategies show my-strategy.toml")
def strategies() -> None:
    """Strategies and strategy files: list them, show their parameters."""


@strategies.command("list")
def list_strategies() -> None:
    """One line per registered strategy, and the names that resolve per profile (``tuned``:
    the tactician tuned for the rules being played)."""
    width = max(len(name) for name in [*REGISTRY, *PER_PROFILE])
    for name, info in REGISTRY.items():
        click.echo(f"{name:<{width}}  {info.summary}")
    for name, summary in PER_PROFILE.items():
        have = ", ".join(tuned_profiles()) or "none yet"
        click.echo(f"{name:<{width}}  {summary}; profiles: {have}")


@strategies.command("show")
@click.argument("spec")
@rules_option()
def show(spec: str, rules_spec: str) -> None:
    """A strategy NAME or FILE (TOML): its base and every parameter with range and meaning.
    ``--rules`` picks the profile of a name that resolves per profile (``tuned``).

    A search player (pimc, oracle) also shows its base_policy: the strategy whose choice is
    its first candidate, kept unless another is clearly better, and which plays every seat of
    its imagined deals; any tactician-family strategy (tactician, cautious, tuned, or a
    strategy file built on one), set in a strategy file with base_policy = "NAME" or a file
    path (read from the strategy file's folder). The tactician vector it resolves to under
    ``--rules`` is shown too.

    ``pimc`` by name plays its profile's shipped defaults under ``--rules`` (a value model at
    the leaves, strategies/search_defaults.toml), shown with the model file; a strategy file
    with base = "pimc" starts from the registry's parameters (rollouts to the end).

    The output is itself a valid strategy file."""
    if is_per_profile(spec) or spec == SEARCH:
        info = resolve_spec(spec, load_rules(rules_spec))
    else:
        info = load(spec)
    base = info.base
    click.echo(f"# {spec}: {info.summary}")
    click.echo(f'base = "{base}"')
    if info.module in POLICY_MODULES:
        _show_base_policy(info, rules_spec)
    if info.module == LEARNED_MODULE:
        _show_model(info, rules_spec)
    elif info.model:
        click.echo(f'{MODEL_KEY} = "{info.model}"  # the value model that scores the leaves')
    if not info.parametric:
        click.echo("# (no parameters)")
        return
    for p in info.param_specs:
        value = info.params.get(p.name, 0)
        shown = int(value) if p.integer else value
        click.echo(f"{p.name} = {shown}  # {p.low:g}..{p.high:g}: {p.doc}")


def _show_model(info: StrategyInfo, rules_spec: str) -> None:
    """The ``model`` line of a learned player: its file, or the shipped model of the rules'
    profile, and how it was fitted (comments)."""
    from strategies.learned.model_file import read_model

    try:
        resolved = resolve_model(info, load_rules(rules_spec))
    except StrategyError as exc:
        click.echo(f"# {MODEL_KEY} under {rules_spec}: {exc}")
        return
    model = read_model(resolved.model)
    training = model.metadata.get("training", {})
    rounds = model.metadata.get("rounds", [])
    click.echo(f'{MODEL_KEY} = "{resolved.model}"  # {model.kind} {model.target} model for rules '
               f"id {model.rules_id}: {training.get('rows', 0):,} positions of "
               f"{training.get('games', 0):,} games of {training.get('player', '?')}, seed "
               f"{training.get('seed', '?')}" + (f"; expert-iteration rounds: {len(rounds)}"
                                                 if rounds else ""))


def _show_base_policy(info: StrategyInfo, rules_spec: str) -> None:
    """The ``base_policy`` line, and what it plays under ``rules_spec`` (a comment)."""
    line = base_policy_lines(info)[0]
    role = ("the policy whose choice stays unless the model scores another better by 'margin'"
            if info.module == LEARNED_MODULE else
            "the policy the search improves on: the first candidate (baseline = 1) and every "
            "seat of the imagined deals (rollout = 3)")
    click.echo(f"{line}  # {role}; one of: {policy_choices()}")
    try:
        resolved = resolve_base(info, load_rules(rules_spec))
    except StrategyError as exc:
        click.echo(f"# {BASE_POLICY_KEY} under {rules_spec}: {exc}")
        return
    values = ", ".join(f"{name} = {int(v) if float(v).is_integer() else v}"
                       for name, v in resolved.base_params.items())
    click.echo(f"# {BASE_POLICY_KEY} under {rules_spec}: the tactician with {values}")
