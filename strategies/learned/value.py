"""A value model evaluated inside the compiled engine, from one flat array.

``handfoot learn`` fits a model of a deal's outcome for a seat's side on the features of the
positions that seat saw (``strategies.learned.features``); ``strategies.learned.model_file``
lays the fitted numbers out in one float64 array, which reaches the kernels per seat in
``w.value_model[seat]`` (so any model plays without recompiling). The layout:

* ``[V_KIND]`` ``LINEAR`` or ``MLP`` (0: no model), ``[V_FEATURES]`` the feature count,
  ``[V_HIDDEN]`` the hidden units of an MLP, ``[V_VERSION]`` the feature version,
  ``[V_TARGET]`` ``VALUE`` (inputs: the features) or ``ADVANTAGE`` (inputs: the candidate's
  features, then their difference from the base candidate's);
* from ``HEADER``: each input's mean, then the reciprocal of its scale (inputs are
  standardised first);
* ``LINEAR``: one weight per input, then the intercept;
* ``MLP`` (one hidden layer of rectified units): the hidden weights row by row (unit by unit),
  the hidden biases, the output weights, the output bias.
"""

from __future__ import annotations

from numba import njit

from strategies.learned.schema import (
    ADVANTAGE,
    HEADER,
    LINEAR,
    V_FEATURES,
    V_HIDDEN,
    V_KIND,
    V_TARGET,
)


@njit(cache=True)
def is_advantage(m) -> bool:
    return int(m[V_TARGET]) == ADVANTAGE


@njit(cache=True)
def model_value(m, x, base, z) -> float:
    """The model ``m``'s prediction for the features ``x`` (an advantage model: of the
    candidate whose position has features ``x`` over the base candidate's, ``base``); ``z`` is
    scratch for the standardised inputs."""
    f = int(m[V_FEATURES])
    n = f
    for j in range(f):
        z[j] = x[j]
    if int(m[V_TARGET]) == ADVANTAGE:
        n = 2 * f
        for j in range(f):
            z[f + j] = x[j] - base[j]
    for j in range(n):
        z[j] = (z[j] - m[HEADER + j]) * m[HEADER + n + j]
    body = HEADER + 2 * n
    if int(m[V_KIND]) == LINEAR:
        total = m[body + n]
        for j in range(n):
            total += m[body + j] * z[j]
        return total
    hidden = int(m[V_HIDDEN])
    bias = body + hidden * n
    out_w = bias + hidden
    total = m[out_w + hidden]
    for h in range(hidden):
        row = body + h * n
        a = m[bias + h]
        for j in range(n):
            a += m[row + j] * z[j]
        if a > 0.0:
            total += m[out_w + h] * a
    return total
