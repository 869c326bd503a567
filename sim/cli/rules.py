"""``handfoot rules list`` and ``handfoot rules show NAME|FILE``."""

from __future__ import annotations

from dataclasses import fields

import click

from sim.core.profiles import PROFILES, explain_rules, profile_name
from sim.core.rules import Rules, knob_spec


def _format_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


@click.group(epilog="Examples: handfoot rules list;  handfoot rules show saskatchewan;  "
                    "handfoot rules show my-house.toml")
def rules() -> None:
    """Rule profiles and rule files: list them, show every knob."""


@rules.command("list")
def list_profiles() -> None:
    """One line per named profile, with its sources."""
    width = max(len(name) for name in PROFILES)
    for name, (preset, summary) in PROFILES.items():
        click.echo(f"{name:<{width}}  {preset.rules_id}  {summary}")


@rules.command("show")
@click.argument("spec")
def show(spec: str) -> None:
    """Every knob and its value for a profile NAME or a rule FILE (TOML).

    The output is itself a valid rule file. A knob the file did not name but that follows
    from one it did (the decks of a table whose players changed, R-V1) is said so above it."""
    resolved, notes = explain_rules(spec)
    click.echo(f"# {spec}: profile {profile_name(resolved)}, rules_id {resolved.rules_id}")
    for note in notes:
        click.echo(f"# {note}")
    for f in fields(Rules):
        click.echo(f"{f.name} = {_format_value(getattr(resolved, f.name))}"
                   f"  # {knob_spec(f.name).doc} ({', '.join(knob_spec(f.name).rule_ids)})")
