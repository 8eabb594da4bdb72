"""The CP-SAT backend's own call: instance -> model -> solve -> extract, for one position.

The solver settings (one worker, no presolve, the LP up front, a time limit always)
live in ``solver.cpsat.params`` so that every solve of the hint model agrees.  Users call
``solver.engine.hint`` (``from solver import hint``), which validates the position, tries
the fast path's search first and comes here for the rest (``fast_path=False`` comes here
for everything); this module returns the neutral ``solver.solution.Solution``.
"""

from __future__ import annotations

import time

from ortools.sat.python import cp_model

from solver.cpsat.extract import extract_play
from solver.cpsat.instance import Instance, build_instance
from solver.cpsat.model import build_model
from solver.cpsat.params import new_solver
from solver.position import Position
from solver.solution import Objective, Solution, SolveStatus
from solver.variants import Variant

__all__ = ["solve", "solve_instance"]


def solve(
    position: Position,
    variant: Variant,
    *,
    objective: Objective,
    keep_jokers: bool,
    opened: bool,
    time_limit: float,
    started: float | None = None,
) -> Solution:
    """The best play of a position the caller has validated, by the CP-SAT model.

    ``started`` is when the caller's clock started, for ``Solution.build_ms``."""
    begin = time.perf_counter() if started is None else started
    instance = build_instance(position, variant, objective=objective, keep_jokers=keep_jokers, opened=opened)
    return solve_instance(instance, time_limit=time_limit, started=begin)


def solve_instance(instance: Instance, *, time_limit: float, started: float | None = None) -> Solution:
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
    status: SolveStatus = "optimal" if code == cp_model.OPTIMAL else "feasible"

    found = extract_play(instance, built, solver)
    done = time.perf_counter()
    return found.solution(
        status,
        build_ms=(solve_start - begin) * 1000 + (done - solve_end) * 1000,
        solve_ms=(solve_end - solve_start) * 1000,
    )


def _unchanged(
    instance: Instance,
    status: SolveStatus,
    begin: float,
    solve_start: float,
    solve_end: float | None = None,
) -> Solution:
    end = solve_start if solve_end is None else solve_end
    return Solution(
        status=status,
        table=instance.position.table,
        played=(),
        hand=instance.position.hand,
        melds_broken=0,
        build_ms=(solve_start - begin) * 1000,
        solve_ms=(end - solve_start) * 1000,
    )
