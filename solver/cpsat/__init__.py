"""The CP-SAT backend: instance -> CP-SAT model -> solve -> extract.

``solve`` answers one validated position with the neutral ``solver.solution.Solution``;
``draws.solve_draws`` settles the draws of the draw-or-meld analysis (the engine's
``best_after_draws`` asks it).  It never imports the other backend (``solver.fastpath``)
or the engine: users call ``solver.engine.hint`` (``from solver import hint``), which picks the backend.

The puzzles build models of their own on the engine's (a table kept whole, a second
solution ruled out): for them this package names its public parts, the instance, the
hint model and the solver settings, and they import nothing else of it.
"""

from solver.cpsat.instance import Instance, build_instance
from solver.cpsat.model import HintModel, build_model
from solver.cpsat.params import new_model, new_solver, set_domain
from solver.cpsat.solve import solve, solve_instance

__all__ = [
    "HintModel",
    "Instance",
    "build_instance",
    "build_model",
    "new_model",
    "new_solver",
    "set_domain",
    "solve",
    "solve_instance",
]
