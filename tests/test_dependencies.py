"""No dead dependency: every package pyproject.toml declares for users is imported by the
package's code, or used through a named call of another (pandas and pyarrow: polars'
``to_pandas`` in ``Run.to_pandas``)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("sim", "strategies", "analysis")
# declared name -> import name, where they differ
IMPORT_NAME = {"scikit-learn": "sklearn"}
# used without an import statement of their own: the call that needs them
INDIRECT = {"pandas": "to_pandas(", "pyarrow": "to_pandas("}


def declared() -> list[str]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return [re.split(r"[<>=\[ ;]", spec, maxsplit=1)[0].lower()
            for spec in data["project"]["dependencies"]]


def imported() -> set[str]:
    names = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names |= {alias.name.split(".")[0] for alias in node.names}
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names.add(node.module.split(".")[0])
    return names


def source_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for package in PACKAGES
                     for path in (ROOT / package).rglob("*.py"))


def unused(deps: list[str], names: set[str], text: str) -> list[str]:
    return [dep for dep in deps if IMPORT_NAME.get(dep, dep) not in names
            and not (dep in INDIRECT and INDIRECT[dep] in text)]


def test_every_declared_dependency_is_used():
    dead = unused(declared(), imported(), source_text())
    assert dead == [], f"declared but never used: {dead}"


def test_the_check_catches_a_dead_dependency():
    """psutil was declared and never imported; pandas without its call would be dead too."""
    names, text = imported(), source_text()
    assert unused(["psutil", "numpy"], names, text) == ["psutil"]
    assert unused(["pandas"], names, text.replace("to_pandas(", "")) == ["pandas"]
