"""Helpers to write small hand-made traces for the checker's unit tests.

`make_deal` builds a `deal` line from the cards a test cares about and fills the rest of the
270 cards deterministically. `TraceBuilder` then appends lines while tracking the stock, the pile
and the held cards mechanically, so a test names only the decisions (what to meld, what to
discard) and gets `draw`, `taken` and `replaced_with` right without counting. The builder never
judges legality: tests use it to write illegal lines too.

Other rule sets: `make_deal(rules={...})` writes a `deal` line whose `rules` object is the
standard knobs overridden by the given ones (`PROFILE_RULES` holds the named profiles of
docs/rules.md section 12, written out from the rule book), and `TraceBuilder` reads the knobs back
from that line: pick-up size and rule, red threes exposed or kept (R-V6: no `red3` lines), a
wild discard followed by its `freeze` line (R-V8), `restock`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from .cards import BLACK3, KINDS, NATURALS, RED3, WILDS, is_wild
from .profiles import STANDARD, Profile

# docs/rules.md sections 12-13 (R-V1..R-V11) as knob overrides of `standard`, 4 players.
_INDIVIDUAL_11 = {
    "partnerships": 4,
    "hand_size": 11,
    "foot_size": 11,
    "starting_card": "none",  # R-V10
    "pickup_rule": "exact",
    "wild_top_pickup": False,
    "wild_ratio": "more",
    "books": "grow",  # R-V3
    "wild_melds": False,
    "red3_rule": "discard",  # R-V6
    "red3_bonus": 0,
    "red3_penalty": 500,
    "clean_book_bonus": 300,
    "dirty_book_bonus": 100,
    "wild_book_bonus": 0,
    "out_clean_books": [1, 1, 1, 1],
    "out_dirty_books": [1, 1, 1, 1],
    "out_wild_books": [0, 0, 0, 0],
    "final_discard_required": True,
}
_BROUILLETTE = {
    **_INDIVIDUAL_11,
    "clean_book_bonus": 500,
    "dirty_book_bonus": 300,
    "out_clean_books": [1, 1, 1, 2],
    "out_dirty_books": [1, 1, 1, 2],
    "final_discard_required": False,
    "wild_discard": "freeze",  # R-V8
    "black3_melds": True,  # R-V7
}
PROFILE_RULES: dict[str, dict] = {
    "standard": {},
    "eleven": {
        "decks": 4,  # R-V1
        "hand_size": 11,
        "foot_size": 11,
        "pickup_size": 5,
        "max_wilds_per_meld": 2,
        "books": "naturals",  # R-V4
        "wild_melds": False,
        "red3_rule": "discard",  # R-V6
        "red3_bonus": 0,
        "red3_penalty": 300,
        "wild_book_bonus": 0,
        "out_wild_books": [0, 0, 0, 0],
    },
    "saskatchewan": {
        "hand_size": 11,
        "deal4_concealed_book": True,  # R-V5
        "pickup_rule": "whole",
        "wild_ratio": "more",
        "books": "grow",  # R-V3
        "out_clean_books": [1, 1, 1, 1],
        "out_dirty_books": [1, 1, 1, 1],
        "out_wild_books": [1, 1, 1, 1],
    },
    "simpson": _INDIVIDUAL_11,
    "brouillette": _BROUILLETTE,
    "brouillette-partners": {
        **_BROUILLETTE,
        "partnerships": 2,
        "out_clean_books": [2, 2, 2, 4],
        "out_dirty_books": [2, 2, 2, 4],
        "partner_foot_required": False,
    },
}


def rules_profile(rules: Mapping[str, object], name: str = "custom") -> Profile:
    """The profile of standard knobs overridden by `rules` (ValueError if they are invalid)."""
    prof, problems, fatal = Profile.from_rules(name, {**STANDARD.to_rules(), **rules})
    if problems or fatal:
        raise ValueError("; ".join(problems))
    return prof


def profile_of(deal_line: Mapping) -> Profile:
    """The profile a `deal` line's `rules` object describes (standard without one)."""
    rules = deal_line.get("rules")
    if not rules:
        return STANDARD
    return rules_profile(rules, deal_line.get("profile", "custom"))


Entry = tuple[str, "str | Sequence[str]"]

# Filler for Hands and Feet: naturals only (so no red three or wild appears unasked for).
_HELD_FILL = NATURALS + (BLACK3,) + WILDS + (RED3,)
# Filler for the stock: every kind in turn, so long idle plays meet red threes and wilds.
_STOCK_FILL = KINDS


def cards(text: str | Sequence[str]) -> list[str]:
    """'K K 2' -> ['K', 'K', '2']; lists pass through."""
    return text.split() if isinstance(text, str) else list(text)


def _round_robin(pool: Counter, order: Sequence[str], n: int | None = None) -> list[str]:
    out: list[str] = []
    while (n is None or len(out) < n) and +pool:
        before = len(out)
        for kind in order:
            if pool[kind] > 0 and (n is None or len(out) < n):
                pool[kind] -= 1
                out.append(kind)
        if len(out) == before:  # only kinds outside `order` are left
            break
    if n is not None and len(out) < n:
        raise ValueError("not enough cards left to fill")
    return out


