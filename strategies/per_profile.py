"""Strategy names that resolve per rule set, and resolving any strategy where it meets the
rules it will play under.

``tuned`` is the tactician with the parameters ``handfoot tune`` found best for the profile
being played; its files ship with the package (``strategies/tuned/<profile>.toml``). A name
like that means nothing until the rules are known, and neither does a search player's base
policy when it is ``tuned`` (``base_policy``, ``strategies.registry``). So every place a
strategy meets a rule set (a run's spec, ``make_table``, a comparison) resolves it here, and
what it resolved to is kept in the ``StrategyInfo`` (its parameters, a search player's
``base_params``), which a run's manifest records: a run made before a tuned file changed is
never mistaken for one made after, and a resume plays the base it started with.

Plain Python in the strategies layer (``sim.play.api.make_table`` resolves here; reading a
run must not load the compiler); every layer above resolves strategy names here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from sim.core.profiles import PROFILES, profile_name
from sim.core.rules import Rules
from strategies.learned.model_file import (
    ModelError,
    base_differs,
    describe_base,
    file_digest,
    read_model,
)
from strategies.registry import (
    ANY_BASE_KEY,
    BASE_POLICY_KEY,
    LEARNED_MODULE,
    MODEL_KEY,
    MODEL_MODULES,
    PER_PROFILE,
    POLICY_MODULES,
    REGISTRY,
    SEARCH_MODULES,
    TUNED,
    StrategyError,
    StrategyInfo,
    load,
    policy_info,
    with_params,
)
from strategies.search_defaults import profile_search

# The registered search player whose name plays per-profile defaults (``search_default``).
SEARCH = "pimc"

__all__ = ["PER_PROFILE", "TUNED", "check_spec", "is_per_profile", "learned_file",
           "learned_profiles", "resolve_base", "resolve_model", "resolve_played", "resolve_seats",
           "resolve_spec", "search_default", "tuned_dir", "tuned_file", "tuned_profiles",
           "value_file"]


def tuned_dir() -> Path:
    """Where the shipped tuned files are (package data of ``strategies``)."""
    return Path(str(resources.files("strategies") / "tuned"))


def tuned_file(profile: str) -> Path:
    return tuned_dir() / f"{profile}.toml"


def tuned_profiles() -> list[str]:
    """Profiles that have a shipped tuned file, in the profiles' order."""
    return [name for name in PROFILES if tuned_file(name).is_file()]


def learned_file(profile: str) -> Path:
    """The shipped value model of a profile (``handfoot learn``; package data)."""
    return Path(str(resources.files("strategies") / "learned" / "models")) / f"{profile}.json"


def learned_profiles() -> list[str]:
    """Profiles that have a shipped value model, in the profiles' order."""
    return [name for name in PROFILES if learned_file(name).is_file()]


def value_file(profile: str) -> Path:
    """The shipped value model of a profile, which ``pimc`` scores its leaves with
    (``handfoot learn --target value``; package data)."""
    return learned_file(profile).with_suffix(".value.json")


def search_default(rules: Rules) -> StrategyInfo:
    """What the name ``pimc`` plays under ``rules``: the profile's shipped defaults
    (``strategies/search_defaults.toml``: a value model at the leaves, its horizon and worlds
    read off a measured curve) with the profile's value model, or the registry's parameters
    (rollouts to the end) for a rule file or a profile without shipped defaults."""
    registered = REGISTRY[SEARCH]
    profile = profile_name(rules)
    shipped = profile_search(profile) if profile != "custom" else None
    if shipped is None:
        return registered
    model = value_file(profile)
    if not model.is_file():
        raise StrategyError(f"{SEARCH}: the defaults of profile {profile} score leaves with "
                            f"{model.name}, which is missing from this installation")
    info = with_params(registered, SEARCH, shipped.params)
    return dataclasses.replace(info, model=str(model.resolve()), model_sha256="",
                               summary=f"{registered.summary}; under {profile}: a value model "
                                       f"at the leaves ({shipped.words()}; "
                                       "strategies/search_defaults.toml)")


