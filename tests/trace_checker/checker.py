"""Independent referee for deal traces (docs/trace.md) under any rule set (docs/rules.md 1-13).

The checker keeps its own copy of every card's place (stock, pile, each Hand and Foot, melds,
books, exposed red threes), validates every line against that state before applying it, and
asserts card conservation after each line. It was written from docs/rules.md and docs/trace.md
only, so that it can catch engine bugs rather than repeat them.

A violation that leaves the referee unsure where the cards are (a wrong draw, a missing line,
a card that is not where the trace says) stops the checking of that deal; the next `deal` line
starts afresh. Rule breaches that keep the cards consistent (a meld below the opening minimum, a
wild-ratio breach, ...) are reported and the line is applied as written, so checking goes on.

The rule set is read from the knobs of each `deal` line's `rules` object (profiles.py), never
from the profile's name, so custom rule files are checked like the named profiles; a `deal` line
without a `rules` object is accepted only for `standard` (sections 1-10).

Rule ids are docs/rules.md's; besides them: TRACE (format), CARDS (a card is not where a line says,
or conservation broke), PROFILE (a `rules` object the referee cannot use: unknown, missing or
invalid knobs, or a non-standard profile without one), R-PU (`taken` is not what the pick-up
size and rule take: section 5's opening sentence has no id; also the `exact` pick-up from a pile
holding fewer than pickup_size cards), R-S (a deal score that is not the sum of its breakdown,
and a game's totals that are not the sums of its deal scores: section 9's opening sentence).

Named checks (checks.py): every violation also carries the id of the one check that found it,
`RULE/name` (`Violation.check`), since several checks report the same rule id (R-S above, or
R-T3 for a missing `red3` line and for wrong replacements). `disabled=` (TraceChecker,
check_trace, check_file; `--disable` on the command line) switches named checks off, to show
which check catches a corruption and that no neighbour does.

Interpretations settled by the project where docs/rules.md leaves room (noted where they apply):
- R-O1/R-O2: the partnership's first *line* carrying melds must reach the minimum on its own;
  docs/rules.md R-O2 speaks of melds "laid in the same turn", the trace format puts them in one
  line.
- R-PU2/R-PU4/R-X12: without an unfinished meld of the top card's rank, one entry must start
  the meld with the top card and 2 held cards of its kind; with one, the rank's entries must
  book it and start a new legal meld, with top + 2 held of that kind between them.
- R-X14: `ask` may come anywhere in the turn (also before a pick-up), at most once.
- R-X1/R-X9: when a red-three replacement runs the stock dry and the cards it did get include
  red threes, either their own `red3` line (replacing nothing) or `end` may follow; they count
  as exposed either way.
- Game lines: totals are the sums of the deal scores written in the trace (each deal's own
  scores are checked at its `end`); a game whose deal could not be replayed is not judged.

Profile knobs (docs/rules.md sections 11-13, as settled by the project's brief for this referee;
where section 13 and that brief differ, the brief is followed and the place says so):
- R-V3 books "grow": one meld per rank for the whole deal; a pick-up's entries of the top card's
  rank must hold the top card and 2 held cards of its kind between them (reported as R-PU2).
- R-V4 books "naturals": an entry with "book": true joins the partnership's latest completed
  book of its rank; such an entry is no part of a pick-up's qualifying meld (R-PU2/R-PU4). An
  entry starting a new meld may not exceed 7 cards (the brief; R-V4 speaks only of entries onto
  an unfinished meld or a completed book). Black-three melds (R-V7) and wild melds (R-M4) close
  at 7 as in R-M6 (black threes and wilds are not naturals): an entry taking one past 7, or a
  "book": true entry of rank B3 or W, is reported as R-V4.
- R-V5: the concealed deal-4 opening needs an entry starting a new meld with 7+ cards in a
  `meld` line of a turn without a pick-up; a pick-up never opens in that deal. docs/rules.md says
  "laid from held cards", which every `meld` line is.
- R-V6 red3_rule "discard": when a player holds a red three, each discard must be a red three.
  "Never picked up" is read, as the brief says, as "a top red three blocks the pile" (no pair
  can take it); red threes lying below the top card are taken with a pick-up and join the hand.
- R-V8: the `freeze` line comes right after the wild's `discard` (before `out` when that discard
  was the last card); after a `restock` the player draws (or the deal ends), never picks up.
- R-V9: in individual play there is no `ask`; going below 2 cards on the Foot commits the player
  to going out in that turn, as a granted permission does.
- R-V11: a `grab22` breakdown part exists exactly when grab22_bonus > 0; it is accepted when it
  is a multiple of grab22_bonus from 0 to (players of the partnership) x grab22_bonus.
- starting_card "keep" with red3_rule "expose": the red threes a pick-up takes are exposed by a
  `red3` line right after the `pickup` line (count = red threes among the kept cards): the
  brief's reading of section 11 ("left in the pile, taken by the first pick-up") with R-T3.
- Rule ids for knobs without one: pick-up size and rule R-PU, a top wild that may not be taken
  R-PU1, wild ratio and max_wilds_per_meld R-M3, wild melds off R-M4, books needed per deal
  R-G1, final_discard_required R-G3, partner_foot_required R-G2, starting card R-D3 / R-V10.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from .cards import BLACK3, KINDS, NATURALS, RED3, THREES, WILD_RANK, is_wild, rank_of_top
from .checks import CHECKS, rule_of, validate_disabled
from .profiles import PROFILES, Profile
from .state import BEGIN, OUT, OVER, PLAY, DealState, Meld, meld_value, score_deal

SCORE_PARTS: tuple[tuple[str, str], ...] = (  # breakdown part, its check (checks.py)
    ("melded", "R-S1/melded"),
    ("left", "R-S2/left"),
    ("red3", "R-S3/red3"),
    ("books", "R-S4/books"),
    ("out", "R-S5/out"),
)
GRAB22 = "grab22"  # R-V11: the extra breakdown part where grab22_bonus > 0
SEATED = frozenset({"red3", "foot", "draw", "pickup", "meld", "ask", "discard", "out"})


@dataclass(frozen=True)
class Violation:
    """One broken rule: 1-based trace line, rule id (docs/rules.md id, or TRACE/CARDS/PROFILE), and
    the id of the check that found it (checks.py: `RULE/name`, unique to that check)."""

    line: int
    rule: str
    message: str
    check: str = ""

    def __str__(self) -> str:
        tail = f" ({self.check})" if self.check else ""
        return f"line {self.line}: [{self.rule}] {self.message}{tail}"


@dataclass(frozen=True)
class _EntryResult:
    ok: bool
    started: bool


@dataclass(frozen=True)
class _Entry:
    """One meld entry of a `meld` or `pickup` line; `book`: "book": true (R-V4)."""

    rank: str
    cards: list[str]
    book: bool = False


class _Desync(Exception):
    """The referee's state no longer matches the trace: skip to the next deal."""


