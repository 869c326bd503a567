"""Fitting an advantage network by how it ranks each decision's candidates (``--loss rank``).

A learned player only ever uses its model to choose among one decision's candidates, so what
matters is their order, not how close each predicted advantage is to the searched one. The
regression fit (``learn_fit.fit``) spends its capacity on the size of large advantages; this
one fits the same network (one hidden layer of rectified units, the base candidate's score
fixed at 0 as the player scores it) to a listwise loss instead (Guo et al. 2014 found ranking
the teacher's choice better than regressing its values): per decision, the cross-entropy of
the softmax of the model's scores against the softmax of the searched advantages, both at
``temperature`` points, weighted by what a wrong choice there costs (the decision's spread:
its best candidate's searched value minus its mean), normalised to a mean weight of 1.

A tenth of the training games (the last) is kept aside. The network starts from the regression
fit on the other games and is refined by scipy's L-BFGS on all of their rows at once
(deterministic: the same rows give the same numbers bit for bit, single-threaded); the iterate
with the lowest loss on the games kept aside is the one kept (early stopping), and what the
refinement did goes into the model file (``rank_fit``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

L2 = 1e-4  # 0.5 * L2 * (every weight and bias but the output bias)^2, on the mean loss
MAX_ITER = 300
PATIENCE = 20  # iterations without a better held-aside loss before stopping
ASIDE = 0.1  # the share of the training games (the last) kept aside for early stopping


def settings() -> dict:
    """The fit's fixed settings, recorded in the model file beside the temperature."""
    return {"l2": L2, "max_iter_rank": MAX_ITER, "patience": PATIENCE, "aside": ASIDE}


def aside(games: np.ndarray) -> np.ndarray:
    """Per row: whether its game is one of the last ``ASIDE`` of the training games (kept out
    of the regression start as well as the refinement, so it measures both fairly)."""
    last = int(games.max()) + 1 if len(games) else 0
    return games >= int(round(last * (1 - ASIDE)))


@dataclass(frozen=True)
class Groups:
    """The advantage design's rows grouped by decision: for every candidate row (the base
    included, its score fixed at 0) its decision, where each decision's rows start, which rows
    are not the base (those the network scores) and each decision's weight."""

    decision: np.ndarray  # per candidate row
    starts: np.ndarray  # per decision
    scored: np.ndarray  # bool per candidate row: not the base
    target: np.ndarray  # per candidate row, softmax of the searched advantages
    weight: np.ndarray  # per decision, mean 1 over those whose candidates differ


def _shifted(v: np.ndarray, decision: np.ndarray, starts: np.ndarray):
    """``v`` less its decision's largest value, its exponential and the exponential's sum per
    row's decision: what a softmax and a log-softmax within each decision share."""
    shifted = v - np.maximum.reduceat(v, starts)[decision]
    e = np.exp(shifted)
    return shifted, e, np.add.reduceat(e, starts)[decision]


