"""``Hint``: the public answer of the hint engine, and its JSON form (the schema CLI and
HTTP share).  Whichever backend answered, the result looks the same; ``engine`` says which.
Its steps (the plan) are the presentation's: ``solver.report.plan_of`` and ``hint_payload``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from solver.cards import Piece
from solver.position import Hand, Position, Table
from solver.solution import Objective, Solution, SolveStatus
from solver.variants import Variant

__all__ = ["Engine", "Hint", "HintStatus"]

HintStatus = SolveStatus
"""``optimal``, ``feasible`` (a time limit stopped the proof; the play is legal),
``no_play`` or ``timeout`` (no play found in time; nothing is played)."""

Engine = Literal["search", "cp-sat"]
"""What answered: ``search`` (the exact search in C, ``solver.fastpath``) or ``cp-sat``
(the CP-SAT model, ``solver.cpsat``)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The best play found for a position: what to play and the table it leaves."""

    status: HintStatus
    position: Position
    variant: Variant
    objective: Objective
    table: Table
    played: tuple[Piece, ...]
    hand: Hand
    melds_broken: int
    """Old melds whose pieces do not all end in one meld of the new table (a table joker
    declared anew inside the meld that holds the rest of its old meld breaks nothing)."""
    build_ms: float = field(compare=False)
    """Milliseconds building the model (timing: not part of the answer's equality or hash,
    so the same answer twice is equal)."""
    solve_ms: float = field(compare=False)
    engine: Engine = "cp-sat"

    @classmethod
    def of(
        cls, found: Solution, *, position: Position, variant: Variant, objective: Objective, engine: Engine
    ) -> Hint:
        """The public answer for a backend's ``Solution`` to ``position``."""
        return cls(
            status=found.status,
            position=position,
            variant=variant,
            objective=objective,
            table=found.table,
            played=found.played,
            hand=found.hand,
            melds_broken=found.melds_broken,
            build_ms=found.build_ms,
            solve_ms=found.solve_ms,
            engine=engine,
        )

    @property
    def hand_points(self) -> int:
        return self.hand.points(self.variant)

    @property
    def has_play(self) -> bool:
        return bool(self.played)

    @property
    def goes_out(self) -> bool:
        return self.has_play and len(self.hand) == 0

    @property
    def can_knock(self) -> bool:
        """Whether the hand left may knock: at or under the variant's threshold
        (and, with ``knock_only_after_meld``, only after a meld).  An empty hand has gone
        out (``solver.facts.EMPTY_HAND``): nothing to knock with."""
        if not len(self.position.hand):
            return False
        return self.variant.may_knock(self.hand_points, melded=self.has_play)

    def to_dict(self) -> dict[str, object]:
        """The shared machine-readable form (DESIGN.md)."""
        melds = [list(map(str, meld.pieces)) for meld in self.table]
        return {
            "status": self.status,
            "position": str(self.position),
            "variant": self.variant.preset,
            "objective": self.objective,
            "played": list(map(str, self.played)),
            "table": " | ".join(map(" ".join, melds)),  # str(self.table), its cards written once
            "melds": melds,
            "hand": list(map(str, self.hand)),
            "hand_points": self.hand_points,
            "can_knock": self.can_knock,
            "goes_out": self.goes_out,
            "melds_broken": self.melds_broken,
            "stats": {
                "build_ms": round(self.build_ms, 3),
                "solve_ms": round(self.solve_ms, 3),
                "engine": self.engine,
            },
        }
