"""The referee's named checks: every violation comes from exactly one of them.

A check id is `RULE/name`: the rule id it reports (docs/rules.md's, or TRACE / CARDS / PROFILE, see
checker.py) and a name that tells it apart from the other checks of that rule. A `Violation`
carries both (`rule` and `check`); tests and mutations that must prove *which* check caught a
corruption name the check id, since several checks report the same rule id (the deal score and
the game totals both report R-S, for example).

Any check can be switched off for an experiment: `check_trace(lines, disabled={"R-S/deal-score"})`
or `TraceChecker(disabled=...)` (also `python -m tests.trace_checker --disable ID`). A disabled
check is not performed: it reports nothing and, where it would stop the replay of the deal (a
state the referee cannot follow), the replay goes on as if the line were valid, so the other
checks meet the line exactly as they would if the check did not exist. Replaying past such a
point may break the referee's own bookkeeping: with checks disabled, an unexpected error inside
a line is taken as the end of that deal's checking, silently.
"""

from __future__ import annotations

from collections.abc import Iterable

CHECKS: dict[str, str] = {
    # -- trace format and rule set -----------------------------------------------------------
    "TRACE/json": "a file line is not valid JSON",
    "TRACE/line": "a line is not an object with a known string 'type'",
    "TRACE/field": "a field is missing or malformed (cards, seats, melds, flags, scores, ...)",
    "TRACE/meld-rank": "a meld entry's rank is no card kind at all",
    "TRACE/outside-deal": "a deal line type comes before any deal or after its 'end'",
    "TRACE/no-freeze-rule": "'freeze'/'restock' lines where wild_discard is not 'freeze'",
    "TRACE/deal-unended": "a deal has no 'end' line (next deal, 'game' line or end of trace)",
    "TRACE/game-unclosed": "a game has all its deals but no 'game' line",
    "PROFILE/rules": "the 'rules' object has unknown, missing or invalid knobs",
    "PROFILE/unknown": "a deal line without 'rules' names a profile other than standard",
    # -- deal and game (R-C, R-D, R-X16, R-X7) -----------------------------------------------
    "R-C1/decks": "the deal's cards are not the rule set's decks",
    "R-D2/holding-size": "a Hand or Foot does not hold hand_size / foot_size cards",
    "R-D3/start-pile": "the pile does not start with one turned card",
    "R-V10/start-pile": "the pile does not start empty where no starting card is turned",
    "R-D3/turned-card": "the turned card is a red three or a wild where they are buried",
    "R-D3/stock-size": "the stock does not hold the cards left after the deal",
    "R-D5/deal-number": "a deal number outside 1..deals_per_game",
    "R-D5/deal-order": "the deals of a game are not in order",
    "R-D5/game-deals": "a 'game' line closes a game that does not have all its deals",
    "R-X16/dealer": "the dealer is not the seat that deal number gives",
    "R-S/game-totals": "the 'game' line's totals are not the sums of the deal scores",
    "R-X7/winner": "the 'game' line's winner is not the leader (null for a tie)",
    # -- turn order and forced lines ---------------------------------------------------------
    "R-D4/turn-order": "a line by a seat whose turn it is not",
    "R-T1/draw-phase": "a draw after the turn's draw or pick-up",
    "R-T1/pickup-phase": "a pick-up after the turn's draw or pick-up",
    "R-T1/meld-phase": "a meld before the turn's draw or pick-up",
    "R-T1/discard-phase": "a discard before the turn's draw or pick-up",
    "R-T2/draw-cards": "a draw is not the top cards of the stock",
    "R-T3/red3-expected": "revealed red threes are not exposed by the next line",
    "R-T3/red3-unexpected": "a 'red3' line when the cards just revealed hold no red three",
    "R-T3/red3-count": "a 'red3' line's count is not the number of red threes revealed",
    "R-T3/replacements": "the replacements are not the next stock cards",
    "R-X1/end-expected": "a red-three replacement found the stock empty and 'end' does not follow",
    "R-F1/foot-expected": "the Hand is empty and the 'foot' line does not come next",
    "R-F1/foot-twice": "a seat picks up its Foot a second time",
    "R-F1/foot-early": "a seat picks up its Foot while its Hand holds cards",
    "R-G3/out-expected": "a player has no cards left and 'out' does not follow",
    "R-E1/end-after-out": "a player went out and 'end' does not follow",
    "CARDS/not-held": "a line uses a card that is not in the seat's Hand or Foot",
    "CARDS/conservation": "the cards of the deal are not all accounted for after a line",
    # -- melds (R-M, R-O, R-V3..R-V7) --------------------------------------------------------
    "R-M2/new-meld-size": "a new natural meld has fewer than 3 cards",
    "R-M2/wrong-rank-card": "a natural meld entry holds a natural of another rank",
    "R-M3/ratio": "a natural meld breaks the wild ratio or the wild cap after an entry",
    "R-M4/new-meld-size": "a new wild meld has fewer than 3 cards",
    "R-M4/wild-melds-off": "a wild meld where the rule set has none",
    "R-M4/wild-meld-cards": "a wild meld entry holds a card that is not a wild",
    "R-M5/threes-melded": "a three is melded where threes are never melded",
    "R-M6/over-seven": "an entry takes a meld past 7 cards where books close at 7",
    "R-M6/book-entry": "a 'book' entry (naturals onto a book) where books close at 7",
    "R-V3/book-entry": "a 'book' entry where books grow (every entry joins the rank's one meld)",
    "R-V4/book-entry-wild": "a 'book' entry puts a wild onto a completed book",
    "R-V4/book-entry-no-book": "a 'book' entry without a completed book of its rank",
    "R-V4/book-entry-closed-kind": "a 'book' entry onto a black-three or wild book",
    "R-V4/new-meld-over-seven": "an entry starting a new meld has more than 7 cards",
    "R-V4/wild-entry-over-seven": "an entry holding a wild takes a natural meld past 7 cards",
    "R-V4/closed-kind-over-seven": "an entry takes a black-three or wild meld past 7 cards",
    "R-V5/pickup-opening": "the concealed-book deal is opened in a turn with a pick-up",
    "R-V5/no-concealed-book": "the concealed-book deal is opened without a new meld of 7+",
    "R-V6/red3-line": "a 'red3' line where red threes are kept and discarded",
    "R-V6/red3-melded": "a red three is melded where red threes are kept and discarded",
    "R-V6/red3-discard": "a player holding a red three discards another card",
    "R-V7/new-meld-size": "a new black-three meld has fewer than 3 cards",
    "R-V7/black3-meld-cards": "a black-three meld entry holds a card that is not a black three",
    "R-V7/black3-elsewhere": "a black three in a natural meld where black threes meld alone",
    "R-O1/minimum": "a partnership's first meld line is worth less than the deal's minimum",
    # -- pick-ups (R-PU) ---------------------------------------------------------------------
    "R-PU/taken": "'taken' is not the cards the pick-up size and rule take from the pile",
    "R-PU/exact-short-pile": "an exact-size pick-up from a pile holding fewer cards",
    "R-PU1/empty-pile": "a pick-up from an empty pile",
    "R-PU1/top-three": "a pick-up of a pile whose top card is a three",
    "R-PU1/top-wild": "a pick-up of a top wild where wilds are never taken",
    "R-PU2/top-not-melded": "the top card is not in the pick-up's melds",
    "R-PU2/no-entry-of-rank": "no pick-up entry has the top card's rank",
    "R-PU2/new-meld-pair": "no entry starts a legal meld with the top card and a held pair",
    "R-PU2/grow-pair": "where books grow, the rank's entries lack the top card and a held pair",
    "R-PU3/buried-cards": "cards taken from below the top card qualify the pick-up",
    "R-PU4/complete-and-start": "onto an unfinished meld, the pick-up does not book it and "
    "start a new legal meld",
    "R-V8/pickup-after-restock": "a seat that wanted to draw (restock) picks up instead",
    # -- the Foot, going out, the end (R-G, R-X14, R-E, R-V8, R-V9) --------------------------
    "R-G1/books": "going out without the books the deal needs",
    "R-G1/ask-from-hand": "asking to go out while playing from the Hand",
    "R-G1/out-from-hand": "going out while playing from the Hand",
    "R-G2/partner-foot": "going out before the partners picked up their Feet",
    "R-G2/ask-partner-foot": "asking to go out before the partners picked up their Feet",
    "R-G3/ask-twice": "asking permission twice in one turn",
    "R-G3/final-discard": "going out by a meld where a final discard is required",
    "R-G3/out-holding-cards": "an 'out' line while the player still holds cards",
    "R-G3/out-without-permission": "an 'out' line without permission granted this turn",
    "R-G4/without-permission": "on the Foot, a meld below 2 cards or the last discard without "
    "permission",
    "R-X14/must-go-out": "after melding below 2 cards with permission, the turn ends holding cards",
    "R-V9/ask-individual": "an 'ask' line in individual play",
    "R-E1/end-reason": "the end reason is not how the deal ended (out or stock)",
    "R-E1/stock-end-early": "'end' by stock while the stock can serve a draw",
    "R-E1/draw-short-stock": "a draw from a stock too short for it",
    "R-V8/freeze-expected": "a discarded wild is not followed by its 'freeze' line",
    "R-V8/freeze-unexpected": "a 'freeze' line without a wild just discarded",
    "R-V8/freeze-seat": "a 'freeze' line names another seat than the wild's discarder",
    "R-V8/freeze-cards": "a 'freeze' line does not set aside the whole pile",
    "R-V8/restock-when": "a 'restock' line outside a seat's wish to draw",
    "R-V8/restock-stock-not-short": "a 'restock' line while the stock can serve a draw",
    "R-V8/restock-nothing": "a 'restock' line with no set-aside cards",
    "R-V8/restock-cards": "a 'restock' line does not bring back every set-aside card",
    "R-V8/restock-expected": "a draw from a short stock while set-aside cards wait",
    "R-V8/stock-end-restock": "'end' by stock while set-aside cards could be restocked",
    # -- scores (R-S, R-V11) -----------------------------------------------------------------
    "R-S1/melded": "the breakdown's 'melded' part is wrong",
    "R-S2/left": "the breakdown's 'left' part is wrong",
    "R-S3/red3": "the breakdown's 'red3' part is wrong",
    "R-S4/books": "the breakdown's 'books' part is wrong",
    "R-S5/out": "the breakdown's 'out' part is wrong",
    "R-S/deal-score": "a deal score is not the sum of its (correct) breakdown parts",
    "R-V11/grab22-off": "a 'grab22' breakdown part where grab22_bonus is 0",
    "R-V11/grab22-value": "a 'grab22' part that is no multiple of the bonus within its range",
}


def rule_of(check: str) -> str:
    """The rule id a check reports: the part of its id before '/'."""
    return check.split("/", 1)[0]


def checks_of_rule(rule: str) -> list[str]:
    """Every check that reports `rule` (exactly that id, not the ids it is a prefix of)."""
    return [c for c in CHECKS if rule_of(c) == rule]


def validate_disabled(disabled: Iterable[str]) -> frozenset[str]:
    """The set of check ids to switch off; ValueError for a name that is no check."""
    names = frozenset(disabled)
    unknown = sorted(names - CHECKS.keys())
    if unknown:
        raise ValueError(
            f"unknown check id(s) {unknown}: a check id is RULE/name, see "
            "tests/trace_checker/checks.py (CHECKS)"
        )
    return names
