"""The numba cache locator of handfoot's compiled code (named in ``NUMBA_CACHE_LOCATOR_CLASSES``
by ``sim/__init__.py``, so numba imports it only when it caches a function).

For a function defined in this tree it keeps numba's own way of finding the cache folder (the
user's ``NUMBA_CACHE_DIR``, else handfoot's folder, one subfolder per source folder) but stamps
the cache with its module's key (``sim.cache.module_key``) in place of the source file's own
hash: numba reuses a cached function only while the stamp is the same, so a function is
recompiled exactly when its module, or a module it reaches, changed what it means. Functions
of other files fall through to numba's own locators.
"""

from __future__ import annotations

import os

from numba.core import config
from numba.core.caching import _CacheLocator

from sim.cache import ROOT, module_key

_PACKAGES = tuple(str(ROOT / package) + os.sep for package in ("sim", "strategies"))


class ProjectCacheLocator(_CacheLocator):
    """Caches a project function under the cache folder, stamped with its module's key."""

    def __init__(self, py_func, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(config.CACHE_DIR,
                                        self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> str:
        return module_key(self._py_file)

    def get_disambiguator(self) -> str:
        return str(self._lineno)

    @classmethod
    def from_function(cls, py_func, py_file: str):
        path = os.path.abspath(py_file)
        if not config.CACHE_DIR or not path.startswith(_PACKAGES) or not os.path.exists(path):
            return None
        self = cls(py_func, path)
        try:
            self.ensure_cache_path()
        except OSError:
            return None
        return self
