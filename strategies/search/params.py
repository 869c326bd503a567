"""The search players' parameter vector (plain Python: the registry reads it)."""

from __future__ import annotations

from strategies.params import Param

P_WORLDS = 0
P_DISCARDS = 1
P_ROLLOUT = 2
P_EPSILON = 3
P_HORIZON = 4
P_MELD_VARIANTS = 5
P_CAUTION = 6
P_BASELINE = 7
P_RACE = 8
P_PRUNE = 9
P_INFER = 10
P_INFER_SLACK = 11
P_LEAF = 12
P_INFER_TEMP = 13
P_INFER_DRAWS = 14

# ``baseline`` (strategies.lookahead.candidates: BASELINE_GREEDY, BASELINE_POLICY) and
# ``rollout`` name a policy by number; "the base policy" is the tactician vector the seat's
# strategy names (``base_policy`` in a strategy file, strategies.registry), which reaches the
# kernels at run time in ``w.base_params[seat]``: any tactician-family strategy, with no
# recompilation per vector.
ROLLOUT_GREEDY, ROLLOUT_RANDOM, ROLLOUT_EPSILON, ROLLOUT_POLICY = 0, 1, 2, 3

INFER_NONE, INFER_DISCARDS, INFER_SOFT = 0, 1, 2

SEARCH_PARAMS: tuple[Param, ...] = (
    Param("worlds", P_WORLDS, 1, 256, True,
          "imagined worlds per decision, at most (the budget): every candidate is played on "
          "in the same worlds"),
    Param("discards", P_DISCARDS, 1, 6, True,
          "discard candidates searched: the least useful cards by the greedy ranking"),
    Param("rollout", P_ROLLOUT, 0, 3, True,
          "policy that plays every seat on to the end: 0 greedy, 1 random, 2 greedy with a "
          "chance (epsilon) of a random choice at each decision, 3 the base policy "
          "(base_policy)"),
    Param("epsilon", P_EPSILON, 0, 1, False,
          "with rollout 2: the chance of a random choice at each decision"),
    Param("horizon", P_HORIZON, 0, 500, True,
          "turns played on before the position is scored as it stands; 0: to the end of "
          "the deal"),
    Param("meld_variants", P_MELD_VARIANTS, 0, 1, True,
          "1: besides the greedy meld line, also search laying nothing, holding every wild "
          "back and leaving books one card short; 0: greedy line or nothing"),
    Param("caution", P_CAUTION, 0, 5, False,
          "standard errors by which a candidate must beat the base candidate (baseline) over "
          "the same worlds before it is taken (0: the best mean wins)"),
    Param("baseline", P_BASELINE, 0, 1, True,
          "the heuristic whose choice is the first candidate, kept unless another is clearly "
          "better: 0 greedy, 1 the base policy (base_policy)"),
    Param("race", P_RACE, 0, 256, True,
          "worlds added per round of a race: after each round a candidate that trails the "
          "leader by more than 'prune' standard errors stops getting worlds, and the race ends "
          "once no candidate but the leader is left against the base move and the leader is "
          "clear of it (or the budget, 'worlds', is spent); 0: every candidate plays every "
          "world"),
    Param("prune", P_PRUNE, 0, 10, False,
          "with race: standard errors of the paired difference by which a candidate may trail "
          "the leader before it stops getting worlds"),
    Param("infer", P_INFER, 0, 2, True,
          "0: every world deals the unseen cards uniformly; 1: discard inference: a world in "
          "which the base policy, holding another seat's imagined hand, would not have made "
          "that seat's last discard is kept only with chance infer_slack, else drawn again; "
          "2: soft inference: each world is one of infer_draws draws, kept with chance "
          "proportional to how likely the other seats' last discards are in it"),
    Param("infer_slack", P_INFER_SLACK, 0, 1, False,
          "with infer 1: the chance of keeping a world for each seat whose last discard the "
          "base policy would not have made in it (0: only worlds that fit every discard; 1: no "
          "inference); with infer 2: the floor, the weight of a uniform choice among the held "
          "kinds in each discard's likelihood (1: no inference)"),
    Param("leaf", P_LEAF, 0, 1, True,
          "1: a rollout stops once the searcher's own turn has ended 'horizon' times and the "
          "position is scored by a value model (model = FILE, fitted by handfoot learn "
          "--target value) instead of played to the end; 0: rollouts are scored as they stand "
          "where they stop"),
    Param("infer_temp", P_INFER_TEMP, 1, 500, False,
          "with infer 2: the temperature, in discard-score points, of the base policy's "
          "softened discard choice (small: only its own least useful card; large: any card)"),
    Param("infer_draws", P_INFER_DRAWS, 1, 64, True,
          "with infer 2: worlds drawn for each world played, one kept by its likelihood (1: "
          "no inference)"),
)

SEARCH_DEFAULTS = {"worlds": 128, "discards": 3, "rollout": 3, "epsilon": 0.1, "horizon": 0,
                   "meld_variants": 1, "caution": 1.0,
                   "baseline": 1, "race": 0, "prune": 2.0, "infer": 0, "infer_slack": 0.2,
                   "leaf": 0, "infer_temp": 20.0, "infer_draws": 8}
