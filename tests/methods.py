"""The hint's methods behind one call, for tests that hold each of them to the same checks.

``answer(method, position, variant, options)`` gives the value (points or cards left),
the table and the melds broken of:

- ``cp-sat``: the CP-SAT model alone (``hint(..., fast_path=False)``);
- ``exact``: the independent exact method with its tie-break
  (``solver.exact.best_play(..., tie_break=True)``);
- ``search``: the fast path's search in C alone, with no budget and no fall back
  (``solver.fastpath.search``); None where it does not apply (``fastpath.applies``);
- ``hint``: ``hint()`` as users call it (the search where it applies, else CP-SAT).

``METHODS`` parametrizes a test over the four: all four follow docs/rules.md's tie-break
(a table joker declared anew inside its own meld leaves that meld unbroken; issue #34).
"""

from __future__ import annotations

from dataclasses import dataclass

import solver.fastpath as fastpath
from solver.engine import hint
from solver.exact import best_play
from solver.position import Position, Table
from solver.variants import Variant

__all__ = ["METHODS", "Answer", "NotApplicable", "answer"]


METHODS = [
    "cp-sat",
    "exact",
    "search",
    "hint",
]


@dataclass(frozen=True, slots=True)
class Answer:
    """One method's best play: None values mean no legal play."""

    value: int | None
    """Points (or cards, with ``objective="cards"``) left in the hand."""
    table: Table
    melds_broken: int
    engine: str


class NotApplicable(Exception):
    """The method does not answer this position (the search, outside ``applies``)."""


def answer(method: str, position: Position, variant: Variant, options: dict[str, object]) -> Answer:
    """``method``'s best play of ``position`` with hint options ``options`` (``objective``,
    ``keep_jokers``, ``opened``); raises ``NotApplicable`` where the search does not apply."""
    objective = str(options.get("objective", "points"))
    keep_jokers = bool(options.get("keep_jokers", False))
    opened = bool(options.get("opened", True))
    if method == "exact":
        found = best_play(
            position,
            variant=variant,
            objective=objective,  # type: ignore[arg-type]
            keep_jokers=keep_jokers,
            opened=opened,
            tie_break=True,
        )
        if found is None:
            return Answer(None, position.table, 0, method)
        assert found.melds_broken is not None
        return Answer(found.value, found.table, found.melds_broken, method)
    if method == "search":
        if not len(position.hand) or not fastpath.applies(
            position, variant, keep_jokers=keep_jokers, opened=opened
        ):
            raise NotApplicable(str(position))
        solution = fastpath.search(
            position,
            variant,
            objective=objective,  # type: ignore[arg-type]
            started=0.0,
            budget=10**9,
            keep_jokers=keep_jokers,
            opened=opened,
        )
        assert solution is not None
        status, table, hand, broken = solution.status, solution.table, solution.hand, solution.melds_broken
        engine = "search"
    elif method in ("cp-sat", "hint"):
        found_hint = hint(position, variant=variant, fast_path=method == "hint", **options)  # type: ignore[arg-type]
        assert found_hint.status in ("optimal", "no_play"), (str(position), found_hint.status)
        status, table, hand = found_hint.status, found_hint.table, found_hint.hand
        broken, engine = found_hint.melds_broken, found_hint.engine
    else:
        raise ValueError(f"unknown method {method!r}")
    if status == "no_play":
        return Answer(None, position.table, 0, engine)
    value = len(hand) if objective == "cards" else hand.points(variant)
    return Answer(value, table, broken, engine)
