"""Corruptions of valid traces, each aimed at one rule, to prove the checker catches it.

Every function takes the lines of one valid trace (a list of dicts, never modified), finds the
first place where its corruption makes sense, and returns a corrupted deep copy, or None when the
trace has no such place. Sites are chosen on the checker's replayed state so that the corruption
stays self-consistent (cards taken out of a meld stay in the player's hand, and so on) and the
intended rule is the one that breaks. `MUTATIONS` maps each name to (function, expected check)
for `standard` traces; `PROFILE_MUTATIONS` maps "profile:name" to (function, expected check,
profile whose engine traces it corrupts) for the other rule sets (docs/rules.md sections 11-13);
`RULE_SET_MUTATIONS` does the same for the rule files of `RULE_SETS` (knobs over `standard`
that no named profile combines).

The expected check is a check id of checks.py (`RULE/name`), not a bare rule id: several checks
report the same rule id (R-S for a deal score and for a game's totals, R-T3 for a missing `red3`
line and for wrong replacements, ...), and a mutation must be caught by the check it aims at,
not by a neighbour that happens to share the id. `caught_by` is the test of that expectation.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Callable, Iterator

from .cards import BLACK3, JOKER, NATURALS, RED3, TWO, WILD_RANK, is_wild, rank_of_top
from .checker import TraceChecker, Violation
from .checks import rule_of
from .state import DealState, Meld, value

Lines = list[dict]
Mutation = Callable[[Lines], "Lines | None"]


def caught_by(found: list[Violation], check: str) -> bool:
    """The expectation of a mutation: a violation of exactly `check` (and so of its rule id)."""
    return any(v.check == check and v.rule == rule_of(check) for v in found)


_SITES: dict[tuple[Mutation, int], tuple[list[Lines], tuple[int, Lines] | None]] = {}


def first_site(mutate: Mutation, traces: list[Lines]) -> tuple[int, Lines] | None:
    """(index of the first trace where `mutate` finds a site, the corrupted trace), or None.

    Remembered per (mutation, list of traces) for the process: several tests corrupt the same
    session-scoped engine traces (the list is kept with the answer, so its id stays its own).
    AssertionError if the mutation modifies a trace it is given.
    """
    key = (mutate, id(traces))
    if key not in _SITES:
        site = None
        for k, trace in enumerate(traces):
            before = copy.deepcopy(trace)
            mutated = mutate(trace)
            if trace != before:
                raise AssertionError(f"{mutate.__name__} modified its input (trace {k})")
            if mutated is not None:
                site = (k, mutated)
                break
        _SITES[key] = (traces, site)
    return _SITES[key][1]


def _replay(
    lines: Lines, start: int = 0, stop: int | None = None
) -> Iterator[tuple[int, DealState | None]]:
    """Yield (index, state before line index) while feeding the checker line by line.

    `start` should be a `deal` line (or 0); the state is live: read it before the next step.
    """
    checker = TraceChecker(allow_incomplete=True)
    for i in range(start, len(lines) if stop is None else stop):
        yield i, checker.state if not checker.skipping else None
        checker.feed(lines[i], i + 1)


def _deal_start(lines: Lines, i: int) -> int:
    return max(j for j in range(i + 1) if lines[j].get("type") == "deal")


def _first(lines: Lines, kind: str) -> int | None:
    return next((i for i, line in enumerate(lines) if line.get("type") == kind), None)


def _with(lines: Lines, i: int, line: dict | None) -> Lines:
    """Deep copy of `lines` with line i replaced (or removed when `line` is None)."""
    out = copy.deepcopy(lines)
    if line is None:
        del out[i]
    else:
        out[i] = line
    return out


def _entry_cards(line: dict) -> Counter:
    return Counter(c for e in line.get("melds", []) for c in e["cards"])


# -- cards and turns -------------------------------------------------------------------------
def wrong_card_drawn(lines: Lines) -> Lines | None:
    """R-T2: a draw whose cards are not the top two of the stock."""
    i = _first(lines, "draw")
    if i is None:
        return None
    line = copy.deepcopy(lines[i])
    line["cards"][0] = "4" if line["cards"][0] != "4" else "5"
    return _with(lines, i, line)


def discard_not_held(lines: Lines) -> Lines | None:
    """CARDS: a discarded card that the player does not hold."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "discard":
            continue
        held = st.held(line["seat"])
        card = next((k for k in NATURALS + (TWO, JOKER, RED3) if not held[k]), None)
        if card is not None:
            return _with(lines, i, {**line, "card": card})
    return None


def turn_out_of_order(lines: Lines) -> Lines | None:
    """R-D4: a draw by the seat after the one whose turn it is."""
    i = _first(lines, "draw")
    if i is None:
        return None
    line = dict(lines[i])
    line["seat"] = (line["seat"] + 1) % 4
    return _with(lines, i, line)


def red_three_not_exposed(lines: Lines) -> Lines | None:
    """R-T3: a drawn red three that is never exposed (its `red3` line removed)."""
    for i in range(1, len(lines)):
        if lines[i].get("type") == "red3" and lines[i - 1].get("type") == "draw":
            return _with(lines, i, None)
    return None


