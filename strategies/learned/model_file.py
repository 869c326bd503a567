"""Model files: one fitted value model per rule set, as JSON, and its flat array for the kernels.

A model file holds what the model was fitted on and how well it did beside the numbers
themselves: the rules id it is for, the feature version, the training seed and data size, the
held-out error and calibration, and (after expert iteration) each round's measured strength.
Everything here is plain Python (reading a model must not load the compiler).

A model also records the base policy it was fitted against (``base_policy``: its tactician
vector as played, its name, and the tuned file's sha256 where that is ``tuned``): an advantage
model scores a candidate *against that base's choice*, so a learned player whose base is
another plays the model outside what it was fitted on (``strategies.per_profile`` refuses it
unless the strategy says it accepts another base).

A file that cannot be used is refused in one line (``ModelError``): another rule set's model
(naming both rules ids), a corrupt or truncated file, a feature version other than the one
this handfoot computes, a model too big for the work area or its scratch.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from sim.core.capacity import MAX_FEATURES, MAX_HIDDEN, MODEL_SCRATCH, VALUE_MODEL_SLOTS
from strategies.lookahead.schema import (
    ADVANTAGE,
    FEATURE_NAMES,
    FEATURE_VERSION,
    HEADER,
    LINEAR,
    MLP,
    N_FEATURES,
    V_FEATURES,
    V_HIDDEN,
    V_KIND,
    V_TARGET,
    V_VERSION,
    VALUE,
    model_inputs,
    scratch_needed,
    slots_needed,
)

FORMAT = "handfoot-model/1"
KINDS = {"ridge": LINEAR, "mlp": MLP}
TARGETS = {"value": VALUE, "advantage": ADVANTAGE}

assert N_FEATURES <= MAX_FEATURES, "the work area's feature scratch is too small"


class ModelError(ValueError):
    """A model file that cannot be used here; the message names the file and why."""


@dataclass
class Model:
    """A fitted value model: standardisation, weights and what it was fitted on."""

    rules_id: str
    profile: str
    kind: str  # "ridge" or "mlp"
    mean: list[float]  # per input (the features; for an advantage model, then their change)
    scale: list[float]
    coef: list[float] = field(default_factory=list)  # ridge
    intercept: float = 0.0
    hidden_weights: list[list[float]] = field(default_factory=list)  # mlp: one row per unit
    hidden_bias: list[float] = field(default_factory=list)
    output_weights: list[float] = field(default_factory=list)
    output_bias: float = 0.0
    metadata: dict = field(default_factory=dict)
    feature_version: int = FEATURE_VERSION
    target: str = "value"  # "value" or "advantage" (strategies.lookahead.schema)
    # The base policy the targets were measured against: {"spec": name or file as given,
    # "params": its tactician vector, "tuned_sha256": the tuned file's hash or ""}; {} for a
    # file from before bases were recorded.
    base_policy: dict = field(default_factory=dict)

    @property
    def inputs(self) -> int:
        return model_inputs(TARGETS[self.target], N_FEATURES)

    def to_dict(self) -> dict:
        body = ({"coef": self.coef, "intercept": self.intercept} if self.kind == "ridge" else
                {"hidden_weights": self.hidden_weights, "hidden_bias": self.hidden_bias,
                 "output_weights": self.output_weights, "output_bias": self.output_bias})
        return {"format": FORMAT, "rules_id": self.rules_id, "profile": self.profile,
                "feature_version": self.feature_version, "feature_names": list(FEATURE_NAMES),
                "kind": self.kind, "target": self.target, "metadata": self.metadata,
                "base_policy": self.base_policy,
                "mean": self.mean,
                "scale": self.scale, **body}

    @property
    def hidden(self) -> int:
        return len(self.hidden_bias) if self.kind == "mlp" else 0

    def flat(self) -> np.ndarray:
        """The model as the kernels read it (``strategies.lookahead.value``): ``layout`` with
        its subnormal numbers zeroed (``flush_subnormals``)."""
        return flush_subnormals(self.layout(), HEADER)

    def layout(self) -> np.ndarray:
        """The fitted numbers in the kernels' layout, exactly (what a play fingerprint hashes:
        ``flat`` plays the same game)."""
        n = self.inputs
        target = TARGETS[self.target]
        out = np.zeros(slots_needed(KINDS[self.kind], target, N_FEATURES, self.hidden),
                       dtype=np.float64)
        out[V_KIND] = KINDS[self.kind]
        out[V_FEATURES] = N_FEATURES
        out[V_HIDDEN] = self.hidden
        out[V_VERSION] = self.feature_version
        out[V_TARGET] = target
        out[HEADER:HEADER + n] = self.mean
        out[HEADER + n:HEADER + 2 * n] = 1.0 / np.asarray(self.scale, dtype=np.float64)
        body = HEADER + 2 * n
        if self.kind == "ridge":
            out[body:body + n] = self.coef
            out[body + n] = self.intercept
        elif target == ADVANTAGE:
            self._fold(out, body)
        else:
            h = self.hidden
            out[body:body + h * n] = np.asarray(self.hidden_weights, dtype=np.float64).ravel()
            out[body + h * n:body + h * n + h] = self.hidden_bias
            out[body + h * n + h:body + h * n + 2 * h] = self.output_weights
            out[body + h * n + 2 * h] = self.output_bias
        return out

    def _fold(self, out: np.ndarray, body: int) -> None:
        """An advantage network with its standardisation folded into the weights
        (``strategies.lookahead.value``): K, U, C, the output weights and bias."""
        f, h = N_FEATURES, self.hidden
        weights = np.asarray(self.hidden_weights, dtype=np.float64)
        mean = np.asarray(self.mean, dtype=np.float64)
        inv = 1.0 / np.asarray(self.scale, dtype=np.float64)
        w1 = weights[:, :f] * inv[:f]  # per unit: the candidate's own features
        w2 = weights[:, f:] * inv[f:]  # and their change from the base candidate's
        k = np.asarray(self.hidden_bias) - w1 @ mean[:f] - w2 @ mean[f:]
        out[body:body + h] = k
        out[body + h:body + h + h * f] = w1.T.ravel()  # feature by feature
        out[body + h + h * f:body + h + 2 * h * f] = (w1 + w2).T.ravel()
        out[body + h + 2 * h * f:body + 2 * h + 2 * h * f] = self.output_weights
        out[body + 2 * h + 2 * h * f] = self.output_bias


def flush_subnormals(flat: np.ndarray, start: int) -> np.ndarray:
    """``flat`` with every number past ``start`` smaller than the smallest normal double set to
    zero.

    Training decays the weights of features that never vary towards zero, and hundreds of them
    end below 2**-1022 in every shipped network. On x86 each product with such a subnormal takes
    the microcode path, about a hundred cycles instead of one: the advantage network's shared
    term took 2,200 ns a decision with them and 310 ns without. Zeroing them plays the same
    game: a subnormal weight times an input of the models' range (|x| < 2**40) is below 2**-982,
    under half a unit in the last place of every sum the kernels form unless that sum is itself
    within 2**-929 of zero, so adding it changes no bit; the golden cases and 1,000-game records
    in three profiles are byte-identical with and without (issue 29)."""
    body = flat[start:]
    body[np.abs(body) < np.finfo(np.float64).tiny] = 0.0
    return flat


def dumps(model: Model) -> str:
    """The file's text: the same model always gives the same bytes."""
    return json.dumps(model.to_dict(), indent=1, sort_keys=True) + "\n"


