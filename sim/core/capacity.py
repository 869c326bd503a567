"""Sizes of the work area's fixed arrays that code outside the engine checks against.

A value model reaches the kernels as one flat array per seat (``strategies.lookahead.value``),
in a work-area field of ``VALUE_MODEL_SLOTS`` numbers, and its features in a scratch of
``MAX_FEATURES``; a model's standardised inputs and a folded advantage network's per-candidate
work (``strategies.lookahead.value``: the hidden units, then the changed features and their
slots) go in a scratch of ``MODEL_SCRATCH`` numbers, and numba checks no bounds, so a model file
is refused when it would not fit either (``strategies.learned.model_file``). Declared here, in
the schemas layer, so reading a model file loads neither the engine nor a compiler.
"""

from __future__ import annotations

MAX_FEATURES = 192
VALUE_MODEL_SLOTS = 1 << 14
MAX_HIDDEN = 64  # hidden units a model file may have (``handfoot learn --hidden`` stays below)
MODEL_SCRATCH = 2 * MAX_FEATURES + 2 * MAX_HIDDEN

# The largest model a file may hold must fit the scratch: a folded advantage network writes its
# hidden units, a difference and a slot per changed feature, then the hidden units of one
# candidate (``strategies.lookahead.value``).
assert MODEL_SCRATCH >= 2 * MAX_HIDDEN + 2 * MAX_FEATURES, "the model scratch is too small"