def missing_foot(lines: Lines) -> Lines | None:
    """R-F1: the Hand is empty but the `foot` line is missing."""
    i = _first(lines, "foot")
    return None if i is None else _with(lines, i, None)


# -- melds -----------------------------------------------------------------------------------
def meld_over_seven(lines: Lines) -> Lines | None:
    """R-M6: a book-completing meld entry given one more card of its kind (8 cards)."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld":
            continue
        seat = line["seat"]
        p = st.partnership(seat)
        spare = st.held(seat) - _entry_cards(line)
        for j, e in enumerate(line["melds"]):
            meld = st.melds[p].get(e["rank"])
            if (len(meld.cards) if meld else 0) + len(e["cards"]) != 7:
                continue
            if e["rank"] == WILD_RANK:
                extra = next((w for w in (TWO, JOKER) if spare[w]), None)
            else:
                extra = e["rank"] if spare[e["rank"]] else None
            if extra is None:
                continue
            new = copy.deepcopy(line)
            new["melds"][j]["cards"].append(extra)
            return _with(lines, i, new)
    return None


def wild_ratio_breach(lines: Lines) -> Lines | None:
    """R-M3: a natural meld entry given held wilds, or stripped of naturals beside its wilds.

    The wilds added come from cards the player holds and does not meld in that line; naturals
    taken out of an entry stay in the player's hand.
    """
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld":
            continue
        seat = line["seat"]
        p = st.partnership(seat)
        spare = st.held(seat) - _entry_cards(line)
        wilds = [TWO] * spare[TWO] + [JOKER] * spare[JOKER]
        for j, e in enumerate(line["melds"]):
            rank = e["rank"]
            if rank == WILD_RANK or any(x["rank"] == rank for x in line["melds"][:j]):
                continue
            meld = st.melds[p].get(rank)
            n0, w0 = (meld.naturals, meld.wilds) if meld else (0, 0)
            ne = sum(1 for c in e["cards"] if not is_wild(c))
            we = len(e["cards"]) - ne
            cards = _breach(rank, list(e["cards"]), n0, w0, ne, we, wilds)
            if cards is not None:
                new = copy.deepcopy(line)
                new["melds"][j]["cards"] = cards
                return _with(lines, i, new)
            for k, other in enumerate(line["melds"]):  # or a wild moved from another entry
                moved = next((c for c in other["cards"] if is_wild(c)), None)
                if k == j or moved is None or len(other["cards"]) < 2:
                    continue
                if n0 + ne < 2 * (w0 + we + 1) and n0 + w0 + len(e["cards"]) < 7:
                    new = copy.deepcopy(line)
                    new["melds"][k]["cards"].remove(moved)
                    new["melds"][j]["cards"].append(moved)
                    return _with(lines, i, new)
    return None


def _breach(
    rank: str, cards: list[str], n0: int, w0: int, ne: int, we: int, wilds: list[str]
) -> list[str] | None:
    """Cards of an entry that break naturals >= 2 x wilds, or None."""
    size0 = n0 + w0
    for k in range(1, len(wilds) + 1):
        if size0 + len(cards) + k <= 7 and n0 + ne < 2 * (w0 + we + k):
            return cards + wilds[:k]  # add k held wilds
        if k <= ne and n0 + ne - k < 2 * (w0 + we + k):
            kept = list(cards)
            for _ in range(k):  # swap k naturals for k held wilds
                kept.remove(rank)
            return kept + wilds[:k]
    if we:
        for k in range(1, ne + 1):  # take naturals out, the wilds stay
            if n0 + ne - k < 2 * (w0 + we):
                kept = list(cards)
                for _ in range(k):
                    kept.remove(rank)
                return kept
    return None


def opening_below_minimum(lines: Lines) -> Lines | None:
    """R-O1: a partnership's first meld line cut down below the deal's minimum."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") not in ("meld", "pickup"):
            continue
        p = st.partnership(line["seat"])
        if st.opened[p]:
            continue
        minimum = st.profile.opening_minimum(st.deal)
        if line["type"] == "pickup":
            top = line["taken"][0]
            rank = rank_of_top(top)
            if rank is None or value(st.profile, [top] * 3) >= minimum:
                continue
            new = dict(line, melds=[{"rank": rank, "cards": [top] * 3}])
            return _with(lines, i, new)
        for e in line["melds"]:
            cards = _trim_below(st, e["rank"], list(e["cards"]), minimum)
            if cards is not None:
                return _with(lines, i, dict(line, melds=[{"rank": e["rank"], "cards": cards}]))
    return None


def _trim_below(st: DealState, rank: str, cards: list[str], minimum: int) -> list[str] | None:
    """Drop cards (wilds first) from a legal entry, keeping it legal, until under `minimum`."""
    while value(st.profile, cards) >= minimum and len(cards) > 3:
        wild = next((c for c in cards if is_wild(c)), None)
        nat = sum(1 for c in cards if not is_wild(c))
        if rank != WILD_RANK and wild is not None:
            cards.remove(wild)
        elif rank != WILD_RANK and nat - 1 >= 2 * (len(cards) - nat):
            cards.remove(rank)
        elif rank == WILD_RANK:
            cards.remove(max(cards, key=lambda c: st.profile.values[c]))
        else:
            return None
    return cards if value(st.profile, cards) < minimum else None


