"""The hint engine: one public ``hint()`` above two exact backends.

``hint`` validates the input and picks the backend: the search in C
(``solver.fastpath``) first where it applies, the CP-SAT model (``solver.cpsat``)
otherwise or past the search's budget.  Both return the neutral
``solver.solution.Solution``; the engine turns it into the public ``Hint``.  Who imports
whom: the engine imports both backends (CP-SAT lazily, when a position needs it); the
backends import only the layers below them (cards, melds, position, variants, solution)
and never each other or the engine.  ``best_after_draws`` does the same for the draws
of the draw-or-meld analysis; ``alternatives`` ranks the next-best plays; ``usable_pieces``
and ``best_play_count`` answer the analysis's other questions, each fast first.
"""

from solver.engine.alternatives import MAX_ALTERNATIVES, alternatives
from solver.engine.dispatch import (
    DEFAULT_TIME_LIMIT,
    MAX_JOKERS,
    OBJECTIVES,
    check_options,
    hint,
    hint_of_valid,
    leaves_at_most,
)
from solver.engine.draws import DRAW_BUDGET, PointsLeft, best_after_draws, points_left
from solver.engine.result import Engine, Hint, HintStatus
from solver.engine.usable import BestPlayCount, UsablePieces, best_play_count, usable_pieces
from solver.solution import DrawResults, DrawValue, Objective

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "DRAW_BUDGET",
    "MAX_ALTERNATIVES",
    "MAX_JOKERS",
    "OBJECTIVES",
    "BestPlayCount",
    "DrawResults",
    "DrawValue",
    "Engine",
    "Hint",
    "HintStatus",
    "Objective",
    "PointsLeft",
    "UsablePieces",
    "alternatives",
    "best_after_draws",
    "best_play_count",
    "check_options",
    "hint",
    "hint_of_valid",
    "leaves_at_most",
    "points_left",
    "usable_pieces",
]
