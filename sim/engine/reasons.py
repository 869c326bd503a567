"""Why the engine refuses a proposal: one code per rule, and the rule id it enforces.

Every check returns OK (0) or one of these codes; a refused proposal stops the deal with the
code in ``g.sc[S_ERROR]``, and ``sim.play`` raises ``IllegalMove`` naming the rule. Plain
Python constants, shared by the kernels (numba freezes them) and by the error messages.
"""

from __future__ import annotations

OK = 0
# A meld entry (R-M, R-V).
E_SHAPE = 1  # negative counts, no cards, or a rank that does not exist
E_WILD_MELD = 2  # a wild meld where none are allowed, or naturals in a wild meld
E_THREES = 3  # a meld of threes where they may not be melded
E_BLACK3_WILD = 4  # wilds with black threes
E_ONTO_BOOK = 5  # naturals onto a closed book where that is not allowed
E_TOO_SMALL = 6  # a new meld of fewer than 3 cards
E_RATIO = 7  # too many wilds for the naturals
E_TOO_BIG = 8  # a meld past 7 cards where books close
E_BOOK_CLOSED = 9  # past 7 with wilds, threes or a new meld, where only naturals may join
E_NOT_HELD = 10  # cards the player does not hold (or did not take, at a pick-up)
# A whole meld line.
E_EMPTY_LINE = 11
E_UNDER_MINIMUM = 12
E_NO_CONCEALED_BOOK = 13
E_FOOT_NEEDS_TWO = 14
E_NO_BOOKS = 15
E_NEEDS_FINAL_DISCARD = 16
# Picking up the pile.
E_PILE_BLOCKED = 17  # empty pile, a three on top, a pile below an exact pick-up size
E_WILD_TOP = 18  # a wild on top where wilds may not be taken
E_NO_PAIR = 19  # the top card and a held pair of it are not melded together
E_COMPLETE_FIRST = 20  # an unfinished meld of the top's rank was not completed first
# Discarding, asking, going out.
E_DISCARD_NOT_HELD = 21
E_DISCARD_NEEDS_GRANT = 22
E_DISCARD_NO_BOOKS = 23
E_RED3_FIRST = 24
E_ASK_NOT_ALLOWED = 25
E_NOT_OUT = 26  # a granted player who still holds cards after the going-out melds
E_BAD_ANSWER = 27  # a grant that is not 0 or 1
E_PICKUP_NOT_HELD = 28  # a pick-up's melds use cards that are neither held nor the top card

REASONS: dict[int, tuple[str, str]] = {
    E_SHAPE: ("R-M2", "a meld entry needs cards of a rank that exists"),
    E_WILD_MELD: ("R-M4", "wild melds hold only twos and jokers, where wild melds are allowed"),
    E_THREES: ("R-M5", "threes are never melded (black threes only where R-V7 allows)"),
    E_BLACK3_WILD: ("R-V7", "a black-three meld takes no wilds"),
    E_ONTO_BOOK: ("R-V4", "only naturals, and only where books take naturals, join a book"),
    E_TOO_SMALL: ("R-M2", "a new meld has at least 3 cards"),
    E_RATIO: ("R-M3", "naturals must outnumber wilds as the rules require, after every entry"),
    E_TOO_BIG: ("R-M6", "a meld never exceeds 7 cards"),
    E_BOOK_CLOSED: ("R-V4", "past 7 cards only naturals of the rank join (not wilds, not "
                            "black threes, not a new meld)"),
    E_NOT_HELD: ("R-T1", "a player melds only cards it holds"),
    E_PICKUP_NOT_HELD: ("R-PU3", "only the top card and held cards may make the pick-up's "
                                 "melds"),
    E_EMPTY_LINE: ("R-T1", "a meld line lays at least one entry"),
    E_UNDER_MINIMUM: ("R-O1", "the first melds of a deal must reach the opening minimum"),
    E_NO_CONCEALED_BOOK: ("R-V5", "deal 4 opens with a concealed book from the hand"),
    E_FOOT_NEEDS_TWO: ("R-G4", "on the Foot, keep two cards unless granted to go out"),
    E_NO_BOOKS: ("R-G1", "going out needs the required books"),
    E_NEEDS_FINAL_DISCARD: ("R-G3", "going out must end with a discard under these rules"),
    E_PILE_BLOCKED: ("R-PU1", "the pile may not be taken now (empty, a three on top, or too "
                              "small)"),
    E_WILD_TOP: ("R-PU2", "a wild on top may not be taken under these rules"),
    E_NO_PAIR: ("R-PU2", "picking up needs a held pair melded with the top card"),
    E_COMPLETE_FIRST: ("R-PU4", "an unfinished meld of the top's rank must be completed "
                                "first, and a new meld started"),
    E_DISCARD_NOT_HELD: ("R-T1", "the discard must be a held card"),
    E_DISCARD_NEEDS_GRANT: ("R-X14", "the last card leaves only when granted to go out"),
    E_DISCARD_NO_BOOKS: ("R-G1", "the last card leaves only with the books to go out"),
    E_RED3_FIRST: ("R-V6", "a held red three must be the discard"),
    E_ASK_NOT_ALLOWED: ("R-G2", "asking to go out needs play from the Foot and the partners "
                                "on theirs, once a turn"),
    E_NOT_OUT: ("R-G3", "a granted player must meld out"),
    E_BAD_ANSWER: ("R-X3", "permission is granted (1) or refused (0)"),
}


def explain(code: int) -> str:
    """'R-M3 (naturals must ...)' for a refusal code."""
    rule, text = REASONS.get(code, ("?", f"unknown refusal code {code}"))
    return f"{rule} ({text})"


class IllegalProposal(Exception):
    """Raised inside the compiled engine when a strategy's proposal is refused; the refusal
    code, the decision and the seat are in the game record (``S_ERROR*``), and ``sim.play``
    turns them into a message naming the rule."""
