"""``handfoot strategies list`` and ``handfoot strategies show NAME|FILE``."""

from __future__ import annotations

import click

from strategies.registry import REGISTRY, load


@click.group(epilog="Examples: handfoot strategies list;  handfoot strategies show tactician;  "
                    "handfoot strategies show my-strategy.toml")
def strategies() -> None:
    """Strategies and strategy files: list them, show their parameters."""


@strategies.command("list")
def list_strategies() -> None:
    """One line per registered strategy."""
    width = max(len(name) for name in REGISTRY)
    for name, info in REGISTRY.items():
        click.echo(f"{name:<{width}}  {info.summary}")


@strategies.command("show")
@click.argument("spec")
def show(spec: str) -> None:
    """A strategy NAME or FILE (TOML): its base and every parameter with range and meaning.

    The output is itself a valid strategy file."""
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
