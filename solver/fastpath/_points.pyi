"""Types of the C module ``solver.fastpath._points`` (see _points.c)."""

from collections.abc import Sequence
from typing import Final

INFEASIBLE: Final[int]
"""An answer: the table cannot be laid out (never for a valid position)."""
UNKNOWN: Final[int]
"""An answer: the program outgrew its state budget; ask another backend."""

def fewest_points(
    ace_high: bool,
    table: Sequence[int],
    hand: Sequence[int],
    points: Sequence[int],
    hand_jokers: int,
    joker_points: int,
    table_jokers: Sequence[int],
    draws: Sequence[int],
    bound: int = -1,
) -> list[int]:
    """Per question in ``draws`` (-1: the position; k: card k drawn; 52: a joker drawn;
    100 + k: a hand copy of card k played) the fewest points, INFEASIBLE or UNKNOWN.
    ``bound`` >= 0: the points a play of the position leaves (see the C docstring)."""
