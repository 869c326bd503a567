"""Writing a proposal: the entries of a pick-up, or meld lines, into ``w.prop`` for the engine.

The engine clears the proposal before each hook and applies it after; a hook only appends.
"""

from __future__ import annotations

from sim.engine.jit import njit
from sim.engine.layout import ENTRY_WIDTH, W_ENTRIES, W_LINES


@njit(inline="always")
def propose_line(w, entries, n: int) -> None:
    """Append one meld line of ``n`` entries (nothing when ``n`` is 0)."""
    if n <= 0:
        return
    start = w.sc[W_ENTRIES]
    if start + n > w.prop.shape[0]:
        raise ValueError("proposal buffer full: too many meld entries in one turn")
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.prop[start + i, j] = entries[i, j]
    w.prop_line_end[w.sc[W_LINES]] = start + n
    w.sc[W_LINES] += 1
    w.sc[W_ENTRIES] = start + n


@njit(inline="always")
def propose_pickup(w, entries, n: int) -> int:
    """The pick-up's qualifying entries; returns what the pick-up hook returns (0: draw)."""
    if n <= 0:
        return 0
    for i in range(n):
        for j in range(ENTRY_WIDTH):
            w.prop[i, j] = entries[i, j]
    return n
