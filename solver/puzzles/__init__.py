"""Puzzles: positions whose whole hand can be played only by rearranging the table, one way.

``generate_puzzles(count, difficulty, rng=random.Random(seed))`` returns verified puzzles;
``rummy puzzle`` and ``POST /v1/puzzles`` serve them.  Definitions (each exact):

- **Going out**: one legal play puts every hand piece on the table (Rummikub puzzles
  assume the player has opened).
- **Needs rearranging**: no play goes out while every table meld stays whole (all its
  pieces in one meld, as the hint engine's tie-break counts it: a table joker may move
  along its own meld where a real card frees it); laying cards at the ends of melds does
  not count as rearranging, so it is allowed in that test.
- **Unique**: every table the player can go out to has the solution's ``Layout``: the same
  cards in groups, the same cards at the same positions of sequences (an ace low or high),
  the same joker declarations.  Only how a suit's sequence cards are cut into sequences,
  and which copy of a card a joker stands in for, may differ (``layout``).
- **Decoy**: a hand card that fits a table meld as it stands but that no way out lays
  there with that meld kept whole (``grade``); ``describe`` says so in words, with where
  the solution plays it (possibly among that meld's cards once it has been rearranged).
- **Difficulty**: ``score = 3*broken + moved + hand + 2*decoys + 2*jokers + tangle`` and four bands
  (``grade``).

Modules: ``layout`` (canonical form), ``partition`` (the all-pieces model), ``keeping``
(the hint model with melds kept whole), ``checks`` (verification, decoys), ``grade``
(features and bands), ``deal`` (random candidates), ``generate`` (the loop).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.puzzles.checks import Decoy, Verification, decoys, verify
    from solver.puzzles.generate import (
        GenerationError,
        GenerationStats,
        Puzzle,
        generate_puzzles,
        puzzle_stream,
    )
    from solver.puzzles.grade import BANDS, DIFFICULTIES, MAX_COUNT, Difficulty, Features, parse_difficulty
    from solver.puzzles.layout import Layout

_HOMES: dict[str, str] = {
    **dict.fromkeys(("Decoy", "Verification", "decoys", "verify"), "checks"),
    **dict.fromkeys(
        ("GenerationError", "GenerationStats", "Puzzle", "generate_puzzles", "puzzle_stream"), "generate"
    ),
    **dict.fromkeys(
        ("BANDS", "DIFFICULTIES", "MAX_COUNT", "Difficulty", "Features", "parse_difficulty"), "grade"
    ),
    "Layout": "layout",
}
"""Each public name and its module: loaded on first use (PEP 562), so that importing one
light module of the package (the grade's bands, say) does not load the models and
OR-Tools."""

__all__ = [
    "BANDS",
    "DIFFICULTIES",
    "MAX_COUNT",
    "Decoy",
    "Difficulty",
    "Features",
    "GenerationError",
    "GenerationStats",
    "Layout",
    "Puzzle",
    "Verification",
    "decoys",
    "generate_puzzles",
    "parse_difficulty",
    "puzzle_stream",
    "verify",
]


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver.puzzles' has no attribute {name!r}")
    return getattr(import_module(f"solver.puzzles.{home}"), name)
