"""Difficulty: measured features of a puzzle, one score, four bands.

Features (all exact, each measured on the verified puzzle):

- ``broken``: old melds that every way out must break: the hint engine's fewest broken
  melds among plays that empty the hand (an old meld is unbroken when all its pieces
  end in one meld, a table joker perhaps moved along it: docs/rules.md);
- ``moved``: table pieces that move in the plan of the solution (``solver.plan``: the
  fewest moves that reach the engine's final table; the hand's own cards not counted).
  It is exact for that table; a table of the same layout with sequences cut elsewhere
  could move a piece or two fewer, and is not searched for;
- ``hand``: pieces in the hand;
- ``decoys``: hand cards that fit a table meld as it stands (a sequence end, the missing
  suit of a three-card group) where no way out lays them: for every meld the card fits,
  no play that empties the hand keeps that meld whole with the card added to it
  (the slot filled by the card, or by a joker standing for it);
- ``jokers``: jokers that take part: those in the hand, and table jokers in melds the
  solution does not leave whole (a joker resting in a meld that stays whole plays no
  part in the puzzle);
- ``tangle``: the cycle rank of the solution's card flow (``solver.flow``: old melds and
  new melds joined by the table cards that pass between them, the hand left out).  Cards
  that pass one way along a chain (a meld split, two melds joined, a card moved on) make
  a tree, tangle 0; every independent cycle, two melds trading cards both ways, adds one
  (three groups of three turned into three sequences: 4).  It is what ``moved`` misses:
  moving six cards along a chain is easier to see than six cards swapped around a ring.

Score and bands::

    score = 3 * broken + moved + hand + 2 * decoys + 2 * jokers + tangle

    easy    score <= 8
    medium  9 <= score <= 14
    hard    15 <= score <= 21
    expert  score >= 22

The bands were set before ``tangle`` joined the score, and kept.  Graded without it, 40
puzzles a band (seed 11, Manipulation and Rummikub) had tangle 0 in every easy puzzle
and in 35-37 of 40 medium ones, 1.8 on average in hard ones (0-5) and 2.2-2.6 in expert
ones (0-10): the tangle mostly separates hard from expert.  With it, a hard candidate
whose solution is a ring of trades scores as expert and the generator looks on; the
hard puzzles of that seed then average tangle 1.1 and expert ones 2.5, and puzzles are
generated about as fast as before.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal, get_args

from solver.cards import Joker
from solver.position import Position, Table

MAX_COUNT = 100
"""Most puzzles one call generates (the CLI and the service refuse more)."""

__all__ = [
    "BANDS",
    "DIFFICULTIES",
    "Difficulty",
    "Features",
    "band_of",
    "jokers_involved",
    "parse_difficulty",
]

Difficulty = Literal["easy", "medium", "hard", "expert"]
DIFFICULTIES: tuple[Difficulty, ...] = get_args(Difficulty)

BANDS: dict[Difficulty, tuple[int, int | None]] = {
    "easy": (0, 8),
    "medium": (9, 14),
    "hard": (15, 21),
    "expert": (22, None),
}
"""Lowest and highest score of each difficulty (None: no upper end)."""

WEIGHTS = {"broken": 3, "moved": 1, "hand": 1, "decoys": 2, "jokers": 2, "tangle": 1}
"""The score's weight per feature."""


@dataclass(frozen=True, slots=True)
class Features:
    """What makes a puzzle hard, measured (see the module docstring)."""

    broken: int
    moved: int
    hand: int
    decoys: int
    jokers: int
    tangle: int

    @property
    def score(self) -> int:
        """``3 * broken + moved + hand + 2 * decoys + 2 * jokers + tangle``."""
        return sum(weight * int(getattr(self, name)) for name, weight in WEIGHTS.items())

    @property
    def difficulty(self) -> Difficulty:
        return band_of(self.score)

    def to_dict(self) -> dict[str, int]:
        return {name: int(getattr(self, name)) for name in WEIGHTS}


def band_of(score: int) -> Difficulty:
    """The difficulty whose band holds ``score``."""
    for name, (low, high) in BANDS.items():
        if score >= low and (high is None or score <= high):
            return name
    raise ValueError(f"score {score} is below every band")


def parse_difficulty(text: str) -> Difficulty:
    """``easy``, ``medium``, ``hard`` or ``expert`` (any case); a ValueError lists them."""
    key = text.strip().lower()
    for name in DIFFICULTIES:
        if key == name:
            return name
    raise ValueError(f"unknown difficulty {text!r}; choose one of {', '.join(DIFFICULTIES)}")


def jokers_involved(position: Position, solution: Table) -> int:
    """Hand jokers, plus table jokers in old melds whose pieces (jokers with their declared
    cards) do not all end in one meld of ``solution``."""
    count = position.hand.joker_count
    finals = [Counter(meld.pieces) for meld in solution]
    for meld in position.table:
        jokers = sum(isinstance(piece, Joker) for piece in meld.pieces)
        if jokers and not any(not Counter(meld.pieces) - final for final in finals):
            count += jokers
    return count
