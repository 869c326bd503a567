"""A rule in words for when holding a wild pays, read off the branched positions and checked
on positions it was not fitted on.

A small regression tree (scikit-learn, depth 2) over the situation of each branched position
(deal, Hand or Foot, cards and wilds held, wild books made, the partner, the opponents) is
fitted to holding minus melding on the positions of even-numbered games; each of its leaves is
a situation in words, and its effect is measured again, with its 95% interval clustered by
game, on the positions of the odd-numbered games alone. Only a leaf whose held-out interval
excludes zero on the side its fit found is stated as a rule ("holding pays when ..." or
"costs when ..."): a split the tree found in one half that the other does not repeat is
noise, and the words say no rule held instead. Splitting by game keeps a game's positions,
which share its deals, on one side.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from analysis.statistics.holding import (
    F_DEAL,
    F_FEWEST_OPPONENT,
    F_GAME,
    F_HELD,
    F_HOLD,
    F_MELD,
    F_ON_FOOT,
    F_PARTNER_ON_FOOT,
    F_WILD_BOOKS,
    F_WILDS_HELD,
    MIN_PER_GROUP,
    HoldEffect,
    hold_effect,
)

FEATURES = (F_DEAL, F_ON_FOOT, F_HELD, F_WILDS_HELD, F_WILD_BOOKS, F_PARTNER_ON_FOOT,
            F_FEWEST_OPPONENT)
DEPTH = 2
LEAF_SHARE = 0.05  # a leaf holds at least this share of the fitting half's positions
METHOD = ("a depth-2 regression tree over the situation, fitted on the positions of "
          "even-numbered games and each of its situations measured again on the odd-numbered "
          "games' positions alone (95% intervals clustered by game)")


@dataclass(frozen=True)
class Leaf:
    """One situation of the tree: its words, its effect where it was fitted and held out."""

    words: str
    fitted: HoldEffect
    held_out: HoldEffect

    @property
    def verdict(self) -> str:
        """'pays' or 'costs' when the held-out interval excludes zero on the fitted side,
        else 'no rule'."""
        if self.held_out.low > 0 and self.fitted.mean > 0:
            return "pays"
        if self.held_out.high < 0 and self.fitted.mean < 0:
            return "costs"
        return "no rule"


def _range(column: int, low: int | None, high: int | None) -> str:
    """A feature from ``low`` to ``high`` inclusive in words (None: no bound on that side);
    the features are whole numbers, so a split of the tree falls between two."""
    if low is not None and high is not None:
        if column == F_DEAL:
            return f"in deal {low}" if low == high else f"in deals {low}-{high}"
        unit = {F_HELD: "cards held", F_WILDS_HELD: "wilds in hand",
                F_WILD_BOOKS: "wild books made"}.get(column)
        if unit is not None:
            return f"with {low} to {high} {unit}"
        return f"when the fewest cards an opponent holds is {low} to {high}"
    below = low is None
    k = high if below else low - 1  # values <= k on the low side, k + 1 and up on the high
    if column == F_DEAL:
        return f"in deal{'s 1-' if k > 1 else ' '}{k}" if below else f"from deal {k + 1} on"
    if column == F_ON_FOOT:
        return "on the Hand" if below else "on the Foot"
    if column == F_HELD:
        return f"with at most {k} cards held" if below else f"with {k + 1} or more cards held"
    if column == F_WILDS_HELD:
        return (f"with at most {k} wild{'s' if k != 1 else ''} in hand" if below
                else f"with {k + 1} or more wilds in hand")
    if column == F_WILD_BOOKS:
        if k == 0:
            return "before a wild book is made" if below else "once a wild book is made"
        return (f"with at most {k} wild books made" if below
                else f"with {k + 1} or more wild books made")
    if column == F_PARTNER_ON_FOOT:
        if k < 0:
            return "in individual play" if below else "in partnership play"
        return "while the partner is on the Hand" if below else "once the partner is on the Foot"
    return (f"when an opponent holds at most {k} cards" if below
            else f"when every opponent holds {k + 1} or more cards")


def _leaf_paths(tree) -> dict[int, str]:
    """Each leaf's node id and the conditions that lead to it, in words (two splits on one
    feature read as one range)."""
    t = tree.tree_
    out: dict[int, str] = {}

    def walk(node: int, bounds: dict[int, tuple[int | None, int | None]]) -> None:
        if t.children_left[node] == -1:
            out[node] = ", ".join(_range(c, lo, hi) for c, (lo, hi) in bounds.items()) \
                or "everywhere"
            return
        column = FEATURES[int(t.feature[node])]
        k = int(np.floor(t.threshold[node]))  # values <= k go left
        low, high = bounds.get(column, (None, None))
        walk(int(t.children_left[node]), {**bounds, column: (low, k)})
        walk(int(t.children_right[node]), {**bounds, column: (k + 1, high)})

    walk(0, {})
    return out


def find_rule(rows: np.ndarray) -> list[Leaf]:
    """The tree's leaves, each with its effect where it was fitted and on held-out games;
    empty when either half has too few positions to fit or check a leaf."""
    from sklearn.tree import DecisionTreeRegressor

    fit = rows[:, F_GAME] % 2 == 0
    held = ~fit
    least = max(MIN_PER_GROUP, int(LEAF_SHARE * fit.sum()))
    if fit.sum() < 2 * least or held.sum() < 2 * MIN_PER_GROUP:
        return []
    d = rows[:, F_HOLD] - rows[:, F_MELD]
    x = rows[:, list(FEATURES)]
    tree = DecisionTreeRegressor(max_depth=DEPTH, min_samples_leaf=least, random_state=0)
    tree.fit(x[fit], d[fit])
    where = tree.apply(x)
    leaves = []
    for node, words in _leaf_paths(tree).items():
        mine = where == node
        a, b = mine & fit, mine & held
        if b.sum() < 2:
            continue
        leaves.append(Leaf(words, hold_effect("rule", words, d[a], rows[a, F_GAME]),
                           hold_effect("rule", words, d[b], rows[b, F_GAME])))
    return sorted(leaves, key=lambda leaf: -leaf.held_out.mean)
