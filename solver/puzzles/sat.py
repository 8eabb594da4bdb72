"""CP-SAT plumbing shared by the puzzle checks: models, solvers, answers.

Solvers come from ``solver.cpsat.new_solver``, the settings of the engine's
many small re-solves (one worker: deterministic and, on models this small, fastest;
presolve, probing and the costlier cuts off; LP-guided search; a fixed seed).  Every
solve has a time limit; a limit that passes gives ``unknown``, which a puzzle check
treats as a failure: a puzzle is only kept when every check is proven.
"""

from __future__ import annotations

from typing import Literal

from ortools.sat.python import cp_model

from solver import cpsat

__all__ = ["CHECK_TIME_LIMIT", "Answer", "answer_of", "new_model", "new_solver"]

CHECK_TIME_LIMIT = 5.0
"""Seconds per check solve.  Puzzle checks take milliseconds; the limit guards the rare case."""

Answer = Literal["yes", "no", "unknown"]
"""``yes``: a solution exists (one was found); ``no``: proven infeasible; ``unknown``: time ran out."""


def new_model() -> cp_model.CpModel:
    """An empty CP-SAT model without the camelCase aliases (``solver.cpsat.params``)."""
    return cpsat.new_model()


def new_solver(time_limit: float) -> cp_model.CpSolver:
    """A solver with the engine's re-solve settings, limited to ``time_limit`` seconds."""
    if not time_limit > 0:
        raise ValueError(f"time limit must be a positive number of seconds, not {time_limit}")
    return cpsat.new_solver(time_limit)


def answer_of(code: cp_model.CpSolverStatus) -> Answer:
    """The answer a CP-SAT status code gives to "does a solution exist?"."""
    if code in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return "yes"
    if code == cp_model.INFEASIBLE:
        return "no"
    return "unknown"