# -- pick-ups --------------------------------------------------------------------------------
def pickup_without_pair(lines: Lines) -> Lines | None:
    """R-PU2: a pick-up whose new meld holds the top card and only one held card of its kind."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "pickup":
            continue
        top = line["taken"][0]
        rank = rank_of_top(top)
        p = st.partnership(line["seat"])
        idx = [j for j, e in enumerate(line["melds"]) if e["rank"] == rank]
        if rank is None or rank in st.melds[p] or len(idx) != 1:
            continue
        new = copy.deepcopy(line)
        cards = new["melds"][idx[0]]["cards"]
        while cards.count(top) > 2:
            cards.remove(top)
        spare = st.held(line["seat"]) - _entry_cards(line)
        wild = next((w for w in (TWO, JOKER) if spare[w] and w != top), None)
        if len(cards) < 3 and wild is not None and rank != WILD_RANK:
            cards.append(wild)  # keep a legal 3-card meld: only the pair is missing
        return _with(lines, i, new)
    return None


def pickup_breaks_pu4(lines: Lines) -> Lines | None:
    """R-PU4: onto an unfinished meld of its rank, a pick-up merely adds the top card.

    Prefers a real pick-up made onto an unfinished meld of the top card's rank. Failing that, it
    builds one: a discard is changed to a natural the discarder holds, of a rank the next
    player's partnership has an unfinished meld of, and the next player's draw becomes a pick-up
    adding only that top card; the trace is cut after it.
    """
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "pickup":
            continue
        top = line["taken"][0]
        rank = rank_of_top(top)
        p = st.partnership(line["seat"])
        if rank is None or rank not in st.melds[p]:
            continue
        others = [e for e in line["melds"] if e["rank"] != rank]
        new = dict(copy.deepcopy(line), melds=[{"rank": rank, "cards": [top]}] + others)
        return _with(lines, i, new)
    for i, st in _replay(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else {}
        if st is None or line.get("type") != "discard" or nxt.get("type") not in ("draw",):
            continue
        held = st.held(line["seat"])
        for rank in st.melds[st.partnership(nxt["seat"])]:
            if rank == WILD_RANK or not held[rank]:
                continue
            pile = st.pile + [rank]
            taken = pile[::-1][: min(st.profile.pickup_size, len(pile))]
            pickup = {
                "type": "pickup",
                "seat": nxt["seat"],
                "taken": taken,
                "melds": [{"rank": rank, "cards": [rank]}],
            }
            return copy.deepcopy(lines[:i]) + [dict(line, card=rank), pickup]
    return None


# -- going out and the end -------------------------------------------------------------------
def out_without_books(lines: Lines) -> Lines | None:
    """R-G1: the partnership goes out one required book short.

    First choice: a wild that completed a required book (the wild book, or a dirty book) is
    moved to another entry laid in the same turn by the same player where the ratio allows it,
    so the book stays at 6 cards while every card still leaves the hand. Second choice: a
    book-completing entry laid earlier by the partner (already on the Foot) loses one card, which
    the partner keeps. Either way no later entry touches the ranks involved.
    """
    outs: dict[int, tuple[int, Counter, DealState]] = {}
    for i, st in _replay(lines):
        if st is not None and lines[i].get("type") == "out":
            p = st.partnership(lines[i]["seat"])
            outs[i] = (p, st.book_counts(p), st)
    for i_out, (p, counts, st) in outs.items():
        need = st.books_needed()
        short = {k for k, n in need.items() if counts[k] == n}
        site = _book_site(lines, i_out, p, short) or _move_wild(lines, i_out, p, short)
        if site is not None:
            return site
    return None


def _move_wild(lines: Lines, i_out: int, p: int, kinds: set[str]) -> Lines | None:
    start = _deal_start(lines, i_out)
    states: dict[int, DealState] = {}
    for i, st in _replay(lines, start, i_out):
        line = lines[i]
        if i > start and st is not None and line.get("type") == "meld":
            if st.partnership(line["seat"]) == p:
                states[i] = copy.deepcopy(st)
    for i, st in states.items():
        seat = lines[i]["seat"]
        turn = [i]
        while turn[-1] + 1 < i_out and lines[turn[-1] + 1].get("seat") == seat:
            turn.append(turn[-1] + 1)
        for j, e in enumerate(lines[i]["melds"]):
            wild = next((c for c in e["cards"] if is_wild(c)), None)
            if wild is None or not _completes(st, p, lines[i], j, kinds):
                continue
            if _rank_used_later(lines, i, i_out, st, p, e["rank"]):
                continue
            for i2 in (k for k in turn if k in states):
                for j2, f in enumerate(lines[i2]["melds"]):
                    if (i2, j2) == (i, j) or f["rank"] in (WILD_RANK, e["rank"]):
                        continue
                    if not _takes_wild(states[i2], p, lines, i2, j2, i_out):
                        continue
                    out = copy.deepcopy(lines)
                    out[i2]["melds"][j2]["cards"].append(wild)
                    out[i]["melds"][j]["cards"].remove(wild)
                    if not out[i]["melds"][j]["cards"]:
                        del out[i]["melds"][j]
                    return out
    return None


def _completes(st: DealState, p: int, line: dict, j: int, kinds: set[str]) -> bool:
    """Entry j (first of its rank in the line) completes a book of one of `kinds`."""
    e = line["melds"][j]
    if any(x["rank"] == e["rank"] for x in line["melds"][:j]):
        return False
    meld = st.melds[p].get(e["rank"])
    cards = (meld.cards if meld else []) + e["cards"]
    return len(cards) == 7 and Meld(e["rank"], cards).book_kind() in kinds


def _takes_wild(st: DealState, p: int, lines: Lines, i: int, j: int, i_out: int) -> bool:
    """Entry j of line i, and every later entry of its rank up to `i_out`, stay legal and
    unfinished with one more wild in the meld."""
    line = lines[i]
    rank = line["melds"][j]["rank"]
    if sum(1 for x in line["melds"] if x["rank"] == rank) != 1:
        return False
    meld = st.melds[p].get(rank)
    cards = (meld.cards if meld else []) + line["melds"][j]["cards"] + [TWO]
    later = [
        e["cards"]
        for x in lines[i + 1 : i_out]
        if x.get("type") in ("meld", "pickup") and st.partnership(x["seat"]) == p
        for e in x["melds"]
        if e["rank"] == rank
    ]
    for extra in [[], *later]:
        cards = cards + extra
        nat = sum(1 for c in cards if not is_wild(c))
        if len(cards) >= 7 or nat < 2 * (len(cards) - nat):
            return False
    return True


def _book_site(lines: Lines, i_out: int, p: int, kinds: set[str]) -> Lines | None:
    """A book-completing entry laid from the Foot loses one card: the partner keeps it, or the
    player going out discards it just before `out` (when its last turn ended with a meld)."""
    start = _deal_start(lines, i_out)
    out_seat = lines[i_out]["seat"]
    ends_by_meld = lines[i_out - 1].get("type") == "meld"
    seen_opening = False
    for i, st in _replay(lines, start, i_out):
        line = lines[i]
        if i <= start or st is None or line.get("type") not in ("meld", "pickup"):
            continue
        seat = line["seat"]
        if st.partnership(seat) != p:
            continue
        first, seen_opening = not seen_opening, True
        if first or line["type"] != "meld" or not st.on_foot[seat]:
            continue
        if seat == out_seat and not ends_by_meld:
            continue
        for j, e in enumerate(line["melds"]):
            rank = e["rank"]
            if not _completes(st, p, line, j, kinds):
                continue
            if any(x["rank"] == rank for x in line["melds"][j + 1 :]):
                continue  # a later entry of the line would land on the shortened meld
            if _rank_used_later(lines, i, i_out, st, p, rank):
                continue
            out = copy.deepcopy(lines)
            entry = out[i]["melds"][j]["cards"]
            wild = next((c for c in entry if is_wild(c)), None)
            card = wild if wild is not None and rank != WILD_RANK else entry[-1]
            entry.remove(card)
            if seat == out_seat:
                out.insert(i_out, {"type": "discard", "seat": seat, "card": card})
            if not entry:
                del out[i]["melds"][j]
            if not out[i]["melds"]:
                del out[i]
            return out
    return None


def _rank_used_later(lines: Lines, i: int, i_out: int, st: DealState, p: int, rank: str) -> bool:
    for line in lines[i + 1 : i_out]:
        if line.get("type") in ("meld", "pickup") and st.partnership(line["seat"]) == p:
            if any(e["rank"] == rank for e in line["melds"]):
                return True
    return False


def out_without_permission(lines: Lines) -> Lines | None:
    """R-G4: the going-out player's granted `ask` removed."""
    for i, line in enumerate(lines):
        if line.get("type") != "out":
            continue
        j = i - 1
        while j > 0 and lines[j].get("seat") == line["seat"]:  # back through the turn
            if lines[j].get("type") == "ask":
                return _with(lines, j, None)
            j -= 1
    return None


