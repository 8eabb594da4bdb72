"""Alternatives to the best play: the next-best plays that play something else.

``alternatives(position, count=3)`` answers "what else could I play, and what does it
cost?": up to ``count`` legal plays, best first, no two with the same set of played
cards (a smaller play that holds cards back is one of them when it is among the best).
The first is ``hint()``'s own answer; the others come from the CP-SAT backend, which
forbids the played sets already found and asks again for the best.
"""

from __future__ import annotations

from solver.engine.dispatch import DEFAULT_TIME_LIMIT, hint
from solver.engine.result import Hint
from solver.position import Position
from solver.solution import Objective
from solver.variants import Variant

__all__ = ["MAX_ALTERNATIVES", "alternatives"]

MAX_ALTERNATIVES = 20
"""The most plays one call returns (each one more solve)."""


def alternatives(
    position: Position | str,
    *,
    count: int = 3,
    variant: Variant | str | None = None,
    objective: Objective = "points",
    time_limit: float = DEFAULT_TIME_LIMIT,
    keep_jokers: bool = False,
    opened: bool = True,
) -> tuple[Hint, ...]:
    """Up to ``count`` plays with distinct sets of played cards, best first (by the
    objective, then melds broken); empty when no legal play exists.  The options are
    ``hint()``'s; ``time_limit`` bounds each solve."""
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= MAX_ALTERNATIVES:
        raise ValueError(f"the number of alternatives must be 1 to {MAX_ALTERNATIVES}, not {count!r}")
    best = hint(
        position,
        variant=variant,
        objective=objective,
        time_limit=time_limit,
        keep_jokers=keep_jokers,
        opened=opened,
    )
    if not best.has_play:
        return ()
    if count == 1:
        return (best,)
    from solver.cpsat.enumerate import ranked_plays

    others = ranked_plays(
        best.position,
        best.variant,
        count=count - 1,
        objective=objective,
        keep_jokers=keep_jokers,
        opened=opened,
        time_limit=time_limit,
        exclude=[best.played],
    )
    return (
        best,
        *(
            Hint.of(found, position=best.position, variant=best.variant, objective=objective, engine="cp-sat")
            for found in others
        ),
    )