def resolve_model(info: StrategyInfo, rules: Rules) -> StrategyInfo:
    """A learned player with its value model checked for ``rules`` (its own file, or the
    shipped model of the rules' profile): absolute path and sha256 recorded. One-line
    StrategyError for a model that is missing, damaged or fitted for other rules."""
    if info.module not in MODEL_MODULES or info.model_sha256:
        return info
    if info.module in SEARCH_MODULES:
        return _search_model(info, rules)
    path = Path(info.model) if info.model else None
    if path is None:
        profile = profile_name(rules)
        path = learned_file(profile)
        if profile == "custom" or not path.is_file():
            have = ", ".join(learned_profiles()) or "none"
            where = (f"these rules are not a named profile (rules id {rules.rules_id})"
                     if profile == "custom" else f"no model is shipped for profile {profile}")
            raise StrategyError(f"{info.name}: {where} (shipped: {have}); fit one with "
                                f"`handfoot learn --rules RULES --out MODEL.json` and name it in "
                                f"a strategy file: base = \"{info.base}\" and {MODEL_KEY} = "
                                "\"MODEL.json\"")
    try:
        read_model(path, rules.rules_id)
        digest = file_digest(path)
    except ModelError as exc:
        raise StrategyError(f"{info.name}: {exc}") from None
    return dataclasses.replace(info, model=str(path.resolve()), model_sha256=digest)


def is_per_profile(spec: str) -> bool:
    return spec in PER_PROFILE


def _per_profile(spec: str, rules: Rules, custom_hint: str) -> StrategyInfo:
    """The per-profile name ``spec`` under ``rules``: the rules' tuned tactician."""
    profile = profile_name(rules)
    if profile == "custom":
        raise StrategyError(custom_hint)
    path = tuned_file(profile)
    if not path.is_file():
        have = ", ".join(tuned_profiles()) or "none"
        raise StrategyError(f"strategy '{spec}': no tuned file for profile {profile} "
                            f"(have: {have})")
    info = load(str(path))
    return StrategyInfo(spec, info.module, f"tactician tuned for {profile} ({path.name})",
                        dict(info.params), info.sees_hidden)


def _search_model(info: StrategyInfo, rules: Rules) -> StrategyInfo:
    """A search player's value model, read only with ``leaf = 1`` (then it must be named, and
    be a value model: the leaves need a position's value, not a candidate's advantage)."""
    if not info.params.get("leaf"):
        return info
    if int(info.params.get("horizon", 0)) < 1:
        raise StrategyError(f"{info.name}: leaf = 1 scores rollouts where they stop, after "
                            "'horizon' of the searcher's turns; set horizon = 1 or more")
    if not info.model:
        raise StrategyError(f"{info.name}: leaf = 1 needs {MODEL_KEY} = \"FILE\", a value model "
                            "(`handfoot learn --target value --out FILE`)")
    try:
        model = read_model(info.model, rules.rules_id)
        digest = file_digest(Path(info.model))
    except ModelError as exc:
        raise StrategyError(f"{info.name}: {exc}") from None
    if model.target != "value":
        raise StrategyError(f"{info.name}: {info.model} predicts a candidate's advantage; the "
                            "leaves need a value model (`handfoot learn --target value`)")
    return dataclasses.replace(info, model=str(Path(info.model).resolve()), model_sha256=digest)


def resolve_base(info: StrategyInfo, rules: Rules) -> StrategyInfo:
    """A search or learned player with its base policy resolved for ``rules`` (``tuned``: the
    tuned file of the rules' profile; refused, in one line, for a rule file that has none);
    any other strategy, or one already resolved, as it is."""
    if info.module not in POLICY_MODULES or info.base_params:
        return info
    default = REGISTRY[info.base].base_policy
    spec = info.base_policy or default
    if spec in PER_PROFILE:
        which = f"{info.base}'s default, " if spec == default else ""
        hint = (f"{info.name}: its base policy '{spec}' ({which}{PER_PROFILE[spec]}) has none for "
                f"these rules (a rule file, not a named profile; rules id {rules.rules_id}); "
                f"name one in a strategy file: base = \"{info.base}\" and {BASE_POLICY_KEY} = "
                "\"cautious\" or a tactician strategy file (`handfoot tune cautious --rules "
                "FILE --out FILE.toml` makes one)")
        policy = _per_profile(spec, rules, hint)
    else:
        policy = policy_info(spec, info.name)
    return dataclasses.replace(info, base_policy=spec, base_params=dict(policy.params))