def write_model(path: Path, model: Model) -> None:
    """Write atomically (a temporary file renamed into place): a failure leaves the old file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(dumps(model), encoding="utf-8")
    os.replace(tmp, path)


def file_digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def _numbers(path, data: dict, key: str, length: int) -> list[float]:
    values = data.get(key)
    if not isinstance(values, list) or len(values) != length or not all(
            isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
            for v in values):
        raise ModelError(f"model file {path} is damaged: '{key}' is not {length} finite numbers")
    return [float(v) for v in values]


def _number(path, data: dict, key: str) -> float:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ModelError(f"model file {path} is damaged: '{key}' is not a finite number")
    return float(value)


def read_model(path: str | Path, rules_id: str | None = None) -> Model:
    """The model in ``path``; with ``rules_id``, refused unless it was fitted for those rules."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ModelError(f"model file {path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ModelError(f"model file {path} cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelError(f"model file {path} is truncated or corrupt (not valid JSON: "
                         f"{exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ModelError(f"{path} is not a handfoot model file (format "
                         f"{data.get('format') if isinstance(data, dict) else None!r}, "
                         f"expected {FORMAT!r})")
    version = data.get("feature_version")
    if version != FEATURE_VERSION:
        raise ModelError(f"model file {path} was fitted on feature version {version}, and this "
                         f"handfoot computes version {FEATURE_VERSION}; refit it with "
                         "`handfoot learn`")
    if data.get("feature_names") != list(FEATURE_NAMES):
        raise ModelError(f"model file {path} is damaged: its feature names are not those of "
                         f"feature version {FEATURE_VERSION}")
    made_for = data.get("rules_id")
    if not isinstance(made_for, str):
        raise ModelError(f"model file {path} is damaged: no rules id")
    if rules_id is not None and made_for != rules_id:
        raise ModelError(f"model file {path} is for rules id {made_for} "
                         f"({data.get('profile', '?')}), not these rules (id {rules_id})")
    kind = data.get("kind")
    if kind not in KINDS:
        raise ModelError(f"model file {path} is damaged: kind {kind!r} (known: "
                         f"{', '.join(KINDS)})")
    target = data.get("target", "value")
    if target not in TARGETS:
        raise ModelError(f"model file {path} is damaged: target {target!r} (known: "
                         f"{', '.join(TARGETS)})")
    n = model_inputs(TARGETS[target], N_FEATURES)
    scale = _numbers(path, data, "scale", n)
    if any(s <= 0 for s in scale):
        raise ModelError(f"model file {path} is damaged: a feature scale is not positive")
    model = Model(rules_id=made_for, profile=str(data.get("profile", "")), kind=kind,
                  mean=_numbers(path, data, "mean", n), scale=scale,
                  metadata=data.get("metadata") if isinstance(data.get("metadata"), dict)
                  else {}, target=target)
    if kind == "ridge":
        model.coef = _numbers(path, data, "coef", n)
        model.intercept = _number(path, data, "intercept")
    else:
        bias = data.get("hidden_bias")
        hidden = len(bias) if isinstance(bias, list) else 0
        if hidden < 1:
            raise ModelError(f"model file {path} is damaged: no hidden units")
        rows = data.get("hidden_weights")
        if not isinstance(rows, list) or len(rows) != hidden:
            raise ModelError(f"model file {path} is damaged: 'hidden_weights' is not "
                             f"{hidden} rows")
        model.hidden_weights = [_numbers(path, {"row": r}, "row", n) for r in rows]
        model.hidden_bias = _numbers(path, data, "hidden_bias", hidden)
        model.output_weights = _numbers(path, data, "output_weights", hidden)
        model.output_bias = _number(path, data, "output_bias")
    check_fits(path, KINDS[kind], TARGETS[target], N_FEATURES, model.hidden)
    model.base_policy = _base_policy(path, data.get("base_policy", {}))
    return model


def check_fits(path, kind: int, target: int, n_features: int, hidden: int) -> None:
    """Refuse a model whose numbers or whose evaluation's scratch would not fit the work area
    (numba checks no bounds: a bigger one would write past its arrays)."""
    if hidden > MAX_HIDDEN:
        raise ModelError(f"model file {path} has {hidden} hidden units; the engine takes at "
                         f"most {MAX_HIDDEN}")
    if n_features > MAX_FEATURES:
        raise ModelError(f"model file {path} reads {n_features} features; the engine takes at "
                         f"most {MAX_FEATURES}")
    need = slots_needed(kind, target, n_features, hidden)
    if need > VALUE_MODEL_SLOTS:
        raise ModelError(f"model file {path} is too big for the engine ({need} numbers, at "
                         f"most {VALUE_MODEL_SLOTS})")
    scratch = scratch_needed(kind, target, n_features, hidden)
    if scratch > MODEL_SCRATCH:
        raise ModelError(f"model file {path} needs {scratch} numbers of scratch to evaluate; "
                         f"the engine has {MODEL_SCRATCH}")


def _base_policy(path, base) -> dict:
    """The recorded base policy, checked: a name, a vector of finite numbers, a hash."""
    if base == {}:
        return {}
    params = base.get("params") if isinstance(base, dict) else None
    if not isinstance(base, dict) or not isinstance(base.get("spec"), str) \
            or not isinstance(params, dict) or not isinstance(base.get("tuned_sha256", ""), str):
        raise ModelError(f"model file {path} is damaged: 'base_policy' is not a name, a "
                         "parameter table and a hash")
    values = _numbers(path, {"base": list(params.values())}, "base", len(params))
    return {"spec": base["spec"], "params": dict(zip(params, values, strict=True)),
            "tuned_sha256": base.get("tuned_sha256", "")}


def base_differs(model: Model, params: dict[str, float]) -> bool:
    """Does a player whose base policy plays ``params`` play ``model`` outside what it was
    fitted on? (A file without a recorded base cannot say: it does.)"""
    have = model.base_policy.get("params")
    if not have:
        return True
    return {k: float(v) for k, v in have.items()} != {k: float(v) for k, v in params.items()}


def describe_base(params: dict[str, float]) -> str:
    """A base vector in one short line: its knobs as name=value."""
    return ", ".join(f"{k}={float(v):g}" for k, v in sorted(params.items())) or "none recorded"


_FLAT_CACHE: dict[tuple[str, str], np.ndarray] = {}


def remember_flat(path: str, sha256: str, flat: np.ndarray) -> None:
    """Keep ``flat`` as the model file ``path`` of ``sha256`` (a cluster worker, sent the model
    by its client, then reads no file: ``sim.runs.runner.receive_models``)."""
    _FLAT_CACHE.setdefault((path, sha256), flat)


def flat_for(path: str, sha256: str) -> np.ndarray:
    """The flat array of the model file ``path``, which must still be the file whose sha256
    was recorded when the strategy met its rules (a run resumed after its model file changed
    would no longer be one experiment)."""
    key = (path, sha256)
    if key not in _FLAT_CACHE:
        try:
            digest = file_digest(Path(path))
        except OSError as exc:
            raise ModelError(f"model file {path} cannot be read ({exc.strerror})") from None
        if digest != sha256:
            raise ModelError(f"model file {path} has changed since this strategy was set up "
                             f"(sha256 {digest[:12]}, expected {sha256[:12]})")
        _FLAT_CACHE[key] = read_model(path).flat()
    return _FLAT_CACHE[key]


def seat_value_models(infos) -> np.ndarray:
    """One row per seat for ``w.value_model``: the seat's model, zeros for a seat without."""
    out = np.zeros((len(infos), VALUE_MODEL_SLOTS), dtype=np.float64)
    for s, info in enumerate(infos):
        if getattr(info, "model_sha256", ""):
            flat = flat_for(info.model, info.model_sha256)
            out[s, : flat.shape[0]] = flat
    return out
