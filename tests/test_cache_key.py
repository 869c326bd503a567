"""The compiled cache cannot go stale: its key (``sim.cache_key``) changes whenever a file that
compiled code reads changes, including modules that hold only constants.

numba freezes the globals a kernel reads when it compiles, so a record column or a scalar slot
moved in a module without compiled code would, with a key over the compiled files alone, keep
the cached kernels writing the old layout. Each test edits a copy of the tree, never the tree.
"""

from __future__ import annotations

import ast
import re
import shutil
from pathlib import Path

import pytest

import sim

ROOT = Path(__file__).resolve().parent.parent

# Modules that hold no compiled code but whose values compiled code freezes.
CONSTANT_MODULES = ["sim/core/records.py", "sim/engine/layout.py", "sim/core/cards.py",
                    "sim/engine/reasons.py", "sim/engine/bytecopy.py"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for package in sim.COMPILED_PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def _change_a_constant(path: Path) -> None:
    """Change the first integer a module-level ``NAME = ...`` line assigns (or, for a module of
    functions only, a number inside its first function): the edit a layout change makes."""
    text = path.read_text(encoding="utf-8")
    match = re.search(r"^([A-Z_][A-Z0-9_]* = [^\n]*?)(\d+)", text, re.MULTILINE)
    if match is None:
        match = re.search(r"^(def [^\n]*\n(?:[^\n]*\n)*?[^\n]*?)(\d+)", text, re.MULTILINE)
    assert match is not None, f"no number to change in {path}"
    number = int(match.group(2))
    edited = text[:match.start(2)] + str(number + 1) + text[match.end(2):]
    path.write_text(edited, encoding="utf-8")


def test_the_key_is_the_same_for_the_same_tree(tree):
    assert sim.cache_key(tree) == sim.cache_key(tree) == sim.cache_key(ROOT)


@pytest.mark.parametrize("module", CONSTANT_MODULES)
def test_changing_a_constant_changes_the_key(tree, module):
    before = sim.cache_key(tree)
    _change_a_constant(tree / module)
    assert sim.cache_key(tree) != before, f"a changed constant in {module} kept the cache key"


def test_every_file_that_compiles_is_in_the_key():
    sources = set(sim.compiled_sources(ROOT))
    for package in sim.COMPILED_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "@njit" in text or "@hook" in text or "@intrinsic" in text:
                assert path in sources, path


def _ast_imports(path: Path) -> set[Path]:
    """The project modules a file imports, by Python's own parser: the reference for the fast
    scan ``sim.compiled_sources`` uses."""
    out = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.split(".")[0] not in sim.COMPILED_PACKAGES:
                continue
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                base = ROOT.joinpath(*parts[:i])
                for candidate in (base.with_suffix(".py"), base / "__init__.py"):
                    if candidate.is_file():
                        out.add(candidate)
    return out


def test_the_key_follows_every_import_of_compiled_code():
    """The fast scan misses no import form: the closure by the real parser is the same set."""
    sources = set(sim.compiled_sources(ROOT))
    for path in sources:
        missing = _ast_imports(path) - sources
        assert not missing, f"{path} imports {sorted(map(str, missing))}, not in the key"


def test_editing_code_no_compiled_module_reaches_keeps_the_key(tree):
    """The CLI is outside the key, so editing it keeps the warm cache (and the check above
    can tell the two kinds of file apart)."""
    cli = tree / "sim/cli/main.py"
    assert cli not in set(sim.compiled_sources(tree))
    before = sim.cache_key(tree)
    cli.write_text(cli.read_text(encoding="utf-8") + "\nX = 1\n", encoding="utf-8")
    assert sim.cache_key(tree) == before
