"""A simple greedy player that writes long legal `standard` traces without the engine.

It exists so the checker and the mutations can be exercised on full deals (red threes, pick-ups,
Feet, going out, stock exhaustion, game totals) independently of the engine under test. Its
decisions are made on the checker's own replayed state, and every line it writes is fed back to
the checker at once, so a disagreement shows up immediately as an exception.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from .cards import (
    BLACK3,
    CLEAN,
    DIRTY,
    JOKER,
    NATURALS,
    RED3,
    TWO,
    WILD,
    WILD_RANK,
    is_wild,
    rank_of_top,
)
from .checker import TraceChecker
from .profiles import STANDARD, Profile
from .state import BEGIN, OUT, DealState, score_deal, value


def random_deal_line(
    rng: random.Random, deal: int = 1, game: int = 0, seed: int = 0, profile: Profile = STANDARD
) -> dict:
    """Shuffle, deal 13 + 13 each, turn a start card burying red threes and wilds (R-D3)."""
    deck = list(profile.full_deck().elements())
    rng.shuffle(deck)
    n, h, f = profile.players, profile.hand_size, profile.foot_size
    hands = [deck[i * h : (i + 1) * h] for i in range(n)]
    base = n * h
    feet = [deck[base + i * f : base + (i + 1) * f] for i in range(n)]
    stock = deck[base + n * f :]
    while True:
        card = stock.pop(0)
        if card == RED3 or is_wild(card):
            stock.insert(rng.randrange(len(stock) + 1), card)  # R-X4
            continue
        break
    return {
        "type": "deal",
        "profile": profile.name,
        "rules": {},
        "seed": seed,
        "game": game,
        "deal": deal,
        "dealer": profile.dealer(deal),
        "hands": hands,
        "feet": feet,
        "discard": [card],
        "stock": stock,
    }


@dataclass
class _Sim:
    """A partnership's melds and a seat's held cards, for planning a line."""

    held: Counter
    melds: dict[str, list[int]]  # rank -> [naturals, wilds]
    books: Counter = field(default_factory=Counter)
    entries: list[tuple[str, list[str]]] = field(default_factory=list)

    def add(self, rank: str, cards: list[str]) -> None:
        self.held.subtract(cards)
        nat = sum(1 for c in cards if not is_wild(c))
        m = self.melds.setdefault(rank, [0, 0])
        m[0] += nat
        m[1] += len(cards) - nat
        self.entries.append((rank, cards))
        if sum(m) >= 7:
            kind = WILD if rank == WILD_RANK else (CLEAN if m[1] == 0 else DIRTY)
            self.books[kind] += 1
            del self.melds[rank]

    def wilds(self) -> list[str]:
        return [TWO] * self.held[TWO] + [JOKER] * self.held[JOKER]


class Bot:
    """Greedy play for all four seats; the partner grants going out with `grant` probability."""

    def __init__(self, rng: random.Random, grant: float = 0.85, pick: float = 0.9) -> None:
        self.rng = rng
        self.grant = grant
        self.pick = pick
        self.queue: list[dict] = []

    # -- whole deals and games ---------------------------------------------------------------
    def play_deal(self, deal_line: dict) -> list[dict]:
        checker = TraceChecker(allow_incomplete=True)
        lines = [deal_line]
        checker.feed(deal_line, 1)
        self.queue = []
        while True:
            st = checker.state
            assert st is not None
            line = self._next(st)
            lines.append(line)
            checker.feed(line, len(lines))
            if checker.violations:
                raise RuntimeError(f"bot wrote an illegal line: {checker.violations}")
            if line["type"] == "end":
                return lines
            if len(lines) > 5000:
                raise RuntimeError("deal does not end")

    def play_game(self, game: int = 0, seed: int = 0) -> list[dict]:
        lines: list[dict] = []
        totals = [0, 0]
        for deal in range(1, 5):
            dl = random_deal_line(self.rng, deal=deal, game=game, seed=seed)
            trace = self.play_deal(dl)
            lines += trace
            totals = [t + s for t, s in zip(totals, trace[-1]["scores"], strict=True)]
        winner = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
        lines.append({"type": "game", "game": game, "totals": totals, "winner": winner})
        return lines

    # -- decisions ---------------------------------------------------------------------------
    def _next(self, st: DealState) -> dict:
        s = st.seat
        if st.pending_red3 is not None:
            seat, n, _ = st.pending_red3
            return {"type": "red3", "seat": seat, "count": n, "replaced_with": st.stock_top(n)}
        if st.pending_end_stock:
            return self._end(st, "stock")
        if st.pending_foot is not None:
            return {"type": "foot", "seat": st.pending_foot[0]}
        if st.pending_out:
            return {"type": "out", "seat": s}
        if st.phase == OUT:
            return self._end(st, "out")
        if st.phase == BEGIN:
            pick = self._pickup(st) if self.rng.random() < self.pick else None
            if pick is not None:
                return pick
            if st.stock_left() >= st.profile.draw_size:
                return {"type": "draw", "seat": s, "cards": st.stock_top(st.profile.draw_size)}
            return self._end(st, "stock")
        if self.queue:
            return self.queue.pop(0)
        if (
            st.on_foot[s]
            and not st.asked
            and all(st.on_foot[t] for t in st.partners(s))
            and self._plan_going_out(st)
        ):
            return self.queue.pop(0)
        keep = st.profile.min_cards_on_foot if st.on_foot[s] else 0
        entries = self._plan(st, Counter(st.held(s)), keep).entries
        if entries:
            return _meld_line(s, entries)
        return {"type": "discard", "seat": s, "card": self._discard(st)}

    def _end(self, st: DealState, reason: str) -> dict:
        parts = score_deal(st)
        breakdown = [{k: v for k, v in p.items() if k != "score"} for p in parts]
        return {
            "type": "end",
            "reason": reason,
            "scores": [p["score"] for p in parts],
            "breakdown": breakdown,
        }

    def _sim(self, st: DealState, held: Counter) -> _Sim:
        p = st.partnership(st.seat)
        melds = {r: [m.naturals, m.wilds] for r, m in st.melds[p].items()}
        return _Sim(held=held, melds=melds, books=st.book_counts(p))

    def _plan(self, st: DealState, held: Counter, keep: int, sim: _Sim | None = None) -> _Sim:
        """Greedy melds: extend melds, start natural melds of 3+, wild melds, dirty books."""
        sim = sim or self._sim(st, held)
        start = len(sim.entries)
        for r in NATURALS:
            if r in sim.melds and sim.held[r]:
                sim.add(r, [r] * min(sim.held[r], 7 - sum(sim.melds[r])))
        for r in NATURALS:
            if r not in sim.melds and sim.held[r] >= 3:
                sim.add(r, [r] * min(sim.held[r], 7))
        wilds = sim.wilds()
        if WILD_RANK in sim.melds and wilds:
            sim.add(WILD_RANK, wilds[: 7 - sum(sim.melds[WILD_RANK])])
        elif len(wilds) >= 3 and (sim.books[WILD] == 0 or self.rng.random() < 0.3):
            sim.add(WILD_RANK, wilds[:7])
        for r in list(sim.melds):
            nat, wil = sim.melds[r]
            need = 7 - nat - wil
            wilds = sim.wilds()
            if r != WILD_RANK and 0 < need <= len(wilds) and nat >= 2 * (wil + need):
                sim.add(r, wilds[:need])
        p = st.partnership(st.seat)
        # R-G4: on the Foot keep `keep` cards; dropping trailing entries keeps the rest legal
        while len(sim.entries) > start and sum((+sim.held).values()) < keep:
            rank, cards = sim.entries.pop()
            sim.held.update(cards)
        if not st.opened[p]:
            total = value(st.profile, [c for _, cs in sim.entries for c in cs])
            if total < st.profile.opening_minimum(st.deal):
                del sim.entries[start:]
        return sim

    def _plan_going_out(self, st: DealState) -> bool:
        s = st.seat
        sim = self._plan(st, Counter(st.held(s)), 0)
        left = sum((+sim.held).values())
        need = st.books_needed()
        if left > 1 or any(sim.books[k] < n for k, n in need.items()):
            return False
        granted = self.rng.random() < self.grant
        self.queue = [{"type": "ask", "seat": s, "granted": granted}]
        if granted:
            if sim.entries:
                self.queue.append(_meld_line(s, sim.entries))
            if left:
                card = next(iter((+sim.held).elements()))
                self.queue.append({"type": "discard", "seat": s, "card": card})
        return True

    def _pickup(self, st: DealState) -> dict | None:
        """R-PU/R-X12 pick-ups: start a meld with top + pair, or book the old one and restart."""
        if not st.pile:
            return None
        s, top = st.seat, st.pile[-1]
        rank = rank_of_top(top)
        if rank is None:
            return None
        p = st.partnership(s)
        held = +st.held(s)  # a copy: `sim` spends from it, `held` stays as before
        n = min(st.profile.pickup_size, len(st.pile))
        old = st.melds[p].get(rank)
        sim = self._sim(st, Counter(held))
        sim.held[top] += 1  # the top card, used first
        if old is None:
            if held[top] < 2:
                return None
            sim.add(rank, [top] * (1 + min(held[top], 6)))
        else:
            fill = 7 - len(old.cards)
            spare = [w for w in sim.wilds() if w != top] if rank != WILD_RANK else []
            if held[top] >= fill - 1 + 3:
                new = [top] * 3
            elif held[top] >= fill - 1 + 2 and spare and rank != WILD_RANK:
                new = [top, top, spare[0]]  # W3: 8 8 2 after booking with top + 8
            else:
                return None
            sim.add(rank, [top] * fill)
            sim.add(rank, new)
        if not st.opened[p]:
            self._plan(st, sim.held, 0, sim)
            total = value(st.profile, [c for _, cs in sim.entries for c in cs])
            if total < st.profile.opening_minimum(st.deal) or not sim.entries:
                return None
        left = sum((+sim.held).values()) + n - 1
        if st.on_foot[s] and left < st.profile.min_cards_on_foot:
            return None
        taken = st.pile[::-1][:n]
        return {"type": "pickup", "seat": s, "taken": taken, "melds": _entries(sim.entries)}

    def _discard(self, st: DealState) -> str:
        held = +st.held(st.seat)
        if held[BLACK3]:
            return BLACK3
        naturals = [k for k in NATURALS if held[k]]
        if naturals:
            low = min(held[k] for k in naturals)
            return self.rng.choice([k for k in naturals if held[k] == low])
        return self.rng.choice(sorted(held))


def _entries(entries: list[tuple[str, list[str]]]) -> list[dict]:
    return [{"rank": r, "cards": list(cs)} for r, cs in entries]


def _meld_line(seat: int, entries: list[tuple[str, list[str]]]) -> dict:
    return {"type": "meld", "seat": seat, "melds": _entries(entries)}


def generate_traces(n: int, seed: int = 0, games: int = 0) -> list[list[dict]]:
    """`n` single-deal traces (deals 1..4 in turn) and `games` full-game traces."""
    rng = random.Random(seed)
    bot = Bot(rng)
    traces = []
    for i in range(n):
        traces.append(bot.play_deal(random_deal_line(rng, deal=1 + i % 4, game=i, seed=seed)))
    for g in range(games):
        traces.append(bot.play_game(game=n + g, seed=seed))
    return traces
