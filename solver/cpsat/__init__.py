"""The exact hint engine: instance -> CP-SAT model -> solve -> extract."""

from solver.cpsat.result import Hint, HintStatus
from solver.cpsat.solve import DEFAULT_TIME_LIMIT, hint

__all__ = ["DEFAULT_TIME_LIMIT", "Hint", "HintStatus", "hint"]
