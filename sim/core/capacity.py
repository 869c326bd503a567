"""Sizes of the work area's fixed arrays that code outside the engine checks against.

A value model reaches the kernels as one flat array per seat (``strategies.learned.value``),
in a work-area field of ``VALUE_MODEL_SLOTS`` numbers, and its features in a scratch of
``MAX_FEATURES``; a model file is refused when it would not fit (``strategies.learned.
model_file``). Declared here, in the schemas layer, so reading a model file loads neither the
engine nor a compiler.
"""

from __future__ import annotations

MAX_FEATURES = 192
VALUE_MODEL_SLOTS = 1 << 14
