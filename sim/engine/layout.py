"""The three records the kernels work on: the game state, the players' work area, the trace.

* ``GAME_DTYPE`` is a position: everything that decides how the deal goes on (hands, Feet,
  stock, pile, melds, books, scores, the deal's random stream) and nothing else, about 5 KB, so
  a search can copy it (``sim.engine.position.copy_position``) thousands of times a second.
* ``WORK_DTYPE`` belongs to the players: who sits where (strategy parameters), their random
  stream, planning scratch, the proposal buffer a strategy fills and the engine applies, and the
  engine's own scratch for checking a proposal. Nothing in it changes how the game goes on.
* ``TRACE_DTYPE`` is the event buffer (3 MB) that ``sim.runs.trace`` turns into JSON Lines.

Arrays are allocated once per worker and reset per deal, so the hot loop never allocates. Each
is a numpy record: numba passes a record to every function as a bare pointer, where a tuple of
arrays would pay a reference-count round trip per array per call (measured: ~0.5 us per call).
This module is plain numpy: reading it loads no compiler.
"""

from __future__ import annotations

import numpy as np

from sim.core import cards
from sim.core.capacity import MAX_FEATURES, MODEL_SCRATCH, VALUE_MODEL_SLOTS
from sim.core.enums import NO_DECISION, Book, Candidate, Decision, SearchStat
from sim.core.rules import (
    MAX_SEATS,
    MAX_TEAMS,
    N_RULE_SLOTS,
    R_DECKS,
    R_JOKERS_PER_DECK,
    R_PARTNERSHIPS,
    R_PLAYERS,
)

# Slots of the game's int64 scalar array ``g.sc``.
S_STOCK_N = 0  # cards left in the stock; the next card drawn is stock[S_STOCK_N - 1]
S_PILE_N = 1  # cards in the discard pile; the top is pile[S_PILE_N - 1]
S_TURN = 2  # turns played in this deal (1-based while a turn runs)
S_DEAL = 3  # deal number 1..4 (R-D5)
S_DEALER = 4
S_SEAT = 5  # seat whose turn it is
S_DECISION = 6  # the decision the engine waits for (Decision), NO_DECISION once the deal ended
S_CHECKED = 7  # 1: assert card conservation after every action, and that no hook changes g
S_DECIDER = 8  # seat that makes the pending decision (the partner for Decision.GRANT)
S_WANT_OUT = 9  # the meld proposal asked to go out
S_LINE = 10  # meld line counter, groups meld entries into trace lines
S_ENDED = 11  # Ending.NONE while running, else how the deal ended (Ending)
S_OUT_SEAT = 12
S_GRANTED = 13  # 1 when the current player holds a grant to go out this turn (R-X14)
S_ASKED = 14  # 1 when the current player has asked this turn
S_ERROR = 15  # reason code of the refused proposal that stopped the deal (0 none)
S_GAME = 16
S_PLAYERS = 17
S_TEAMS = 18
S_PICKED_UP = 19  # 1 when the current player picked up the pile this turn
S_FROZEN_N = 20  # cards set aside by a frozen pile (R-V8)
S_ERROR_DECISION = 22  # the decision whose proposal was refused
S_ERROR_SEAT = 23
S_SEED = 24  # the root seed the deal was shuffled from
N_SCALARS = 26

# Decisions, endings and book kinds are enumerations (sim.core.enums), declared once by name.
N_DECISIONS = len(Decision)
N_BOOK_TYPES = len(Book)

# A meld's contents in ``g.meld[team, rank]``: naturals, twos, jokers.
M_NAT = 0
M_TWO = 1
M_JOKER = 2

TURN_CAP = 2000  # no real deal reaches it (about 300 turns at most); hitting it is 'truncated'
MAX_CARDS = 512  # 8 decks of 54 at most (sim.core.rules validation)
ENTRY_WIDTH = 5  # a meld entry: (rank, naturals, twos, jokers, onto a closed book (R-V4))
MAX_ENTRIES = 64
N_PARAMS = 16
_K = cards.N_KINDS

