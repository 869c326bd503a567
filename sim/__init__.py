"""handfoot's engine: a numba-compiled Hand and Foot game loop over card-count arrays.

numba's on-disk cache would go stale when a module a kernel reads or calls changes (numba issue
#1833): each compiled module is therefore cached under a key of everything it reaches
(``sim.cache``), by handfoot's cache locator (``sim.cache_locator``). This sets both up before
numba is imported: the cache folder (``NUMBA_CACHE_DIR``, unless the user set one: it gets the
same keys) and the locator. If numba was imported first, its configuration is set directly.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from sim.cache import COMPILED_PACKAGES, build_key, compiled_sources, module_keys

__all__ = ["COMPILED_PACKAGES", "build_key", "compiled_sources", "module_keys"]

# numba's own locators stay behind ours, for functions outside this tree.
_OURS = "sim.cache_locator.ProjectCacheLocator"
_LOCATORS = (f"{_OURS},UserProvidedCacheLocator,InTreeCacheLocator,UserWideCacheLocator,"
             "IPythonCacheLocator,ZipCacheLocator")


def _configure_cache() -> None:
    if "NUMBA_CACHE_DIR" not in os.environ:
        base = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "handfoot"
        os.environ["NUMBA_CACHE_DIR"] = str(base / "numba")
    theirs = os.environ.get("NUMBA_CACHE_LOCATOR_CLASSES", "")
    if not theirs.startswith(_OURS):  # a user's own list keeps its order, behind ours
        os.environ["NUMBA_CACHE_LOCATOR_CLASSES"] = f"{_OURS},{theirs}" if theirs else _LOCATORS
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba came first: its configuration was read already
        config.CACHE_DIR = os.environ["NUMBA_CACHE_DIR"]
        config.CACHE_LOCATOR_CLASSES = os.environ["NUMBA_CACHE_LOCATOR_CLASSES"]


_configure_cache()
