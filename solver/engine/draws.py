"""The best play after each possible draw, for the draw-or-meld analysis, across backends.

The fast path's search settles the current position and each draw it covers first (a
drawn card that could free a table joker, or a draw it cannot finish within
``DRAW_BUDGET`` expansions, is left over); CP-SAT's draw model
(``solver.cpsat.draws``), built once for all of them, settles the rest.  When the search
settles everything, OR-Tools is never imported.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import solver.fastpath as fastpath
from solver.cards import Joker, Piece
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
    by CP-SAT alone and ``fast_path=False`` skips the search (both for cross-checks).
    ``time_limit`` bounds each solve.
    """
    started = time.perf_counter()
    distinct: list[Piece] = []
    for piece in pieces:
        normal = Joker() if isinstance(piece, Joker) else piece
        if normal not in distinct:
            distinct.append(normal)
    searched = _search_draws(position, variant, distinct, started) if fast_path else None
    if searched is not None and len(searched.draws) == len(distinct):
        return searched
    from solver.cpsat import draws

    return draws.best_after_draws(
        position, variant, distinct, time_limit=time_limit, use_lp=use_lp, settled=searched, started=started
    )


def _search_draws(
    position: Position, variant: Variant, pieces: list[Piece], started: float
) -> DrawResults | None:
    """The current position and each draw by the fast path's search, as far as it goes:
    None when it does not cover the position or cannot finish it; otherwise the draws it
    finished (the rest are left to the model)."""
    if not len(position.hand) or not fastpath.applies(position, variant, keep_jokers=False, opened=True):
        return None
    now = fastpath.search(position, variant, objective="points", started=started)
    if now is None:
        return None
    values: list[DrawValue] = []
    for piece in pieces:
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
