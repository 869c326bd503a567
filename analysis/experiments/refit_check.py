"""Does a `learned` verdict of the guide move when the model is refitted on the changed base?

The guide measures a piece of advice for `learned` by turning a tactician knob of its base
policy and keeping the model fitted over the unchanged base (``players.knob_side``,
``any_base``): the model then scores candidates against a base it was not fitted against. This
measures, per knob, how far that moves the verdict, under standard:

* ``today``: the guide's own measure with the shipped model, learned with the knob turned in its
  base (``any_base``) against learned as shipped;
* ``kept``: the same with round 1's model of the shipped recipe (20,000 games of tuned, seed
  1): learned (round 1) with the knob turned, model kept, against learned (round 1);
* ``refit``: learned with a model refitted on the knob-changed base (the same recipe: one
  round of 20,000 games of that base, seed 1) against learned (round 1).

``kept`` and ``refit`` meet the same opponent on the same shuffles, so their difference, shuffle
by shuffle (``effect_difference``), is what refitting moves the verdict by, with its interval;
``today`` is beside it for scale. The learn runs and matches are kept under ``--root`` and
reused. ``python -m analysis.experiments.refit_check`` (``make refit-check``); the figures are
JSON lines on standard output.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

KNOBS = (("hold_wilds", 1), ("hold_wilds", 2), ("books_before_partner", 1))
RULES = "standard"
GAMES = 20_000
SEED = 1


def _files(root: Path, knob: str, value: int, round1: Path, jobs: int, note) -> dict[str, str]:
    """The three players of a knob: today's (shipped model, any base), kept (round 1's model,
    any base) and refit (a model fitted on the changed base), each over the changed base."""
    from analysis.experiments.learn import LearnSettings, learn
    from analysis.experiments.pairings import strategy_file
    from sim.core.profiles import load_rules
    from strategies.per_profile import learned_file, resolve_spec

    rules = load_rules(RULES)
    tuned = resolve_spec("tuned", rules)
    base = strategy_file(tuned, root, f"tuned-{knob}{value}", f"tuned with {knob} = {value}",
                         {knob: value})
    model = root / f"refit-{knob}{value}.json"
    if not model.is_file():
        learn(LearnSettings(rules=RULES, player=base, seed=SEED, games=GAMES), model,
              root / "runs", name=f"refit-{knob}{value}", jobs=jobs, progress=True, note=note)
    out = {}
    for name, path, any_base in (("today", learned_file(RULES), True),
                                 ("kept", round1, True), ("refit", model, False)):
        text = (f'# learned over tuned with {knob} = {value}: the {name} player\n'
                f'base = "learned"\nmodel = "{Path(path).resolve()}"\n'
                f'base_policy = "{base}"\n' + ("any_base = true\n" if any_base else ""))
        file = root / f"{name}-{knob}{value}.toml"
        file.write_text(text, encoding="utf-8")
        out[name] = str(file)
    return out


def _round1(root: Path, round1: Path) -> str:
    file = root / "round1.toml"
    file.write_text(f'# learned with round 1 of the shipped recipe\nbase = "learned"\n'
                    f'model = "{round1.resolve()}"\n', encoding="utf-8")
    return str(file)


def measure(root: Path, round1: Path, shuffles: int, seed: int, jobs: int) -> list[dict]:
    """One figure line per knob (see the module's docstring)."""
    from analysis.experiments.pairings import Pairing, Side
    from analysis.experiments.playing import play_pairs
    from analysis.statistics.paired import analyse_seatings, effect_difference
    from sim.core.profiles import load_rules

    def note(message: str) -> None:
        print(f"refit-check: {message}", file=sys.stderr)

    lines = []
    r1 = _round1(root, round1)
    for knob, value in KNOBS:
        files = _files(root, knob, value, round1, jobs, note)
        opponents = {"today": "learned", "kept": r1, "refit": r1}
        pairings = [Pairing(key=f"{name}-{knob}{value}", a=Side(name, files[name]),
                            b=Side("baseline", opponents[name]), rules=RULES, group=RULES)
                    for name in ("today", "kept", "refit")]
        pairs = play_pairs(pairings, root / "matches", seed, shuffles, jobs=jobs, progress=True,
                           note=note)
        results = {p.pairing.a.label: analyse_seatings(p.runs) for p in pairs}
        line: dict = {"knob": knob, "value": value, "shuffles": shuffles, "seed": seed}
        for name, (result, _) in results.items():
            line[name] = {"wins": round(result.win_rate, 4), "low": round(result.win_low, 4),
                          "high": round(result.win_high, 4),
                          "per_deal": round(result.per_deal.mean, 1),
                          "per_deal_low": round(result.per_deal.low, 1),
                          "per_deal_high": round(result.per_deal.high, 1)}
        moved = effect_difference(results["refit"][1], results["kept"][1])
        deals = load_rules(RULES).deals_per_game
        line["refit_minus_kept_per_deal"] = {"mean": round(moved.mean / deals, 1),
                                             "low": round(moved.low / deals, 1),
                                             "high": round(moved.high / deals, 1)}
        print(json.dumps(line), flush=True)
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path("runs/refit-check"))
    parser.add_argument("--round1", type=Path,
                        default=Path("runs/learn-standard-tuned-s1-g20000-advantage-mlp-round1.json"),
                        help="round 1's model of the shipped recipe (docs/learned.md)")
    parser.add_argument("--shuffles", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=28028)
    parser.add_argument("--jobs", type=int, default=0)
    args = parser.parse_args(argv)
    if not args.round1.is_file():
        parser.error(f"{args.round1} does not exist: rebuild the standard model first "
                     "(docs/learned.md, 'Rebuilding the shipped models')")
    args.root.mkdir(parents=True, exist_ok=True)
    measure(args.root.resolve(), args.round1, args.shuffles, args.seed, args.jobs)


if __name__ == "__main__":
    main()
