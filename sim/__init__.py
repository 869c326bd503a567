"""handfoot's engine: a numba-compiled Hand and Foot game loop over card-count arrays.

numba's on-disk cache is not invalidated when a jitted function calls into another module that
changed (numba issue #1833), so a stale cache could silently run old rules. We therefore key
``NUMBA_CACHE_DIR`` on a hash of every source file that holds jitted code, unless the user set it.
This must happen before numba is first imported.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

_ROOT = Path(__file__).resolve().parent.parent


def _jit_sources_hash() -> str:
    digest = hashlib.sha256()
    for folder in ("sim", "strategies"):
        for path in sorted((_ROOT / folder).rglob("*.py")):
            source = path.read_bytes()
            if b"@njit" in source or b"@hook" in source:  # only compiled code can go stale
                digest.update(str(path.relative_to(_ROOT)).encode())
                digest.update(source)
    return digest.hexdigest()[:16]


if "NUMBA_CACHE_DIR" not in os.environ:
    _base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "handfoot"
    os.environ["NUMBA_CACHE_DIR"] = str(_base / f"numba-{_jit_sources_hash()}")
