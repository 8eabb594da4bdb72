"""The generator: candidates from ``deal``, graded and verified, until enough fit the band.

For each candidate position the hint engine gives the solution (the way out that breaks
the fewest old melds) and the plan gives its moves; the features are measured, the
score must fall in the difficulty's band, and ``checks.verify`` must prove the puzzle.
Cheap rejections come first (no way out, no meld broken, a score that decoys cannot
bring into the band), the decoy solves and the verification last.

Everything random comes from the ``random.Random`` passed in, and every solve is
deterministic (one CP-SAT worker, a fixed seed), so a seed gives the same puzzles in
the same order on every run: the first three of ``count=5`` are the puzzles of
``count=3``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from solver.cpsat import hint
from solver.plan import Plan, plan_play
from solver.position import Position, Table, count_real
from solver.puzzles.checks import Decoy, Verification, decoys, verify
from solver.puzzles.deal import Recipe, deal_start, solution_table
from solver.puzzles.grade import BANDS, WEIGHTS, Difficulty, Features, jokers_involved
from solver.puzzles.keeping import fits
from solver.variants import Variant

__all__ = [
    "MAX_COUNT",
    "RECIPES",
    "GenerationError",
    "GenerationStats",
    "Puzzle",
    "generate_puzzles",
    "puzzle_stream",
]

MAX_COUNT = 100
"""Most puzzles one call generates (the CLI and the service refuse more)."""

MAX_CANDIDATES = 5000
"""Candidates tried for one puzzle before giving up (far beyond what any band needs)."""

RECIPES: dict[Difficulty, Recipe] = {
    "easy": Recipe(
        melds=(3, 4), width=(3, 5), suits=3, group_rate=0.4, jokers=0, joker_rate=0.0, hand=(1, 2)
    ),
    "medium": Recipe(
        melds=(4, 5), width=(4, 5), suits=3, group_rate=0.4, jokers=1, joker_rate=0.15, hand=(2, 3)
    ),
    "hard": Recipe(
        melds=(5, 7), width=(4, 6), suits=4, group_rate=0.4, jokers=1, joker_rate=0.2, hand=(3, 4)
    ),
    "expert": Recipe(
        melds=(7, 9), width=(5, 7), suits=4, group_rate=0.4, jokers=2, joker_rate=0.25, hand=(4, 6)
    ),
}
"""Candidate sizes per difficulty, tuned so that most verified candidates land in the band."""


class GenerationError(RuntimeError):
    """No puzzle of the difficulty was found within ``MAX_CANDIDATES`` candidates."""


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A verified puzzle: the position, its one solution with the moves, and its grade."""

    position: Position
    variant: Variant
    solution: Table
    plan: Plan
    features: Features
    decoys: tuple[Decoy, ...]
    verification: Verification

    @property
    def score(self) -> int:
        return self.features.score

    @property
    def difficulty(self) -> Difficulty:
        return self.features.difficulty

    def to_dict(self) -> dict[str, object]:
        """The machine-readable form (CLI ``--json`` and the service share it)."""
        return {
            "variant": self.variant.name,
            "difficulty": self.difficulty,
            "score": self.score,
            "features": self.features.to_dict(),
            "position": str(self.position),
            "table": str(self.position.table),
            "hand": [str(piece) for piece in self.position.hand],
            "decoys": [decoy.to_dict() for decoy in self.decoys],
            "solution": {
                "table": str(self.solution),
                "melds": [[str(piece) for piece in meld.pieces] for meld in self.solution],
                "moves": self.plan.to_dicts(),
            },
            "verification": self.verification.to_dict(),
        }


@dataclass(slots=True)
class GenerationStats:
    """What happened to the candidates (for benchmarks and tuning)."""

    candidates: int = 0
    rejected: Counter[str] = field(default_factory=Counter)

    def reject(self, reason: str) -> None:
        self.rejected[reason] += 1


