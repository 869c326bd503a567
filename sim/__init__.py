"""handfoot's engine: a numba-compiled Hand and Foot game loop over card-count arrays.

numba's on-disk cache is not invalidated when a jitted function reads a global of another
module that changed (numba issue #1833): a compiled kernel freezes every constant it reads, such
as a record column (``sim.core.records``), a scalar slot (``sim.engine.layout``) or a card kind
(``sim.core.cards``), even from modules that hold no compiled code of their own. A stale cache
would then silently write old columns or play old rules. We therefore key ``NUMBA_CACHE_DIR`` on
a hash of every source file compiled code can read (``compiled_sources``), unless the user set
it. This must happen before numba is first imported.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent
COMPILED_PACKAGES = ("sim", "strategies")

# A file that compiles code: numba decorators, the strategy-hook decorator (sim.engine.hooktypes)
# and numba called as a function (``njit(...)(func)``).
_COMPILES = re.compile(rb"@njit|@hook\b|@intrinsic|@overload|@jitclass|\bnjit\(|\bjit\(")
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


def _imported_files(root: Path, source: bytes) -> set[Path]:
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


def compiled_sources(root: Path = _ROOT) -> list[Path]:
    """Every source file whose values compiled code can read, sorted.

    These are the files that compile code and, transitively, every project module they import:
    a jitted function resolves its globals in its own module, and those globals come from the
    module's imports. Files no compiled module reaches (the CLI, the runner, analysis) cannot
    change compiled code, so editing them keeps the cache.
    """
    files = {path for package in COMPILED_PACKAGES for path in (root / package).rglob("*.py")}
    todo = [path for path in files if _COMPILES.search(path.read_bytes())]
    seen = set(todo)
    while todo:
        for found in _imported_files(root, todo.pop().read_bytes()):
            if found not in seen:
                seen.add(found)
                todo.append(found)
    return sorted(seen)


def cache_key(root: Path = _ROOT) -> str:
    """A short hash of the compiled sources' paths and contents: the cache folder's name."""
    digest = hashlib.sha256()
    for path in compiled_sources(root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


if "NUMBA_CACHE_DIR" not in os.environ:
    _base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "handfoot"
    os.environ["NUMBA_CACHE_DIR"] = str(_base / f"numba-{cache_key()}")
