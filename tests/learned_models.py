"""Helpers of the learned-player tests: value models with random weights (any rules, any kind
and target) and strategy files that play them.

A random model plays nothing well, which is what the rule and no-cheating checks want: its
choices between the sensible candidates are arbitrary, so they visit lines the base policy
alone would not. The output weights are large, so candidates often differ by more than the
player's margin and it leaves its base policy's choice.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from sim.core.rules import Rules
from strategies.learned.model_file import TARGETS, Model, write_model
from strategies.lookahead.schema import N_FEATURES, model_inputs


def random_model(rules: Rules, kind: str = "mlp", target: str = "advantage", hidden: int = 8,
                 seed: int = 0, profile: str = "custom") -> Model:
    """A model for ``rules`` with random standardisation and weights."""
    rng = np.random.default_rng(seed)
    n = model_inputs(TARGETS[target], N_FEATURES)
    common = {"rules_id": rules.rules_id, "profile": profile, "kind": kind, "target": target,
              "mean": rng.normal(0.0, 5.0, n).tolist(),
              "scale": rng.uniform(0.5, 20.0, n).tolist(),
              "metadata": {"made_by": "tests/learned_models.py", "seed": seed}}
    if kind == "ridge":
        return Model(coef=rng.normal(0.0, 100.0, n).tolist(),
                     intercept=float(rng.normal(0.0, 50.0)), **common)
    return Model(hidden_weights=rng.normal(0.0, 0.3, (hidden, n)).tolist(),
                 hidden_bias=rng.normal(0.0, 0.5, hidden).tolist(),
                 output_weights=rng.normal(0.0, 300.0, hidden).tolist(),
                 output_bias=float(rng.normal(0.0, 50.0)), **common)


def learned_file(folder: Path, rules: Rules, name: str = "learned", seed: int = 0,
                 base_policy: str | None = None, any_base: bool = True, **model_kw) -> Path:
    """A strategy file ``folder/<name>.toml`` playing ``learned`` with a random model for
    ``rules`` (written beside it, named by a relative path); ``base_policy`` when given. A
    random model was fitted against no base policy, so the file says it plays over any
    (``any_base``) unless told otherwise."""
    model = folder / f"{name}-model.json"
    write_model(model, random_model(rules, seed=seed, **model_kw))
    lines = ['base = "learned"', f'model = "{model.name}"']
    if any_base:
        lines.append("any_base = true")
    if base_policy:
        lines.append(f'base_policy = "{base_policy}"')
    path = folder / f"{name}.toml"
    path.write_text("\n".join(lines) + "\n")
    return path
