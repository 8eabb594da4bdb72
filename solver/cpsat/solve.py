"""``hint()``: validate, build the instance and model, solve, extract.

The solver settings (one worker, no presolve, the LP up front, a time limit always)
live in ``solver.cpsat.params`` so that every solve of the hint model agrees.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

# A module import, not names: solver.fastpath imports solver.cpsat's result and extract
# modules, so whichever package is imported first, the other is then still loading.
import solver.fastpath as fastpath
from solver.cpsat.extract import extract_play
from solver.cpsat.instance import Instance, Objective, build_instance
from solver.cpsat.model import build_model
from solver.cpsat.params import new_solver
from solver.cpsat.result import Hint, HintStatus
from solver.position import Hand, Position, Table
from solver.variants import Variant

__all__ = ["DEFAULT_TIME_LIMIT", "MAX_JOKERS", "hint", "solve_instance"]

DEFAULT_TIME_LIMIT = 10.0
"""Seconds.  Typical hints take milliseconds; the limit guards the rare hard case."""

MAX_JOKERS = 2
"""The counting model assumes at most two jokers, so every 3-card meld keeps a real card."""


def hint(
    position: Position,
    *,
    variant: Variant | None = None,
    objective: Objective = "points",
    time_limit: float = DEFAULT_TIME_LIMIT,
    keep_jokers: bool = False,
    opened: bool = True,
    fast_path: bool = True,
) -> Hint:
    """The best legal play for the player to move.

    ``objective="points"`` minimizes the points left in the hand (a joker counts the
    variant's joker points), ``"cards"`` maximizes the cards played.  Among equal plays
    the one that breaks the fewest old melds wins (an old meld is unbroken when all its
    cards end in one meld).  Most positions without table jokers are answered by the
    exact search of ``solver.fastpath``; the rest, and any search that runs long, by
    the CP-SAT model (``fast_path=False`` sends every position there; ``Hint.engine``
    says which answered).  ``keep_jokers`` plays hand jokers only to go out.
    ``opened=False`` applies the variant's opening rule (Rummikub: 30 points from the
    rack alone, table untouched).  Raises PositionError for an impossible position and
    ValueError for bad options.
    """
    rules = variant or Variant.manipulation()
    if objective not in ("points", "cards"):
        raise ValueError(f"unknown objective {objective!r}; use 'points' or 'cards'")
    if not time_limit > 0:
        raise ValueError(f"time limit must be a positive number of seconds, not {time_limit}")
    position.validate(rules)
    if rules.jokers > MAX_JOKERS:
        raise ValueError(
            f"the hint engine supports at most {MAX_JOKERS} jokers, the variant has {rules.jokers}"
        )
    started = time.perf_counter()
    quick = fast_path and len(position.hand) > 0
    if quick and fastpath.applies(position, rules, keep_jokers=keep_jokers, opened=opened):
        found = fastpath.fast_hint(position, rules, objective=objective, started=started)
        if found is not None:
            return found
    instance = build_instance(position, rules, objective=objective, keep_jokers=keep_jokers, opened=opened)
    return solve_instance(instance, time_limit=time_limit, started=started)


def solve_instance(instance: Instance, *, time_limit: float, started: float | None = None) -> Hint:
    """Model, solve and extract one prepared instance."""
    begin = time.perf_counter() if started is None else started
    position = instance.position
    if len(position.hand) == 0:
        return _unchanged(instance, "no_play", begin, begin)
    built = build_model(instance)
    solver = new_solver(time_limit)
    solve_start = time.perf_counter()
    code = solver.solve(built.model)
    solve_end = time.perf_counter()
    if code == cp_model.MODEL_INVALID:  # pragma: no cover - a bug in build_model, never an input
        raise AssertionError(f"the hint model is invalid: {built.model.validate()}")
    if code == cp_model.INFEASIBLE:
        return _unchanged(instance, "no_play", begin, solve_start, solve_end)
    if code not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return _unchanged(instance, "timeout", begin, solve_start, solve_end)
    status: HintStatus = "optimal" if code == cp_model.OPTIMAL else "feasible"

    found = extract_play(instance, built, solver)
    done = time.perf_counter()
    return Hint(
        status=status,
        position=position,
        variant=instance.variant,
        objective=instance.objective,
        table=Table.of(found.melds),
        played=found.played,
        hand=Hand.of(found.left),
        melds_broken=found.broken,
        build_ms=(solve_start - begin) * 1000 + (done - solve_end) * 1000,
        solve_ms=(solve_end - solve_start) * 1000,
    )


def _unchanged(
    instance: Instance,
    status: HintStatus,
    begin: float,
    solve_start: float,
    solve_end: float | None = None,
) -> Hint:
    end = solve_start if solve_end is None else solve_end
    return Hint(
        status=status,
        position=instance.position,
        variant=instance.variant,
        objective=instance.objective,
        table=instance.position.table,
        played=(),
        hand=instance.position.hand,
        melds_broken=0,
        build_ms=(solve_start - begin) * 1000,
        solve_ms=(end - solve_start) * 1000,
    )