def make_deal(
    hands: Sequence[str | Sequence[str]] | None = None,
    feet: Sequence[str | Sequence[str]] | None = None,
    discard: str | Sequence[str] | None = None,
    stock_top: str | Sequence[str] = (),
    stock_bottom: str | Sequence[str] = (),
    deal: int = 1,
    game: int = 0,
    seed: int = 0,
    profile: Profile = STANDARD,
    rules: Mapping[str, object] | None = None,
    name: str | None = None,
) -> dict:
    """A valid `deal` line: given cards first, the rest of the deck filled deterministically.

    Hands and Feet may be given partly (padded with naturals up to their size); `discard`
    defaults to a natural (none where starting_card is "none"); `stock_top` are the next cards
    to be drawn, `stock_bottom` the last ones, the remaining cards lie between them. `rules`
    (knob overrides of `standard`) writes a full `rules` object; without it the line has `{}`.
    """
    if rules is not None:
        profile = rules_profile(rules, name or "custom")
    n = profile.players
    hand_lists = [cards(h) for h in (hands or [[]] * n)]
    foot_lists = [cards(f) for f in (feet or [[]] * n)]
    hand_lists += [[] for _ in range(n - len(hand_lists))]
    foot_lists += [[] for _ in range(n - len(foot_lists))]
    top = cards(stock_top)
    bottom = cards(stock_bottom)
    pile = cards(discard) if discard is not None else []
    pool = profile.full_deck()
    used = Counter(top) + Counter(bottom) + Counter(pile)
    for cs in hand_lists + foot_lists:
        used.update(cs)
    over = used - pool
    if over:
        raise ValueError(f"more cards than the deck holds: {dict(over)}")
    pool.subtract(used)
    for cs, size in [(h, profile.hand_size) for h in hand_lists] + [
        (f, profile.foot_size) for f in foot_lists
    ]:
        if len(cs) > size:
            raise ValueError(f"{len(cs)} cards given for a holding of {size}")
        cs.extend(_round_robin(pool, _HELD_FILL, size - len(cs)))
    if discard is None:
        pile = _round_robin(pool, NATURALS, profile.start_discard)
    stock = top + _round_robin(pool, _STOCK_FILL) + bottom
    return {
        "type": "deal",
        "profile": profile.name,
        "rules": profile.to_rules() if rules is not None else {},
        "seed": seed,
        "game": game,
        "deal": deal,
        "dealer": profile.dealer(deal),
        "hands": hand_lists,
        "feet": foot_lists,
        "discard": pile,
        "stock": stock,
    }


def entry(rank: str, text: str | Sequence[str]) -> dict:
    """One meld entry: entry('K', 'K K 2')."""
    return {"rank": rank, "cards": cards(text)}


