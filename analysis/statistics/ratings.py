"""Bradley-Terry ratings for a ladder of strategies from pairwise results.

Head-to-head win rates do not line up on their own: A beats B 60%, B beats C 60%, and A met C
only a few times. One rating per strategy, fitted to every matchup at once, puts the whole
ladder on one scale and uses every game for every comparison. The model is Bradley-Terry on
the Elo scale: P(i beats j) = 1 / (1 + 10 ** (-(r_i - r_j) / 400)).

Ties count as half a win to each side, as everywhere in the reports. The fit is maximum
likelihood (Newton's method on the concave log-likelihood); ratings are only defined up to a
common shift, fixed by the anchor: one named strategy at 0, or the mean at 0. Intervals come
from the Fisher information under that constraint (for this model the observed and expected
information are the same matrix); with ties the binomial information slightly understates
the precision, so the intervals err on the wide side.

Perfect separation: when some group of strategies never scores against the rest (a strategy
that wins or loses everything is the simplest case), the likelihood keeps rising as their
ratings run off to infinity. Then, and only then, ``pseudo_wins`` (0.5 by default) is added
to each side of every matchup that was played, which keeps every rating finite; the returned
``Ladder.pseudo_wins`` says whether that happened (0.0 when the plain maximum likelihood
estimate exists).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

ELO = 400 / math.log(10)  # Elo points per unit of natural log-odds

Matchup = tuple[str, str, float, float, float]  # name_a, name_b, wins_a, wins_b, ties


@dataclass(frozen=True)
class Ladder:
    """Fitted ratings (Elo scale), in the order the strategies first appear in the input."""

    names: tuple[str, ...]
    ratings: np.ndarray
    se: np.ndarray
    low: np.ndarray
    high: np.ndarray
    cov: np.ndarray  # covariance of the ratings (Elo^2) under the anchor constraint
    win_prob: np.ndarray  # fitted P(row strategy beats column strategy); 0.5 on the diagonal
    games: np.ndarray  # games played between each pair (without pseudo-wins)
    score: np.ndarray  # observed score of row against column: wins + ties / 2
    anchor: str | None  # the strategy held at 0, or None for mean 0
    level: float
    pseudo_wins: float  # added to each side of each played matchup; 0.0 for the plain MLE

    def index(self, name: str) -> int:
        try:
            return self.names.index(name)
        except ValueError:
            raise ValueError(f"no strategy named {name!r} in the ladder") from None

    def rating(self, name: str) -> float:
        return float(self.ratings[self.index(name)])

    def interval(self, name: str) -> tuple[float, float]:
        i = self.index(name)
        return float(self.low[i]), float(self.high[i])

    def prob(self, a: str, b: str) -> float:
        """Fitted probability that ``a`` beats ``b`` (expected score, ties as half)."""
        return float(self.win_prob[self.index(a), self.index(b)])

    def difference(self, a: str, b: str) -> tuple[float, float, float]:
        """r_a - r_b with its interval; unlike single ratings, it does not depend on the
        anchor, so it is the one to quote when comparing two strategies."""
        from scipy import stats

        i, j = self.index(a), self.index(b)
        d = float(self.ratings[i] - self.ratings[j])
        var = self.cov[i, i] + self.cov[j, j] - 2 * self.cov[i, j]
        half = float(stats.norm.ppf(0.5 + self.level / 2)) * math.sqrt(max(var, 0.0))
        return d, d - half, d + half

    def rows(self) -> list[dict]:
        """One dict per strategy, strongest first, for tables."""
        order = np.argsort(-self.ratings, kind="stable")
        played = self.games.sum(axis=1)
        return [{"strategy": self.names[i], "rating": float(self.ratings[i]),
                 "se": float(self.se[i]), "low": float(self.low[i]), "high": float(self.high[i]),
                 "games": float(played[i]), "score": float(self.score[i].sum())}
                for i in order]


def _tables(matchups: Iterable[Matchup]) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Names, games and score matrices, summing repeated matchups in either order."""
    names: list[str] = []
    where: dict[str, int] = {}
    entries = []
    for row in matchups:
        if len(row) != 5:
            raise ValueError(f"a matchup is (name_a, name_b, wins_a, wins_b, ties), got {row!r}")
        a, b, wa, wb, t = row
        if a == b:
            raise ValueError(f"matchup of {a!r} against itself")
        counts = [float(wa), float(wb), float(t)]
        if not all(math.isfinite(c) and c >= 0 for c in counts):
            raise ValueError(f"counts of {a!r} v {b!r} must be finite and >= 0, got {counts}")
        for name in (a, b):
            if name not in where:
                where[name] = len(names)
                names.append(name)
        entries.append((where[a], where[b], *counts))
    k = len(names)
    games = np.zeros((k, k))
    score = np.zeros((k, k))
    for i, j, wa, wb, t in entries:
        games[i, j] += wa + wb + t
        games[j, i] += wa + wb + t
        score[i, j] += wa + t / 2
        score[j, i] += wb + t / 2
    return names, games, score