GAME_DTYPE = np.dtype(
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
        ("books", np.int32, (MAX_TEAMS, N_BOOK_TYPES)),  # books by kind (Book)
        ("rank_books", np.int32, (MAX_TEAMS, cards.N_RANKS)),  # closed books per rank
        ("booked", np.int32, (MAX_TEAMS, _K)),  # cards lying in closed books
        ("melded_value", np.int32, (MAX_TEAMS,)),  # card values of every melded card (R-S1)
        ("red3", np.int32, (MAX_TEAMS,)),  # red threes exposed (R-S3)
        ("grab22", np.int32, (MAX_TEAMS,)),  # exact-22 bonuses this deal (R-V11)
        ("game_score", np.int64, (MAX_TEAMS,)),  # totals of the game's earlier deals (public)
        ("taken", np.int32, (MAX_SEATS, _K)),  # cards each seat took from the pile (public)
        # Cards each seat is known to hold: taken from the pile and not since melded or
        # discarded (public; a search deals them back to their holder in every world).
        ("known", np.int32, (MAX_SEATS, _K)),
        ("pickups", np.int32, (MAX_TEAMS,)),  # pile pick-ups this deal (public)
        # The kind each seat discarded to end its last turn this deal, -1 before its first
        # (public: every discard is seen; a search infers hands from it, strategies.search).
        ("last_discard", np.int32, (MAX_SEATS,)),
        ("opened", np.int32, (MAX_TEAMS,)),
        ("open_turn", np.int32, (MAX_TEAMS,)),  # turn of the opening, -1 if none
        ("foot_turn", np.int32, (MAX_SEATS,)),  # turn the seat picked up its Foot, -1 if none
        ("deck", np.int32, (_K,)),  # composition of the shoe, for conservation checks
        ("rng", np.uint64, (2,)),  # [STREAM_DEAL]: the deal's shuffles (restocks, R-V8)
    ],
    align=True,  # every field on its natural boundary
)

# Slots of the work area's int64 scalar array ``w.sc``.
W_LINES = 0  # meld lines proposed so far (w.prop_line_end holds where each ends)
W_ENTRIES = 1  # entries proposed so far
W_POINTS = 2  # card points of the line last checked (sim.engine.legal.check_entries)
W_LINE_CONCEALED = 3  # 1 when the line last checked starts a meld of 7+ cards (R-V5)
N_WORK_SCALARS = 8

# A search player's candidates (strategies.search): proposals, values, and the unseen cards.
MAX_CANDIDATES = 8
CAND_ENTRIES = 32
MAX_WORLDS = 256  # a search's budget of worlds per decision, at most
SEARCH_FIELDS = [
    ("cand_prop", np.int32, (MAX_CANDIDATES, CAND_ENTRIES, ENTRY_WIDTH)),
    ("cand_line_end", np.int32, (MAX_CANDIDATES, CAND_ENTRIES)),
    ("cand_lines", np.int64, (MAX_CANDIDATES,)),
    ("cand_entries", np.int64, (MAX_CANDIDATES,)),
    ("cand_value", np.int64, (MAX_CANDIDATES,)),  # what the hook returns for the candidate
    ("cand_kind", np.int32, (MAX_CANDIDATES,)),  # Candidate
    ("cand_alive", np.int32, (MAX_CANDIDATES,)),  # 1 while the candidate still races
    ("world_values", np.float64, (MAX_CANDIDATES, MAX_WORLDS)),
    ("pool", np.int8, (MAX_CARDS,)),  # the unseen cards of a world, shuffled
    ("saved_params", np.float64, (MAX_SEATS, N_PARAMS)),  # the seats' own, during rollouts
    # A seat's own parameters while its base policy is asked for it (a search's heuristics).
    ("asked_params", np.float64, (N_PARAMS,)),
    # A decision being played both ways (sim.play.branching): the proposal, kept aside.
    ("branch_prop", np.int32, (MAX_ENTRIES, ENTRY_WIDTH)),
    # Tallies kept by the table's search seats, all seats together (never reset by a deal):
    # per decision kind, SearchStat columns, and the kind of candidate taken instead of the
    # base move.
    ("search_stats", np.int64, (N_DECISIONS, len(SearchStat))),
    ("search_left_for", np.int64, (N_DECISIONS, len(Candidate))),
]

# A learned player's value model (strategies.learned): per seat, the fitted model as one flat
# array its kernels read (``strategies.lookahead.value``), set per table like ``params``; the
# features of the position being scored; the score of each candidate.
LEARNED_FIELDS = [
    ("value_model", np.float64, (MAX_SEATS, VALUE_MODEL_SLOTS)),
    ("feats", np.float64, (MAX_FEATURES,)),
    ("feats_base", np.float64, (MAX_FEATURES,)),  # the base candidate's, for advantage models
    ("model_in", np.float64, (MODEL_SCRATCH,)),  # a model's standardised inputs
    ("cand_score", np.float64, (MAX_CANDIDATES,)),
]