def wrong_end_reason(lines: Lines) -> Lines | None:
    """R-E1: an `end` line whose reason is the other one."""
    i = _first(lines, "end")
    if i is None:
        return None
    reason = "stock" if lines[i].get("reason") == "out" else "out"
    return _with(lines, i, dict(lines[i], reason=reason))


def score_off_by_five(lines: Lines) -> Lines | None:
    """R-S (the deal score, not the game totals): a deal score 5 points off."""
    i = _first(lines, "end")
    if i is None:
        return None
    line = copy.deepcopy(lines[i])
    line["scores"][0] += 5
    return _with(lines, i, line)


# name -> (function, expected check id of checks.py)
MUTATIONS: dict[str, tuple[Mutation, str]] = {
    "wrong_card_drawn": (wrong_card_drawn, "R-T2/draw-cards"),
    "discard_not_held": (discard_not_held, "CARDS/not-held"),
    "turn_out_of_order": (turn_out_of_order, "R-D4/turn-order"),
    "red_three_not_exposed": (red_three_not_exposed, "R-T3/red3-expected"),
    "missing_foot": (missing_foot, "R-F1/foot-expected"),
    "meld_over_seven": (meld_over_seven, "R-M6/over-seven"),
    "wild_ratio_breach": (wild_ratio_breach, "R-M3/ratio"),
    "opening_below_minimum": (opening_below_minimum, "R-O1/minimum"),
    "pickup_without_pair": (pickup_without_pair, "R-PU2/new-meld-pair"),
    "pickup_breaks_pu4": (pickup_breaks_pu4, "R-PU4/complete-and-start"),
    "out_without_books": (out_without_books, "R-G1/books"),
    "out_without_permission": (out_without_permission, "R-G4/without-permission"),
    "wrong_end_reason": (wrong_end_reason, "R-E1/end-reason"),
    "score_off_by_five": (score_off_by_five, "R-S/deal-score"),
}


