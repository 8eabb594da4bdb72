"""``hint()``: validate the input, pick a backend, and return one ``Hint``.

Two exact backends answer: the search in C (``solver.fastpath``), which covers most
positions and answers them in well under a millisecond, and the CP-SAT model
(``solver.cpsat``), which covers every position.  The engine asks the search first when
it applies and hands over to CP-SAT when it does not, or when it runs past its budget;
``fast_path=False`` sends everything to CP-SAT, so each backend can be checked against
the other.  CP-SAT (OR-Tools) is imported only when a position needs it.
"""

from __future__ import annotations

import math
import time
from typing import get_args

import solver.fastpath as fastpath
from solver.engine.result import Engine, Hint
from solver.position import Position, as_position
from solver.solution import Objective, Solution
from solver.variants import Variant, as_variant

__all__ = [
    "DEFAULT_TIME_LIMIT",
    "MAX_JOKERS",
    "OBJECTIVES",
    "check_flags",
    "check_options",
    "hint",
    "hint_of_valid",
    "leaves_at_most",
]

DEFAULT_TIME_LIMIT = 10.0
"""Seconds.  Typical hints take milliseconds; the limit guards the rare hard case."""

MAX_JOKERS = 2
"""The counting model assumes at most two jokers, so every 3-card meld keeps a real card."""

OBJECTIVES: tuple[Objective, ...] = get_args(Objective)
"""The objectives, in the order help lists them (``Objective``'s own)."""


def hint(
    position: Position | str,
    *,
    variant: Variant | str | None = None,
    objective: Objective = "points",
    time_limit: float = DEFAULT_TIME_LIMIT,
    keep_jokers: bool = False,
    opened: bool = True,
    fast_path: bool = True,
) -> Hint:
    """The best legal play for the player to move.

    ``position`` is a ``Position`` or its notation (``"Kh Kd Kc | Qh Qd Qc / Ac"``);
    ``variant`` a ``Variant``, a preset's name (``"rummikub"``) or None for Manipulation
    Rummy.  ``objective="points"`` minimizes the points left in the hand (a joker counts
    the variant's joker points), ``"cards"`` maximizes the cards played.  Among equal
    plays the one that breaks the fewest old melds wins (an old meld is unbroken when all
    its pieces end in one meld, a table joker in it perhaps declared anew there).
    ``keep_jokers`` plays hand jokers only to go out.  ``opened=False`` applies the
    variant's opening rule (Rummikub: 30 points from the rack alone, table untouched).
    ``Hint.engine`` says which backend answered.

    Raises NotationError for malformed notation, PositionError for a position the deck
    cannot produce, ValueError for bad options and TypeError for arguments of the wrong
    kind.
    """
    rules = as_variant(variant)
    check_options(objective=objective, time_limit=time_limit)
    check_flags(keep_jokers=keep_jokers, opened=opened, fast_path=fast_path)
    where = as_position(position).validate(rules)
    if rules.jokers > MAX_JOKERS:
        raise ValueError(
            f"the hint engine supports at most {MAX_JOKERS} jokers, the variant has {rules.jokers}"
        )
    return _answer(
        where,
        rules,
        objective=objective,
        time_limit=time_limit,
        keep_jokers=keep_jokers,
        opened=opened,
        fast_path=fast_path,
    )


def hint_of_valid(position: Position, variant: Variant, *, opened: bool, time_limit: float) -> Hint:
    """``hint`` (fewest points) for a position its caller knows to be valid, without checking
    it again: a rollout's positions come from a validated deal by the engine's own plays,
    and the rollout checks every card after each step (``solver.strategy.rollout``);
    validating each of a review's twenty thousand hints again cost a twentieth of it."""
    return _answer(
        position,
        variant,
        objective="points",
        time_limit=time_limit,
        keep_jokers=False,
        opened=opened,
        fast_path=True,
    )


def leaves_at_most(position: Position, variant: Variant, points: int, *, opened: bool) -> bool | None:
    """Whether some play of a valid position leaves the hand at most ``points`` (the
    fewest-points objective), by the search with its cost capped there
    (``fastpath.leaves_at_most``); None where the search does not apply or outgrows its
    budget: the caller asks ``hint`` then.  A player who melds only to go out or knock
    asks it every turn (``solver.strategy.rollout.hoarding_action``): no, mostly, and
    proved well below the best play's cost."""
    if not len(position.hand) or not fastpath.applies(position, variant, keep_jokers=False, opened=opened):
        return None
    return fastpath.leaves_at_most(position, variant, points, opened=opened)


def _answer(
    where: Position,
    rules: Variant,
    *,
    objective: Objective,
    time_limit: float,
    keep_jokers: bool,
    opened: bool,
    fast_path: bool,
) -> Hint:
    """The engine's answer for a valid position: the search where it applies and within
    its budget, CP-SAT otherwise."""
    started = time.perf_counter()
    engine: Engine = "search"
    found: Solution | None = None
    if (
        fast_path
        and len(where.hand) > 0
        and fastpath.applies(where, rules, keep_jokers=keep_jokers, opened=opened)
    ):
        found = fastpath.search(
            where, rules, objective=objective, started=started, keep_jokers=keep_jokers, opened=opened
        )
    if found is None:
        from solver import cpsat

        engine = "cp-sat"
        found = cpsat.solve(
            where,
            rules,
            objective=objective,
            keep_jokers=keep_jokers,
            opened=opened,
            time_limit=time_limit,
            started=started,
        )
    return Hint.of(found, position=where, variant=rules, objective=objective, engine=engine)


def check_flags(**flags: object) -> None:
    """TypeError for a yes/no option given as anything but True or False (``"False"`` is a
    true string: ``keep_jokers="False"`` kept the jokers)."""
    for name, value in flags.items():
        if not isinstance(value, bool):
            raise TypeError(f"{name} must be True or False, not {value!r}")


def check_options(*, objective: str, time_limit: float) -> None:
    """Raise ValueError naming a bad objective or time limit (before any work starts)."""
    if objective not in OBJECTIVES:
        raise ValueError(f"unknown objective {objective!r}; use 'points' or 'cards'")
    if isinstance(time_limit, bool) or not isinstance(time_limit, int | float):
        raise TypeError(f"time limit must be a number of seconds, not {type(time_limit).__name__}")
    if not (time_limit > 0 and math.isfinite(time_limit)):
        raise ValueError(f"time limit must be a positive number of seconds, not {time_limit}")