def resolve_played(info: StrategyInfo, rules: Rules) -> StrategyInfo:
    """Everything of ``info`` that depends on the rules: its value model checked
    (``resolve_model``), its base policy resolved (``resolve_base``), and the two checked
    against each other (``check_base``)."""
    played = resolve_base(resolve_model(info, rules), rules)
    check_base(played)
    return played


_MODELS: dict[tuple[str, str], object] = {}


def check_base(info: StrategyInfo) -> None:
    """Refuse, in one line naming both, a learned player whose base policy is not the one its
    advantage model was fitted against: the model scores how much better a candidate is than
    *that* base's choice, so over another base its scores mean something else. A strategy file
    with ``any_base = true`` plays it anyway (the guide's knob changes say so in their
    report)."""
    if info.module != LEARNED_MODULE or info.any_base or not info.model_sha256:
        return
    key = (info.model, info.model_sha256)
    if key not in _MODELS:
        try:
            _MODELS[key] = read_model(info.model)
        except ModelError as exc:
            raise StrategyError(f"{info.name}: {exc}") from None
    model = _MODELS[key]
    if not base_differs(model, info.base_params):
        return
    fitted = model.base_policy
    if not fitted:
        raise StrategyError(f"{info.name}: model file {info.model} does not record the base "
                            "policy it was fitted against (made before handfoot recorded it); "
                            "refit it with `handfoot learn`, or set "
                            f"{ANY_BASE_KEY} = true in a strategy file to play it anyway")
    diff = {k: v for k, v in info.base_params.items()
            if float(fitted["params"].get(k, float("nan"))) != float(v)}
    was = {k: fitted["params"].get(k) for k in diff}
    raise StrategyError(f"{info.name}: its model ({Path(info.model).name}) was fitted against "
                        f"base policy {fitted['spec']} ({describe_base(was)}) and this player's "
                        f"base is {info.base_policy or 'another'} ({describe_base(diff)}); refit "
                        f"the model on this base with `handfoot learn --player ...`, or set "
                        f"{ANY_BASE_KEY} = true in a strategy file to play it anyway")


def resolve_spec(spec: str, rules: Rules) -> StrategyInfo:
    """The strategy ``spec`` plays under ``rules``: a registered name, a strategy file, or a
    per-profile name resolved to the rules' profile; a search player's base policy resolved
    too."""
    if spec == SEARCH:
        return resolve_played(search_default(rules), rules)
    if not is_per_profile(spec):
        return resolve_played(load(spec), rules)
    hint = (f"strategy '{spec}' resolves per profile and these rules are not a named profile "
            f"(rules id {rules.rules_id}); tune one with `handfoot tune tactician --rules FILE "
            "--out FILE.toml` and play that file")
    return _per_profile(spec, rules, hint)


def resolve_seats(seat_specs: Sequence[str | StrategyInfo], rules: Rules) -> list[StrategyInfo]:
    """One ``StrategyInfo`` per seat, per-profile names and base policies resolved for
    ``rules``."""
    return [resolve_played(s, rules) if isinstance(s, StrategyInfo) else resolve_spec(s, rules)
            for s in seat_specs]


def check_spec(spec: str) -> None:
    """Refuse an unknown strategy name or a bad strategy file now, before any rules are
    known (a per-profile name, or a base policy ``tuned``, is checked when it meets the
    rules)."""
    if not is_per_profile(spec):
        load(spec)
