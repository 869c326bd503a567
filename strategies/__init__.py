"""Pluggable strategy policies: compiled kernels chosen by integer id through one dispatcher."""

import sim  # noqa: F401  (sets the numba cache folder before numba is imported)
