"""The checks every puzzle passes, and the decoy count.

A puzzle is a position and a solution table.  ``verify`` proves three things, each
apart from the generator that made the puzzle:

1. **Legal, and out.**  The referee (``solver.referee.check_play``, which never uses a
   solver) accepts the play from the position to the solution, and the solution holds
   every piece of the table and the hand.
2. **Not without rearranging.**  The hint engine's model, with every old meld forced to
   stay whole (cards may still be added at their ends: laying off is not rearranging),
   finds no play that empties the hand (``keeping.can_go_out`` answers ``no``).
3. **Unique.**  No other table the player can go out to has a different ``Layout``: the
   partition model (``partition``, written apart from the hint engine) asked for a table of
   all the pieces, with the locked table jokers keeping their cards, whose layout differs
   from the solution's, answers ``no``.  So the solution is unique up to how sequences are
   cut and which copy of a card a joker stands in for; joker declarations count.

A time limit that passes in any solve fails the check: only proven puzzles are kept.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from solver.cards import ALL_CARDS, Card, Joker, Piece
from solver.position import Position, Table, count_real, declared_jokers
from solver.puzzles.keeping import can_go_out, fits
from solver.puzzles.layout import Layout
from solver.puzzles.partition import PartitionProblem, partition
from solver.puzzles.sat import CHECK_TIME_LIMIT, Answer
from solver.referee import check_play
from solver.variants import Variant

__all__ = ["Decoy", "Verification", "all_pieces_problem", "decoys", "second_solution", "verify"]


@dataclass(frozen=True, slots=True)
class Verification:
    """The three checks' outcomes; ``ok`` only when all three are proven."""

    legal: bool
    """The referee accepts the solution and it empties the hand."""
    needs_rearranging: Answer
    """``no`` is the wanted answer of "can the hand go out with every old meld whole?"."""
    unique: Answer
    """``no`` is the wanted answer of "is there a way out with another layout?"."""
    reasons: list[str] = field(default_factory=list)
    """Why a check failed (empty when ``ok``)."""
    witness: Table | None = None
    """A second solution, when one was found."""

    @property
    def ok(self) -> bool:
        return self.legal and self.needs_rearranging == "no" and self.unique == "no"

    def to_dict(self) -> dict[str, object]:
        return {
            "ok": self.ok,
            "legal": self.legal,
            "untouched_goes_out": self.needs_rearranging,
            "other_solution": self.unique,
            "reasons": list(self.reasons),
        }


def all_pieces_problem(position: Position) -> PartitionProblem:
    """Every piece of the position as one partition problem (nothing left off the table).

    A table joker declared X may only change its card while a real X is on the final
    table, and when the hand goes out every real X is there, so ``max(0, jokers declared X
    - real X)`` of them keep their card (RULES.md's counting rule).
    """
    pieces = position.table.pieces + position.hand.pieces
    real = count_real(pieces)
    declared = declared_jokers(position.table.pieces)
    locked = tuple(max(0, declared[card] - real[card]) for card in ALL_CARDS)
    jokers = sum(isinstance(piece, Joker) for piece in pieces)
    return PartitionProblem(tuple(real[card] for card in ALL_CARDS), jokers, joker_min=locked)


def second_solution(
    position: Position, solution: Table, variant: Variant, *, time_limit: float = CHECK_TIME_LIMIT
) -> tuple[Answer, Table | None]:
    """Whether the hand can go out to a table whose layout differs from ``solution``'s, and
    such a table when one exists."""
    found = partition(
        all_pieces_problem(position), variant, exclude=[Layout.of(solution, variant)], time_limit=time_limit
    )
    return found.answer, found.table


def verify(
    position: Position, solution: Table, variant: Variant, *, time_limit: float = CHECK_TIME_LIMIT
) -> Verification:
    """Run the three checks of the module docstring on a puzzle and its solution."""
    reasons: list[str] = []
    verdict = check_play(position, solution, variant=variant)
    reasons.extend(f"referee: {reason}" for reason in verdict.reasons)
    everything = Counter[Piece](_undeclared(position.table.pieces + position.hand.pieces))
    if Counter[Piece](_undeclared(solution.pieces)) != everything:
        reasons.append("the solution does not hold exactly the pieces of the table and the hand")
    legal = not reasons
    untouched = can_go_out(position, variant, keep=range(len(position.table)), time_limit=time_limit)
    if untouched != "no":
        reasons.append(
            "the hand goes out with every table meld whole"
            if untouched == "yes"
            else "time ran out asking whether the hand goes out with every table meld whole"
        )
    if not legal:
        # An illegal table has no layout to compare with: uniqueness stays unproven.
        return Verification(legal, untouched, "unknown", reasons)
    unique, witness = second_solution(position, solution, variant, time_limit=time_limit)
    if unique != "no":
        reasons.append(
            f"another solution exists: {witness}"
            if unique == "yes"
            else "time ran out looking for another solution"
        )
    return Verification(legal, untouched, unique, reasons, witness)


def _undeclared(pieces: tuple[Piece, ...]) -> list[Piece]:
    """Pieces with jokers as plain ``*``, to compare what a table holds whatever jokers stand for."""
    return [Joker() if isinstance(piece, Joker) else piece for piece in pieces]


@dataclass(frozen=True, slots=True)
class Decoy:
    """A hand card that fits table melds as they stand, but no way out lays it there."""

    card: Card
    melds: tuple[int, ...]
    """The 1-based numbers of the table melds it fits."""
    copies: int
    """How many of it the hand holds."""

    def to_dict(self) -> dict[str, object]:
        return {"card": str(self.card), "fits_melds": list(self.melds), "copies": self.copies}


def decoys(
    position: Position, variant: Variant, *, time_limit: float = CHECK_TIME_LIMIT
) -> tuple[Decoy, ...] | None:
    """The decoys of a position (see ``solver.puzzles.grade``), or None when a solve ran out
    of time.  One solve per (card, meld) pair where the card fits; jokers are never decoys."""
    hand = count_real(position.hand.pieces)
    found: list[Decoy] = []
    for card in sorted(hand):
        fitting = [i for i, meld in enumerate(position.table) if fits(meld, card, variant)]
        if not fitting:
            continue
        answers = []
        for i in fitting:
            answer = can_go_out(position, variant, keep=[i], attach=[(i, card)], time_limit=time_limit)
            if answer == "unknown":
                return None
            answers.append(answer)
            if answer == "yes":
                break
        if all(answer == "no" for answer in answers):
            found.append(Decoy(card, tuple(i + 1 for i in fitting), hand[card]))
    return tuple(found)
