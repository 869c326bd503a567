"""The one table of report kinds: each kind's name (as its manifest records it), the module
that builds it (imported only when a report of that kind is built) and the command that makes
it.

Every command that writes a report, ``handfoot report NAME`` (rebuilding one from its
manifest) and every help or error text that lists the kinds read this table, so adding a kind
is one module with a ``build(pairs, params, out) -> Content`` plus one entry here.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from analysis.reports.content import Builder, ReportError


@dataclass(frozen=True)
class Kind:
    """One report kind: what its manifest calls it, where its builder is, who makes it."""

    name: str  # the kind a report's manifest records
    module: str  # the module with its ``build``; named after its command
    command: str  # how a reader makes one

    def builder(self) -> Builder:
        """The kind's ``build``, its module imported now (so listing kinds imports none)."""
        return importlib.import_module(self.module).build


KINDS: dict[str, Kind] = {k.name: k for k in (
    Kind("compare", "analysis.reports.compare", "handfoot compare A B --report NAME"),
    Kind("sweep", "analysis.reports.sweep", "handfoot sweep ... --report NAME"),
    Kind("rules-compare", "analysis.reports.rules_compare",
         "handfoot rules-compare ... --report NAME"),
    Kind("hold-wild", "analysis.reports.hold_wild", "handfoot ask hold-wild"),
    Kind("ladder", "analysis.reports.ladder", "handfoot ladder --report NAME"),
    Kind("tune", "analysis.reports.tune", "handfoot tune STRATEGY"),
    Kind("guide", "analysis.reports.guide", "handfoot guide"),
    Kind("learn", "analysis.reports.learn", "handfoot learn --rules R --out FILE"),
)}


def kind(name: str) -> Kind:
    """The kind ``name``; a ``ReportError`` naming the known ones otherwise."""
    try:
        return KINDS[name]
    except KeyError:
        raise ReportError(f"unknown report kind '{name}' (known: {names()})") from None


def names() -> str:
    """Every kind, in the table's order, for texts: ``compare, sweep, ...``."""
    return ", ".join(KINDS)


def commands() -> str:
    """The commands that make reports, for help and error texts."""
    return "; ".join(k.command for k in KINDS.values())
