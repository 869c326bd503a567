"""No cheating: every registered strategy (but the two oracles, by name), in every profile, with
every parameter setting that changes its play, decides only from what its seat may know (under
`make test` a heuristic's parameter variants play in standard and one other profile each, in
every profile under `make conformance`; ``checked_in`` says why).

At every decision of real games, every hook of the deciding seat is asked twice — on the game
as dealt and on a copy where every card that seat cannot see is dealt anew (tests/hidden_cards.py:
the other hands but their known cards, every unpicked Foot, the stock's contents and order, the
random stream and the root seed) — and must give the same value, the same proposal in
``w.prop`` and, for meld lines, the same hand, melds and books once they are laid. The grant is
asked from the granting partner's view, so the asker's hand is among the changed cards.
``test_the_check_catches_a_strategy_that_peeks`` shows the check fails for strategies that
peek (at the asker's hand in the grant, at the wilds left in the stock), and
``test_the_check_catches_a_learned_player_that_peeks`` for a learned player scoring its
candidates on the real deal instead of imagined ones.

The learned player plays the model shipped for each profile, so it is checked in each profile
that has one (``test_every_profile_ships_a_learned_model`` says which have none).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from sim.core.enums import Decision, SearchStat
from sim.core.profiles import PROFILES
from sim.engine.layout import GAME_DTYPE, MAX_CARDS, WORK_DTYPE
from sim.play.api import make_table
from strategies.hooks import HOOK_NAMES, seat_hooks
from strategies.learned.model_file import write_model
from strategies.per_profile import learned_profiles
from strategies.registry import (
    LEARNED_MODULE,
    PARAM_SPECS,
    PER_PROFILE,
    REGISTRY,
    TACTICIAN_MODULE,
    StrategyInfo,
    load,
    with_base_policy,
    with_model,
    with_params,
)
from tests import hidden_cards as hc
from tests.conftest import LONG
from tests.learned_models import learned_file, random_model

# Strategies left out, by name, and why. Nothing else is: a new registered strategy is checked.
EXCLUDED = {"oracle": "sees every hidden card by design (a measuring ceiling, never a fair "
                      "player); tests/test_search.py shows this check catches it",
            "oracle-hands": "sees the other hands and every Foot by design (the ceiling of "
                            "inference); tests/test_search_race.py shows its choices move "
                            "when they change"}

# Values tried for parameters whose range is too wide to try every value (any other parameter
# is tried at every value of a range of 4 or fewer, else at its low end, middle and high end).
WIDE = {"min_pile": (3, 10), "open_extra": (30, 150), "worlds": (3,), "horizon": (4,),
        "infer_temp": (5.0,), "infer_draws": (2,),
        "caution": (0.0, 3.0), "epsilon": (0.5,), "race": (1,), "prune": (0.5,),
        "infer_slack": (0.0,)}

# Parameters that act only with another one set: varied with it set so (the slack of discard
# inference with inference on: 0, only worlds that fit every discard seen; a value model at the
# search's leaves with rollouts cut after 4 turns, the model one with random weights for the
# rules, written where the case runs: ``with_leaf_model``).
ALONG = {"infer_slack": {"infer": 1}, "leaf": {"horizon": 4}, "infer_temp": {"infer": 2},
         "infer_draws": {"infer": 2}}

# The search players: few imagined worlds and only the pending decision's hook (a search
# played out of its decision's context would roll out a proposal of another decision).
# Their rollouts make each decision cost about a thousand heuristic ones, so a pimc game is
# checked on its first decisions of each deal, and its parameter variants in `standard` only
# (tests/test_search.py checks pimc's every decision kind on its own games as well).
SEARCH_MODULES = {"strategies.search.pimc", "strategies.search.oracle",
                  "strategies.search.oracle_hands"}
SEARCH_FAST = {"worlds": 2}
SEARCH_POINTS = 45
# The learned player: its imagined deals are keyed on the root seed as a search's are (so the
# seed is kept), and its hooks score the pending decision's candidates for the deciding seat
# (asked another decision's question, or by another seat, they would play that decision's
# candidates for the wrong seat), so each is asked at its own decisions only, but at every
# decision of every game: it is as fast as a few heuristic players. Its parameter variants are
# checked in standard only, as a search's are.
LEARNED_MODULES = {LEARNED_MODULE}
# The search inferring from discards, its default base (tuned) in a profile besides standard
# (where every parameter's variants play): individual play, every other seat an opponent.
INFERRING = ("pimc-infer=1", "simpson")


def non_default_values(spec, default: float) -> list[float]:
    if spec.name in WIDE:
        values = list(WIDE[spec.name])
    elif spec.integer and spec.high - spec.low <= 4:
        values = list(range(int(spec.low), int(spec.high) + 1))
    else:
        middle = (spec.low + spec.high) / 2
        values = [spec.low, int(middle) if spec.integer else middle, spec.high]
    return [v for v in values if v != default]


def base_policies(default: str) -> list[tuple[str, bool]]:
    """A search player's other base policies (every tactician-family name), each with whether
    it is a variant checked under standard only; a per-profile one (``tuned``) is another
    vector in every profile, so it is checked in every profile."""
    names = [n for n, i in REGISTRY.items() if i.module == TACTICIAN_MODULE] + list(PER_PROFILE)
    return [(name, name not in PER_PROFILE) for name in names if name != default]


def settings() -> list[tuple[str, StrategyInfo, bool]]:
    """(label, strategy as played, varied): each registered strategy as registered, and for the
    first strategy registered on each parametric kernel, every parameter at each of its other
    values (one at a time), and a search player with every other base policy."""
    out = []
    modules_done = set()
    for name, info in REGISTRY.items():
        if name in EXCLUDED:
            continue
        search = info.module in SEARCH_MODULES
        base = with_params(info, name, SEARCH_FAST) if search else info
        out.append((name, base, False))
        if info.module in modules_done or info.module not in PARAM_SPECS:
            continue
        modules_done.add(info.module)
        for spec in PARAM_SPECS[info.module]:
            if search and spec.name in SEARCH_FAST:
                continue
            for value in non_default_values(spec, base.params[spec.name]):
                label = f"{name}-{spec.name}={value:g}"
                out.append((label, with_params(base, label,
                                               {spec.name: value, **ALONG.get(spec.name, {})}),
                            True))
        if search:
            for policy, varied in base_policies(info.base_policy):
                label = f"{name}-base_policy={policy}"
                out.append((label, with_base_policy(base, policy, label), varied))
    return out


def in_profile(label: str, profile: str) -> bool:
    """Whether a setting is checked in ``profile``: a search player's variants under standard
    only, but inference also where ``INFERRING`` names."""
    return profile == "standard" or (label, profile) == INFERRING


def slow(info: StrategyInfo) -> bool:
    """A search or learned player: its variants are checked in fewer profiles."""
    return info.module in SEARCH_MODULES | LEARNED_MODULES


def checked_in(info: StrategyInfo, varied: bool, label: str, profile: str) -> bool:
    """Whether a setting is checked in ``profile``: a search or learned player's variants as
    ``in_profile`` says, a learned player only where a model is shipped for the profile."""
    if info.module in LEARNED_MODULES and profile not in learned_profiles():
        return False
    return not (varied and slow(info) and not in_profile(label, profile))


def quick(info: StrategyInfo, varied: bool, profile: str, turn: str) -> bool:
    """Whether `make test` checks a setting in ``profile`` (``checked_in`` being true): all
    but a heuristic's variants, which play in standard and in the profile whose ``turn`` it is
    (``cases``). A variant plays its kernel's same code in every profile, so this gives every
    profile some variants and every variant two profiles at a third of the cost; `make
    conformance` checks the rest."""
    return not varied or slow(info) or profile in ("standard", turn)


def cases() -> list:
    """Every (setting, profile) checked: ``settings`` in each profile ``checked_in`` says, the
    heuristic variants taking the profiles other than standard in turn; those ``quick`` leaves
    out are conformance checks (HANDFOOT_LONG_CHECKS=1)."""
    others = [p for p in PROFILES if p != "standard"]
    out, variants = [], 0
    for label, info, varied in settings():
        turn = others[variants % len(others)]
        variants += varied
        for profile in PROFILES:
            if not checked_in(info, varied, label, profile):
                continue
            if quick(info, varied, profile, turn):
                out.append(pytest.param(label, info, profile, id=f"{label}-{profile}"))
            elif LONG:
                out.append(pytest.param(label, info, profile, id=f"{label}-{profile}",
                                        marks=pytest.mark.conformance))
    return out


CASES = cases()


def with_leaf_model(info: StrategyInfo, profile: str, folder: Path) -> StrategyInfo:
    """A search player with ``leaf = 1`` and no model: given a value model with random weights
    for the profile's rules, written in ``folder``; any other strategy as it is."""
    if info.module not in SEARCH_MODULES or not info.params.get("leaf") or info.model:
        return info
    path = folder / f"leaf-{profile}.json"
    write_model(path, random_model(PROFILES[profile][0], "mlp", "value", profile=profile))
    return with_model(info, str(path), info.name)


