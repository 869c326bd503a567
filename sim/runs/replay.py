"""A deal told turn by turn in plain words, from its trace (``handfoot replay``), so a reader
can watch the bots play: who drew, who picked up what, what was melded, who asked, who went
out, and the score."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

PART_NAMES = {"melded": "melded cards", "left": "cards left", "red3": "red threes",
              "books": "books", "out": "going out", "grab22": "exact-22 grab"}


class ReplayError(ValueError):
    """A trace without the asked-for deal."""


def _cards(cards: list[str]) -> str:
    return " ".join(cards) if cards else "nothing"


def _melds(entries: list[dict]) -> str:
    parts = []
    for e in entries:
        onto = f" onto the {e['rank']} book" if e.get("book") else ""
        parts.append(_cards(e["cards"]) + onto)
    return "; ".join(parts)


def _who(seat: int, teams: int, players: int) -> str:
    if teams == players:
        return f"seat {seat}"
    return f"seat {seat} (partnership {seat % teams})"


def tell(lines: Iterable[dict], game: int, deal: int) -> Iterator[str]:
    """The sentences of one deal of a trace."""
    found = False
    turn = 0
    teams = players = 2
    current = None
    for line in lines:
        kind = line.get("type")
        if kind == "deal":
            current = (line["game"], line["deal"])
            if current != (game, deal):
                continue
            found = True
            rules = line["rules"]
            players, teams = rules["players"], rules["partnerships"]
            first = (line["dealer"] + 1) % players
            shape = "individual play" if teams == players else f"{teams} partnerships"
            yield (f"Game {game}, deal {deal} ({line['profile']} rules, {players} players, "
                   f"{shape}). Dealer: seat {line['dealer']}; seat {first} plays first. "
                   f"Pile: {_cards(line['discard'])}; stock: {len(line['stock'])} cards.")
            for seat, hand in enumerate(line["hands"]):
                yield f"  seat {seat} holds {_cards(hand)}"
            continue
        if current != (game, deal):
            continue
        seat = line.get("seat")
        who = _who(seat, teams, players) if seat is not None else ""
        if kind in ("draw", "pickup"):
            turn += 1
        if kind == "draw":
            yield f"Turn {turn}: {who} draws {_cards(line['cards'])}."
        elif kind == "pickup":
            yield (f"Turn {turn}: {who} picks up {len(line['taken'])} cards from the pile "
                   f"({_cards(line['taken'])}), melding {_melds(line['melds'])}.")
        elif kind == "red3":
            got = _cards(line["replaced_with"])
            yield f"  {who} exposes {line['count']} red three(s), replaced by {got}."
        elif kind == "meld":
            yield f"  {who} melds {_melds(line['melds'])}."
        elif kind == "foot":
            yield f"  {who} picks up the Foot."
        elif kind == "ask":
            answer = "granted" if line["granted"] else "refused"
            yield f"  {who} asks to go out: {answer}."
        elif kind == "discard":
            yield f"  {who} discards {line['card']}."
        elif kind == "freeze":
            yield f"  the wild discarded by {who} freezes the pile ({len(line['cards'])} cards)."
        elif kind == "restock":
            yield f"  the set-aside piles ({len(line['cards'])} cards) go under the stock."
        elif kind == "out":
            yield f"  {who} goes out."
        elif kind == "end":
            how = {"out": "someone went out", "stock": "the stock ran out",
                   "truncated": "the turn cap was hit"}[line["reason"]]
            yield f"The deal ends after {turn} turns: {how}."
            for team, (score, parts) in enumerate(zip(line["scores"], line["breakdown"],
                                                      strict=True)):
                detail = ", ".join(f"{PART_NAMES.get(k, k)} {v:+,}" for k, v in parts.items()
                                   if v)
                label = f"seat {team}" if teams == players else f"partnership {team}"
                yield f"  {label}: {score:+,} ({detail or 'nothing'})"
            return
    if not found:
        raise ReplayError(f"the trace has no game {game}, deal {deal}")
