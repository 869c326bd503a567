"""What a learned model reads and how it is laid out: the feature vector's slots (documented
by name, versioned) and the flat array a fitted model becomes for the kernels.

Plain Python, so that reading a model file (``strategies.learned.model_file``) or a run's
manifest loads no compiler; the compiled code (``features``, ``value``) reads these constants.
"""

from __future__ import annotations

import hashlib

from sim.core.cards import KIND_NAMES, RANK_NAMES
from sim.core.enums import Book, Decision

# --- The feature vector (strategies.lookahead.features fills it in this order) -------------------

FEATURE_VERSION = 1

_TEAM_FIELDS = (
    ["opened", "opening minimum still to meet"]
    + [f"meld {r} cards" for r in RANK_NAMES]
    + ["wilds in open melds"]
    + [f"{b} books" for b in Book.words]
    + ["melded card points", "red threes exposed", "points on the table", "pile pick-ups",
       "book requirement to go out met"]
)

FEATURE_NAMES: tuple[str, ...] = tuple(
    [f"own {k} held" for k in KIND_NAMES]
    + ["own cards held", "own card points held", "own on Foot", "own Foot cards",
       "own natural pairs held", "own naturals that fit own melds"]
    + ["has partner", "partner fewest cards held", "partners on Foot (share)"]
    + ["opponent fewest cards held", "opponents mean cards held", "opponents on Foot (share)",
       "opponent fewest Foot cards"]
    + [f"opponents known {k}" for k in KIND_NAMES]
    + [f"own side {f}" for f in _TEAM_FIELDS]
    + [f"rival {f}" for f in _TEAM_FIELDS]
    + ["pile cards", "pile cards a pick-up takes", "pile frozen cards set aside",
       "pile card points", "pile open to own pick-up"]
    + [f"pile top {k}" for k in KIND_NAMES]
    + ["stock cards", "stock share of the shoe"]
    + ["deal number", "last deal", "opening minimum", "game score own minus rival (x1000)"]
    + ["own turn", "own decision pending", "turn number", "picked up this turn",
       "seats until own turn"]
    + [f"pending {d}" for d in Decision.words]
    + ["own card points x an opponent on Foot", "own cards held x opponents on Foot share",
       "table points own minus rival", "own card points x stock share"]
)
N_FEATURES = len(FEATURE_NAMES)


def feature_digest(names: tuple[str, ...] = FEATURE_NAMES) -> str:
    """The sha256 of the feature names in slot order: what a model file and a recording run
    record beside the version, so a slot that changed meaning without a version bump is caught
    (``tests/test_learned_features.py`` pins the digest of each version)."""
    return hashlib.sha256("\n".join(names).encode("utf-8")).hexdigest()


def feature_column(j: int) -> str:
    """The column of feature slot ``j`` in a recording run's chunk files."""
    return f"f{j:03d}"


# --- A model as one flat array (strategies.lookahead.value evaluates it) --------------------------

V_KIND = 0
V_FEATURES = 1
V_HIDDEN = 2
V_VERSION = 3
V_TARGET = 4
HEADER = 8
NO_MODEL, LINEAR, MLP = 0, 1, 2
# What a model predicts. VALUE: the outcome of a position, from its features. ADVANTAGE: how
# much better a candidate's position is than the base policy's choice's, from the candidate's
# features and their difference from the base candidate's (inputs: both, 2 x the features).
VALUE, ADVANTAGE = 0, 1


def model_inputs(target: int, n_features: int) -> int:
    return 2 * n_features if target == ADVANTAGE else n_features


def slots_needed(kind: int, target: int, n_features: int, hidden: int) -> int:
    """How many slots a model of this shape takes (``strategies.lookahead.value`` lays them
    out)."""
    n = model_inputs(target, n_features)
    if kind == LINEAR:
        body = n + 1
    elif target == ADVANTAGE:
        body = hidden + 2 * hidden * n_features + hidden + 1
    else:
        body = hidden * n + 2 * hidden + 1
    return HEADER + 2 * n + body


def scratch_needed(kind: int, target: int, n_features: int, hidden: int) -> int:
    """How much of the work area's model scratch (``w.model_in``) evaluating a model of this
    shape writes: its standardised inputs, or for a folded advantage network its hidden units,
    then each changed feature's difference and its slot, then the units' inputs for one
    candidate (``strategies.lookahead.value``)."""
    if kind == MLP and target == ADVANTAGE:
        return 2 * hidden + 2 * n_features
    return model_inputs(target, n_features)