class TraceBuilder:
    """Appends trace lines to a deal, tracking stock, pile and held cards mechanically."""

    def __init__(self, deal_line: dict, profile: Profile | None = None) -> None:
        profile = profile or profile_of(deal_line)
        self.profile = profile
        self.lines: list[dict] = [deal_line]
        self.stock: list[str] = list(deal_line["stock"])
        self.pile: list[str] = list(deal_line["discard"])
        self.hands = [Counter(h) for h in deal_line["hands"]]
        self.feet = [Counter(f) for f in deal_line["feet"]]
        self.on_foot = [False] * profile.players
        self.exposed = [0] * profile.partnerships
        self.set_aside: list[str] = []  # frozen piles (R-V8)
        self.stock_ran_out = False  # a red-three replacement found the stock empty (R-X1)

    # -- state -------------------------------------------------------------------------------
    def held(self, seat: int) -> Counter:
        return self.feet[seat] if self.on_foot[seat] else self.hands[seat]

    def _drop(self, seat: int, cs: Iterable[str]) -> None:
        held = self.held(seat)
        held.subtract(cs)
        for k in [k for k, v in held.items() if v <= 0]:
            del held[k]

    def add(self, line: dict) -> TraceBuilder:
        """Append a raw line (no tracking)."""
        self.lines.append(line)
        return self

    # -- lines -------------------------------------------------------------------------------
    def red3(self, seat: int, batch: Sequence[str], auto: bool = True) -> TraceBuilder:
        """Expose the red threes of `batch` (cards just revealed) and draw replacements.

        Nothing happens where red threes are kept and discarded (R-V6)."""
        n = list(batch).count(RED3)
        if not n or not self.profile.exposes_red3:
            return self
        repl = self.stock[:n]
        del self.stock[:n]
        self.stock_ran_out = self.stock_ran_out or len(repl) < n
        self._drop(seat, [RED3] * n)
        self.held(seat).update(repl)
        self.exposed[seat % self.profile.partnerships] += n
        self.lines.append({"type": "red3", "seat": seat, "count": n, "replaced_with": repl})
        if auto:
            self.red3(seat, repl)
        return self

    def expose_hand(self, seat: int) -> TraceBuilder:
        """R-X8: the starting Hand's red threes, at the start of the seat's first turn."""
        return self.red3(seat, list(self.hands[seat].elements()))

    def draw(self, seat: int, red3: bool = True) -> TraceBuilder:
        drawn = self.stock[:2]
        del self.stock[:2]
        self.held(seat).update(drawn)
        self.lines.append({"type": "draw", "seat": seat, "cards": drawn})
        return self.red3(seat, drawn) if red3 else self

    def foot(self, seat: int, red3: bool = True) -> TraceBuilder:
        self.on_foot[seat] = True
        self.lines.append({"type": "foot", "seat": seat})
        return self.red3(seat, list(self.feet[seat].elements())) if red3 else self

    def pickup(self, seat: int, *melds: Entry, red3: bool = True) -> TraceBuilder:
        """Take the pile cards the pick-up rule takes (top 7 or all in standard); the melds use
        the top card and held cards; kept red threes are exposed after it where they are."""
        prof = self.profile
        if prof.pickup_rule == "whole":
            n = len(self.pile)
        else:  # "exact" from a short pile writes the whole pile (illegal: tests use it)
            n = min(prof.pickup_size, len(self.pile))
        taken = self.pile[::-1][:n]
        del self.pile[len(self.pile) - n :]
        entries = [entry(r, c) for r, c in melds]
        used = Counter(c for e in entries for c in e["cards"])
        if taken and used[taken[0]]:
            used[taken[0]] -= 1
        self._drop(seat, used.elements())
        self.held(seat).update(taken[1:])
        self.lines.append({"type": "pickup", "seat": seat, "taken": taken, "melds": entries})
        return self.red3(seat, taken[1:]) if red3 else self

    def meld(self, seat: int, *melds: Entry, book: Sequence[int] = ()) -> TraceBuilder:
        """`book`: indexes of the entries written with "book": true (R-V4)."""
        entries = [entry(r, c) for r, c in melds]
        for i in book:
            entries[i]["book"] = True
        self._drop(seat, [c for e in entries for c in e["cards"]])
        self.lines.append({"type": "meld", "seat": seat, "melds": entries})
        return self

    def ask(self, seat: int, granted: bool = True) -> TraceBuilder:
        self.lines.append({"type": "ask", "seat": seat, "granted": granted})
        return self

    def discard(self, seat: int, card: str, freeze: bool = True) -> TraceBuilder:
        """A discard; a wild is followed by its `freeze` line where the pile freezes (R-V8)."""
        self._drop(seat, [card])
        self.pile.append(card)
        self.lines.append({"type": "discard", "seat": seat, "card": card})
        if freeze and is_wild(card) and self.profile.freezes:
            self.freeze(seat)
        return self

    def freeze(self, seat: int) -> TraceBuilder:
        """R-V8: the whole pile, bottom to top, is set aside."""
        self.lines.append({"type": "freeze", "seat": seat, "cards": list(self.pile)})
        self.set_aside += self.pile
        self.pile = []
        return self

    def restock(self, order: Sequence[str] | None = None) -> TraceBuilder:
        """R-V8: the set-aside cards (in `order`, default as set aside) go under the stock."""
        cs = list(order) if order is not None else list(self.set_aside)
        self.stock += cs
        self.set_aside = []
        self.lines.append({"type": "restock", "cards": cs})
        return self

    def out(self, seat: int) -> TraceBuilder:
        self.lines.append({"type": "out", "seat": seat})
        return self

    def end(
        self, reason: str, scores: Sequence[int], breakdown: Sequence[dict] | None = None
    ) -> TraceBuilder:
        """`breakdown` may be given as dicts of the five parts; scores must match them."""
        self.lines.append(
            {
                "type": "end",
                "reason": reason,
                "scores": list(scores),
                "breakdown": [dict(b) for b in (breakdown or [])],
            }
        )
        return self

    # -- shortcuts ---------------------------------------------------------------------------
    def turn(self, seat: int, discard: str, *melds: Entry) -> TraceBuilder:
        """Draw, meld `melds` (if any) in one line, discard."""
        self.draw(seat)
        if melds:
            self.meld(seat, *melds)
        return self.discard(seat, discard)

    def idle_turn(self, seat: int, keep: Sequence[str] = ()) -> TraceBuilder:
        """Draw and discard the first natural held (in rank order) not in `keep`; a held red
        three first where red threes are discarded (R-V6). No discard when a red-three
        replacement ran the stock dry (R-X1: the deal ends)."""
        self.draw(seat)
        if self.stock_ran_out:
            return self
        held = self.held(seat)
        if held[RED3] and not self.profile.exposes_red3:
            return self.discard(seat, RED3)
        card = next((k for k in NATURALS if held[k] and k not in keep), None)
        return self.discard(seat, card or sorted(+held)[0])