def _evaluate(
    position: Position, variant: Variant, difficulty: Difficulty, stats: GenerationStats
) -> Puzzle | None:
    """The puzzle this candidate makes, or None (with the reason counted) when it fails."""
    found = hint(position, variant=variant)
    if found.status != "optimal" or not found.goes_out:
        stats.reject("no way out" if found.status != "timeout" else "time limit")
        return None
    if found.melds_broken == 0:
        stats.reject("no meld broken")
        return None
    plan = plan_play(position, found.table, variant=variant)
    hand = len(position.hand)
    jokers = jokers_involved(position, found.table)
    base = Features(found.melds_broken, plan.moved - hand, hand, 0, jokers)
    hand_cards = count_real(position.hand.pieces)
    possible = sum(
        copies
        for card, copies in hand_cards.items()
        if any(fits(meld, card, variant) for meld in position.table)
    )
    low, high = base.score, base.score + WEIGHTS["decoys"] * possible  # decoys are not counted yet
    band_low, band_high = BANDS[difficulty]
    if high < band_low or (band_high is not None and low > band_high):
        stats.reject("score out of band")
        return None
    found_decoys = decoys(position, variant)
    if found_decoys is None:
        stats.reject("time limit")
        return None
    features = Features(base.broken, base.moved, hand, sum(d.copies for d in found_decoys), jokers)
    if features.difficulty != difficulty:
        stats.reject("score out of band")
        return None
    verification = verify(position, found.table, variant)
    if not verification.ok:
        stats.reject("not unique" if verification.unique == "yes" else "verification failed")
        return None
    return Puzzle(position, variant, found.table, plan, features, found_decoys, verification)


def puzzle_stream(
    difficulty: Difficulty,
    *,
    rng: random.Random,
    variant: Variant | None = None,
    stats: GenerationStats | None = None,
) -> Iterator[Puzzle]:
    """Verified puzzles of one difficulty, one after another, without end.

    Raises GenerationError when ``MAX_CANDIDATES`` candidates in a row fail.
    """
    rules = variant or Variant.manipulation()
    recipe = RECIPES[difficulty]
    counts = stats if stats is not None else GenerationStats()
    seen: set[str] = set()
    failures = 0
    while True:
        solution = solution_table(rng, rules, recipe)
        if solution is None:
            counts.reject("no unique solution table")
            failures += 1
            if failures >= MAX_CANDIDATES:
                raise GenerationError(f"no {difficulty} {rules.name} puzzle found in {MAX_CANDIDATES} tries")
            continue
        for _ in range(recipe.starts):
            position = deal_start(rng, rules, solution, rng.randint(*recipe.hand))
            counts.candidates += 1
            puzzle = None
            if position is None:
                counts.reject("no start table")
            elif str(position) in seen:
                counts.reject("repeat")
            else:
                puzzle = _evaluate(position, rules, difficulty, counts)
            if puzzle is not None:
                seen.add(str(position))
                failures = 0
                yield puzzle
                break
            failures += 1
            if failures >= MAX_CANDIDATES:
                raise GenerationError(
                    f"no {difficulty} {rules.name} puzzle found in {MAX_CANDIDATES} candidates"
                )


def generate_puzzles(
    count: int,
    difficulty: Difficulty,
    *,
    rng: random.Random,
    variant: Variant | None = None,
    progress: Callable[[Puzzle], None] | None = None,
    stats: GenerationStats | None = None,
) -> list[Puzzle]:
    """``count`` verified puzzles of ``difficulty`` (1..MAX_COUNT), in the order the seed gives.

    ``progress`` is called after each puzzle.  Raises ValueError for a bad count or
    difficulty, GenerationError when the band cannot be reached.
    """
    if difficulty not in RECIPES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose one of {', '.join(RECIPES)}")
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"count must be between 1 and {MAX_COUNT}, not {count}")
    found: list[Puzzle] = []
    for puzzle in puzzle_stream(difficulty, rng=rng, variant=variant, stats=stats):
        found.append(puzzle)
        if progress is not None:
            progress(puzzle)
        if len(found) == count:
            break
    return found
