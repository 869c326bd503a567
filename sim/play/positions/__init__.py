"""Positions as files: a game at a decision point, as the whole truth or as one seat's view.

The JSON form is documented in docs/positions.md. A *truth* file holds every card where it
lies (other hands, unpicked Feet, the stock in order); a *view* file holds what one seat may
know (its own cards, the table, the pile, cards others are known to hold, and counts of the
rest). Reading either gives a game record the engine can play on: a view's hidden places are
filled with its unseen cards in a fixed order, which a search deals anew in every world anyway.

Positions are cut from traces by replaying the trace's decisions through the engine itself
(``position_from_trace``), so a position exists only if the engine accepts every move up to it.
"""

from sim.play.positions.from_trace import deal_lines, position_from_trace
from sim.play.positions.reading import position_from_dict, read_position
from sim.play.positions.schema import FORMAT, Position, PositionError
from sim.play.positions.writing import position_dict

__all__ = ["FORMAT", "Position", "PositionError", "deal_lines", "position_dict",
           "position_from_dict", "position_from_trace", "read_position"]