def check_strategy(info: StrategyInfo, profile: str, seed: int = 31, games: int = 2,
                   redeals: int = 2, hooks_of: StrategyInfo | None = None
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Play ``games`` games of ``info`` at every seat and check every decision; the stats, and
    the search seats' tallies (``w.search_stats``). With ``hooks_of``, the table is set up for
    ``info`` (its parameters, base policy and model) but plays ``hooks_of``'s hooks."""
    rules = PROFILES[profile][0]
    search = info.module in SEARCH_MODULES
    learned = info.module in LEARNED_MODULES
    table = make_table(rules, [info] * rules.players)
    if hooks_of is not None:
        table.hooks = seat_hooks([hooks_of] * rules.players)
    scratch_games = np.zeros(2, dtype=GAME_DTYPE)
    works = np.zeros(2, dtype=WORK_DTYPE)
    pool = np.zeros(MAX_CARDS, dtype=np.int8)
    stats = np.zeros(hc.N_STATS, dtype=np.int64)
    fail = np.zeros(hc.N_FAIL, dtype=np.int64)
    hc.seed_redeals(seed)
    for game in range(1 if search else games):
        ok = hc.check_game(*table.records(), seed, game, rules.deals_per_game,
                           not (search or learned), search or learned,
                           1 if search else redeals, SEARCH_POINTS if search else 10**6,
                           scratch_games, works, pool, stats, fail)
        if not ok:
            raise AssertionError(
                f"{info.name} ({profile}) cheats: hook {HOOK_NAMES[fail[hc.F_HOOK]]} of seat "
                f"{fail[hc.F_SEAT]} (game {game}, deal {fail[hc.F_DEAL]}, turn "
                f"{fail[hc.F_TURN]}, pending decision {Decision.words[fail[hc.F_PENDING]]}) "
                f"changed {hc.WHAT[int(fail[hc.F_WHAT])]} when only cards hidden from that "
                f"seat changed: value {fail[hc.F_VALUE_A]} -> {fail[hc.F_VALUE_B]}, entries "
                f"{fail[hc.F_ENTRIES_A]} -> {fail[hc.F_ENTRIES_B]}, lines {fail[hc.F_LINES_A]} "
                f"-> {fail[hc.F_LINES_B]}")
    return stats, np.array(table.w["search_stats"])


@pytest.mark.parametrize("label, info, profile", CASES)
def test_no_cheating_hidden_cards_do_not_change_any_decision(label, info, profile, tmp_path):
    info = with_leaf_model(info, profile, tmp_path)
    # A heuristic's every hook is asked at every decision of every seat: one game gives each
    # hook hundreds of checks (asserted below); the learned player, asked at its own decisions
    # only, plays two.
    heuristic = info.module not in SEARCH_MODULES | LEARNED_MODULES
    stats, tallies = check_strategy(info, profile, games=1 if heuristic else 2)
    rules = PROFILES[profile][0]
    checks = stats[:5]
    search = info.module in SEARCH_MODULES
    learned = info.module in LEARNED_MODULES
    kinds = [k for k in range(5) if not (k == Decision.GRANT and rules.individual)]
    if search:  # the pending decisions: pick-ups, melds and discards at least
        assert all(checks[k] > 0 for k in (0, 1, 4)), checks
    elif learned:  # every pending decision of two games, each redealt twice
        assert all(checks[k] >= 200 for k in (0, 1, 4)), checks
        assert list(checks) == list(2 * stats[hc.ST_PENDING:hc.ST_PENDING + 5]), stats
        # and the model's choices were among them, not only its base policy's
        assert tallies[:, SearchStat.SEARCHED].sum() > 0, tallies
        if info.params["margin"] <= REGISTRY["learned"].params["margin"]:
            assert tallies[:, SearchStat.LEFT_BASE].sum() > 0, tallies
    else:
        assert all(checks[k] >= 200 for k in kinds), dict(zip(HOOK_NAMES, checks, strict=True))
    # The redeals changed what they should: the stock's contents (not only its order), the
    # other hands, the Feet, and for the grant the asker's hand (for the learned player, asked
    # only at real asks, when its partners asked).
    total = int(checks.sum())
    assert stats[hc.ST_STOCK] >= 0.8 * stats[hc.ST_STOCK_BIG] > 0, stats
    assert stats[hc.ST_OTHERS] >= 0.9 * total and stats[hc.ST_FEET] > 0, stats
    asked = not learned or checks[Decision.GRANT] > 0
    if not search and not rules.individual and asked:
        assert stats[hc.ST_ASKER] >= 0.9 * stats[hc.ST_GRANT_VIEWS] > 0, stats
    if search and info.params.get("infer") == 1:  # inference did refuse worlds here
        assert tallies[:, SearchStat.REJECTED].sum() > 0, tallies
    if search and info.params.get("infer") == 2:  # and soft inference kept worlds by likelihood
        assert tallies[:, SearchStat.SOFT_WORLDS].sum() > 0, tallies


@pytest.mark.parametrize("profile", list(PROFILES))
def test_no_cheating_the_default_search_of_every_profile(profile):
    """``pimc`` as its name plays in each profile (strategies/search_defaults.toml: the
    profile's shipped value model at the leaves, where it has one), with few worlds: every
    hidden card dealt anew changes none of its decisions."""
    from strategies.per_profile import search_default
    from strategies.search_defaults import search_profiles

    rules = PROFILES[profile][0]
    info = with_params(search_default(rules), "pimc-default", SEARCH_FAST)
    assert bool(info.params["leaf"]) == (profile in search_profiles())
    stats, _ = check_strategy(info, profile)
    assert all(stats[k] > 0 for k in (0, 1, 4)), stats[:5]
    assert stats[hc.ST_OTHERS] >= 0.9 * int(stats[:5].sum()) and stats[hc.ST_FEET] > 0, stats


def test_the_registry_loop_leaves_out_only_the_oracles_and_includes_pimc():
    seeing = {name for name, info in REGISTRY.items() if info.sees_hidden}
    assert seeing == set(EXCLUDED) == {"oracle", "oracle-hands"}
    checked = {label.split("-")[0] for label, _, _ in settings()}
    assert checked == set(REGISTRY) - {"oracle", "oracle-hands"}
    assert "pimc" in checked and "tactician-hold_wilds=3" in {s[0] for s in settings()}
    labels = {s[0] for s in settings()}
    bases = {label for label in labels if label.startswith("pimc-base_policy=")}
    assert len(bases) == 2 and {"tactician", "cautious", "tuned"} == \
        {REGISTRY["pimc"].base_policy} | {b.split("=")[1] for b in bases}
    played = {label: info for label, info, _ in settings()}
    assert played["pimc-infer=1"].params["infer"] == 1
    assert played["pimc-infer_slack=0"].params["infer"] == 1  # the slack acts with inference
    assert {c.id for c in CASES if c.id.startswith("pimc-infer=1")} == \
        {"pimc-infer=1-standard", f"pimc-infer=1-{INFERRING[1]}"}
    assert played["pimc-infer=1"].base_policy == "tuned" == REGISTRY["pimc"].base_policy
    for spec in PARAM_SPECS["strategies.tactician"]:  # every knob at a non-default value
        assert any(label.startswith(f"tactician-{spec.name}=") for label in labels), spec.name
    assert {f"tactician-hold_wilds={v}" for v in (1, 2, 3)} <= labels


def test_each_heuristic_variant_is_checked_in_standard_and_another_profile(monkeypatch):
    """`make test`'s share of the heuristic variants (``quick``): each in standard and one
    other profile, every profile given some; `make conformance` adds the rest, so together
    every variant is checked in every profile."""
    monkeypatch.setattr(f"{__name__}.LONG", False)
    quick_ids = {c.id for c in cases()}
    variants = [(label, info) for label, info, varied in settings()
                if varied and info.module == TACTICIAN_MODULE]
    assert variants
    seen: set[str] = set()
    for label, _ in variants:
        where = {p for p in PROFILES if f"{label}-{p}" in quick_ids}
        assert "standard" in where and len(where) == 2, (label, where)
        seen |= where
    assert seen == set(PROFILES), seen
    monkeypatch.setattr(f"{__name__}.LONG", True)  # the conformance share: the rest
    rest = {c.id for c in cases() if c.marks}
    assert not rest & quick_ids
    assert all(f"{label}-{p}" in quick_ids | rest for label, _ in variants for p in PROFILES)


def search_base_policies_checked() -> dict[str, set[str]]:
    """pimc's base policies as ``cases`` checks them: each policy, the profiles it is played
    in (as registered, or as a ``pimc-base_policy=`` variant)."""
    where: dict[str, set[str]] = {}
    for case in cases():
        label, info, profile = case.values
        if label == "pimc" or label.startswith("pimc-base_policy="):
            where.setdefault(info.base_policy, set()).add(profile)
    return where


def test_a_per_profile_base_policy_is_checked_in_every_profile(monkeypatch):
    """A per-profile base policy (``tuned``: another vector in every profile) is checked in
    every profile, the tactician family's other base policies under standard only. pimc plays
    tuned as registered, so the registered pimc is that check (``base_policies`` leaves its
    default out: there is no ``pimc-base_policy=tuned`` case); were its default another policy,
    tuned would be a variant, and it too is checked in every profile."""
    family = [n for n, i in REGISTRY.items() if i.module == TACTICIAN_MODULE]
    everywhere, standard = set(PROFILES), {"standard"}

    def expected(default: str) -> dict[str, set[str]]:
        return {p: everywhere if p == default or p in PER_PROFILE else standard
                for p in [*family, *PER_PROFILE]}

    default = REGISTRY["pimc"].base_policy
    assert default in PER_PROFILE and len(PROFILES) > 1
    where = search_base_policies_checked()
    assert where == expected(default), where
    for other in family:  # pimc with a family default: tuned becomes a variant
        monkeypatch.setitem(REGISTRY, "pimc", with_base_policy(REGISTRY["pimc"], other, "pimc"))
        where = search_base_policies_checked()
        assert where == expected(other), (other, where)
        monkeypatch.undo()


def test_the_registry_loop_includes_learned_wherever_a_model_is_shipped():
    shipped = learned_profiles()
    ids = {c.id for c in CASES}
    for profile in PROFILES:
        assert (f"learned-{profile}" in ids) == (profile in shipped), profile
    if "standard" in shipped:  # every parameter at its other values, under standard
        for spec in PARAM_SPECS[LEARNED_MODULE]:
            assert any(i.startswith(f"learned-{spec.name}=") and i.endswith("-standard")
                       for i in ids), spec.name


def test_every_profile_ships_a_learned_model():
    """The learned player is checked above only where its profile has a shipped model
    (strategies/learned/models/<profile>.json): every profile must have one."""
    missing = [p for p in PROFILES if p not in learned_profiles()]
    assert missing == [], f"no shipped learned model for {missing} (see docs/learned.md)"


def test_real_grant_decisions_are_checked():
    """Asks happen in real play, and the granting partner's answer is checked on them."""
    stats, _ = check_strategy(REGISTRY["greedy"], "standard", games=3)
    assert stats[hc.ST_PENDING + Decision.GRANT] > 0
    assert stats[hc.ST_PENDING + Decision.GO_OUT] > 0


@pytest.mark.parametrize("hook", ["grant", "choose_discard"])
def test_the_check_catches_a_strategy_that_peeks(hook):
    """Greedy with one hook that peeks (tests/peeking/): at the asker's hand when granting,
    at the wilds left in the stock when discarding. The check must catch each."""
    info = StrategyInfo(f"peek-{hook}", f"tests.peeking.{hook}", "greedy that peeks")
    with pytest.raises(AssertionError, match=f"hook {hook} of seat"):
        check_strategy(info, "standard")


def test_the_check_catches_a_learned_player_that_peeks(tmp_path):
    """A learned table (a model for standard with random weights, tuned as its base policy)
    playing the hooks of tests/peeking/learned.py, which score a pick-up's and a meld's
    candidates on the real deal instead of imagined ones: the check must catch it. The same
    table with the real hooks passes."""
    info = load(str(learned_file(tmp_path, PROFILES["standard"][0], base_policy="tuned")))
    peeking = StrategyInfo("peek-learned", "tests.peeking.learned", "learned that peeks")
    with pytest.raises(AssertionError, match=r"hook (choose_pickup|propose_melds) of seat"):
        check_strategy(info, "standard", hooks_of=peeking)
    stats, tallies = check_strategy(info, "standard")
    assert stats[:5].sum() > 600 and tallies[:, SearchStat.LEFT_BASE].sum() > 0
