"""Integer codes with names, declared once, that compiled code reads as constants.

A kind of decision, a deal's ending or a book's kind is a small integer in the engine's arrays,
and a word in traces, positions and reports. Each is declared here once, by its words: the code
is the word's place, and the field name compiled code writes (``Decision.PICK_UP``) is derived
from the word, so no second table of names can drift from the codes. An enumeration is a named
tuple of integers; numba folds ``Decision.MELD`` to a constant exactly as it does a module
integer, and ``Decision.words`` (a class attribute, never read by compiled code) gives the words.
This module is plain Python: reading it loads no compiler.
"""

from __future__ import annotations

import re
from collections import namedtuple
from collections.abc import Sequence
from typing import Any


def field_name(word: str) -> str:
    """The identifier of a word: ``"pick-up"`` -> ``PICK_UP``, ``"go out"`` -> ``GO_OUT``."""
    name = re.sub(r"[^0-9A-Za-z]+", "_", word).strip("_").upper()
    if not name or name[0].isdigit():
        raise ValueError(f"{word!r} makes no identifier")
    return name


def enumeration(typename: str, words: Sequence[str], start: int = 0) -> Any:
    """Codes ``start``, ``start + 1`` ... named after ``words``; ``.words`` and ``.word(code)``
    read them back. Two words with the same identifier are refused."""
    fields = [field_name(w) for w in words]
    if len(set(fields)) != len(fields):
        raise ValueError(f"{typename}: two words give the same name ({fields})")
    base = namedtuple(typename, fields)  # noqa: PYI024 (numba reads plain named tuples)

    def word(self, code: int) -> str:
        """The word of ``code``; a ValueError for a code not in the enumeration."""
        index = int(code) - start
        if not 0 <= index < len(words):
            raise ValueError(f"{code} is not a {typename} code ({start}..{start + len(words) - 1})")
        return words[index]

    cls = type(typename, (base,), {"__slots__": (), "words": tuple(words), "word": word,
                                   "__doc__": f"{typename} codes: {', '.join(words)}."})
    return cls(*range(start, start + len(words)))


# The decisions a strategy is asked for, in the order of the five hooks
# (strategies.hooks.HOOK_NAMES); a hook returns one int64 and may fill ``w.prop``:
# PICK_UP entries in w.prop to pick up the pile with, or 0 to draw; MELD meld lines in w.prop,
# returns 1 to ask to go out; GRANT the partner's answer to an ask, 1 grants; GO_OUT with a
# grant, the last meld lines in w.prop, returns the final discard or -1; DISCARD the card kind.
Decision = enumeration("Decision", ("pick-up", "meld", "grant", "go out", "discard"))
NO_DECISION = -1  # the pending decision once the deal ended

# How a deal ended (the record's ``end_reason``); NONE while it runs. TRUNCATED: the turn cap.
Ending = enumeration("Ending", ("none", "out", "stock", "truncated"))

# Closed books by kind (``g.books`` columns, the record's books_* fields). BLACK3 earns the dirty
# bonus and counts as clean toward going out (R-V7).
Book = enumeration("Book", ("clean", "dirty", "wild", "black3"))

# The kinds of candidate a search player weighs (strategies.lookahead.candidates; ``w.cand_kind``).
# BASE is the base policy's own choice, always candidate 0; the others are the alternatives.
Candidate = enumeration("Candidate", (
    "base", "pick up", "draw", "ask to go out", "greedy meld line", "lay nothing",
    "hold wilds", "books one short", "grant", "refuse", "go out", "discard"))

# A search player's tallies per decision kind (``w.search_stats`` columns): decisions asked,
# those with more than one candidate (searched), those where it left the base move, and the
# worlds and rollouts it played on them; with discard inference, the worlds it drew, those it
# refused as unlikely given the other seats' discards, and those kept unfitting when no draw fit;
# with soft inference, the worlds kept by likelihood and the sum of their effective numbers of
# draws (in thousandths: (sum of likelihoods)^2 / sum of squares over a world's draws).
SearchStat = enumeration("SearchStat", ("decisions", "searched", "left base", "worlds",
                                        "rollouts", "draws", "rejected", "kept unfit",
                                        "soft worlds", "effective draws"))
