"""Reading a position file into a game record the engine can play on, checked field by field:
a view's hidden places are filled with its unseen cards in a fixed order, which a search deals
anew in every world anyway."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from sim.core.cards import (
    BLACK3,
    CARD_VALUE,
    JOKER,
    KIND_INDEX,
    KIND_NAMES,
    N_KINDS,
    RANK_INDEX,
    RANK_KIND,
    TWO,
    WILD_RANK,
    deck_counts,
)
from sim.core.enums import Decision
from sim.core.profiles import rules_from_knobs
from sim.core.rules import Rules, RulesError
from sim.engine.layout import (
    S_ASKED,
    S_DEAL,
    S_DEALER,
    S_DECIDER,
    S_DECISION,
    S_ENDED,
    S_FROZEN_N,
    S_GAME,
    S_GRANTED,
    S_LINE,
    S_OUT_SEAT,
    S_PICKED_UP,
    S_PILE_N,
    S_SEAT,
    S_SEED,
    S_STOCK_N,
    S_TURN,
    S_WANT_OUT,
)
from sim.engine.meldrules import entry_points, ratio_ok
from sim.play.positions.schema import BOOK_TYPES, FORMAT, Position, PositionError, card_names


def _need(data: dict, key: str, kind: type | tuple, where: str = ""):
    field = f"{where}{key}"
    if key not in data:
        raise PositionError(f"{field}: missing")
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise PositionError(f"{field}: must be a whole number (got {value!r})")
    if kind is not int and not isinstance(value, kind):
        raise PositionError(f"{field}: has the wrong type ({type(value).__name__})")
    return value


def _counts(cards, field: str) -> np.ndarray:
    if not isinstance(cards, list):
        raise PositionError(f"{field}: must be a list of card names")
    out = np.zeros(N_KINDS, dtype=np.int32)
    for card in cards:
        if card not in KIND_INDEX:
            raise PositionError(f"{field}: unknown card {card!r} (cards are "
                                f"{' '.join(KIND_NAMES)})")
        out[KIND_INDEX[card]] += 1
    return out


def _per_seat(data: dict, key: str, players: int) -> list:
    value = _need(data, key, list)
    if len(value) != players:
        raise PositionError(f"{key}: {len(value)} entries for {players} seats")
    return value


def read_position(path: Path) -> Position:
    """A position file, checked: one-line ``PositionError`` naming the field otherwise. A
    ``.toml`` file is a position typed by hand (``typed``), filled in and read as a view."""
    from sim.play.positions.typed import is_typed, read_typed, side_names

    if is_typed(path):
        view = read_typed(path)
        try:
            return position_from_dict(view)
        except PositionError as exc:
            message = str(exc)
            for theirs, ours in side_names(view).items():
                message = message.replace(theirs, ours)
            raise PositionError(message) from None
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise PositionError(f"{path} does not exist") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise PositionError(f"cannot read {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise PositionError(f"{path} is not valid JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PositionError(f"{path}: a position is a JSON object")
    return position_from_dict(data)


def position_from_dict(data: dict) -> Position:
    from sim.engine.layout import new_game

    if data.get("format") != FORMAT:
        raise PositionError(f"format: must be \"{FORMAT}\" (got {data.get('format')!r})")
    kind = _need(data, "kind", str)
    if kind not in ("truth", "view"):
        raise PositionError(f"kind: must be \"truth\" or \"view\" (got {kind!r})")
    try:
        rules = rules_from_knobs(_need(data, "rules", dict))
    except RulesError as exc:
        raise PositionError(f"rules: {exc}") from None
    players, teams = rules.players, rules.partnerships
    game = new_game(rules.packed())
    g = game[0]
    sc = g["sc"]
    for key, slot in (("seed", S_SEED), ("game", S_GAME), ("deal", S_DEAL),
                      ("dealer", S_DEALER), ("turn", S_TURN), ("to_play", S_SEAT),
                      ("decider", S_DECIDER), ("lines_laid", S_LINE)):
        sc[slot] = _need(data, key, int)
    if not 1 <= sc[S_DEAL] <= rules.deals_per_game:
        raise PositionError(f"deal: {sc[S_DEAL]} is not a deal of the game (1-4)")
    for key in ("dealer", "to_play", "decider"):
        if not 0 <= data[key] < players:
            raise PositionError(f"{key}: seat {data[key]} is out of range 0..{players - 1}")
    decision = data.get("decision")
    if decision not in Decision.words:
        raise PositionError(f"decision: must be one of {', '.join(Decision.words)} "
                            f"(got {decision!r})")
    sc[S_DECISION] = Decision.words.index(decision)
    for key, slot in (("asked", S_ASKED), ("granted", S_GRANTED), ("picked_up", S_PICKED_UP),
                      ("want_out", S_WANT_OUT)):
        sc[slot] = int(bool(_need(data, key, bool)))
    sc[S_ENDED] = 0
    sc[S_OUT_SEAT] = -1
    scores = _per_seat(data, "game_scores", teams) if teams else []
    g["game_score"][:teams] = scores
    for s, flag in enumerate(_per_seat(data, "on_foot", players)):
        g["on_foot"][s] = int(bool(flag))
    for s, flag in enumerate(_per_seat(data, "first_turn_done", players)):
        g["first_turn_done"][s] = int(bool(flag))
    for s, turn in enumerate(_per_seat(data, "foot_turn", players)):
        g["foot_turn"][s] = turn
    _read_last_discards(g, data, players)
    pile = _counts(_need(data, "pile", list), "pile")
    g["pile"][: len(data["pile"])] = [KIND_INDEX[c] for c in data["pile"]]
    sc[S_PILE_N] = len(data["pile"])
    g["frozen"][: len(data["set_aside"])] = [KIND_INDEX[c] for c in
                                             _need(data, "set_aside", list)]
    sc[S_FROZEN_N] = len(data["set_aside"])
    seen = pile + _counts(data["set_aside"], "set_aside")
    for s, cards in enumerate(_per_seat(data, "taken", players)):
        g["taken"][s] = _counts(cards, f"taken[{s}]")
    for s, cards in enumerate(_per_seat(data, "known", players)):
        g["known"][s] = _counts(cards, f"known[{s}]")
    for team, entry in enumerate(_per_seat(data, "teams", teams)):
        seen += _read_team(g, team, entry, rules)
    view = data.get("seat") if kind == "view" else None
    hidden = _read_hands(g, data, kind, view, players)
    deck = deck_counts(rules.decks, rules.jokers_per_deck)
    g["deck"] = deck
    total = seen + hidden[0]
    if kind == "truth":
        over = [KIND_NAMES[k] for k in range(N_KINDS) if total[k] != deck[k]]
        if over:
            raise PositionError(f"hands, feet, stock, pile and table: the cards do not add up "
                                f"to the shoe ({', '.join(over)} wrong)")
        sc[S_STOCK_N] = len(data["stock"])
        g["rng"][0] = int(_need(data, "deal_stream", str))
    else:
        _fill_hidden(g, data, view, players, deck - total, hidden[1])
    if not g["hand"][: players].any() and not g["foot"][:players].any():
        raise PositionError("hands: nobody holds a card")
    return Position(rules, game, view)


def _read_last_discards(g, data: dict, players: int) -> None:
    """Each seat's last discard this deal (a card, or null before its first). Optional: a file
    written before the field existed reads as no discard seen, which only a search inferring
    from discards (``infer = 1``) would notice."""
    if "last_discard" not in data:
        return  # new_game's -1: none seen
    for s, card in enumerate(_per_seat(data, "last_discard", players)):
        if card is None:
            continue
        if card not in KIND_INDEX:
            raise PositionError(f"last_discard[{s}]: unknown card {card!r} (cards are "
                                f"{' '.join(KIND_NAMES)}, or null)")
        g["last_discard"][s] = KIND_INDEX[card]


def _read_team(g, team: int, entry: dict, rules: Rules) -> np.ndarray:
    where = f"teams[{team}]."
    seen = np.zeros(N_KINDS, dtype=np.int32)
    g["opened"][team] = int(bool(_need(entry, "opened", bool, where)))
    g["open_turn"][team] = _need(entry, "open_turn", int, where)
    g["pickups"][team] = _need(entry, "pickups", int, where)
    g["red3"][team] = _need(entry, "red3", int, where)
    seen[KIND_INDEX["R3"]] += g["red3"][team]
    value = 0
    for i, meld in enumerate(_need(entry, "melds", list, where)):
        rank_name = meld.get("rank") if isinstance(meld, dict) else None
        if rank_name not in RANK_INDEX:
            raise PositionError(f"{where}melds[{i}].rank: unknown rank {rank_name!r}")
        rank = RANK_INDEX[rank_name]
        c = _counts(meld.get("cards"), f"{where}melds[{i}].cards")
        kind = RANK_KIND[rank]
        nat = int(c[kind]) if kind >= 0 else 0
        wilds = int(c[TWO] + c[JOKER])
        if nat + wilds != int(c.sum()):
            raise PositionError(f"{where}melds[{i}]: cards of another rank in a meld of "
                                f"{rank_name}")
        if rank != WILD_RANK and wilds and not ratio_ok(g, nat, wilds):
            raise PositionError(f"{where}melds[{i}]: {nat} naturals and {wilds} wilds break "
                                f"the wild ratio ({rules.wild_ratio})")
        if nat + wilds < 3 or (rules.books != "grow" and nat + wilds >= 7):
            raise PositionError(f"{where}melds[{i}]: an unfinished meld holds 3-6 cards "
                                f"(got {nat + wilds})")
        g["meld"][team, rank] = (nat, c[TWO], c[JOKER])
        seen += c
        value += entry_points(rank, nat, int(c[TWO]), int(c[JOKER]))
    books = _need(entry, "books", dict, where)
    for name, i in BOOK_TYPES.items():
        g["books"][team, i] = _need(books, name, int, f"{where}books.")
    for rank_name, n in _need(entry, "closed_books_by_rank", dict, where).items():
        if rank_name not in RANK_INDEX:
            raise PositionError(f"{where}closed_books_by_rank: unknown rank {rank_name!r}")
        g["rank_books"][team, RANK_INDEX[rank_name]] = n
    booked = _counts(_need(entry, "cards_in_books", list, where), f"{where}cards_in_books")
    if rules.books != "grow" and booked.sum() < 7 * g["books"][team].sum():
        raise PositionError(f"{where}cards_in_books: {booked.sum()} cards cannot make "
                            f"{g['books'][team].sum()} books")
    g["booked"][team] = booked
    seen += booked
    for k in range(N_KINDS):
        value += int(booked[k]) * (-5 if k == BLACK3 else int(CARD_VALUE[k]))
    g["melded_value"][team] = value
    return seen


def _read_hands(g, data: dict, kind: str, view, players: int) -> tuple[np.ndarray, dict]:
    """Visible held cards (all of them in a truth file) and, for a view, the hidden counts."""
    total = np.zeros(N_KINDS, dtype=np.int32)
    counts: dict = {"hands": [], "feet": [], "stock": 0}
    hands = _per_seat(data, "hands", players)
    feet = _per_seat(data, "feet", players)
    if kind == "view" and (not isinstance(view, int) or not 0 <= view < players):
        raise PositionError(f"seat: {view!r} is not a seat of a {players}-player game")
    for s in range(players):
        if kind == "truth" or s == view:
            c = _counts(hands[s], f"hands[{s}]")
            g["hand"][s] = c
            total += c
            counts["hands"].append(0)
        else:
            n = _need(hands[s], "count", int, f"hands[{s}].") if isinstance(hands[s], dict) \
                else None
            if n is None:
                raise PositionError(f"hands[{s}]: a view holds only the count of another hand")
            known = g["known"][s]
            if known.sum() > n:
                raise PositionError(f"known[{s}]: more known cards than the hand holds")
            g["hand"][s] = known
            total += known
            counts["hands"].append(n - int(known.sum()))
        if bool(g["on_foot"][s]) != (feet[s] is None):
            raise PositionError(f"feet[{s}]: must be null exactly when on_foot[{s}] is true")
        if feet[s] is None:
            counts["feet"].append(0)
        elif kind == "truth":
            c = _counts(feet[s], f"feet[{s}]")
            g["foot"][s] = c
            total += c
            counts["feet"].append(0)
        else:
            counts["feet"].append(_need(feet[s], "count", int, f"feet[{s}]."))
    if kind == "truth":
        stock = _counts(_need(data, "stock", list), "stock")
        total += stock
        g["stock"][: len(data["stock"])] = [KIND_INDEX[c] for c in reversed(data["stock"])]
    else:
        counts["stock"] = _need(_need(data, "stock", dict), "count", int, "stock.")
    return total, counts


def _fill_hidden(g, data: dict, view: int, players: int, unseen: np.ndarray,
                 counts: dict) -> None:
    """Put a view's unseen cards in the hidden places, in kind order (a search re-deals
    them): they must fill exactly the hidden counts."""
    if (unseen < 0).any():
        wrong = [KIND_NAMES[k] for k in range(N_KINDS) if unseen[k] < 0]
        raise PositionError(f"hands, pile and table: more cards than the shoe holds "
                            f"({', '.join(wrong)})")
    places = sum(counts["hands"]) + sum(counts["feet"]) + counts["stock"]
    if places != int(unseen.sum()):
        raise PositionError(f"hands, feet and stock counts: {places} hidden places for "
                            f"{int(unseen.sum())} unseen cards of the shoe")
    pool = iter(card_names(unseen))
    for s in range(players):
        for _ in range(counts["hands"][s]):
            g["hand"][s, KIND_INDEX[next(pool)]] += 1
        for _ in range(counts["feet"][s]):
            g["foot"][s, KIND_INDEX[next(pool)]] += 1
    stock = [KIND_INDEX[c] for c in pool]
    g["stock"][: len(stock)] = stock
    g["sc"][S_STOCK_N] = len(stock)
