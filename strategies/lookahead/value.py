"""A value model evaluated inside the compiled engine, from one flat array.

``handfoot learn`` fits a model of a deal's outcome for a seat's side on the features of the
positions that seat saw (``strategies.lookahead.features``); ``strategies.learned.model_file``
lays the fitted numbers out in one float64 array, which reaches the kernels per seat in
``w.value_model[seat]`` (so any model plays without recompiling). The layout:

* ``[V_KIND]`` ``LINEAR`` or ``MLP`` (0: no model), ``[V_FEATURES]`` the feature count,
  ``[V_HIDDEN]`` the hidden units of an MLP, ``[V_VERSION]`` the feature version,
  ``[V_TARGET]`` ``VALUE`` (inputs: the features) or ``ADVANTAGE`` (inputs: the candidate's
  features, then their difference from the base candidate's);
* from ``HEADER``: each input's mean, then the reciprocal of its scale (inputs are
  standardised first);
* ``LINEAR``: one weight per input, then the intercept;
* ``MLP`` (one hidden layer of rectified units) of a value: the hidden weights row by row (unit
  by unit), the hidden biases, the output weights, the output bias;
* ``MLP`` of an advantage, folded for speed: a unit's input is linear in the candidate's
  features ``x`` and their change ``d = x - base``, so with the standardisation folded into the
  weights it is ``K[h] + sum_j U[h, j] base[j] + sum_j C[h, j] d[j]``. The first two terms are
  the same for every candidate of a decision (``advantage_base``, once), and ``d`` is zero but
  for the few features a candidate changes (``advantage_of``, per candidate: a few hundred
  multiplications instead of ten thousand). The slots: ``K`` (one per unit), ``U`` and ``C``
  feature by feature (a feature's weights for every unit together, so the kernels' inner
  loops run over the units and vectorise), the output weights, the output bias.
"""

from __future__ import annotations

from numba import uint64

from sim.engine.jit import njit
from strategies.lookahead.schema import (
    ADVANTAGE,
    HEADER,
    LINEAR,
    MLP,
    V_FEATURES,
    V_HIDDEN,
    V_KIND,
    V_TARGET,
)


@njit(cache=True)
def is_advantage(m) -> bool:
    return int(m[V_TARGET]) == ADVANTAGE


@njit(cache=True)
def _folded(m) -> int:
    """Where a folded advantage network's body starts."""
    return HEADER + 4 * int(m[V_FEATURES])


@njit(cache=True)
def advantage_base(m, base, acc) -> None:
    """``acc[h]``: the part of hidden unit h's input that is the same for every candidate
    of the decision whose base candidate has features ``base`` (a folded advantage MLP).

    ``U`` is laid out feature by feature (each feature's weights for every unit together), so
    the inner loop runs over the units and the compiler vectorises it; each unit still adds
    its terms in feature order, so the sums are the same to the last bit. A zero feature adds
    nothing and is skipped."""
    f = int(m[V_FEATURES])
    hidden = int(m[V_HIDDEN])
    k = _folded(m)
    u = k + hidden
    for h in range(hidden):
        acc[h] = m[k + h]
    for j in range(f):
        b = base[j]
        if b != 0.0:
            row = u + j * hidden
            for h in range(hidden):
                acc[h] += m[row + h] * b


@njit(cache=True)
def advantage_of(m, x, base, acc) -> float:
    """A folded advantage MLP's prediction for the candidate with features ``x``, given
    ``advantage_base`` in ``acc[:hidden]``; only the features the candidate changes are
    visited, each unit adding them in feature order as ``advantage_base`` does (``acc`` past
    the shared term is scratch for the units' inputs).

    The slots are unsigned integers on purpose: numba wraps a negative signed index around
    (``a[-1]``), a test in the inner loop that kept it from vectorising; with unsigned ones it
    vectorises: 590 -> 200 ns a call with 12 features changed, 1,260 -> 280 ns with 30 (the
    shipped standard model, issue 29), the same sums in the same order, so the same bits."""
    f = int(m[V_FEATURES])
    hidden = uint64(int(m[V_HIDDEN]))
    c = uint64(_folded(m)) + hidden + hidden * uint64(f)
    out_w = c + hidden * uint64(f)
    units = hidden + uint64(2 * f)
    for h in range(hidden):
        acc[units + h] = acc[h]
    for j in range(f):
        d = x[j] - base[j]
        if d != 0.0:
            row = c + uint64(j) * hidden
            for h in range(hidden):
                acc[units + h] += m[row + h] * d
    total = m[out_w + hidden]
    for h in range(hidden):
        a = acc[units + h]
        if a > 0.0:
            total += m[out_w + h] * a
    return total


@njit(cache=True)
def is_folded(m) -> bool:
    """An advantage MLP, evaluated in its folded form."""
    return int(m[V_TARGET]) == ADVANTAGE and int(m[V_KIND]) == MLP


@njit(cache=True)
def candidate_score(m, x, base, z) -> float:
    """``model_value``, for a folded advantage MLP taking ``advantage_base`` as already in
    ``z`` (the caller computes it once per decision)."""
    if is_folded(m):
        return advantage_of(m, x, base, z)
    return model_value(m, x, base, z)


@njit(cache=True)
def model_value(m, x, base, z) -> float:
    """The model ``m``'s prediction for the features ``x`` (an advantage model: of the
    candidate whose position has features ``x`` over the base candidate's, ``base``); ``z`` is
    scratch for the standardised inputs."""
    if is_folded(m):
        advantage_base(m, base, z)
        return advantage_of(m, x, base, z)
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
