"""The compiled cache cannot go stale, and is not thrown away for nothing.

Each compiled module's key (``sim.cache.module_key``, numba's source stamp through
``sim.cache_locator``) changes whenever a file it reaches changes what it means, including
modules that hold only constants: numba freezes the globals a kernel reads and links in the
functions it calls, so a record column moved in a module without compiled code would otherwise
keep cached kernels writing the old layout. And it changes for nothing else: an edit to the CLI,
a docstring or an error message keeps every key, an edit to one strategy changes the keys of
that strategy and of what calls it only. Each test edits a copy of the tree, never the tree; the
last ones compile in it, in a process of their own, and read numba's own cache counters.
"""

from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from sim import cache

ROOT = Path(__file__).resolve().parent.parent
# Modules that hold no compiled code but whose values compiled code freezes.
CONSTANT_MODULES = ["sim/core/records.py", "sim/engine/layout.py", "sim/core/cards.py",
                    "sim/engine/reasons.py", "sim/engine/bytecopy.py"]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    for package in cache.COMPILED_PACKAGES:
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


def _keys(root: Path) -> dict[str, str]:
    return {path.relative_to(root).as_posix(): key
            for path, key in cache.module_keys(root).items()}


def _reaching(root: Path, module: str) -> set[str]:
    """The compiled modules that reach ``module``, import by import (itself included)."""
    tree = cache._Tree(root)
    return {path.relative_to(root).as_posix() for path in tree.compiled
            if root / module in tree.reached(path)}


def test_the_keys_are_the_same_for_the_same_tree(tree):
    assert _keys(tree) == _keys(tree) == _keys(ROOT)
    assert cache.build_key(tree) == cache.build_key(ROOT)


@pytest.mark.parametrize("module", CONSTANT_MODULES)
def test_changing_a_constant_changes_the_key_of_every_module_that_reaches_it(tree, module):
    before, build = _keys(tree), cache.build_key(tree)
    reaching = _reaching(tree, module)
    _change_a_constant(tree / module)
    after = _keys(tree)
    changed = {name for name in before if after[name] != before[name]}
    assert reaching and changed == reaching, f"a changed constant in {module}"
    assert cache.build_key(tree) != build


def test_every_file_that_compiles_has_a_key():
    keyed = set(cache.module_keys(ROOT))
    for package in cache.COMPILED_PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if "@njit" in text or "@hook" in text or "@intrinsic" in text:
                assert path in keyed, path


def test_every_compiled_function_comes_from_a_file_with_a_key():
    """Keys are made per file that compiles: a function numba compiles from a file the scan
    did not mark would be keyed by the wrong rule. Every dispatcher of every module is checked."""
    import importlib
    import inspect

    from numba.core.registry import CPUDispatcher

    keyed = set(cache.module_keys(ROOT))
    for path in keyed:
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        module = importlib.import_module(name)
        for value in vars(module).values():
            for dispatcher in (value, getattr(value, "pointer", None)):
                if isinstance(dispatcher, CPUDispatcher):
                    source = Path(inspect.getfile(dispatcher.py_func)).resolve()
                    assert source in keyed, f"{name}: {dispatcher} compiled from {source}"


def _ast_imports(path: Path) -> set[Path]:
    """The project modules a file imports, by Python's own parser: the reference for the fast
    scan ``sim.cache.compiled_sources`` uses."""
    out = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in names:
            if name.split(".")[0] not in cache.COMPILED_PACKAGES:
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
    sources = set(cache.compiled_sources(ROOT))
    for path in sources:
        missing = _ast_imports(path) - sources
        assert not missing, f"{path} imports {sorted(map(str, missing))}, not in the key"



def test_editing_code_no_compiled_module_reaches_keeps_every_key(tree):
    """The CLI and the reports are outside every key: editing them keeps the warm cache."""
    before, build = _keys(tree), cache.build_key(tree)
    for name in ("sim/cli/main.py", "analysis/reports/kinds.py"):
        path = tree / name
        if not path.exists():  # the tree copies the compiled packages only
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(ROOT / name, path)
        assert path not in set(cache.compiled_sources(tree))
        path.write_text(path.read_text(encoding="utf-8") + "\nX = 1\n", encoding="utf-8")
    assert _keys(tree) == before and cache.build_key(tree) == build


