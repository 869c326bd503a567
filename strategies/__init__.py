"""Pluggable strategy policies: a module of five compiled hooks each (strategies.hooks); the
built-in heuristics are also asked by code through one dispatcher (strategies.builtin)."""

import sim  # noqa: F401  (sets the numba cache folder before numba is imported)