# -- profile knobs (docs/rules.md sections 11-13) -------------------------------------------------
def _spare_wilds(st: DealState, line: dict) -> list[str]:
    """Wilds the seat of a meld line holds and does not meld in that line."""
    spare = st.held(line["seat"]) - _entry_cards(line)
    return [TWO] * spare[TWO] + [JOKER] * spare[JOKER]


def wild_onto_completed_book(lines: Lines) -> Lines | None:
    """R-V4: a `"book": true` entry (naturals onto a completed book) given a held wild."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld":
            continue
        wilds = _spare_wilds(st, line)
        j = next((j for j, e in enumerate(line["melds"]) if e.get("book")), None)
        if j is not None and wilds:
            new = copy.deepcopy(line)
            new["melds"][j]["cards"].append(wilds[0])
            return _with(lines, i, new)
    return None


def wild_meld_where_off(lines: Lines) -> Lines | None:
    """R-M4: a meld line of an opened partnership gets a "W" entry of 3 held wilds although
    the rule set has no wild melds."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld" or st.profile.wild_melds:
            continue
        wilds = _spare_wilds(st, line)
        if st.opened[st.partnership(line["seat"])] and len(wilds) >= 3:
            new = copy.deepcopy(line)
            new["melds"].append({"rank": WILD_RANK, "cards": wilds[:3]})
            return _with(lines, i, new)
    return None


