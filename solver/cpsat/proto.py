"""Writing a CP-SAT model straight into its proto, by variable index.

``CpModel``'s expression API builds a Python object per variable and per constraint
(``new_int_var`` about 2.5 us, ``add(weighted_sum(...) == k)`` about 7 us, measured);
the hint model has a few hundred of each and is built once per hint, so the hint model
writes the proto directly (about 1 us a variable, 3 us a constraint).  The result is an
ordinary ``CpModel``: callers that add their own constraints get the ``IntVar`` of
an index from ``CpModel.get_int_var_from_proto_index`` (``HintModel.variable``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ortools.sat.python import cp_model

__all__ = ["AT_LEAST", "AT_MOST", "ProtoWriter"]

AT_LEAST = cp_model.INT_MAX
"""The open upper side of a ``>=`` constraint (as ``CpModel.add`` writes it)."""
AT_MOST = cp_model.INT_MIN
"""The open lower side of a ``<=`` constraint."""


class ProtoWriter:
    """Appends variables and constraints to ``model``'s proto; variables are indices."""

    __slots__ = ("_constraints", "_count", "_variables", "model")

    def __init__(self, model: cp_model.CpModel) -> None:
        self.model = model
        proto = model.proto
        self._variables = proto.variables
        self._constraints = proto.constraints
        self._count = len(self._variables)

    def new_var(self, low: int, high: int) -> int:
        """A new integer variable in ``[low, high]``; returns its index."""
        self._variables.add().domain.extend((low, high))
        self._count += 1
        return self._count - 1

    def add_linear(
        self,
        variables: Sequence[int],
        coefficients: Sequence[int],
        low: int,
        high: int,
        *,
        enforced_by: int | None = None,
    ) -> None:
        """``low <= sum(coefficients * variables) <= high`` (only when ``enforced_by`` is 1)."""
        constraint = self._constraints.add()
        if enforced_by is not None:
            constraint.enforcement_literal.append(enforced_by)
        linear = constraint.linear
        linear.vars.extend(variables)
        linear.coeffs.extend(coefficients)
        linear.domain.extend((low, high))

    def add_implication(self, condition: int, consequence: int) -> None:
        """Boolean ``condition`` implies boolean ``consequence``."""
        constraint = self._constraints.add()
        constraint.enforcement_literal.append(condition)
        constraint.bool_and.literals.append(consequence)

    def minimize(self, variables: Sequence[int], coefficients: Sequence[int], offset: int = 0) -> None:
        """Replace the objective with ``sum(coefficients * variables) + offset``."""
        proto = self.model.proto
        proto.clear_objective()
        objective = proto.objective
        objective.vars.extend(variables)
        objective.coeffs.extend(coefficients)
        objective.offset = offset