def test_a_changed_message_or_docstring_keeps_every_key_a_changed_value_does_not(tree):
    """``sim/core/rules.py`` holds the rule book's constants and its error messages: compiled
    code reads the first, never the second."""
    before = _keys(tree)
    rules = tree / "sim/core/rules.py"
    text = rules.read_text(encoding="utf-8")
    said = "raise RulesError(f\"rule '{knob}': {reason}\")"
    assert said in text
    rules.write_text(text.replace(said, "raise RulesError(f\"the rule '{knob}' {reason}\")"),
                     encoding="utf-8")
    loop = tree / "sim/play/loop.py"
    loop_text = loop.read_text(encoding="utf-8")
    loop.write_text(loop_text.replace('"""The compiled game loop:', '"""The game loop, compiled:',
                                      1), encoding="utf-8")
    assert loop.read_text(encoding="utf-8") != loop_text
    assert _keys(tree) == before
    _change_a_constant(rules)
    changed = {name for name, key in _keys(tree).items() if key != before[name]}
    assert changed == _reaching(tree, "sim/core/rules.py")


def test_editing_one_strategy_changes_the_keys_of_it_and_what_calls_it_only(tree):
    """The engine, the other heuristics and what never calls the strategy keep their keys."""
    before = _keys(tree)
    strategy = tree / "strategies/greedy.py"
    strategy.write_text(strategy.read_text(encoding="utf-8") + "\n\nSPARE = 1\n",
                        encoding="utf-8")
    changed = {name for name, key in _keys(tree).items() if key != before[name]}
    assert "strategies/greedy.py" in changed and changed == _reaching(tree, "strategies/greedy.py")
    untouched = {"sim/engine/flow.py", "sim/engine/legal.py", "strategies/tactician.py",
                 "strategies/random_play.py"}
    assert not changed & untouched
    assert all(name.startswith(("strategies/", "sim/play/")) for name in changed), changed


# --- Compiling, in a process of its own --------------------------------------------------------

_CALL = """
import json, sys
if sys.argv[1] == "numba-first":
    import numba  # numba imported before sim: handfoot's locator is still the one used
import numpy as np
from sim.engine import rng
rng.mix64(np.uint64(1))
print(json.dumps({"hits": sum(rng.mix64.stats.cache_hits.values()),
                  "misses": sum(rng.mix64.stats.cache_misses.values()),
                  "path": rng.mix64.stats.cache_path}))
"""


def _call(tree: Path, cache_dir: Path, order: str = "sim-first") -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": str(cache_dir)}
    env.pop("NUMBA_CACHE_LOCATOR_CLASSES", None)
    out = subprocess.run([sys.executable, "-c", _CALL, order], cwd=tree, env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    return json.loads(out.stdout)


@pytest.mark.parametrize("order", ["sim-first", "numba-first"])
def test_a_cached_function_is_reused_until_what_it_reads_changes(tree, tmp_path, order):
    """In a user-set NUMBA_CACHE_DIR: compiled once, then loaded after an edit of the CLI, then
    compiled again after a constant it reads changed (``_GOLDEN`` in sim/engine/rng.py)."""
    cache_dir = tmp_path / "numba-cache"
    first = _call(tree, cache_dir, order)
    assert (first["hits"], first["misses"]) == (0, 1)
    assert first["path"].startswith(str(cache_dir))
    cli = tree / "sim/cli/main.py"
    cli.write_text(cli.read_text(encoding="utf-8") + "\nX = 1\n", encoding="utf-8")
    assert _call(tree, cache_dir, order)["hits"] == 1
    source = tree / "sim/engine/rng.py"
    text = source.read_text(encoding="utf-8")
    golden = re.search(r"_GOLDEN = np.uint64\((0x[0-9A-F]+)\)", text)
    assert golden is not None
    source.write_text(text.replace(golden.group(1), hex(int(golden.group(1), 16) ^ 2)),
                      encoding="utf-8")
    again = _call(tree, cache_dir, order)
    assert (again["hits"], again["misses"]) == (0, 1)