class UnknownCheck(LookupError):
    """A report names a check id that checks.py does not register (a referee bug)."""


def _cards_str(cards: Counter | list[str]) -> str:
    items = sorted(cards.elements()) if isinstance(cards, Counter) else cards
    return "[" + " ".join(items) + "]"


class TraceChecker:
    """Line-by-line replay of a trace; `state` is the current deal (None outside a deal)."""

    def __init__(
        self,
        profiles: Mapping[str, Profile] = PROFILES,
        *,
        allow_incomplete: bool = False,
        disabled: Iterable[str] = (),
    ) -> None:
        """`disabled`: check ids (checks.py) not to perform; ValueError for an unknown id."""
        self.profiles = profiles
        self.allow_incomplete = allow_incomplete
        self.disabled = validate_disabled(disabled)
        self.violations: list[Violation] = []
        self.state: DealState | None = None
        self.skipping = False
        self.deals = 0
        self.lines = 0
        self.lineno = 0
        self._games: dict[object, dict[int, list[int]]] = {}
        self._tainted_games: set[object] = set()
        self._closed_games: set[object] = set()
        self._last_deal: tuple[object, int] | None = None

    # -- public ------------------------------------------------------------------------------
    def feed(self, line: object, lineno: int | None = None) -> None:
        """Check one trace line against the state, then apply it."""
        self.lines += 1
        self.lineno = lineno if lineno is not None else self.lines
        if not isinstance(line, dict) or not isinstance(line.get("type"), str):
            self.report("TRACE/line", "a line must be a JSON object with a string 'type'")
            return
        kind = line["type"]
        try:
            if kind == "deal":
                self._on_deal(line)
            elif kind == "game":
                self._on_game(line)
            elif kind in _HANDLERS:
                self._in_deal(kind, line)
            else:
                self.report("TRACE/line", f"unknown line type {kind!r}")
        except _Desync:
            self._desync()
        except UnknownCheck:
            raise
        except Exception:
            if not self.disabled:
                raise
            # A disabled check let an unusable line through (checks.py): stop this deal quietly.
            self._desync()

    def _desync(self) -> None:
        self.skipping = True
        if self.state is not None:  # its scores are unknown: do not judge its game line
            self._tainted_games.add(self.state.game)

    def finish(self) -> list[Violation]:
        """Report what a complete trace lacks at its end, and return all violations."""
        if not self.allow_incomplete:
            st = self.state
            if st is not None and st.phase != OVER and not self.skipping:
                self.report("TRACE/deal-unended", "the trace ends inside a deal (no 'end' line)")
            for game, deals in self._games.items():
                if self._game_complete(game, deals) and game not in self._closed_games:
                    self.report(
                        "TRACE/game-unclosed", f"game {game!r} has all its deals but no 'game' line"
                    )
        return self.violations

    def report(self, check: str, message: str) -> bool:
        """Record a violation found by `check` (an id of checks.py) at the current line.

        Returns False, recording nothing, when the check is disabled: the caller then goes on as
        if the check had passed (it does not mark an entry illegal, nor stop the deal).
        """
        if check not in CHECKS:
            raise UnknownCheck(f"unregistered check id {check!r} (add it to checks.py)")
        if check in self.disabled:
            return False
        self.violations.append(Violation(self.lineno, rule_of(check), message, check))
        return True

    def _stop(self, check: str, message: str) -> None:
        """Report a violation after which the referee cannot follow the deal: stop checking it
        (unless the check is disabled)."""
        if self.report(check, message):
            raise _Desync

    # -- deal and game -----------------------------------------------------------------------
    def _on_deal(self, line: dict) -> None:
        prev = self.state
        if prev is not None and prev.phase != OVER and not self.skipping:
            self.report("TRACE/deal-unended", "the previous deal has no 'end' line")
        self.state = None
        self.skipping = False
        self.deals += 1
        prof = self._profile(line)
        if prof is None:
            self._tainted_games.add(line.get("game"))
            raise _Desync
        try:
            st = self._new_deal(line, prof)
        except _Desync:
            self._tainted_games.add(line.get("game"))
            raise
        self.state = st
        self._start_turn((prof.dealer(st.deal) + 1) % prof.players)  # R-D4

    def _profile(self, line: dict) -> Profile | None:
        """The rule set of a deal line: its `rules` knobs, or a known name without rules."""
        name = line.get("profile")
        rules = line.get("rules")
        if isinstance(rules, dict) and rules:
            prof, problems, fatal = Profile.from_rules(
                name if isinstance(name, str) else repr(name), rules
            )
            for problem in problems:
                self.report("PROFILE/rules", problem)
            return None if fatal else prof
        if rules is not None and not isinstance(rules, dict):
            self.report("TRACE/field", f"'rules' must be an object of knobs, found {rules!r}")
            return None
        prof = self.profiles.get(name) if isinstance(name, str) else None
        if prof is None:
            self.report(
                "PROFILE/unknown",
                f"unsupported profile {name!r}: the deal line carries no rules knobs",
            )
        return prof

    def _new_deal(self, line: dict, prof: Profile) -> DealState:
        game = line.get("game")
        deal = line.get("deal")
        if not isinstance(deal, int) or isinstance(deal, bool):
            self._stop("TRACE/field", f"'deal' must be an integer, found {deal!r}")
            deal = 1
        if not 1 <= deal <= prof.deals_per_game:
            self.report("R-D5/deal-number", f"deal number {deal} outside 1..{prof.deals_per_game}")
        last = self._last_deal
        if last is not None and last[0] == game and deal != last[1] + 1:
            self.report("R-D5/deal-order", f"game {game!r}: deal {deal} follows deal {last[1]}")
        if last is not None and last[0] != game:
            self._check_game_closed(last[0])
        self._last_deal = (game, deal)
        if line.get("dealer") != prof.dealer(deal):
            self.report(
                "R-X16/dealer",
                f"dealer of deal {deal} must be seat {prof.dealer(deal)}, "
                f"found {line.get('dealer')!r}",
            )
        hands = self._seat_lists(line.get("hands"), "hands", prof.hand_size, prof)
        feet = self._seat_lists(line.get("feet"), "feet", prof.foot_size, prof)
        discard = self._cards(line.get("discard"), "discard")
        stock = self._cards(line.get("stock"), "stock")
        if len(discard) != prof.start_discard:
            check = "R-V10/start-pile" if prof.starting_card == "none" else "R-D3/start-pile"
            self.report(
                check,
                f"the pile must start with {prof.start_discard} card(s) (starting_card "
                f"{prof.starting_card!r}), found {_cards_str(discard)}",
            )
        bad = [c for c in discard if c == RED3 or is_wild(c)]
        if bad and prof.starting_card == "bury":  # "keep" leaves any card in the pile
            self.report(
                "R-D3/turned-card", f"the turned card may not be a red three or a wild: {bad}"
            )
        if len(stock) != prof.stock_size():
            self.report(
                "R-D3/stock-size", f"stock must hold {prof.stock_size()} cards, found {len(stock)}"
            )
        total = Counter(stock) + Counter(discard)
        for cards in hands + feet:
            total.update(cards)
        full = prof.full_deck()
        if total != full:
            extra, lack = total - full, full - total
            self.report(
                "R-C1/decks",
                f"the deal is not {prof.decks} decks: extra {_cards_str(extra)}, "
                f"missing {_cards_str(lack)}",
            )
        return DealState(
            profile=prof,
            game=game,
            deal=deal,
            stock=stock,
            pile=discard,
            hands=[Counter(h) for h in hands],
            feet=[Counter(f) for f in feet],
            initial_total=total,
        )

    def _seat_lists(self, value_: object, what: str, size: int, prof: Profile) -> list[list[str]]:
        if not isinstance(value_, list) or len(value_) != prof.players:
            self.report("TRACE/field", f"'{what}' must be a list of {prof.players} card lists")
            raise _Desync  # nothing to replay without the cards
        out = [self._cards(v, what) for v in value_]
        for seat, cards in enumerate(out):
            if len(cards) != size:
                self.report(
                    "R-D2/holding-size", f"{what}[{seat}] holds {len(cards)} cards, expected {size}"
                )
        return out

    def _game_complete(self, game: object, deals: Mapping[int, list[int]]) -> bool:
        if game in self._tainted_games:
            return False
        n = self.state.profile.deals_per_game if self.state else 4
        return sorted(deals) == list(range(1, n + 1))

    def _check_game_closed(self, game: object) -> None:
        deals = self._games.get(game, {})
        if (
            not self.allow_incomplete
            and self._game_complete(game, deals)
            and game not in self._closed_games
        ):
            self.report(
                "TRACE/game-unclosed", f"game {game!r} has all its deals but no 'game' line"
            )
            self._closed_games.add(game)

    def _on_game(self, line: dict) -> None:
        st = self.state
        if st is not None and st.phase != OVER and not self.skipping:
            self.report("TRACE/deal-unended", "'game' line inside a deal (no 'end' line before it)")
        game = line.get("game")
        self._closed_games.add(game)
        if game in self._tainted_games:
            return
        deals = self._games.get(game, {})
        n = st.profile.deals_per_game if st else 4
        if sorted(deals) != list(range(1, n + 1)):
            self.report(
                "R-D5/game-deals",
                f"game {game!r} closes after deals {sorted(deals)}; a game is deals 1..{n}",
            )
        parts = len(next(iter(deals.values()))) if deals else 0
        totals = [sum(s[p] for s in deals.values()) for p in range(parts)]
        if line.get("totals") != totals:
            self.report(
                "R-S/game-totals",
                f"game {game!r} totals must be the sums of the deal scores {totals}, "
                f"found {line.get('totals')!r}",
            )
        best = max(totals) if totals else None
        leaders = [p for p, t in enumerate(totals) if t == best]
        winner = leaders[0] if len(leaders) == 1 else None
        if line.get("winner") != winner or (winner is None and "winner" not in line):
            self.report(
                "R-X7/winner",
                f"game {game!r} winner must be {winner!r} (totals {totals}), "
                f"found {line.get('winner')!r}",
            )

    # -- in-deal dispatch --------------------------------------------------------------------
    def _in_deal(self, kind: str, line: dict) -> None:
        if self.skipping:
            return
        st = self.state
        if st is None or st.phase == OVER:
            self.report("TRACE/outside-deal", f"'{kind}' line outside a deal")
            return
        if kind in ("freeze", "restock") and not st.profile.freezes:
            self._stop(
                "TRACE/no-freeze-rule",
                f"'{kind}' lines (R-V8) do not exist where wild_discard is "
                f"{st.profile.wild_discard!r}",
            )
        self._expect(kind, line)
        if kind in SEATED:
            seat = line.get("seat")
            if not isinstance(seat, int) or isinstance(seat, bool):
                self._stop("TRACE/field", f"'{kind}' line needs an integer 'seat', found {seat!r}")
            if seat != st.seat:
                self._stop(
                    "R-D4/turn-order",
                    f"seat {seat} plays a '{kind}' line during seat {st.seat}'s turn",
                )
        _HANDLERS[kind](self, line)
        self._check_conservation()

    def _expect(self, kind: str, line: dict) -> None:
        """Lines that the state forces next (freeze, red threes, Foot, going out, end)."""
        st = self.state
        assert st is not None
        found = f"found '{kind}'"
        if st.pending_freeze is not None:
            if kind != "freeze":
                self._stop(
                    "R-V8/freeze-expected",
                    f"seat {st.pending_freeze} discarded a wild: the pile must be set aside by a "
                    f"'freeze' line right after it, {found}",
                )
        elif st.pending_red3 is not None:
            seat, n, what = st.pending_red3
            if kind == "end" and st.pending_end_stock:
                # R-X1/R-X9: red threes among the last cards cannot be replaced; an `end` right
                # after the short `red3` line is accepted and they count as exposed.
                self._take(seat, Counter({RED3: n}), "exposes")
                st.red3_exposed[st.partnership(seat)] += n
                st.pending_red3 = None
            elif kind != "red3":
                self._stop(
                    "R-T3/red3-expected",
                    f"{what} of seat {seat} holds {n} red three(s): expected 'red3', {found}",
                )
        elif st.pending_end_stock:
            if kind != "end":  # a wrong reason is reported by _on_end (R-E1)
                self._stop(
                    "R-X1/end-expected",
                    f"a red-three replacement found the stock empty: expected 'end', {found}",
                )
        elif st.pending_foot is not None:
            seat, rule = st.pending_foot
            if kind != "foot":
                self._stop(
                    "R-F1/foot-expected",
                    f"seat {seat}'s Hand is empty: expected its 'foot' line now ({rule}), {found}",
                )
        elif st.pending_out:
            if kind != "out":
                self._stop(
                    "R-G3/out-expected",
                    f"seat {st.seat} has no cards left: expected 'out', {found}",
                )
        elif st.phase == OUT and kind != "end":
            self._stop("R-E1/end-after-out", f"a player went out: expected 'end', {found}")

    def _start_turn(self, seat: int) -> None:
        st = self.state
        assert st is not None
        st.seat = seat
        st.phase = BEGIN
        st.asked = st.granted = st.must_go_out = st.books_checked = False
        st.picked_up = st.restocked = False
        if not st.first_turn_done[seat]:
            st.first_turn_done[seat] = True
            n = st.hands[seat][RED3]
            if n and st.profile.exposes_red3:
                # R-X8: starting-Hand red threes, just before the seat's first turn
                st.pending_red3 = (seat, n, "the starting Hand")
        if not st.on_foot[seat] and st.held_count(seat) == 0:
            st.pending_foot = (seat, "R-F3")  # R-F3, R-X10

    def _check_conservation(self) -> None:
        st = self.state
        assert st is not None
        now = st.all_cards()
        if now != st.initial_total:
            extra, lack = now - st.initial_total, st.initial_total - now
            self._stop(
                "CARDS/conservation",
                f"card conservation broken: extra {_cards_str(extra)}, missing {_cards_str(lack)}",
            )

    # -- parsing helpers ---------------------------------------------------------------------
    def _cards(self, value_: object, what: str) -> list[str]:
        if not isinstance(value_, list) or not all(
            isinstance(c, str) and c in KINDS for c in value_
        ):
            self._stop("TRACE/field", f"'{what}' must be a list of card names, found {value_!r}")
        return list(value_)

    def _entries(self, line: dict) -> list[_Entry]:
        st = self.state
        assert st is not None
        melds = line.get("melds")
        if not isinstance(melds, list):
            self._stop("TRACE/field", f"'melds' must be a list, found {melds!r}")
        out: list[_Entry] = []
        for entry in melds:
            if not isinstance(entry, dict) or not isinstance(entry.get("rank"), str):
                self._stop("TRACE/field", f"meld entry needs a string 'rank': {entry!r}")
            cards = self._cards(entry.get("cards"), "meld cards")
            if not cards:
                self._stop("TRACE/field", f"empty meld entry {entry!r}")
            book = entry.get("book", False)
            if not isinstance(book, bool):
                self.report("TRACE/field", f"'book' must be true or false, found {book!r}")
                book = bool(book)
            if book and st.profile.books != "naturals":
                if st.profile.books == "grow":
                    msg = "books grow: every entry joins the rank's one meld, no 'book' entries"
                    self.report("R-V3/book-entry", msg)
                else:
                    self.report(
                        "R-M6/book-entry", "nothing is added to a book ('book' entry, R-V4)"
                    )
                book = False  # applied as an ordinary entry
            out.append(_Entry(entry["rank"], cards, book))
        return out

    def _take(self, seat: int, cards: Counter, what: str) -> None:
        """Remove `cards` from the seat's held cards; they must all be there."""
        st = self.state
        assert st is not None
        held = st.held(seat)
        missing = cards - held
        if missing:
            where = "Foot" if st.on_foot[seat] else "Hand"
            self._stop(
                "CARDS/not-held",
                f"seat {seat} {what} {_cards_str(missing)} not in its {where} {_cards_str(held)}",
            )
        held.subtract(cards)
        for k in [k for k, n in held.items() if n <= 0]:
            del held[k]

    # -- line handlers -----------------------------------------------------------------------
    def _on_red3(self, line: dict) -> None:
        st = self.state
        assert st is not None
        if not st.profile.exposes_red3:
            self._stop(
                "R-V6/red3-line", "red threes are never exposed where red3_rule is 'discard'"
            )
        if st.pending_red3 is None:
            self._stop(
                "R-T3/red3-unexpected", "'red3' line, but the cards just revealed hold no red three"
            )
        seat, n, what = st.pending_red3  # a disabled check above: fails here, stops the deal
        count = line.get("count")
        replaced = self._cards(line.get("replaced_with"), "replaced_with")
        if count != n:
            self._stop(
                "R-T3/red3-count",
                f"{what} holds {n} red three(s): 'count' must be {n}, found {count!r}",
            )
        expected = st.stock_top(n)
        if replaced != expected:
            self._stop(
                "R-T3/replacements",
                f"replacements must be the next {n} stock card(s) {_cards_str(expected)} "
                f"(fewer only when the stock runs out, R-X1), found {_cards_str(replaced)}",
            )
        self._take(seat, Counter({RED3: n}), "exposes")
        st.red3_exposed[st.partnership(seat)] += n
        st.held(seat).update(st.take_stock(n))
        st.pending_red3 = None
        again = replaced.count(RED3)
        if again:  # R-T3: a replacement that is a red three is exposed and replaced too
            st.pending_red3 = (seat, again, "the red-three replacement")
        if len(replaced) < n:  # R-X1, R-X9: the stock ran out
            st.pending_end_stock = True

    def _on_foot(self, line: dict) -> None:
        st = self.state
        assert st is not None
        seat = st.seat
        if st.on_foot[seat]:
            self._stop("R-F1/foot-twice", f"seat {seat} already picked up its Foot")
        if st.held_count(seat) and not st.on_foot[seat]:
            self._stop(
                "R-F1/foot-early",
                f"seat {seat} picks up its Foot while its Hand still holds "
                f"{st.held_count(seat)} card(s)",
            )
        st.pending_foot = None
        st.on_foot[seat] = True
        n = st.feet[seat][RED3]
        if n and st.profile.exposes_red3:  # R-T3, R-X10
            st.pending_red3 = (seat, n, "the Foot")

    def _on_freeze(self, line: dict) -> None:
        """R-V8: the discarded wild sets the whole pile aside."""
        st = self.state
        assert st is not None
        if st.pending_freeze is None:
            self._stop("R-V8/freeze-unexpected", "'freeze' line without a wild just discarded")
        seat = line.get("seat")
        if seat != st.pending_freeze:
            self.report(
                "R-V8/freeze-seat",
                f"the 'freeze' line names seat {seat!r}, the wild's discarder is "
                f"seat {st.pending_freeze}",
            )
        cards = self._cards(line.get("cards"), "cards")
        if cards != st.pile:
            self._stop(
                "R-V8/freeze-cards",
                f"'freeze' must set aside the whole pile, bottom to top {_cards_str(st.pile)}, "
                f"found {_cards_str(cards)}",
            )
        st.set_aside.extend(st.pile)
        st.pile = []
        st.pending_freeze = None

    def _on_restock(self, line: dict) -> None:
        """R-V8: set-aside cards go under the remaining stock before a short draw."""
        st = self.state
        assert st is not None
        prof = st.profile
        if st.phase != BEGIN or st.restocked:
            self.report("R-V8/restock-when", "a restock comes only when a player wants to draw")
        if st.stock_left() >= prof.draw_size:
            self.report(
                "R-V8/restock-stock-not-short",
                f"restock while the stock still holds {st.stock_left()} card(s) "
                f"(only below {prof.draw_size})",
            )
        if not st.set_aside:
            self._stop("R-V8/restock-nothing", "restock with no set-aside cards")
        cards = self._cards(line.get("cards"), "cards")
        if Counter(cards) != Counter(st.set_aside):
            self._stop(
                "R-V8/restock-cards",
                f"restock must bring back all set-aside cards {_cards_str(Counter(st.set_aside))}, "
                f"found {_cards_str(cards)}",
            )
        st.stock = st.stock[st.stock_pos :] + cards  # under the remaining stock
        st.stock_pos = 0
        st.set_aside = []
        st.restocked = True

    def _on_draw(self, line: dict) -> None:
        st = self.state
        assert st is not None
        prof = st.profile
        seat = st.seat
        if st.phase != BEGIN:
            self.report("R-T1/draw-phase", f"seat {seat} draws twice / after a pick-up in one turn")
        cards = self._cards(line.get("cards"), "cards")
        if st.stock_left() < prof.draw_size:
            if prof.freezes and st.set_aside:
                self._stop(
                    "R-V8/restock-expected",
                    f"draw with {st.stock_left()} card(s) in the stock: the set-aside cards "
                    "must be restocked first ('restock' line)",
                )
            else:
                self._stop(
                    "R-E1/draw-short-stock",
                    f"draw with {st.stock_left()} card(s) in the stock: the deal must end (R-X2)",
                )
        expected = st.stock_top(prof.draw_size)
        if cards != expected:
            self._stop(
                "R-T2/draw-cards",
                f"a draw takes the top {prof.draw_size} stock cards {_cards_str(expected)}, "
                f"found {_cards_str(cards)}",
            )
        st.held(seat).update(st.take_stock(prof.draw_size))
        st.phase = PLAY
        n = cards.count(RED3)
        if n and prof.exposes_red3:
            st.pending_red3 = (seat, n, "the draw")

    def _pickup_count(self) -> int:
        """Cards a pick-up takes (pickup_rule), reporting R-PU for a short `exact` pile."""
        st = self.state
        assert st is not None
        prof = st.profile
        if prof.pickup_rule == "whole":
            return len(st.pile)
        if prof.pickup_rule == "exact":
            if len(st.pile) < prof.pickup_size:
                self.report(
                    "R-PU/exact-short-pile",
                    f"the pile holds {len(st.pile)} card(s): a pick-up takes exactly "
                    f"{prof.pickup_size}, only from a pile of {prof.pickup_size} or more",
                )
                return len(st.pile)
            return prof.pickup_size
        return min(prof.pickup_size, len(st.pile))

    def _on_pickup(self, line: dict) -> None:
        st = self.state
        assert st is not None
        prof = st.profile
        seat = st.seat
        p = st.partnership(seat)
        if st.phase != BEGIN:
            self.report(
                "R-T1/pickup-phase", f"seat {seat} picks up after drawing or picking up this turn"
            )
        if st.restocked:
            self.report(
                "R-V8/pickup-after-restock",
                f"seat {seat} wanted to draw (restock), then picks up instead",
            )
        taken = self._cards(line.get("taken"), "taken")
        if not st.pile:
            self._stop("R-PU1/empty-pile", "pick-up from an empty discard pile")
        top = st.pile[-1]
        n = self._pickup_count()
        expected = st.pile[::-1][:n]
        if taken != expected:
            self._stop(
                "R-PU/taken",
                f"'taken' must be the top {n} pile cards, top first ({prof.pickup_rule} "
                f"{prof.pickup_size}): {_cards_str(expected)}, found {_cards_str(taken)}",
            )
        rank = rank_of_top(top)
        if rank is None:
            self.report(
                "R-PU1/top-three", f"the top card {top} is a three: the pile is blocked (R-T4)"
            )
        elif is_wild(top) and not prof.wild_top_pickup:
            self.report("R-PU1/top-wild", f"the top card {top} is a wild: it can never be taken")
        st.picked_up = True
        entries = self._entries(line)
        meld_cards = Counter(c for e in entries for c in e.cards)
        top_used = Counter({top: 1}) if meld_cards[top] else Counter()
        if not top_used:
            self.report("R-PU2/top-not-melded", f"the top card {top} is not in the pick-up's melds")
        from_held = meld_cards - top_used
        buried = Counter(taken[1:])
        missing = from_held - st.held(seat)
        if missing:
            if missing <= buried:
                self.report(
                    "R-PU3/buried-cards",
                    f"the pick-up melds {_cards_str(missing)} taken from below the top card; "
                    "only the top card and held cards may qualify it",
                )
            else:
                self._take(seat, from_held, "melds")  # reports CARDS and stops
        self._check_opening(p, meld_cards, "pick-up", entries)
        had = st.melds[p].get(rank) if rank else None
        had_size = len(had.cards) if had else 0
        self._take(seat, from_held - missing, "melds")
        rest = buried - missing
        if not top_used:
            rest[top] += 1
        del st.pile[-n:]
        results = [self._apply_entry(p, e) for e in entries]
        st.held(seat).update(rest)  # R-PU5: the other cards join the held cards after the melds
        if rank is not None:
            self._check_pickup_qualifies(top, rank, had_size, entries, results)
        st.phase = PLAY
        if rest[RED3] and prof.exposes_red3:  # starting_card "keep": a red three in the pile
            st.pending_red3 = (seat, rest[RED3], "the pick-up")
        self._after_meld(seat, "pick-up")

    def _check_pickup_qualifies(
        self,
        top: str,
        rank: str,
        had_size: int,
        entries: list[_Entry],
        results: list[_EntryResult],
    ) -> None:
        """R-PU2, R-PU4, R-X12 (R-V3): the top card and a held pair of its kind qualify it."""
        st = self.state
        assert st is not None
        need = 1 + st.profile.pickup_pair
        idx = [i for i, e in enumerate(entries) if e.rank == rank and not e.book]
        shown = "; ".join(
            f"{e.rank}{' (book)' if e.book else ''} {_cards_str(e.cards)}" for e in entries
        )
        if not idx:
            self.report(
                "R-PU2/no-entry-of-rank",
                f"no {rank} entry takes the top card {top} (entries: {shown})",
            )
            return
        if st.profile.books == "grow":
            # R-V3: the entries of the rank all join its one meld; no R-PU4
            count = sum(entries[i].cards.count(top) for i in idx)
            if count < need or not all(results[i].ok for i in idx):
                self.report(
                    "R-PU2/grow-pair",
                    f"books grow (R-V3): the pick-up's {rank} entries must legally add the top "
                    f"card {top} and >= {need - 1} held {top} to the {rank} meld "
                    f"(entries: {shown})",
                )
            return
        if had_size == 0:
            if not any(
                results[i].started and results[i].ok and entries[i].cards.count(top) >= need
                for i in idx
            ):
                self.report(
                    "R-PU2/new-meld-pair",
                    f"no entry starts a legal {rank} meld with the top card {top} and a held "
                    f"pair of {top} (entries: {shown})",
                )
            return
        count, legal, ok = 0, True, False
        for i in idx:
            count += entries[i].cards.count(top)
            legal = legal and results[i].ok
            if results[i].started:
                ok = legal and count >= need
                break
        if not ok:
            self.report(
                "R-PU4/complete-and-start",
                f"an unfinished {rank} meld of {had_size} cards exists: the pick-up must complete "
                f"it to a book and legally start a new {rank} meld, the top card {top} and >= "
                f"{need - 1} held {top} between them (entries: {shown})",
            )

    def _on_meld(self, line: dict) -> None:
        st = self.state
        assert st is not None
        seat = st.seat
        if st.phase != PLAY:
            self.report("R-T1/meld-phase", f"seat {seat} melds before drawing or picking up")
        entries = self._entries(line)
        if not entries:
            self.report("TRACE/field", "'meld' line without entries")
            return
        cards = Counter(c for e in entries for c in e.cards)
        self._take(seat, cards, "melds")
        p = st.partnership(seat)
        self._check_opening(p, cards, "meld", entries)
        for e in entries:
            self._apply_entry(p, e)
        self._after_meld(seat, "meld")

    def _check_opening(self, p: int, cards: Counter, what: str, entries: list[_Entry]) -> None:
        """R-O1..R-O3, R-X11: the partnership's first meld line must reach the minimum alone.

        R-V5: in a concealed-book deal, a `meld` line (in a turn without a pick-up) holding an
        entry that starts a new meld of 7+ cards opens, whatever its points.
        """
        st = self.state
        assert st is not None
        if st.opened[p]:
            return
        st.opened[p] = True
        prof = st.profile
        if prof.concealed_opening(st.deal):
            size = prof.book_size
            if what == "pick-up" or st.picked_up:
                self.report(
                    "R-V5/pickup-opening",
                    f"partnership {p} opens deal {st.deal} in a turn with a pick-up: the opening "
                    f"needs a concealed book laid from held cards",
                )
                return
            seen: set[str] = set()
            starts = []
            for e in entries:
                if not e.book and e.rank not in seen and e.rank not in st.melds[p]:
                    starts.append(len(e.cards))
                seen.add(e.rank)
            if not any(n >= size for n in starts):
                self.report(
                    "R-V5/no-concealed-book",
                    f"partnership {p} opens deal {st.deal} without a concealed book (an entry "
                    f"starting a new meld of {size}+ cards; entry sizes {starts})",
                )
            return
        minimum = prof.opening_minimum(st.deal)
        total = meld_value(prof, cards)
        if total < minimum:
            self.report(
                "R-O1/minimum",
                f"partnership {p} opens with a {what} worth {total} < {minimum} "
                f"(deal {st.deal}; cards {_cards_str(cards)})",
            )

    def _check_entry_cards(self, e: _Entry) -> bool:
        """The cards of an entry belong to its rank (R-M2, R-M4, R-M5, R-V6, R-V7)."""
        st = self.state
        assert st is not None
        prof = st.profile
        rank, cards = e.rank, e.cards
        shown = f"{rank} {_cards_str(cards)}"
        if rank == BLACK3 and prof.black3_melds:
            bad = [c for c in cards if c != BLACK3]
            if bad:
                return not self.report(
                    "R-V7/black3-meld-cards",
                    f"a black-three meld holds only black threes, never wilds: {shown}",
                )
            return True
        if rank == WILD_RANK:
            if not prof.wild_melds:
                return not self.report(
                    "R-M4/wild-melds-off", f"wild melds are not allowed in this rule set: {shown}"
                )
            bad = [c for c in cards if not is_wild(c)]
            if bad:
                return not self.report(
                    "R-M4/wild-meld-cards",
                    f"a wild meld holds only twos and jokers: {bad} in {shown}",
                )
            return True
        if rank not in NATURALS:
            if rank == RED3 and not prof.exposes_red3:
                check = "R-V6/red3-melded"
            else:
                check = "R-M5/threes-melded" if rank in THREES or rank == "3" else "TRACE/meld-rank"
            return not self.report(check, f"{rank!r} is not a meld rank (entry {shown})")
        bad = [c for c in cards if c != rank and not is_wild(c)]
        if bad:
            if RED3 in bad and not prof.exposes_red3:
                check = "R-V6/red3-melded"
            elif BLACK3 in bad and prof.black3_melds:
                check = "R-V7/black3-elsewhere"
            elif any(c in THREES for c in bad):
                check = "R-M5/threes-melded"
            else:
                check = "R-M2/wrong-rank-card"
            return not self.report(check, f"cards {bad} do not belong in a {rank} meld ({shown})")
        return True

    def _apply_entry(self, p: int, e: _Entry) -> _EntryResult:
        """Add one meld entry (R-X13) and check R-M2..R-M7, R-V3, R-V4, R-V7 after it."""
        st = self.state
        assert st is not None
        prof = st.profile
        rank, cards = e.rank, e.cards
        shown = f"{rank} {_cards_str(cards)}"
        ok = self._check_entry_cards(e)
        wilds_in = sum(1 for c in cards if is_wild(c))
        # R-V4 with R-V7 / R-M4: black threes and wilds are not naturals, so these melds close
        # at 7 as in R-M6 even where completed books accept more naturals.
        closed_kind = rank in (WILD_RANK, BLACK3)
        if e.book:  # R-V4: naturals onto a completed book of the rank
            book = next(
                (
                    m
                    for m in reversed(st.all_melds[p])
                    if m.rank == rank and len(m.cards) >= prof.book_size
                ),
                None,
            )
            if closed_kind:
                kind = "wild" if rank == WILD_RANK else "black-three"
                if self.report(
                    "R-V4/book-entry-closed-kind",
                    f"nothing is added to a {kind} book: only naturals join a completed book "
                    f"of their rank ({shown})",
                ):
                    ok = False
            elif wilds_in and self.report(
                "R-V4/book-entry-wild",
                f"a completed book accepts naturals only, never wilds: {shown}",
            ):
                ok = False
            if book is None:
                if self.report(
                    "R-V4/book-entry-no-book",
                    f"'book' entry {shown}: partnership {p} has no completed {rank} book",
                ):
                    ok = False
                book = Meld(rank)  # the cards still lie on the table
                st.all_melds[p].append(book)
            book.cards.extend(cards)
            return _EntryResult(ok=ok, started=False)
        meld = st.melds[p].get(rank)
        started = meld is None
        if meld is None:
            meld = Meld(rank)
            st.melds[p][rank] = meld
            st.all_melds[p].append(meld)
        before = len(meld.cards)
        meld.cards.extend(cards)
        size = len(meld.cards)
        if started and len(cards) < prof.min_meld:
            check = {WILD_RANK: "R-M4/new-meld-size", BLACK3: "R-V7/new-meld-size"}.get(
                rank, "R-M2/new-meld-size"
            )
            if self.report(check, f"a new meld needs {prof.min_meld}+ cards: {shown}"):
                ok = False
        cap = prof.book_size
        if prof.books == "closed" and size > cap:
            if self.report(
                "R-M6/over-seven", f"{shown} takes the {rank} meld to {size} cards (max {cap})"
            ):
                ok = False
        elif prof.books == "naturals" and size > cap:
            if started:
                if self.report(
                    "R-V4/new-meld-over-seven", f"a new meld may not exceed {cap} cards: {shown}"
                ):
                    ok = False
            elif closed_kind:
                kind = "wild" if rank == WILD_RANK else "black-three"
                if self.report(
                    "R-V4/closed-kind-over-seven",
                    f"{shown} takes the {kind} meld from {before} to {size} cards: {kind} cards "
                    f"are not naturals, so a {kind} meld closes at {cap} like R-M6",
                ):
                    ok = False
            elif wilds_in:
                if self.report(
                    "R-V4/wild-entry-over-seven",
                    f"{shown} holds a wild and takes the {rank} meld from {before} to {size} "
                    f"cards: an entry with a wild must leave its meld at {cap} or fewer",
                ):
                    ok = False
        if rank not in (WILD_RANK, BLACK3) and not prof.ratio_ok(meld.naturals, meld.wilds):
            if self.report(
                "R-M3/ratio",
                f"after {shown} the {rank} meld holds {meld.naturals} naturals and {meld.wilds} "
                f"wilds ({prof.ratio_text()})",
            ):
                ok = False
        if size >= cap and prof.books != "grow":
            del st.melds[p][rank]  # a closed book: the next entry of the rank starts a new meld
        return _EntryResult(ok=ok, started=started)

    def _after_meld(self, seat: int, what: str) -> None:
        """R-F2 after the last Hand card is melded; R-G4/R-X14 (R-V9, R-G3) on the Foot."""
        st = self.state
        assert st is not None
        prof = st.profile
        n = st.held_count(seat)
        if not st.on_foot[seat]:
            if n == 0:
                st.pending_foot = (seat, "R-F2")
            return
        if n < prof.min_cards_on_foot:
            if st.granted or prof.individual:  # R-V9: nobody is asked in individual play
                st.must_go_out = True
            else:
                self.report(
                    "R-G4/without-permission",
                    f"seat {seat} plays from its Foot and keeps {n} card(s) after this {what} "
                    f"without permission granted this turn (R-X14)",
                )
        if n == 0:
            if prof.final_discard_required:
                self.report(
                    "R-G3/final-discard",
                    f"seat {seat} goes out by a {what}: going out must end with a discard "
                    "(final_discard_required)",
                )
            self._cards_gone(seat)

    def _cards_gone(self, seat: int) -> None:
        """The last card left: R-G1 and R-G2 must hold; `out` must follow."""
        st = self.state
        assert st is not None
        self._check_going_out(seat)
        st.pending_out = True

    def _check_going_out(self, seat: int) -> None:
        st = self.state
        assert st is not None
        if st.books_checked:
            return
        st.books_checked = True
        p = st.partnership(seat)
        if not st.has_books_to_go_out(p):
            have = st.book_counts(p)
            need = st.books_needed()
            self.report(
                "R-G1/books",
                f"partnership {p} goes out in deal {st.deal} with "
                + ", ".join(f"{have[k]} {k}" for k in need)
                + " book(s); needs "
                + ", ".join(f"{n} {k}" for k, n in need.items()),
            )
        idle = [s for s in st.partners(seat) if not st.on_foot[s]]
        if idle and st.profile.partner_foot_required:
            self.report(
                "R-G2/partner-foot",
                f"seat {seat} goes out but partner(s) {idle} are not on the Foot",
            )

    def _on_ask(self, line: dict) -> None:
        st = self.state
        assert st is not None
        seat = st.seat
        if st.profile.individual:
            if self.report(
                "R-V9/ask-individual",
                f"seat {seat} asks permission, but nobody is asked in individual play",
            ):
                return
        if st.asked:
            self.report("R-G3/ask-twice", f"seat {seat} asks permission a second time this turn")
        if not st.on_foot[seat]:
            self.report(
                "R-G1/ask-from-hand", f"seat {seat} asks to go out while playing from its Hand"
            )
        idle = [s for s in st.partners(seat) if not st.on_foot[s]]
        if idle and st.profile.partner_foot_required:  # R-G2; R-V9 for partnerships of 3
            self.report(
                "R-G2/ask-partner-foot",
                f"seat {seat} asks to go out before partner(s) {idle} picked up the Foot",
            )
        granted = line.get("granted")
        if not isinstance(granted, bool):
            self.report("TRACE/field", f"'granted' must be true or false, found {granted!r}")
        st.asked = True
        st.granted = granted is True

    def _on_discard(self, line: dict) -> None:
        st = self.state
        assert st is not None
        prof = st.profile
        seat = st.seat
        if st.phase != PLAY:
            self.report("R-T1/discard-phase", f"seat {seat} discards before drawing or picking up")
        card = line.get("card")
        if not isinstance(card, str) or card not in KINDS:
            self._stop("TRACE/field", f"'card' must be a card name, found {card!r}")
        held = st.held(seat)
        if not prof.exposes_red3 and held[RED3] and card != RED3:
            self.report(
                "R-V6/red3-discard",
                f"seat {seat} holds {held[RED3]} red three(s) and discards {card}: a red three "
                "must be discarded while one is held",
            )
        self._take(seat, Counter({card: 1}), "discards")
        st.pile.append(card)
        if is_wild(card) and prof.freezes:
            st.pending_freeze = seat  # R-V8: the `freeze` line comes next
        if st.on_foot[seat]:
            n = st.held_count(seat)
            if n == 0:
                if not st.granted and not prof.individual:
                    self.report(
                        "R-G4/without-permission",
                        f"seat {seat} discards its last Foot card without permission (R-X14)",
                    )
                self._cards_gone(seat)
                return
            if st.must_go_out:
                self.report(
                    "R-X14/must-go-out",
                    f"seat {seat} melded below {prof.min_cards_on_foot} cards "
                    + ("(individual play, R-V9)" if prof.individual else "with permission")
                    + f", so must go out this turn, but keeps {n} card(s)",
                )
        self._start_turn((seat + 1) % prof.players)

    def _on_out(self, line: dict) -> None:
        st = self.state
        assert st is not None
        seat = st.seat
        if not st.on_foot[seat]:
            self.report("R-G1/out-from-hand", f"seat {seat} goes out while playing from its Hand")
        n = st.held_count(seat)
        if n:
            self.report("R-G3/out-holding-cards", f"seat {seat} goes out still holding {n} card(s)")
        if not st.granted and not st.profile.individual:
            self.report(
                "R-G3/out-without-permission",
                f"seat {seat} goes out without permission granted this turn",
            )
        self._check_going_out(seat)
        st.went_out = st.partnership(seat)
        st.pending_out = False
        st.phase = OUT

    def _on_end(self, line: dict) -> None:
        st = self.state
        assert st is not None
        prof = st.profile
        reason = line.get("reason")
        if reason == "out":
            if st.phase != OUT:
                self.report("R-E1/end-reason", "'end' with reason 'out' but nobody went out")
        elif reason == "stock":
            short = st.stock_left() < prof.draw_size
            if st.phase == OUT:
                self.report("R-E1/end-reason", "a player went out: the end reason must be 'out'")
            elif not st.pending_end_stock and not (st.phase == BEGIN and short):
                when = "during a turn" if st.phase != BEGIN else "at the start of a turn"
                self.report(
                    "R-E1/stock-end-early",
                    f"'end' by stock {when} with {st.stock_left()} card(s) in the stock: the "
                    f"deal ends only when a draw of {prof.draw_size} is impossible",
                )
            elif not st.pending_end_stock and prof.freezes and st.set_aside:
                self.report(
                    "R-V8/stock-end-restock",
                    f"'end' by stock while {len(st.set_aside)} set-aside card(s) could be "
                    "restocked under the stock",
                )
        else:
            self.report("TRACE/field", f"'reason' must be 'out' or 'stock', found {reason!r}")
        st.pending_end_stock = False
        st.phase = OVER
        self._check_scores(line)

    def _check_grab22(self, p: int, got: dict) -> int:
        """R-V11: the random exact-22 bonus part; returns the amount to add to the score."""
        st = self.state
        assert st is not None
        prof = st.profile
        if prof.grab22_bonus <= 0:
            if GRAB22 in got:
                self.report(
                    "R-V11/grab22-off",
                    f"partnership {p} breakdown has a '{GRAB22}' part but grab22_bonus is 0",
                )
            return 0
        seats = sum(1 for s in range(prof.players) if st.partnership(s) == p)
        top = seats * prof.grab22_bonus
        val = got.get(GRAB22)
        if (
            not isinstance(val, int)
            or isinstance(val, bool)
            or not 0 <= val <= top
            or val % prof.grab22_bonus
        ):
            self.report(
                "R-V11/grab22-value",
                f"partnership {p} breakdown '{GRAB22}' must be a multiple of "
                f"{prof.grab22_bonus} from 0 to {top}, found {val!r}",
            )
            return 0
        return val

    def _check_scores(self, line: dict) -> None:
        st = self.state
        assert st is not None
        expected = score_deal(st)
        parts = st.profile.partnerships
        scores = line.get("scores")
        breakdown = line.get("breakdown")
        if not isinstance(scores, list) or len(scores) != parts:
            self.report("TRACE/field", f"'scores' must list {parts} numbers, found {scores!r}")
            scores = [e["score"] for e in expected]
        if not isinstance(breakdown, list) or len(breakdown) != parts:
            self.report(
                "TRACE/field", f"'breakdown' must list {parts} objects, found {breakdown!r}"
            )
            breakdown = [{} for _ in range(parts)]
        for p, exp in enumerate(expected):
            got = breakdown[p] if isinstance(breakdown[p], dict) else {}
            for key, check in SCORE_PARTS:
                if got.get(key) != exp[key]:
                    self.report(
                        check,
                        f"partnership {p} breakdown '{key}' must be {exp[key]}, "
                        f"found {got.get(key)!r}",
                    )
            grab = self._check_grab22(p, got)
            total = exp["score"] + grab
            if scores[p] != total:
                shown = ", ".join(f"{k} {exp[k]}" for k, _ in SCORE_PARTS)
                if st.profile.grab22_bonus > 0:
                    shown += f", {GRAB22} {grab}"
                self.report(
                    "R-S/deal-score",
                    f"partnership {p} score must be {total} ({shown}), found {scores[p]!r}",
                )
        self._games.setdefault(st.game, {})[st.deal] = [
            v if isinstance(v, int | float) else e["score"]
            for v, e in zip(scores, expected, strict=True)
        ]