def red3_kept(lines: Lines) -> Lines | None:
    """R-V6: a player holding a red three discards another card instead."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "discard" or line.get("card") != RED3:
            continue
        held = st.held(line["seat"])
        other = next((k for k in sorted(held) if k != RED3 and held[k] > 0), None)
        if other is not None:
            return _with(lines, i, {**line, "card": other})
    return None


def deal4_opening_without_book(lines: Lines) -> Lines | None:
    """R-V5: the concealed book of a deal-4 opening cut to 6 cards (wilds first; the cards
    taken out stay in the player's hand), so the opening has no 7-card entry."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld" or not st.profile.concealed_opening(st.deal):
            continue
        if st.opened[st.partnership(line["seat"])]:
            continue
        seen: set[str] = set()
        big = []
        for j, e in enumerate(line["melds"]):
            if e["rank"] not in seen and not e.get("book") and len(e["cards"]) >= 7:
                big.append(j)
            seen.add(e["rank"])
        if len(big) != 1:
            continue
        new = copy.deepcopy(line)
        rank, cards = new["melds"][big[0]]["rank"], new["melds"][big[0]]["cards"]
        while len(cards) > 6:
            wild = next((c for c in cards if is_wild(c)), None)
            cards.remove(wild if wild is not None and rank != WILD_RANK else cards[-1])
        return _with(lines, i, new)
    return None


def _taken(st: DealState) -> list[str] | None:
    """The cards a pick-up would take now under the rule set, None where none is allowed."""
    prof = st.profile
    if prof.pickup_rule == "whole":
        n = len(st.pile)
    elif prof.pickup_rule == "exact":
        if len(st.pile) < prof.pickup_size:
            return None
        n = prof.pickup_size
    else:
        n = min(prof.pickup_size, len(st.pile))
    return st.pile[::-1][:n] if n else None


def deal4_opening_by_pickup(lines: Lines) -> Lines | None:
    """R-V5: in the concealed-book deal, a draw of a not-yet-opened partnership becomes a
    pick-up of the pile (top card + a held natural pair); the trace is cut after it."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "draw" or not st.profile.concealed_opening(st.deal):
            continue
        seat = line["seat"]
        taken = _taken(st)
        if st.opened[st.partnership(seat)] or not taken or taken[0] not in NATURALS:
            continue
        top = taken[0]
        if st.held(seat)[top] >= 2:
            pickup = {
                "type": "pickup",
                "seat": seat,
                "taken": taken,
                "melds": [{"rank": top, "cards": [top] * 3}],
            }
            return copy.deepcopy(lines[:i]) + [pickup]
    return None


def pickup_short_pile(lines: Lines) -> Lines | None:
    """R-PU: where a pick-up takes exactly pickup_size cards, a draw becomes a pick-up of a
    shorter pile (top natural + a held pair); the trace is cut after it."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "draw" or st.profile.pickup_rule != "exact":
            continue
        seat = line["seat"]
        if not 0 < len(st.pile) < st.profile.pickup_size:
            continue
        top = st.pile[-1]
        if top in NATURALS and st.held(seat)[top] >= 2:
            pickup = {
                "type": "pickup",
                "seat": seat,
                "taken": st.pile[::-1],
                "melds": [{"rank": top, "cards": [top] * 3}],
            }
            return copy.deepcopy(lines[:i]) + [pickup]
    return None


def ask_in_individual_play(lines: Lines) -> Lines | None:
    """R-V9: an `ask` line (granted) right after a draw in individual play."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "draw" or not st.profile.individual:
            continue
        if i + 1 < len(lines) and lines[i + 1].get("type") != "red3":
            out = copy.deepcopy(lines)
            out.insert(i + 1, {"type": "ask", "seat": line["seat"], "granted": True})
            return out
    return None


def out_without_final_discard(lines: Lines) -> Lines | None:
    """R-G3: where going out needs a final discard, the last card is melded instead and the
    player goes out by that meld.

    First choice: the card joins the partnership's meld of its rank (nothing else breaks).
    Failing that, a natural card starts a meld of its own (a 1-card meld: R-M2 is reported too).
    """
    sites: list[tuple[int, dict, bool]] = []
    for i, st in _replay(lines):
        line = lines[i]
        nxt = lines[i + 1] if i + 1 < len(lines) else {}
        if st is None or line.get("type") != "discard" or nxt.get("type") != "out":
            continue
        card = line["card"]
        if not st.profile.final_discard_required or card not in NATURALS:
            continue
        meld = {"type": "meld", "seat": line["seat"], "melds": [{"rank": card, "cards": [card]}]}
        sites.append((i, meld, card in st.melds[st.partnership(line["seat"])]))
    best = sorted(sites, key=lambda site: not site[2])
    return _with(lines, best[0][0], best[0][1]) if best else None


def wild_discard_without_freeze(lines: Lines) -> Lines | None:
    """R-V8: a discarded wild whose `freeze` line is missing."""
    i = _first(lines, "freeze")
    return None if i is None else _with(lines, i, None)


def draw_without_restock(lines: Lines) -> Lines | None:
    """R-V8: a short stock with set-aside cards, and no `restock` line before the draw."""
    i = _first(lines, "restock")
    return None if i is None else _with(lines, i, None)


def black3_meld_with_wild(lines: Lines) -> Lines | None:
    """R-V7: a black-three meld entry given a held wild."""
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld":
            continue
        wilds = _spare_wilds(st, line)
        j = next((j for j, e in enumerate(line["melds"]) if e["rank"] == BLACK3), None)
        if j is not None and wilds:
            new = copy.deepcopy(line)
            new["melds"][j]["cards"].append(wilds[0])
            return _with(lines, i, new)
    return None


def deal4_out_with_early_books(lines: Lines) -> Lines | None:
    """R-G1: a deal (1-3) that ended by going out with fewer books than deal 4 needs, cut out
    and relabelled as deal 4: seats are rotated so that deal 4's first player opens it, and the
    partnership-indexed `end` lists rotate with them. The going out is then short of books."""
    found: tuple[int, DealState] | None = None
    for i, st in _replay(lines):
        if st is None or lines[i].get("type") != "out" or st.deal >= 4:
            continue
        p = st.partnership(lines[i]["seat"])
        counts = st.book_counts(p)
        need = st.profile.books_needed(4)
        if any(counts[k] < v for k, v in need.items()):
            found = (i, copy.deepcopy(st))
            break
    if found is None:
        return None
    i_out, st = found
    prof = st.profile
    start = _deal_start(lines, i_out)
    stop = next(j for j in range(i_out, len(lines)) if lines[j].get("type") == "end")
    players, parts = prof.players, prof.partnerships
    shift = ((prof.dealer(4) + 1) - (prof.dealer(st.deal) + 1)) % players
    out = copy.deepcopy(lines[start : stop + 1])
    head = out[0]
    head["deal"], head["dealer"] = 4, prof.dealer(4)
    for key in ("hands", "feet"):
        head[key] = [head[key][(s - shift) % players] for s in range(players)]
    for line in out[1:]:
        if isinstance(line.get("seat"), int):
            line["seat"] = (line["seat"] + shift) % players
    end = out[-1]
    for key in ("scores", "breakdown"):
        end[key] = [end[key][(p - shift) % parts] for p in range(parts)]
    return out


# Profile-specific corruptions: name -> (function, expected check id, profile of the traces).
PROFILE_MUTATIONS: dict[str, tuple[Mutation, str, str]] = {
    "eleven:wild_onto_completed_book": (wild_onto_completed_book, "R-V4/book-entry-wild", "eleven"),
    "eleven:wild_meld_where_off": (wild_meld_where_off, "R-M4/wild-melds-off", "eleven"),
    "eleven:red3_kept": (red3_kept, "R-V6/red3-discard", "eleven"),
    "saskatchewan:deal4_opening_without_book": (
        deal4_opening_without_book,
        "R-V5/no-concealed-book",
        "saskatchewan",
    ),
    "saskatchewan:deal4_opening_by_pickup": (
        deal4_opening_by_pickup,
        "R-V5/pickup-opening",
        "saskatchewan",
    ),
    "simpson:pickup_short_pile": (pickup_short_pile, "R-PU/exact-short-pile", "simpson"),
    "simpson:ask_in_individual_play": (ask_in_individual_play, "R-V9/ask-individual", "simpson"),
    "simpson:out_without_final_discard": (
        out_without_final_discard,
        "R-G3/final-discard",
        "simpson",
    ),
    "simpson:wild_meld_where_off": (wild_meld_where_off, "R-M4/wild-melds-off", "simpson"),
    "simpson:red3_kept": (red3_kept, "R-V6/red3-discard", "simpson"),
    "brouillette:wild_discard_without_freeze": (
        wild_discard_without_freeze,
        "R-V8/freeze-expected",
        "brouillette",
    ),
    "brouillette:draw_without_restock": (
        draw_without_restock,
        "R-V8/restock-expected",
        "brouillette",
    ),
    "brouillette:black3_meld_with_wild": (
        black3_meld_with_wild,
        "R-V7/black3-meld-cards",
        "brouillette",
    ),
    "brouillette:red3_kept": (red3_kept, "R-V6/red3-discard", "brouillette"),
    "brouillette:ask_in_individual_play": (
        ask_in_individual_play,
        "R-V9/ask-individual",
        "brouillette",
    ),
    "brouillette-partners:deal4_out_with_early_books": (
        deal4_out_with_early_books,
        "R-G1/books",
        "brouillette-partners",
    ),
    "brouillette-partners:wild_discard_without_freeze": (
        wild_discard_without_freeze,
        "R-V8/freeze-expected",
        "brouillette-partners",
    ),
    "brouillette-partners:black3_meld_with_wild": (
        black3_meld_with_wild,
        "R-V7/black3-meld-cards",
        "brouillette-partners",
    ),
}
# Rule-set-independent corruptions, run on every non-standard profile too.
for _profile in ("eleven", "saskatchewan", "simpson", "brouillette", "brouillette-partners"):
    for _name in ("wrong_card_drawn", "discard_not_held", "score_off_by_five"):
        _fn, _check = MUTATIONS[_name]
        PROFILE_MUTATIONS[f"{_profile}:{_name}"] = (_fn, _check, _profile)


# -- rule files that no named profile is (docs/rules.md R-V4 with R-V7 and R-M4) ------------------
def _slip_in(lines: Lines, i: int, seat: int, card: str, k: int) -> Lines | None:
    """A copy of the trace in which `seat` holds k more `card` at line i (None if impossible).

    In the `deal` line, k cards of the seat's Hand (or of its Foot, when it plays from the Foot
    at line i) change places with k `card` of the stock that nobody draws in that deal. The
    cards given away are naturals the seat holds without a break from the deal's start (or from
    its Foot pick-up) until line i, beyond what line i melds: every line up to i stays valid.
    """
    start = _deal_start(lines, i)
    low: Counter | None = None  # fewest of each kind held over the states before lines ..i
    on_foot = False
    before_i: Counter | None = None
    final: DealState | None = None
    for j, st in _replay(lines, start):
        if j == start:
            continue
        if st is None:
            return None
        if lines[j].get("type") == "deal":
            break
        final = st
        if j <= i:
            held = st.held(seat)
            if st.on_foot[seat] and not on_foot:  # from the Foot pick-up on
                on_foot, low = True, None
            low = (
                Counter(held)
                if low is None
                else Counter({c: min(n, held[c]) for c, n in low.items()})
            )
            if j == i:
                before_i = Counter(held)
        if lines[j].get("type") == "end":
            break
    if low is None or before_i is None or final is None or final.profile.freezes:
        return None
    used = _entry_cards(lines[i])
    free = {c: min(low[c], before_i[c] - used[c]) for c in NATURALS}
    give = [c for c in NATURALS for _ in range(max(0, free[c]))][:k]
    slots = [q for q in range(final.stock_pos, len(final.stock)) if final.stock[q] == card][:k]
    if len(give) < k or len(slots) < k:
        return None
    out = copy.deepcopy(lines)
    deal = out[start]
    held_list = deal["feet" if on_foot else "hands"][seat]
    for c, q in zip(give, slots, strict=True):
        held_list[held_list.index(c)] = card
        deal["stock"][q] = c
    return out


def _closed_kind_sites(lines: Lines, rank: str) -> Iterator[tuple[int, int, int, list[str]]]:
    """Meld lines where completed books take more naturals (R-V4) and the line's one entry of
    `rank` (B3 or W) joins the partnership's unfinished meld of that rank: (line, entry, meld
    size after the entry, the seat's held cards of that kind that the line does not meld)."""
    kinds = (BLACK3,) if rank == BLACK3 else (TWO, JOKER)
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld" or st.profile.books != "naturals":
            continue
        meld = st.melds[st.partnership(line["seat"])].get(rank)
        idx = [j for j, e in enumerate(line["melds"]) if e["rank"] == rank]
        if meld is None or len(idx) != 1 or line["melds"][idx[0]].get("book"):
            continue
        spare = st.held(line["seat"]) - _entry_cards(line)
        size = len(meld.cards) + len(line["melds"][idx[0]]["cards"])
        yield i, idx[0], size, [k for k in kinds for _ in range(spare[k])]


