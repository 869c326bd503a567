"""``handfoot sweep``: one strategy parameter over several values, each value against the
same opponent on the same shuffles, with Holm's correction across the values."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from analysis.experiments.pairings import Pairing, PairRuns, PlayError, rules_and_profile, side
from analysis.experiments.players import Player, knob_side
from analysis.reports import plots
from analysis.reports.content import Comparisons, Content, Figure, Section
from analysis.reports.fmt import col, many_seats, pct, pts, pval, results_view
from analysis.reports.verdict import call
from strategies.per_profile import is_per_profile
from strategies.registry import POLICY_MODULES, load


def parse_param(text: str, strategy: str = "tactician") -> tuple[str, list[float]]:
    """``hold_wilds=0,1,2,3`` -> ("hold_wilds", [0, 1, 2, 3]), checked against the knob of
    ``strategy``'s parameters."""
    info = load("tactician" if is_per_profile(strategy) else strategy)
    if not info.parametric:
        raise PlayError(f"strategy '{strategy}' takes no parameters")
    PARAM_INDEX = {p.name: p for p in info.param_specs}  # noqa: N806
    if info.module in POLICY_MODULES:  # its base policy's knobs too (turned in the base)
        PARAM_INDEX.update({p.name: p for p in load("tactician").param_specs
                            if p.name not in PARAM_INDEX})
    name, sep, values = text.partition("=")
    name = name.strip()
    if not sep or not values.strip():
        raise PlayError(f"--param must look like NAME=V1,V2,... (got {text!r})")
    if name not in PARAM_INDEX:
        raise PlayError(f"unknown parameter '{name}' (known: {', '.join(PARAM_INDEX)})")
    p = PARAM_INDEX[name]
    out = []
    for item in values.split(","):
        try:
            v = float(item)
        except ValueError:
            raise PlayError(f"--param {name}: '{item}' is not a number") from None
        if p.integer and not v.is_integer():
            raise PlayError(f"--param {name}: must be whole numbers (got {item})")
        if not p.low <= v <= p.high:
            raise PlayError(f"--param {name}: {item} is outside {p.low:g}..{p.high:g}")
        if v in out:
            raise PlayError(f"--param {name}: {item} is given twice")
        out.append(v)
    return name, out


def _value(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"


def plan(player: Player, param: str, values: Sequence[float], against: str | None, rules: str,
         folder: Path, allow_oracle: bool = False) -> list[Pairing]:
    """One pairing per value; the opponent defaults to the player as it is. A parameter of
    a learned or search player's base policy is turned there (``players.knob_side``)."""
    resolved, profile = rules_and_profile(rules)
    strategy = player.spec
    opponent = side(against or strategy, folder,
                    label=None if against else f"{player.label} as is", rules=resolved,
                    allow_oracle=allow_oracle)
    own = {p.name for p in load(strategy if not is_per_profile(strategy) else "tactician")
           .param_specs}
    out = []
    for v in values:
        label = f"{player.label} {param}={_value(v)}"
        a = (side(strategy, folder, label=label, rules=resolved, allow_oracle=allow_oracle,
                  **{param: v}) if param in own else
             knob_side(player, folder, resolved, label, **{param: v}))
        out.append(Pairing(key=f"{param}-{_value(v)}", a=a, b=opponent, rules=rules,
                           group=profile, value=_value(v)))
    return out


def answer(results, param: str) -> list[str]:
    """The best value and, per value, its effect with intervals and the call it earns."""
    rows = list(results.iter_rows(named=True))
    words = {"better": "beats it", "worse": "loses to it", "unclear": "too close to call"}
    lines = []
    for r in rows:
        lines.append(
            f"{param}={r['value']} against {r['b']}: wins {pct(r['win_rate'])} (95% CI "
            f"{pct(r['win_low'])} to {pct(r['win_high'])}), {pts(r['diff_deal'], signed=True)} "
            f"points per deal (95% CI {pts(r['diff_deal_low'], signed=True)} to "
            f"{pts(r['diff_deal_high'], signed=True)}), Holm-corrected p = {pval(r['p_holm'])}: "
            f"{words[call(r)]}.")
    best = max(rows, key=lambda r: r["diff_deal"])
    overlapping = [r["value"] for r in rows if r is not best
                   and r["diff_deal_high"] >= best["diff_deal_low"]]
    lines.insert(0, f"Best value of {param}: {best['value']} ({pts(best['diff_deal'], signed=True)}"
                    " points per deal against the same opponent)" +
                 (f"; its interval overlaps those of {', '.join(overlapping)}, so those "
                  "cannot be ruled out as equally good." if overlapping else
                  "; its interval overlaps no other value's."))
    return lines


def build(pairs: list[PairRuns], params: dict, out: Path | None) -> Content:
    """Every value of the parameter against the same opponent, Holm-corrected."""
    c = Comparisons.read(pairs, holm=True)
    results = c.results
    param = params["param"]
    first = pairs[0].pairing
    player = params.get("player") or first.a.label.rsplit(f" {param}=", 1)[0]
    figs = []
    if out is not None:
        figs.append(Figure(plots.effect(results, param, out), f"Effect of {param} for {player}",
                           f"{player} with each value of {param} (A) against "
                           f"{first.b.label} (B): A - B per deal and A's win rate, on the same "
                           "shuffles; bars are 95% intervals (uncorrected; the table gives "
                           "Holm-corrected p-values)."))
    method = ["Holm's correction (statsmodels multipletests) across the values keeps the "
              "chance of any false call under 5%."]
    if params.get("player_why"):
        method.insert(0, f"The player: {player}, {params['player_why']}.")
    return Content(
        title=f"Sweep of {param} for {player} ({first.group}, against {first.b.label})",
        question=f"Which value of {param} plays best for {player} against {first.b.label}?",
        answer=answer(results, param),
        sections=[Section(f"{player}: each value against the same opponent",
                          results_view(True, (col(param, "text", "value"),),
                                       ranks=many_seats(results)),
                          note="p (Holm): corrected for the number of values swept.")],
        figures=figs, method=method, comparisons=c)
