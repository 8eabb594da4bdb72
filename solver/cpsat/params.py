"""CP-SAT settings for every solve of the hint model: ``hint()`` and the analysis re-solves.

One worker (measured faster than several on this model, and deterministic), presolve
off (it costs more than it saves on models this small), the full LP relaxation (the
counting model's LP is tight) with pseudo-cost branching (with the LP loaded up front,
about 0.9 times the median solve of LP-guided branching on the speed suites, and the
slowest solve 25 ms instead of 200: LP-guided branching wandered on a few positions
with locked jokers), probing and the CG, MIR,
zero-half and clique cuts off (the root work does not pay here: on the speed suite this
cut the median by about a quarter and the p99 by almost half; on the draw analysis the
re-solves got about 1.5 times faster), every linear constraint in the LP from the start
rather than added lazily, and no symmetry detection (together about 0.6 times the solve
time of the lazy default on the speed suites: most of a solve here is the root, not the
search), a fixed seed, and a time limit always.  Kept in one place so every caller agrees.
"""

from __future__ import annotations

from ortools.sat.python import cp_model

__all__ = ["domain_of", "new_model", "new_solver", "set_domain"]


class _Model(cp_model.CpModel):
    """A ``CpModel`` without the pre-PEP 8 method aliases.

    ``CpModel.__init__`` binds a camelCase alias for each of its methods, 0.25-0.4 ms
    per model (measured); every hint, analysis and puzzle check builds a fresh model and
    none uses the aliases, so the binding is skipped.  Everything else is ``CpModel``.
    """

    def _add_pre_pep8_methods(self) -> None:
        return None


def new_model() -> cp_model.CpModel:
    """An empty CP-SAT model (see ``_Model``)."""
    return _Model()


def new_solver(time_limit: float) -> cp_model.CpSolver:
    """A CP-SAT solver with the project's settings, limited to ``time_limit`` seconds per solve."""
    solver = cp_model.CpSolver()
    parameters = solver.parameters
    parameters.num_workers = 1
    parameters.cp_model_presolve = False
    parameters.linearization_level = 2
    parameters.search_branching = cp_model.PSEUDO_COST_SEARCH
    parameters.cp_model_probing_level = 0
    parameters.add_lp_constraints_lazily = False
    parameters.symmetry_level = 0
    parameters.add_cg_cuts = False
    parameters.add_mir_cuts = False
    parameters.add_zero_half_cuts = False
    parameters.add_clique_cuts = False
    parameters.random_seed = 0
    # CP-SAT's own Ctrl-C handler would outlive the solve and kill the process on the next
    # Ctrl-C; servers and the terminal game handle interrupts themselves.
    parameters.catch_sigint_signal = False
    parameters.max_time_in_seconds = time_limit
    return solver


def domain_of(model: cp_model.CpModel, index: int) -> tuple[int, int]:
    """Lowest and highest value of a variable (its domain is one interval here)."""
    domain = model.proto.variables[index].domain
    return int(domain[0]), int(domain[len(domain) - 1])


def set_domain(model: cp_model.CpModel, index: int, low: int, high: int) -> None:
    """Change a variable's domain in place, so one model serves many related solves."""
    domain = model.proto.variables[index].domain
    if len(domain) != 2:  # pragma: no cover - the hint model only builds interval domains
        raise ValueError(f"variable {index} has a domain of {len(domain) // 2} intervals")
    domain[0] = low
    domain[1] = high