def _closed_kind_past_seven(rank: str) -> Mutation:
    """R-V4: where completed books take more naturals, a black-three (or wild) meld still closes
    at 7. A meld line's entry onto the partnership's unfinished meld of `rank` gets enough cards
    of that kind to take the meld to 8: held cards the line does not meld, or else (first site
    without them) cards slipped into the seat's holding from the undrawn stock (`_slip_in`)."""
    card = BLACK3 if rank == BLACK3 else TWO

    def mutate(lines: Lines) -> Lines | None:
        found = list(_closed_kind_sites(lines, rank))
        for i, j, size, extra in found:
            if 8 - size <= len(extra):
                out = copy.deepcopy(lines)
                out[i]["melds"][j]["cards"] += extra[: 8 - size]
                return out
        for i, j, size, _ in found:
            out = _slip_in(lines, i, lines[i]["seat"], card, 8 - size)
            if out is not None:
                out[i]["melds"][j]["cards"] += [card] * (8 - size)
                return out
        return None

    mutate.__name__ = mutate.__qualname__ = f"{'black3' if rank == BLACK3 else 'wild'}_past_seven"
    return mutate


black3_meld_past_seven = _closed_kind_past_seven(BLACK3)
wild_meld_past_seven = _closed_kind_past_seven(WILD_RANK)


