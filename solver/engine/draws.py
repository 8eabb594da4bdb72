"""The best play after each possible draw, for the draw-or-meld analysis, across backends.

Each draw is settled by the first of these that can:

1. the fast path's points program (``solver.fastpath.points``): the fewest points after
   each draw, exactly, all draws in one call, where it covers the position (no opening
   rule, at most two jokers) and finishes within its state budget;
2. the fast path's search, which also settles the current position (its best play is
   part of the answer), within ``DRAW_BUDGET`` expansions per draw;
3. CP-SAT's draw model (``solver.cpsat.draws``), built once for all that are left.

When the first two settle everything, OR-Tools is never imported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import solver.fastpath as fastpath
from solver.cards import Joker, Piece
from solver.fastpath import points as points_program
from solver.position import Hand, Position
from solver.solution import DrawResults, DrawValue
from solver.variants import Variant

__all__ = ["DRAW_BUDGET", "best_after_draws"]

DRAW_BUDGET = 500
"""Expansions the search may spend on one draw (about 0.6 ms) before the draw goes to the
model: an analysis tries some 40 draws, and a draw the search cannot finish soon is
cheaper for the model, which is built once for all of them."""


def best_after_draws(
    position: Position,
    variant: Variant,
    pieces: Sequence[Piece],
    *,
    time_limit: float,
    use_lp: bool = True,
    fast_path: bool = True,
) -> DrawResults:
    """The current best play and, for each distinct piece in ``pieces`` (a joker is
    ``Joker()``), the fewest hand points after drawing it and playing at best.

    The position must be valid for the variant and hold no more than two jokers with
    any one draw (as ``hint()`` requires).  ``use_lp=False`` settles the model's draws
    by CP-SAT alone and ``fast_path=False`` skips the fast path, both the points program
    and the search (both for cross-checks).
    ``time_limit`` bounds each solve.
    """
    started = time.perf_counter()
    distinct: list[Piece] = []
    for piece in pieces:
        normal = Joker() if isinstance(piece, Joker) else piece
        if normal not in distinct:
            distinct.append(normal)
    by_points = _points_draws(position, variant, distinct) if fast_path else []
    searched = _search_draws(position, variant, distinct, started, by_points) if fast_path else None
    if searched is not None and len(searched.draws) == len(distinct):
        return searched
    from solver.cpsat import draws

    return draws.best_after_draws(
        position,
        variant,
        distinct,
        time_limit=time_limit,
        use_lp=use_lp,
        settled=searched,
        known_draws=by_points,
        started=started,
    )


def _points_draws(position: Position, variant: Variant, pieces: list[Piece]) -> list[DrawValue]:
    """The draws the points program settles (none when it does not cover the position,
    or cannot finish the position as it is: its draws would not finish either)."""
    if not len(position.hand) or not points_program.covers(position, variant):
        return []
    answers = points_program.fewest_points(position, variant, [None, *pieces])
    if answers[0] is None:
        return []
    return [
        DrawValue(piece, answer.points, answer.has_play, True, "points")
        for piece, answer in zip(pieces, answers[1:], strict=True)
        if answer is not None
    ]


def _search_draws(
    position: Position, variant: Variant, pieces: list[Piece], started: float, settled: list[DrawValue]
) -> DrawResults | None:
    """The current position and each draw by the fast path's search, as far as it goes:
    None when it does not cover the position or cannot finish it; otherwise the draws it
    finished and the ``settled`` ones, in the order of ``pieces`` (the rest are left to
    the model)."""
    if not len(position.hand) or not fastpath.applies(position, variant, keep_jokers=False, opened=True):
        return None
    now = fastpath.search(position, variant, objective="points", started=started)
    if now is None:
        return None
    known = {value.piece: value for value in settled}
    values: list[DrawValue] = []
    for piece in pieces:
        if piece in known:
            values.append(known[piece])
            continue
        after = Position(position.table, Hand.of((*position.hand.pieces, piece)))
        if not fastpath.applies(after, variant, keep_jokers=False, opened=True):
            continue  # the drawn card could free a table joker: the model's part
        found = fastpath.search(after, variant, objective="points", started=started, budget=DRAW_BUDGET)
        if found is not None:
            points = found.hand.points(variant)
            values.append(DrawValue(piece, points, bool(found.played), True, "search"))
    timings = {"build_ms": 0.0, "solve_ms": (time.perf_counter() - started) * 1000}
    now_points = now.hand.points(variant)
    return DrawResults(now_points, bool(now.played), now.table, True, tuple(values), timings)
