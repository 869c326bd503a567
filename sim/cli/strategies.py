"""``handfoot strategies list`` and ``handfoot strategies show NAME|FILE``."""

from __future__ import annotations

import click

from sim.cli.options import rules_option
from sim.core.profiles import load_rules
from sim.runs.lineup import PER_PROFILE, is_per_profile, resolve_spec, tuned_profiles
from strategies.registry import REGISTRY, load


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

    The output is itself a valid strategy file."""
    if is_per_profile(spec):
        info = resolve_spec(spec, load_rules(rules_spec))
    else:
        info = load(spec)
    base = info.base
    click.echo(f"# {spec}: {info.summary}")
    click.echo(f'base = "{base}"')
    if not info.parametric:
        click.echo("# (no parameters)")
        return
    for p in info.param_specs:
        value = info.params.get(p.name, 0)
        shown = int(value) if p.integer else value
        click.echo(f"{p.name} = {shown}  # {p.low:g}..{p.high:g}: {p.doc}")