_HANDLERS = {
    "red3": TraceChecker._on_red3,
    "foot": TraceChecker._on_foot,
    "draw": TraceChecker._on_draw,
    "pickup": TraceChecker._on_pickup,
    "meld": TraceChecker._on_meld,
    "ask": TraceChecker._on_ask,
    "discard": TraceChecker._on_discard,
    "freeze": TraceChecker._on_freeze,
    "restock": TraceChecker._on_restock,
    "out": TraceChecker._on_out,
    "end": TraceChecker._on_end,
}


def check_trace(
    lines: Iterable[dict],
    *,
    allow_incomplete: bool = False,
    profiles: Mapping[str, Profile] = PROFILES,
    disabled: Iterable[str] = (),
) -> list[Violation]:
    """Replay a trace (one dict per line) and return every violation found.

    `allow_incomplete` accepts a trace that stops inside a deal or a game (for unit tests).
    `disabled`: check ids (checks.py) not to perform, to see what the other checks catch.
    """
    checker = TraceChecker(profiles, allow_incomplete=allow_incomplete, disabled=disabled)
    for lineno, line in enumerate(lines, 1):
        checker.feed(line, lineno)
    return checker.finish()


def run_file(
    path: str | Path, *, allow_incomplete: bool = False, disabled: Iterable[str] = ()
) -> TraceChecker:
    """Check a JSON Lines trace file and return the finished checker (for its counts)."""
    checker = TraceChecker(allow_incomplete=allow_incomplete, disabled=disabled)
    with open(path, encoding="utf-8") as fh:
        for lineno, text in enumerate(fh, 1):
            if not text.strip():
                continue
            try:
                line = json.loads(text)
            except json.JSONDecodeError as exc:
                checker.lineno = lineno
                checker.report("TRACE/json", f"invalid JSON: {exc}")
                continue
            checker.feed(line, lineno)
    checker.finish()
    return checker


def check_file(
    path: str | Path, *, allow_incomplete: bool = False, disabled: Iterable[str] = ()
) -> list[Violation]:
    """Check a JSON Lines trace file; line numbers are the file's (blank lines are skipped)."""
    return run_file(path, allow_incomplete=allow_incomplete, disabled=disabled).violations
