"""What a backend answers: the neutral result types both hint backends return.

The two backends (``solver.fastpath``, the exact search in C, and ``solver.cpsat``, the
CP-SAT model) never import each other, and neither knows about the public ``Hint``: each
returns a ``Solution`` (or, for the draw analysis, ``DrawValue``\\ s), and
``solver.engine`` turns that into the ``Hint`` users see.  These types live below both
backends so that each can build them without importing the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from solver.cards import Piece
from solver.position import Hand, Table

__all__ = ["DrawResults", "DrawValue", "Objective", "SettledBy", "Solution", "SolveStatus"]

Objective = Literal["points", "cards"]
"""``points``: fewest points left in the hand.  ``cards``: most cards played."""

SolveStatus = Literal["optimal", "feasible", "no_play", "timeout"]
"""``optimal``: proven best.  ``feasible``: a legal play, the time limit stopped the proof.
``no_play``: no legal play exists.  ``timeout``: the time limit passed before any play
was found (there may still be one); the table and hand are returned unchanged."""


@dataclass(frozen=True, slots=True)
class Solution:
    """A backend's answer for one position: the final table and what it took."""

    status: SolveStatus
    table: Table
    played: tuple[Piece, ...]
    hand: Hand
    """The hand left after the play."""
    melds_broken: int
    """Old melds whose pieces do not all end in one meld of the new table (a table joker
    declared anew inside the meld that holds the rest of its old meld breaks nothing)."""
    build_ms: float
    """Time spent preparing and reading back (validation excluded), in milliseconds."""
    solve_ms: float
    """Time spent in the search or the solver itself."""


SettledBy = Literal["points", "search", "known", "lp", "cpsat"]
"""Which argument settled a draw: the exact search, a known play, the LP bound, CP-SAT."""


@dataclass(frozen=True, slots=True)
class DrawValue:
    """The best outcome of drawing ``piece``."""

    piece: Piece
    points: int
    """Fewest hand points after the draw and the best play (or no play)."""
    has_play: bool
    """Whether a legal play exists once the piece is drawn."""
    exact: bool
    """False when a time limit stopped a solve: ``points`` is then a play found, not a proof."""
    settled_by: SettledBy
    """Which argument settled it (for benchmarks)."""


@dataclass(frozen=True, slots=True)
class DrawResults:
    """The current position's best play and the best outcome of every draw."""

    now_points: int
    """Fewest hand points now: after the best play, or the hand's points if there is none."""
    now_has_play: bool
    now_table: Table
    now_exact: bool
    draws: tuple[DrawValue, ...]
    timings: dict[str, float] = field(default_factory=dict)
