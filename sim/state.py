"""The whole state of a deal as a handful of small integer arrays (DESIGN.md, pgx style).

Arrays are allocated once per worker (``new_state``) and reset per deal, so the hot loop never
allocates. The state is one numpy record, so numba code reads ``st.hand[seat, kind]`` by name.
"""

from __future__ import annotations

import numpy as np

from sim import cards
from sim.rules import MAX_SEATS, MAX_TEAMS, N_RULE_SLOTS

# Slots of the int64 scalar array ``st.sc``.
S_STOCK_N = 0  # cards left in the stock; the next card drawn is stock[S_STOCK_N - 1]
S_PILE_N = 1  # cards in the discard pile; the top is pile[S_PILE_N - 1]
S_TURN = 2  # turns played in this deal (1-based while a turn runs)
S_DEAL = 3  # deal number 1..4 (R-D5)
S_DEALER = 4
S_SEAT = 5  # seat whose turn it is
S_TRACE = 6  # 1: append events to the buffer
S_CHECKED = 7  # 1: assert card conservation after every action
S_EV_N = 8  # events written
S_EVC_N = 9  # cards written to the event card stream
S_LINE = 10  # meld line counter, groups meld entries into trace lines
S_ENDED = 11  # 0 running, else END_* code
S_OUT_SEAT = 12
S_GRANTED = 13  # 1 when the current player holds a grant to go out this turn (R-X14)
S_ASKED = 14  # 1 when the current player has asked this turn
S_ERROR = 15  # first engine error code (0 none); a strategy's illegal request
S_GAME = 16
S_PLAYERS = 17
S_TEAMS = 18
S_PICKED_UP = 19  # 1 when the current player picked up the pile this turn
S_FROZEN_N = 20  # cards set aside by a frozen pile (R-V8)
S_LINE_CONCEALED = 21  # 1 when the line being checked starts a meld of 7+ cards (R-V5)
N_SCALARS = 24

END_NONE = 0
END_OUT = 1
END_STOCK = 2
END_TRUNCATED = 3

BOOK_CLEAN = 0
BOOK_DIRTY = 1
BOOK_WILD = 2
BOOK_BLACK3 = 3  # earns the dirty bonus, counts as clean toward going out (R-V7)
N_BOOK_TYPES = 4

# A meld's contents in ``st.meld[team, rank]``: naturals, twos, jokers.
M_NAT = 0
M_TWO = 1
M_JOKER = 2

TURN_CAP = 2000  # no real deal reaches it (about 300 turns at most); hitting it is 'truncated'
EVENT_CAP = 1 << 16
EVENT_CARD_CAP = 1 << 20
EVENT_WIDTH = 8
ENTRY_WIDTH = 5
N_PARAMS = 16

MAX_CARDS = 512  # 8 decks of 54 at most (sim.rules validation)
_K = cards.N_KINDS