def group_softmax(v: np.ndarray, decision: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Softmax of ``v`` within each decision's rows."""
    _, e, total = _shifted(v, decision, starts)
    return e / total


def group_log_softmax(v: np.ndarray, decision: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Log-softmax of ``v`` within each decision's rows, computed directly (no underflow at
    low temperatures)."""
    shifted, _, total = _shifted(v, decision, starts)
    return shifted - np.log(total)


def groups(index: np.ndarray, advantage: np.ndarray, temperature: float) -> Groups:
    """The groups of rows whose candidate places are ``index`` (0: a decision's base, first)
    and whose searched advantages over their base are ``advantage``."""
    first = index == 0
    decision = np.cumsum(first) - 1
    starts = np.flatnonzero(first)
    target = group_softmax(advantage / temperature, decision, starts)
    best = np.maximum.reduceat(advantage, starts)
    sizes = np.diff(np.append(starts, len(index)))
    spread = best - np.add.reduceat(advantage, starts) / sizes
    weight = np.where(sizes > 1, spread, 0.0)
    mean = weight[weight > 0].mean() if (weight > 0).any() else 1.0
    return Groups(decision, starts, ~first, target, weight / mean)


def _unpack(theta: np.ndarray, inputs: int, hidden: int):
    w1 = theta[:hidden * inputs].reshape(hidden, inputs)
    b1 = theta[hidden * inputs:hidden * (inputs + 1)]
    w2 = theta[hidden * (inputs + 1):hidden * (inputs + 2)]
    return w1, b1, w2, theta[-1]


def loss_and_gradient(theta: np.ndarray, z: np.ndarray, grp: Groups, hidden: int,
                      temperature: float) -> tuple[float, np.ndarray]:
    """The weighted listwise loss of the network ``theta`` (its logits are scores over
    ``temperature``) on standardised inputs ``z`` (one row per scored candidate), plus the
    weight penalty, and its gradient."""
    w1, b1, w2, b2 = _unpack(theta, z.shape[1], hidden)
    pre = z @ w1.T + b1
    h = np.maximum(pre, 0.0)
    logits = np.zeros(len(grp.decision))
    logits[grp.scored] = h @ w2 + b2
    log_q = group_log_softmax(logits, grp.decision, grp.starts)
    q = np.exp(log_q)
    n = max(float((grp.weight > 0).sum()), 1.0)
    w = grp.weight[grp.decision]
    ce = -grp.target * log_q
    loss = float((w * ce).sum() / n + 0.5 * L2 * (theta[:-1] @ theta[:-1]))
    d_logit = (w * (q - grp.target) / n)[grp.scored]
    d_h = np.outer(d_logit, w2) * (pre > 0)
    grad = np.concatenate([(d_h.T @ z).ravel(), d_h.sum(axis=0), h.T @ d_logit,
                           [d_logit.sum()]])
    grad[:-1] += L2 * theta[:-1]
    return loss, grad


def refine(w1: np.ndarray, b1: np.ndarray, w2: np.ndarray, b2: float, z: np.ndarray,
           index: np.ndarray, advantage: np.ndarray, games: np.ndarray, temperature: float,
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, dict]:
    """The network (hidden weights and biases, output weights and bias, in points) refined on
    the ranking loss from the given start; ``z`` holds the scored candidates' standardised
    inputs, ``index``, ``advantage`` and ``games`` every candidate row's place, searched
    advantage and game. Returns the refined weights and what the fit did."""
    from scipy.optimize import minimize

    hidden, inputs = w1.shape
    kept_aside = aside(games)
    parts = []
    for keep in (~kept_aside, kept_aside):
        scored = keep[index > 0]
        parts.append((z[scored], groups(index[keep], advantage[keep], temperature)))
    (z_fit, g_fit), (z_aside, g_aside) = parts
    theta = np.concatenate([w1.ravel(), b1, w2, [b2]]) / np.repeat(
        [1.0, 1.0, temperature, temperature], [w1.size, b1.size, w2.size, 1])
    best = {"loss": loss_and_gradient(theta, z_aside, g_aside, hidden, temperature)[0],
            "theta": theta.copy(), "iteration": 0}
    start_loss = best["loss"]
    seen = [0]

    def watch(intermediate_result) -> None:
        seen[0] += 1
        held = loss_and_gradient(intermediate_result.x, z_aside, g_aside, hidden,
                                 temperature)[0]
        if held < best["loss"]:
            best.update(loss=held, theta=intermediate_result.x.copy(), iteration=seen[0])
        elif seen[0] - best["iteration"] >= PATIENCE:
            raise StopIteration

    if len(z_aside):
        minimize(loss_and_gradient, theta, args=(z_fit, g_fit, hidden, temperature),
                 jac=True, method="L-BFGS-B", callback=watch,
                 options={"maxiter": MAX_ITER})
    w1, b1, w2, b2 = _unpack(best["theta"], inputs, hidden)
    report = {"iterations": seen[0], "kept_iteration": best["iteration"],
              "aside_loss_start": round(start_loss, 6), "aside_loss": round(best["loss"], 6)}
    return w1.copy(), b1.copy(), w2 * temperature, float(b2 * temperature), report
