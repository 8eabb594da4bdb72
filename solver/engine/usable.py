"""Which hand pieces can ever be played, and how many best plays there are: fast first.

The analysis asks two questions beside the best play.  Both have an exact answer from
the compiled points program (``solver.fastpath.points``) where it applies (no joker in
the hand, among others), and from CP-SAT's enumeration (``solver.cpsat.enumerate``)
everywhere else.  As ``hint`` does for the best play, the engine picks: the program
first, CP-SAT where it does not answer, so that the analysis asks the engine and never
a backend (DESIGN.md's layers).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import Card, Piece, piece_sort_key
from solver.position import Position
from solver.variants import Variant

__all__ = ["BestPlayCount", "UsablePieces", "best_play_count", "usable_pieces"]


@dataclass(frozen=True, slots=True)
class UsablePieces:
    """The hand pieces some legal play uses and those none does (each sorted as a hand),
    whether that is exact, and whether the points program answered (rather than CP-SAT)."""

    playable: tuple[Piece, ...]
    never: tuple[Piece, ...]
    exact: bool
    by_points: bool


@dataclass(frozen=True, slots=True)
class BestPlayCount:
    """How many distinct sets of played pieces leave the fewest points, up to a cap."""

    count: int
    capped: bool
    """More than ``count`` exist: the cap stopped the count."""
    exact: bool
    """False when a time limit stopped a solve (the count is then a lower bound)."""


def usable_pieces(
    position: Position, variant: Variant, *, known: Sequence[Piece], time_limit: float
) -> UsablePieces:
    """Which hand pieces some legal play uses; ``known`` are playable already (the best
    play's) and not asked about; ``time_limit`` bounds each CP-SAT solve."""
    from solver.fastpath.points import playable_cards  # compiled: when needed

    by_points = playable_cards(position, variant, known=known)
    playable: Sequence[Piece]
    never: Sequence[Piece]
    if by_points is not None:
        playable, never = by_points
        exact = True
    else:
        from solver.cpsat.enumerate import playable_pieces  # OR-Tools only when needed

        found = playable_pieces(position, variant, time_limit=time_limit, known=known)
        playable, never, exact = found.playable, found.never, found.exact
    return UsablePieces(
        tuple(sorted(playable, key=piece_sort_key)),
        tuple(sorted(never, key=piece_sort_key)),
        exact,
        by_points is not None,
    )


def best_play_count(
    position: Position,
    variant: Variant,
    *,
    best_points: int,
    never: Sequence[Piece] | None,
    cap: int,
    time_limit: float,
) -> BestPlayCount:
    """How many best plays (distinct played sets leaving ``best_points``) there are, up to
    ``cap``.  The points program counts them when it found the ``never`` pieces itself
    (``usable_pieces(...).by_points``; None: it did not), CP-SAT's enumeration otherwise."""
    if never is not None:
        from solver.fastpath.points import optimal_play_count  # compiled: when needed

        cards = [piece for piece in never if isinstance(piece, Card)]
        counted = optimal_play_count(position, variant, best_points=best_points, never=cards, cap=cap)
        if counted is not None:
            return BestPlayCount(*counted, exact=True)
    from solver.cpsat.enumerate import count_optimal_plays  # OR-Tools only when needed

    plays = count_optimal_plays(position, variant, best_points=best_points, cap=cap, time_limit=time_limit)
    return BestPlayCount(plays.count, plays.capped, plays.exact)