WORK_DTYPE = np.dtype(
    [
        ("sc", np.int64, (N_WORK_SCALARS,)),
        ("strategy", np.int32, (MAX_SEATS,)),  # index of each seat's strategy (for reports)
        ("params", np.float64, (MAX_SEATS, N_PARAMS)),  # strategy parameters per seat
        # A search seat's base policy (a tactician vector, strategies.search): its base
        # candidate and the play of every seat in its rollouts. The seat's own configuration,
        # set per table like ``params``; zero for the other seats.
        ("base_params", np.float64, (MAX_SEATS, N_PARAMS)),
        ("rng", np.uint64, (3,)),  # [STREAM_STRATEGY] strategies' choices, [STREAM_WORLD] worlds
        # The proposal a hook hands to the engine: entries, grouped into meld lines.
        ("prop", np.int32, (MAX_ENTRIES, ENTRY_WIDTH)),
        ("prop_line_end", np.int32, (MAX_ENTRIES,)),
        # Strategy planning scratch: two entry lists and a copy of a partnership's table.
        ("entries", np.int32, (MAX_ENTRIES, ENTRY_WIDTH)),
        ("entries2", np.int32, (MAX_ENTRIES, ENTRY_WIDTH)),
        ("plan_hand", np.int32, (_K,)),
        ("plan_meld", np.int32, (cards.N_RANKS, 3)),
        ("plan_books", np.int32, (N_BOOK_TYPES,)),
        ("plan_rank_books", np.int32, (cards.N_RANKS,)),
        ("plan_booked", np.int32, (_K,)),
        # Scratch for checking a line (the engine's, and a strategy's trial of one entry).
        ("avail", np.int32, (_K,)),
        ("tmp_meld", np.int32, (cards.N_RANKS, 3)),
        ("tmp_books", np.int32, (N_BOOK_TYPES,)),
        ("tmp_rank_books", np.int32, (cards.N_RANKS,)),
        ("tmp_booked", np.int32, (_K,)),
        *SEARCH_FIELDS,
        *LEARNED_FIELDS,
    ],
    align=True,
)

# The trace record.
T_ON = 0  # 1: append events
T_EV_N = 1  # events written
T_EVC_N = 2  # cards written to the event card stream
EVENT_CAP = 1 << 16
EVENT_CARD_CAP = 1 << 20
EVENT_WIDTH = 8
TRACE_DTYPE = np.dtype(
    [
        ("sc", np.int64, (4,)),
        ("ev", np.int32, (EVENT_CAP, EVENT_WIDTH)),  # event rows (sim.engine.events)
        ("evc", np.int8, (EVENT_CARD_CAP,)),  # card stream the events point into
    ],
    align=True,
)


def new_game(packed_rules: np.ndarray, checked: bool = False, count: int = 1) -> np.ndarray:
    """Game records (``count`` of them) for one rule set; the engine resets them per deal."""
    arr = np.zeros(count, dtype=GAME_DTYPE)
    arr["rules"][:] = packed_rules
    arr["sc"][:, S_CHECKED] = int(checked)
    arr["sc"][:, S_PLAYERS] = int(packed_rules[R_PLAYERS])
    arr["sc"][:, S_TEAMS] = int(packed_rules[R_PARTNERSHIPS])
    arr["sc"][:, S_DECISION] = NO_DECISION
    arr["last_discard"][:] = -1
    arr["deck"][:] = cards.deck_counts(int(packed_rules[R_DECKS]),
                                       int(packed_rules[R_JOKERS_PER_DECK]))
    return arr


def new_work(strategy_index: np.ndarray, params: np.ndarray,
             base_params: np.ndarray | None = None,
             value_models: np.ndarray | None = None) -> np.ndarray:
    """A work area with each seat's parameter vector (and a search seat's base policy's, and
    a learned seat's value model)."""
    arr = np.zeros(1, dtype=WORK_DTYPE)
    if value_models is not None:
        arr[0]["value_model"][: value_models.shape[0], : value_models.shape[1]] = value_models
    arr[0]["strategy"][: len(strategy_index)] = strategy_index
    arr[0]["params"][: params.shape[0], : params.shape[1]] = params
    if base_params is not None:
        arr[0]["base_params"][: base_params.shape[0], : base_params.shape[1]] = base_params
    return arr


def new_trace(on: bool) -> np.ndarray:
    """A trace buffer (zero pages cost nothing until written, so one per worker is cheap)."""
    arr = np.zeros(1, dtype=TRACE_DTYPE)
    arr[0]["sc"][T_ON] = int(on)
    return arr
