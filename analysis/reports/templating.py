"""Loading and rendering the report pages' Jinja2 templates (analysis/reports/templates).

Every page a report writes (a report's index.html, the value model's page, the strategy card)
is one template there, rendered here: HTML is written in the templates only, never built from
strings in Python. Every value is escaped on its way into a page (autoescape), and a name a
template uses that its caller did not pass is an error, not an empty string (StrictUndefined).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

TEMPLATES = Path(__file__).resolve().parent / "templates"
FALLBACK = "report.html.j2"


@cache
def environment() -> Environment:
    """The one template environment (built once)."""
    return Environment(loader=FileSystemLoader(TEMPLATES), autoescape=True,
                       undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True,
                       keep_trailing_newline=True)


def page_template(kind: str) -> str:
    """The template of a report of ``kind``: its own (``KIND.html.j2``) where there is one,
    the plain report page otherwise."""
    own = f"{kind}.html.j2"
    return own if kind and (TEMPLATES / own).is_file() else FALLBACK


def render(template: str, **context) -> str:
    """The page ``template`` renders from ``context``."""
    return environment().get_template(template).render(**context)