# The state is one numpy record: numba passes it to every function as a bare pointer, where a
# tuple of arrays would pay a reference-count round trip per array per call (measured: ~0.5 us
# per call, 30x the work of a small helper).
STATE_DTYPE = np.dtype(
    [
        ("rules", np.int32, (N_RULE_SLOTS,)),  # packed Rules
        ("sc", np.int64, (N_SCALARS,)),  # scalars, S_* above
        ("hand", np.int32, (MAX_SEATS, _K)),  # held cards: the Hand, or the Foot once picked up
        ("foot", np.int32, (MAX_SEATS, _K)),  # a Foot not yet picked up
        ("on_foot", np.int32, (MAX_SEATS,)),  # 1 once the seat has picked up its Foot
        ("first_turn_done", np.int32, (MAX_SEATS,)),  # for R-X8 (starting-Hand red threes)
        ("stock", np.int8, (MAX_CARDS,)),  # a stack: the next card drawn is the last used one
        ("pile", np.int8, (MAX_CARDS,)),  # the discard pile, top last
        ("frozen", np.int8, (MAX_CARDS,)),  # piles set aside by a discarded wild (R-V8)
        ("meld", np.int32, (MAX_TEAMS, cards.N_RANKS, 3)),  # unfinished melds (M_* columns)
        ("books", np.int32, (MAX_TEAMS, N_BOOK_TYPES)),  # books by type (BOOK_*)
        ("rank_books", np.int32, (MAX_TEAMS, cards.N_RANKS)),  # closed books per rank
        ("booked", np.int32, (MAX_TEAMS, _K)),  # cards lying in closed books
        ("melded_value", np.int32, (MAX_TEAMS,)),  # card values of every melded card (R-S1)
        ("red3", np.int32, (MAX_TEAMS,)),  # red threes exposed (R-S3)
        ("grab22", np.int32, (MAX_TEAMS,)),  # exact-22 bonuses this deal (R-V11)
        ("game_score", np.int64, (MAX_TEAMS,)),  # totals of the game's earlier deals (public)
        ("taken", np.int32, (MAX_SEATS, _K)),  # cards each seat took from the pile (public)
        ("opened", np.int32, (MAX_TEAMS,)),
        ("open_turn", np.int32, (MAX_TEAMS,)),  # turn of the opening, -1 if none
        ("foot_turn", np.int32, (MAX_SEATS,)),  # turn the seat picked up its Foot, -1 if none
        ("deck", np.int32, (_K,)),  # composition of the shoe, for conservation checks
        ("rng", np.uint64, (2,)),  # 0 deal shuffles, 1 strategy decisions
        ("strategy", np.int32, (MAX_SEATS,)),  # strategy id per seat
        ("params", np.float64, (MAX_SEATS, N_PARAMS)),  # strategy parameters per seat
        ("ev", np.int32, (EVENT_CAP, EVENT_WIDTH)),  # event buffer for traces
        ("evc", np.int8, (EVENT_CARD_CAP,)),  # card stream the events point into
        # Meld entries: (rank, naturals, twos, jokers, onto a closed book (R-V4)).
        ("entries", np.int32, (64, ENTRY_WIDTH)),
        ("entries2", np.int32, (64, ENTRY_WIDTH)),  # second scratch list for plans
        ("avail", np.int32, (_K,)),  # scratch: cards available to a line being checked
        # A partnership's table while a line is checked (tmp_) or planned (plan_).
        ("tmp_meld", np.int32, (cards.N_RANKS, 3)),
        ("tmp_books", np.int32, (N_BOOK_TYPES,)),
        ("tmp_rank_books", np.int32, (cards.N_RANKS,)),
        ("tmp_booked", np.int32, (_K,)),
        ("plan_hand", np.int32, (_K,)),
        ("plan_meld", np.int32, (cards.N_RANKS, 3)),
        ("plan_books", np.int32, (N_BOOK_TYPES,)),
        ("plan_rank_books", np.int32, (cards.N_RANKS,)),
        ("plan_booked", np.int32, (_K,)),
    ]
)

State = np.ndarray  # a one-element array of STATE_DTYPE; jitted code takes ``state[0]``


def new_state(packed_rules: np.ndarray, strategy_ids: np.ndarray, params: np.ndarray,
              trace: bool = False, checked: bool = False) -> np.ndarray:
    """Allocate a state for one worker; the engine resets it per deal."""
    from sim.rules import R_DECKS, R_JOKERS_PER_DECK, R_PARTNERSHIPS, R_PLAYERS

    arr = np.zeros(1, dtype=STATE_DTYPE)
    st = arr[0]
    st["rules"][:] = packed_rules
    st["sc"][S_TRACE] = int(trace)
    st["sc"][S_CHECKED] = int(checked)
    st["sc"][S_PLAYERS] = int(packed_rules[R_PLAYERS])
    st["sc"][S_TEAMS] = int(packed_rules[R_PARTNERSHIPS])
    st["strategy"][: len(strategy_ids)] = strategy_ids
    st["params"][: params.shape[0], : params.shape[1]] = params
    st["deck"][:] = cards.deck_counts(int(packed_rules[R_DECKS]),
                                      int(packed_rules[R_JOKERS_PER_DECK]))
    return arr