def black3_onto_completed_book(lines: Lines) -> Lines | None:
    """R-V4: where completed books take more naturals, nothing joins a black-three book. A meld
    line gets a "book": true entry of one black three onto a black-three book of 7.

    First choice: the partnership already has a black-three book and the seat holds a black
    three the line does not meld. Failing that, a line whose black-three entry joins an
    unfinished black-three meld: the entry is made to complete the book at exactly 7 and the
    "book" entry follows, with the black threes this needs held by the seat beyond the line, or
    else slipped into its holding from the undrawn stock (`_slip_in`).
    """
    entry = {"rank": BLACK3, "cards": [BLACK3], "book": True}
    for i, st in _replay(lines):
        line = lines[i]
        if st is None or line.get("type") != "meld" or st.profile.books != "naturals":
            continue
        spare = st.held(line["seat"]) - _entry_cards(line)
        if spare[BLACK3] and any(m.rank == BLACK3 for m in st.books(st.partnership(line["seat"]))):
            out = copy.deepcopy(lines)
            out[i]["melds"].append(entry)
            return out
    found = [site for site in _closed_kind_sites(lines, BLACK3) if site[2] <= 7]
    for slip in (False, True):
        for i, j, size, extra in found:
            need = 8 - size  # 7 - size to complete the book, 1 for the "book" entry
            out = _slip_in(lines, i, lines[i]["seat"], BLACK3, need) if slip else None
            if not slip and need <= len(extra):
                out = copy.deepcopy(lines)
            if out is not None:
                out[i]["melds"][j]["cards"] += [BLACK3] * (7 - size)
                out[i]["melds"].append(entry)
                return out
    return None


# Rule sets as knob overrides of `standard` (the `rules` object of docs/trace.md; a rule file for
# the engine is `base = "standard"` plus these knobs).
RULE_SETS: dict[str, dict[str, object]] = {
    # completed books take more naturals (R-V4) and black threes meld (R-V7); wild melds stay
    "naturals-black3": {"books": "naturals", "black3_melds": True, "decks": 8},
}
# name -> (function, expected check id, rule set of RULE_SETS whose engine traces it corrupts)
RULE_SET_MUTATIONS: dict[str, tuple[Mutation, str, str]] = {
    "naturals-black3:black3_meld_past_seven": (
        black3_meld_past_seven,
        "R-V4/closed-kind-over-seven",
        "naturals-black3",
    ),
    "naturals-black3:wild_meld_past_seven": (
        wild_meld_past_seven,
        "R-V4/closed-kind-over-seven",
        "naturals-black3",
    ),
    "naturals-black3:black3_onto_completed_book": (
        black3_onto_completed_book,
        "R-V4/book-entry-closed-kind",
        "naturals-black3",
    ),
    "naturals-black3:wild_onto_completed_book": (
        wild_onto_completed_book,
        "R-V4/book-entry-wild",
        "naturals-black3",
    ),
}
