"""The answer of the hint engine, and its JSON form (the schema CLI and HTTP share)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from solver.cards import Piece
from solver.position import Hand, Position, Table
from solver.variants import Variant

__all__ = ["Hint", "HintStatus"]

HintStatus = Literal["optimal", "feasible", "no_play", "timeout"]
"""``optimal``: proven best.  ``feasible``: a legal play, the time limit stopped the proof.
``no_play``: no legal play exists.  ``timeout``: the time limit passed before any play
was found (there may still be one); the table and hand are returned unchanged."""


@dataclass(frozen=True, slots=True)
class Hint:
    """The best play found for a position: what to play and the table it leaves."""

    status: HintStatus
    position: Position
    variant: Variant
    objective: str
    table: Table
    played: tuple[Piece, ...]
    hand: Hand
    melds_broken: int
    """Old melds whose cards do not all end in one meld of the new table."""
    build_ms: float
    solve_ms: float
    engine: str = "cp-sat"
    """What answered: ``search`` (the fast path, solver.fastpath) or ``cp-sat``."""
    extra: dict[str, object] = field(default_factory=dict)

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
        (and, with ``knock_only_after_meld``, only after a meld)."""
        return self.variant.may_knock(self.hand_points, melded=self.has_play)

    def to_dict(self) -> dict[str, object]:
        """The shared machine-readable form (DESIGN.md)."""
        return {
            "status": self.status,
            "position": str(self.position),
            "variant": self.variant.name,
            "objective": self.objective,
            "played": [str(piece) for piece in self.played],
            "table": str(self.table),
            "melds": [[str(piece) for piece in meld.pieces] for meld in self.table],
            "hand": [str(piece) for piece in self.hand],
            "hand_points": self.hand_points,
            "can_knock": self.can_knock,
            "goes_out": self.goes_out,
            "melds_broken": self.melds_broken,
            "stats": {
                "build_ms": round(self.build_ms, 3),
                "solve_ms": round(self.solve_ms, 3),
                "engine": self.engine,
            },
            **self.extra,
        }