def _groups(adjacency: np.ndarray, strong: bool) -> np.ndarray:
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import connected_components

    _, labels = connected_components(csr_matrix(adjacency), directed=strong,
                                     connection="strong" if strong else "weak")
    return labels


def _loglik(theta: np.ndarray, score: np.ndarray) -> float:
    diff = theta[:, None] - theta[None, :]
    return float(-(score * np.logaddexp(0.0, -diff)).sum())


def _fit(games: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Maximum likelihood log-strengths (first strategy at 0) and their covariance (zero row
    and column for the first), by Newton's method with step halving."""
    k = len(games)
    theta = np.zeros(k)
    current = _loglik(theta, score)
    for _ in range(200):
        p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
        grad = (score - games * p).sum(axis=1)
        w = games * p * p.T  # n_ij p_ij (1 - p_ij)
        info = np.diag(w.sum(axis=1)) - w  # the Fisher information, a graph Laplacian
        step = np.zeros(k)
        step[1:] = np.linalg.solve(info[1:, 1:], grad[1:])
        for _ in range(60):
            trial = theta + step
            value = _loglik(trial, score)
            if value >= current - 1e-12 * abs(current):
                break
            step /= 2
        theta, current = trial, value
        if np.max(np.abs(step)) < 1e-10:
            break
    else:
        raise RuntimeError("Bradley-Terry fit did not converge in 200 Newton steps")
    p = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    w = games * p * p.T
    info = np.diag(w.sum(axis=1)) - w
    cov = np.zeros((k, k))
    cov[1:, 1:] = np.linalg.inv(info[1:, 1:])
    return theta, cov


def fit_ratings(matchups: Iterable[Matchup], anchor: str | None = None, level: float = 0.95,
                pseudo_wins: float = 0.5) -> Ladder:
    """Bradley-Terry ratings (Elo scale) with ``level`` intervals from
    ``(name_a, name_b, wins_a, wins_b, ties)`` results.

    ``anchor`` names the strategy held at 0 (its interval is the point 0 and the others'
    intervals are relative to it); None holds the mean rating at 0. ``pseudo_wins`` is added
    to each side of every played matchup only when the plain estimate would be infinite (see
    the module docstring). Raises ValueError when the strategies do not form one connected
    comparison graph, since nothing then relates the groups' scales."""
    from scipy import stats

    if not 0 < level < 1:
        raise ValueError(f"interval level must lie in (0, 1), got {level}")
    if not (math.isfinite(pseudo_wins) and pseudo_wins > 0):
        raise ValueError(f"pseudo_wins must be a positive number, got {pseudo_wins}")
    names, games, score = _tables(matchups)
    k = len(names)
    if k < 2:
        raise ValueError("a ladder needs matchups between at least two strategies")
    if anchor is not None and anchor not in names:
        raise ValueError(f"anchor {anchor!r} is not one of the rated strategies")
    labels = _groups(games > 0, strong=False)
    if labels.max() > 0:
        groups = " | ".join(", ".join(n for n, g in zip(names, labels, strict=True) if g == label)
                            for label in range(labels.max() + 1))
        raise ValueError(f"comparison graph is not connected, no games link these groups: "
                         f"{groups}")
    added = 0.0
    fit_games, fit_score = games, score
    if _groups(score > 0, strong=True).max() > 0:  # some group never scores against the rest
        added = float(pseudo_wins)
        played = games > 0
        fit_score = score + added * played
        fit_games = games + 2 * added * played
    theta, cov = _fit(fit_games, fit_score)
    if anchor is None:
        shift = np.eye(k) - 1.0 / k
    else:
        shift = np.eye(k)
        shift[:, names.index(anchor)] -= 1.0
    theta = shift @ theta
    cov = ELO**2 * (shift @ cov @ shift.T)
    ratings = ELO * theta
    se = np.sqrt(np.clip(np.diag(cov), 0.0, None))
    if anchor is not None:
        se[names.index(anchor)] = 0.0  # exactly 0, not rounding noise
    z = float(stats.norm.ppf(0.5 + level / 2))
    win_prob = 1 / (1 + np.exp(-(theta[:, None] - theta[None, :])))
    return Ladder(tuple(names), ratings, se, ratings - z * se, ratings + z * se, cov, win_prob,
                  games, score, anchor, level, added)
