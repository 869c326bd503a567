"""``handfoot position from-trace | analyze``: cut a position from a trace, and ask what to do
in it (docs/positions.md)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from sim.cli.errors import UserError


@click.group(epilog="Examples: handfoot position from-trace deals.jsonl --game 0 --deal 2 "
                    "--turn 17 --out p.json;  handfoot position analyze p.json --worlds 512")
def position() -> None:
    """Positions: a game at a decision point, as a seat sees it (or the whole truth)."""


@position.command("from-trace", epilog="Example: handfoot trace --games 1 --out t.jsonl && "
                  "handfoot position from-trace t.jsonl --game 0 --deal 1 --turn 12")
@click.argument("trace", type=click.Path(path_type=Path))
@click.option("--game", "-g", type=int, default=0, show_default=True, help="Game index.")
@click.option("--deal", "-d", type=int, default=1, show_default=True, help="Deal 1-4.")
@click.option("--turn", "-t", type=int, required=True,
              help="Turn of the deal (1 is the first).")
@click.option("--decision", type=click.Choice(["pick-up", "meld", "grant", "go out",
                                               "discard"]), default="pick-up",
              show_default=True, help="Cut at the turn's first decision of this kind.")
@click.option("--seat", "-s", type=int, default=None,
              help="Whose view to write  [default: the seat to decide]")
@click.option("--truth", is_flag=True,
              help="Write every card where it lies instead of a seat's view (for tests).")
@click.option("--out", "-o", type=click.Path(path_type=Path), default=None,
              help="File to write  [default: standard output]")
def from_trace(trace: Path, game: int, deal: int, turn: int, decision: str, seat: int | None,
               truth: bool, out: Path | None) -> None:
    """The position at a turn of a traced deal (its start, or its first meld, grant, go-out
    or discard decision), replayed through the engine."""
    from sim.engine.layout import S_DECIDER
    from sim.play.positions import position_dict, position_from_trace
    from sim.runs.trace import read_trace

    if turn < 1:
        raise UserError(f"--turn must be at least 1 (got {turn})")
    if not 1 <= deal <= 4:
        raise UserError(f"--deal must be 1-4 (got {deal})")
    if truth and seat is not None:
        raise UserError("give either --truth or --seat, not both")
    rules, table = position_from_trace(read_trace(trace), game, deal, turn, decision)
    view = None if truth else (int(table.g["sc"][S_DECIDER]) if seat is None else seat)
    data = position_dict(table.g, rules, view=view)
    text = json.dumps(data, indent=1) + "\n"
    if out is None:
        sys.stdout.write(text)
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot write --out {out}: {exc.strerror}") from None
    who = "every card" if view is None else f"seat {view}'s view"
    click.echo(f"wrote {out}: game {game}, deal {deal}, turn {turn} ({who})")


@position.command("analyze", epilog="Examples: handfoot position analyze p.json --worlds 512;  "
                  "handfoot position analyze hand.toml  (a position typed at the table: "
                  "docs/positions.md)")
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--worlds", "-w", type=int, default=256, show_default=True,
              help="Imagined deals of the unseen cards each candidate is played on in.")
@click.option("--base-policy", default=None,
              help="The policy that plays every seat of the imagined deals on: a "
                   "tactician-family strategy (tactician, cautious, tuned) or strategy file. "
                   "[default: pimc's base policy]")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def analyze(file: Path, worlds: int, base_policy: str | None, as_json: bool) -> None:
    """Every candidate action of the seat to decide, with its expected deal score difference
    (own partnership minus the best other) and 95% interval, and the recommended one. The
    candidates and the play of the imagined deals are pimc's, with its base policy."""
    from analysis.experiments.positions import analyze as run
    from analysis.experiments.positions import format_analysis
    from sim.play.positions import read_position

    if worlds < 2:
        raise UserError(f"--worlds must be at least 2 (got {worlds})")
    result = run(read_position(file), worlds=worlds, base_policy=base_policy)
    if as_json:
        click.echo(json.dumps(result.to_dict(), indent=1))
    else:
        click.echo(format_analysis(result))
