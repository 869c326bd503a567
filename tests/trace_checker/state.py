"""The referee's own copy of a deal: where every card is, and what has happened this turn."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from .cards import BLACK3, BLACK3_BOOK, CLEAN, DIRTY, RED3, WILD, WILD_RANK, is_wild
from .profiles import Profile

BEGIN = "begin"  # turn started, draw/pick-up not yet made
PLAY = "play"  # after the draw or pick-up: melds, ask, discard or going out
OUT = "out"  # `out` seen, `end` must follow
OVER = "over"  # `end` seen


@dataclass
class Meld:
    """A meld of one rank; from 7 cards a book (R-M6; where books grow it goes on, R-V3)."""

    rank: str
    cards: list[str] = field(default_factory=list)

    @property
    def wilds(self) -> int:
        return sum(1 for c in self.cards if is_wild(c))

    @property
    def naturals(self) -> int:
        return len(self.cards) - self.wilds

    def book_kind(self) -> str:
        """R-M6: clean (no wilds), dirty (natural rank with wilds), wild; R-V7 black three."""
        if self.rank == WILD_RANK:
            return WILD
        if self.rank == BLACK3:
            return BLACK3_BOOK
        return CLEAN if self.wilds == 0 else DIRTY


@dataclass
class DealState:
    """Full state of one deal as replayed by the checker."""

    profile: Profile
    game: object
    deal: int
    stock: list[str]
    pile: list[str]
    hands: list[Counter]
    feet: list[Counter]
    initial_total: Counter
    stock_pos: int = 0
    on_foot: list[bool] = field(default_factory=list)
    # rank -> the meld entries of that rank join: the unfinished one where books close (R-M7),
    # the rank's one meld for the whole deal where books grow (R-V3)
    melds: list[dict[str, Meld]] = field(default_factory=list)
    all_melds: list[list[Meld]] = field(default_factory=list)  # every meld, books included
    set_aside: list[str] = field(default_factory=list)  # frozen piles (R-V8)
    red3_exposed: list[int] = field(default_factory=list)
    opened: list[bool] = field(default_factory=list)
    first_turn_done: list[bool] = field(default_factory=list)
    # turn state
    seat: int = 0
    phase: str = BEGIN
    asked: bool = False
    granted: bool = False
    must_go_out: bool = False
    books_checked: bool = False
    picked_up: bool = False  # this turn began with a pick-up (R-V5)
    restocked: bool = False  # a `restock` line came this turn (R-V8)
    # forced next lines
    pending_red3: tuple[int, int, str] | None = None  # seat, count, what was revealed
    pending_end_stock: bool = False
    pending_foot: tuple[int, str] | None = None  # seat, rule id (R-F2 / R-F3)
    pending_out: bool = False
    pending_freeze: int | None = None  # seat whose wild discard must be frozen (R-V8)
    went_out: int | None = None

    def __post_init__(self) -> None:
        n, p = self.profile.players, self.profile.partnerships
        self.on_foot = [False] * n
        self.first_turn_done = [False] * n
        self.melds = [{} for _ in range(p)]
        self.all_melds = [[] for _ in range(p)]
        self.red3_exposed = [0] * p
        self.opened = [False] * p

    # -- seats -------------------------------------------------------------------------------
    def partnership(self, seat: int) -> int:
        return seat % self.profile.partnerships

    def partners(self, seat: int) -> list[int]:
        p = self.partnership(seat)
        return [s for s in range(self.profile.players) if s != seat and self.partnership(s) == p]

    def held(self, seat: int) -> Counter:
        """Cards the seat plays from: its Hand, or its Foot once picked up (never both)."""
        return self.feet[seat] if self.on_foot[seat] else self.hands[seat]

    def held_count(self, seat: int) -> int:
        return sum(self.held(seat).values())

    # -- stock -------------------------------------------------------------------------------
    def stock_left(self) -> int:
        return len(self.stock) - self.stock_pos

    def stock_top(self, n: int) -> list[str]:
        return self.stock[self.stock_pos : self.stock_pos + n]

    def take_stock(self, n: int) -> list[str]:
        cards = self.stock_top(n)
        self.stock_pos += len(cards)
        return cards

    # -- books -------------------------------------------------------------------------------
    def books(self, p: int) -> list[Meld]:
        """The partnership's books: every meld of 7 or more cards."""
        return [m for m in self.all_melds[p] if len(m.cards) >= self.profile.book_size]

    def book_counts(self, p: int) -> Counter:
        """Books by kind for R-G1: a black-three book counts as a clean book (R-V7)."""
        counts = Counter(b.book_kind() for b in self.books(p))
        counts[CLEAN] += counts.pop(BLACK3_BOOK, 0)
        return counts

    def books_needed(self) -> dict[str, int]:
        return dict(self.profile.books_needed(self.deal))

    def has_books_to_go_out(self, p: int) -> bool:
        counts = self.book_counts(p)
        return all(counts[k] >= n for k, n in self.books_needed().items())

    # -- conservation ------------------------------------------------------------------------
    def all_cards(self) -> Counter:
        """Every card, wherever it lies; must always equal the deal's cards (270 in standard)."""
        total = Counter(self.stock[self.stock_pos :])
        total.update(self.pile)
        total.update(self.set_aside)
        for c in self.hands + self.feet:
            total.update(c)
        for p in range(self.profile.partnerships):
            for m in self.all_melds[p]:
                total.update(m.cards)
            total[RED3] += self.red3_exposed[p]
        return +total


def value(profile: Profile, cards: Counter | list[str]) -> int:
    """Sum of card values (R-C3) of held cards."""
    items = cards.items() if isinstance(cards, Counter) else Counter(cards).items()
    return sum(profile.values.get(k, 0) * n for k, n in items)


def meld_value(profile: Profile, cards: Counter | list[str]) -> int:
    """Sum of the values of melded cards (R-S1, R-O1): a black three counts -5 (R-V7)."""
    items = cards.items() if isinstance(cards, Counter) else Counter(cards).items()
    return sum(profile.meld_values.get(k, 0) * n for k, n in items)


def score_deal(state: DealState) -> list[dict[str, int]]:
    """R-S1..R-S6 breakdown per partnership, with `score` the sum of the five parts.

    The `grab22` part (R-V11) is random: the checker judges it separately.
    """
    prof = state.profile
    out: list[dict[str, int]] = []
    for p in range(prof.partnerships):
        melded = sum(meld_value(prof, m.cards) for m in state.all_melds[p])
        left = 0
        hidden_red3 = 0
        for s in range(prof.players):
            if state.partnership(s) != p:
                continue
            for c in (state.hands[s], state.feet[s]):
                left -= value(prof, c)
                hidden_red3 += c[RED3]
        red3 = prof.red3_exposed * state.red3_exposed[p] + prof.red3_hidden * hidden_red3
        books = sum(prof.book_bonus[b.book_kind()] for b in state.books(p))
        bonus = prof.out_bonus if state.went_out == p else 0
        parts = {"melded": melded, "left": left, "red3": red3, "books": books, "out": bonus}
        parts["score"] = sum(parts.values())
        out.append(parts)
    return out
