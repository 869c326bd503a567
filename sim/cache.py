"""What the compiled cache depends on: each compiled module's key, and the engine build.

numba keys a cached function on its own source file alone (numba issue #1833), yet a kernel
freezes every global it reads when it compiles (a record column, a scalar slot, a card kind, a
refusal code) and links in the code of every compiled function it calls, from other modules.
So a cached kernel goes stale when a module it reads or calls changes, even one that holds no
compiled code of its own. Each compiled module therefore gets a key (``module_key``): a hash
of its own source and of every project module it reaches, import by import. The cache locator
(``sim.cache_locator``) gives numba that key as the source stamp of each of the module's
functions, so a changed key recompiles exactly the modules that reach the change, and nothing
else: editing the CLI, a report or a strategy's error message recompiles nothing, editing one
strategy recompiles that strategy and the loops that call it.

What a key hashes is each file's syntax tree, not its bytes, without docstrings (comments are
not in the tree): numba compiles neither. In a module without compiled code the words of a
``raise`` are left out too, since compiled code cannot read them; every other value is kept.
This module imports no numba: ``engine_build`` and the keys are computed where no compiler is
loaded (rebuilding a report, reading a run).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED_PACKAGES = ("sim", "strategies")

# A file that compiles code: numba's decorators, the strategy-hook decorator
# (sim.engine.hooktypes) and numba's compilers called as functions. Each pattern is written so
# that this file's own text does not match it.
COMPILES = re.compile(rb"[@]njit|[@]hook\b|[@]intrinsic|[@]overload|[@]jitclass|\bnjit[(]"
                      rb"|\bjit[(]")
# ``import sim.x.y`` and ``from sim.x import a, b`` (also parenthesised over several lines).
_IMPORT = re.compile(
    rb"^[ \t]*(?:from[ \t]+((?:sim|strategies)(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n#]*)"
    rb"|import[ \t]+((?:sim|strategies)(?:\.\w+)*))", re.MULTILINE)


def _module_file(root: Path, module: str) -> Path | None:
    base = root.joinpath(*module.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def imported_files(root: Path, source: bytes) -> set[Path]:
    """The project files a source imports: modules, packages, and submodules named in a from."""
    out: set[Path] = set()
    for match in _IMPORT.finditer(source):
        module = (match.group(1) or match.group(3)).decode()
        parts = module.split(".")
        for i in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__
            found = _module_file(root, ".".join(parts[:i]))
            if found is not None:
                out.add(found)
        for name in re.findall(rb"\w+", match.group(2) or b""):
            if name != b"as":
                found = _module_file(root, f"{module}.{name.decode()}")
                if found is not None:
                    out.add(found)
    return out


def compiles(path: Path) -> bool:
    """Whether a source file holds compiled code."""
    return COMPILES.search(path.read_bytes()) is not None


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """Every source file whose values compiled code can read, sorted: the files that compile
    code and, transitively, every project module they import. Files no compiled module reaches
    (the CLI, the runner, analysis) cannot change compiled code."""
    files = {path for package in COMPILED_PACKAGES for path in (root / package).rglob("*.py")}
    seen = {path for path in files if compiles(path)}
    todo = list(seen)
    while todo:
        for found in imported_files(root, todo.pop().read_bytes()):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return sorted(seen)


def _statements(body: list[ast.stmt]):
    """Every statement in a body, nested ones too (expressions are not walked: it is faster,
    and docstrings and raises are statements)."""
    for node in body:
        yield node
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(node, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)
        for handler in getattr(node, "handlers", ()):
            yield from _statements(handler.body)
        for case in getattr(node, "cases", ()):
            yield from _statements(case.body)


def _strip_docstring(body: list[ast.stmt]) -> None:
    if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)):
        body[0] = ast.Pass()


def _blank_words(node: ast.Raise) -> None:
    """Blank the strings of a ``raise``: a message, which compiled code cannot read."""
    for inner in ast.walk(node):
        if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
            inner.value = ""
        elif isinstance(inner, ast.JoinedStr):
            inner.values = []


def meaning(path: Path, compiled: bool) -> bytes:
    """What of a source file the compiled code can depend on: its syntax tree without
    docstrings, and for a file without compiled code also without the words of its raises."""
    tree = ast.parse(path.read_bytes(), filename=str(path))
    _strip_docstring(tree.body)
    for node in _statements(tree.body):
        if isinstance(node, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            _strip_docstring(node.body)
        elif isinstance(node, ast.Raise) and not compiled:
            _blank_words(node)
    return ast.dump(tree).encode()


class _Tree:
    """One tree's files read once: what each imports, and what each means."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.sources = compiled_sources(root)
        self.compiled = {path for path in self.sources if compiles(path)}
        self._imports: dict[Path, set[Path]] = {}
        self._meanings: dict[tuple[Path, bool], bytes] = {}

    def reached(self, start: Path) -> set[Path]:
        seen, todo = {start}, [start]
        while todo:
            path = todo.pop()
            if path not in self._imports:
                self._imports[path] = imported_files(self.root, path.read_bytes())
            for found in self._imports[path]:
                if found not in seen:
                    seen.add(found)
                    todo.append(found)
        return seen

    def digest(self, files: set[Path], compiled: set[Path]) -> str:
        digest = hashlib.sha256()
        for path in sorted(files):
            key = (path, path in compiled)
            if key not in self._meanings:
                self._meanings[key] = hashlib.sha256(meaning(*key)).digest()
            digest.update(path.relative_to(self.root).as_posix().encode())
            digest.update(b"\0")
            digest.update(self._meanings[key])
        return digest.hexdigest()[:16]

    def key(self, path: Path) -> str:
        """A module's key; a file compiled code comes from that the scan does not mark as
        compiling is keyed as compiled code all the same."""
        return self.digest(self.reached(path), self.compiled | {path})


def module_keys(root: Path = ROOT) -> dict[Path, str]:
    """The key of every compiled module: a hash of what it and every project module it
    reaches mean (``meaning``). Two trees whose keys agree for a module compile it alike."""
    tree = _this_tree() if root == ROOT else _Tree(root)
    return {path: tree.key(path) for path in sorted(tree.compiled)}


@functools.cache
def _this_tree() -> _Tree:
    return _Tree(ROOT)


@functools.cache
def module_key(path: str) -> str:
    """The key of the module at ``path`` in this tree (once per process: the code a process
    runs is the code it imported, whatever is edited on disk meanwhile)."""
    return _this_tree().key(Path(path).resolve())


def build_key(root: Path = ROOT) -> str:
    """A short hash of every compiled source's meaning: the engine build a run records, so
    records of two builds are never one experiment."""
    tree = _this_tree() if root == ROOT else _Tree(root)
    return tree.digest(set(tree.sources), tree.compiled)
