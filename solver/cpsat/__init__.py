"""The CP-SAT backend: instance -> CP-SAT model -> solve -> extract.

``solve`` answers one validated position with the neutral ``solver.solution.Solution``;
``draws.best_after_draws`` settles the draws of the draw-or-meld analysis.  It never
imports the other backend (``solver.fastpath``) or the engine: users call
``solver.engine.hint`` (``from solver import hint``), which picks the backend.
"""

from solver.cpsat.solve import solve, solve_instance

__all__ = ["solve", "solve_instance"]
