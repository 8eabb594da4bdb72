"""The generator: candidates from ``deal``, graded and verified, until enough fit the band.

For each candidate position the hint engine gives the solution (the way out that breaks
the fewest old melds) and the plan gives its moves; the features are measured, the
score must fall in the difficulty's band, and ``checks.verify`` must prove the puzzle.
Cheap rejections come first (no way out, no meld broken, a score that decoys cannot
bring into the band), the decoy solves and the verification last.  Each solution table
gets a few hands; after one scores below the band the next is a piece bigger, after one
above it a piece smaller.  A position already given in this run is not given again.

Everything random comes from the ``random.Random`` passed in, and every solve is
deterministic (one CP-SAT worker, a fixed seed), so a seed gives the same puzzles in
the same order on every run: the first three of ``count=5`` are the puzzles of
``count=3``.  ``generate_puzzles`` draws one root seed from that generator and makes
puzzle ``i`` from its own stream, seeded by the root and ``i`` alone (``puzzle_at``), so
puzzles can be made in chunks on any backend of ``solver.runs`` (``jobs``, ``scheduler``)
with the same result; a puzzle equal to an earlier one is replaced by the next of its
own stream.
"""

from __future__ import annotations

import itertools
import os
import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from solver.engine import hint
from solver.plan import Plan, plan_play
from solver.position import Position, Table, count_real
from solver.puzzles.checks import Decoy, Verification, decoys, verify
from solver.puzzles.deal import Recipe, deal_start, solution_table
from solver.puzzles.describe import decoy_text
from solver.puzzles.grade import BANDS, MAX_COUNT, WEIGHTS, Difficulty, Features, jokers_involved
from solver.puzzles.keeping import fits
from solver.runs import Backend, Chunk, SchedulerSpec, item_seed, make_backend, run_indexed
from solver.variants import Variant

__all__ = [
    "MAX_COUNT",
    "RECIPES",
    "GenerationError",
    "GenerationStats",
    "Puzzle",
    "PuzzleJob",
    "generate_puzzles",
    "make_puzzles",
    "puzzle_at",
    "puzzle_stream",
]


MAX_TRIES = 2000
"""Solution tables tried for one puzzle before giving up (far beyond what any band needs)."""

RECIPES: dict[Difficulty, Recipe] = {
    "easy": Recipe(
        melds=(3, 5), width=(3, 5), suits=3, group_rate=0.4, jokers=0, joker_rate=0.0, hand=(2, 2)
    ),
    "medium": Recipe(
        melds=(4, 6), width=(4, 5), suits=3, group_rate=0.4, jokers=1, joker_rate=0.15, hand=(3, 3)
    ),
    "hard": Recipe(
        melds=(5, 7), width=(4, 6), suits=4, group_rate=0.4, jokers=1, joker_rate=0.2, hand=(3, 4)
    ),
    "expert": Recipe(
        melds=(6, 8), width=(5, 7), suits=4, group_rate=0.4, jokers=2, joker_rate=0.25, hand=(5, 6)
    ),
}
"""Candidate sizes per difficulty, tuned so that most verified candidates land in the band."""


class GenerationError(RuntimeError):
    """No puzzle of the difficulty came out of ``MAX_TRIES`` solution tables in a row."""


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

    def to_dict(self, *, solution: bool = True) -> dict[str, object]:
        """The machine-readable form (CLI ``--json`` and the service share it).

        ``solution=False`` leaves out the solution, the decoys (their text says where the
        solution plays each card) and the features (how many melds the solution breaks and
        cards it moves), to hand the puzzle to a player."""
        found: dict[str, object] = {
            "variant": self.variant.preset,
            "difficulty": self.difficulty,
            "score": self.score,
            "features": self.features.to_dict(),
            "position": str(self.position),
            "table": str(self.position.table),
            "hand": [str(piece) for piece in self.position.hand],
            "decoys": [
                {**decoy.to_dict(), "text": decoy_text(decoy, self.position, self.plan)}
                for decoy in self.decoys
            ],
            "solution": {
                "table": str(self.solution),
                "melds": [[str(piece) for piece in meld.pieces] for meld in self.solution],
                "moves": self.plan.to_dicts(),
                "rearrangements": [group.to_dict() for group in self.plan.rearrangements()],
            },
            "verification": self.verification.to_dict(),
        }
        if not solution:
            del found["decoys"], found["solution"], found["features"]
        return found


@dataclass(slots=True)
class GenerationStats:
    """What happened to the candidates (for benchmarks and tuning)."""

    candidates: int = 0
    rejected: Counter[str] = field(default_factory=Counter)

    def reject(self, reason: str) -> None:
        self.rejected[reason] += 1

    def add(self, other: GenerationStats) -> None:
        """Count another run's candidates and rejections in with these."""
        self.candidates += other.candidates
        self.rejected.update(other.rejected)


def _miss(low: int, high: int, difficulty: Difficulty) -> int:
    """How a score known to lie in ``low..high`` misses the band: -1 below, +1 above, 0 not."""
    band_low, band_high = BANDS[difficulty]
    if high < band_low:
        return -1
    if band_high is not None and low > band_high:
        return 1
    return 0


def _evaluate(
    position: Position, variant: Variant, difficulty: Difficulty, stats: GenerationStats
) -> Puzzle | int:
    """The puzzle this candidate makes, or how it failed (the reason counted in ``stats``):
    -1 its score is below the band, +1 above it, 0 any other failure."""
    found = hint(position, variant=variant)
    if found.status != "optimal" or not found.goes_out:
        stats.reject("no way out" if found.status != "timeout" else "time limit")
        return 0
    if found.melds_broken == 0:
        stats.reject("no meld broken")
        return 0
    hand = len(position.hand)
    jokers = jokers_involved(position, found.table)
    # Every broken meld moves at least one piece: a bound before the plan is made.
    least = Features(found.melds_broken, found.melds_broken, hand, 0, jokers, 0).score
    if _miss(least, least + 1000, difficulty) > 0:
        stats.reject("score out of band")
        return 1
    plan = plan_play(position, found.table, variant=variant)
    base = Features(found.melds_broken, plan.moved - hand, hand, 0, jokers, plan.flow().tangle)
    hand_cards = count_real(position.hand.pieces)
    fitting = sum(
        copies
        for card, copies in hand_cards.items()
        if any(fits(meld, card, variant) for meld in position.table)
    )
    miss = _miss(base.score, base.score + WEIGHTS["decoys"] * fitting, difficulty)  # decoys not counted yet
    if miss:
        stats.reject("score out of band")
        return miss
    found_decoys = decoys(position, variant)
    if found_decoys is None:
        stats.reject("time limit")
        return 0
    features = Features(
        base.broken, base.moved, hand, sum(d.copies for d in found_decoys), jokers, base.tangle
    )
    miss = _miss(features.score, features.score, difficulty)
    if miss:
        stats.reject("score out of band")
        return miss
    verification = verify(position, found.table, variant)
    if not verification.ok:
        stats.reject("not unique" if verification.unique == "yes" else "verification failed")
        return 0
    return Puzzle(position, variant, found.table, plan, features, found_decoys, verification)


def _from_solution(
    rng: random.Random,
    variant: Variant,
    difficulty: Difficulty,
    solution: Table,
    seen: set[str],
    stats: GenerationStats,
) -> Puzzle | None:
    """The first puzzle among ``recipe.starts`` hands dealt from one solution table.  After a
    candidate scored below the band the next hand is one piece bigger, above it one smaller."""
    recipe = RECIPES[difficulty]
    hand = rng.randint(*recipe.hand)
    for _ in range(recipe.starts):
        position = deal_start(rng, variant, solution, hand)
        stats.candidates += 1
        outcome: Puzzle | int = 0
        if position is None:
            stats.reject("no start table")
        elif str(position) in seen:
            stats.reject("repeat")
        else:
            outcome = _evaluate(position, variant, difficulty, stats)
        if isinstance(outcome, Puzzle):
            return outcome
        hand = max(1, hand - outcome)
    return None


def puzzle_stream(
    difficulty: Difficulty,
    *,
    rng: random.Random,
    variant: Variant | None = None,
    stats: GenerationStats | None = None,
) -> Iterator[Puzzle]:
    """Verified puzzles of one difficulty, one after another, without end (none repeats).

    Raises GenerationError when ``MAX_TRIES`` solution tables in a row give no puzzle.
    """
    rules = variant or Variant.manipulation()
    counts = stats if stats is not None else GenerationStats()
    seen: set[str] = set()
    failures = 0
    while True:
        solution = solution_table(rng, rules, RECIPES[difficulty])
        puzzle = None
        if solution is None:
            counts.reject("no unique solution table")
        else:
            puzzle = _from_solution(rng, rules, difficulty, solution, seen, counts)
        if puzzle is None:
            failures += 1
            if failures >= MAX_TRIES:
                raise GenerationError(f"no {difficulty} {rules.name} puzzle found in {MAX_TRIES} tries")
            continue
        failures = 0
        seen.add(str(puzzle.position))
        yield puzzle


@dataclass(frozen=True, slots=True)
class PuzzleJob:
    """What every chunk of a puzzle set shares: the band, the rules and the root seed."""

    difficulty: Difficulty
    variant: Variant
    root: int


def puzzle_at(job: PuzzleJob, index: int, skip: int = 0) -> tuple[Puzzle, GenerationStats]:
    """Puzzle ``index`` of the set: the first (or, past ``skip`` others, a later) puzzle of
    the stream seeded by the root seed and ``index`` alone, with what making it took."""
    stats = GenerationStats()
    rng = random.Random(item_seed(job.root, index, "puzzle"))
    stream = puzzle_stream(job.difficulty, rng=rng, variant=job.variant, stats=stats)
    puzzle = next(itertools.islice(stream, skip, None))
    return puzzle, stats


def make_puzzles(job: PuzzleJob, chunk: Chunk[int]) -> list[tuple[Puzzle, GenerationStats]]:
    """The puzzles of one chunk of indices, in order (the task ``solver.runs`` runs)."""
    return [puzzle_at(job, index) for index in chunk.items]


def generate_puzzles(
    count: int,
    difficulty: Difficulty,
    *,
    rng: random.Random,
    variant: Variant | None = None,
    progress: Callable[[Puzzle], None] | None = None,
    stats: GenerationStats | None = None,
    jobs: int | None = None,
    scheduler: SchedulerSpec = None,
    scheduler_file: str | os.PathLike[str] | None = None,
    backend: Backend | None = None,
) -> list[Puzzle]:
    """``count`` verified puzzles of ``difficulty`` (1..MAX_COUNT), in the order the seed gives.

    ``progress`` is called after each puzzle (in this process, in the order they finish).
    ``jobs``, ``scheduler``, ``scheduler_file`` or ``backend`` say where the puzzles are
    made (``solver.runs``); the puzzles are the same everywhere.  Raises ValueError for a
    bad count or difficulty, GenerationError when the band cannot be reached.
    """
    if difficulty not in RECIPES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose one of {', '.join(RECIPES)}")
    if not 1 <= count <= MAX_COUNT:
        raise ValueError(f"count must be between 1 and {MAX_COUNT}, not {count}")
    chosen = (
        backend
        if backend is not None
        else make_backend(jobs=jobs, scheduler=scheduler, scheduler_file=scheduler_file)
    )
    job = PuzzleJob(difficulty, variant or Variant.manipulation(), rng.getrandbits(48))

    def chunk_done(_chunk: Chunk[int], made: list[tuple[Puzzle, GenerationStats]]) -> None:
        if progress is not None:
            for puzzle, _ in made:
                progress(puzzle)

    made = run_indexed(make_puzzles, job, range(count), backend=chosen, max_chunk=10, on_chunk=chunk_done)
    found: list[Puzzle] = []
    seen: set[str] = set()
    for index, (first, counts) in enumerate(made):
        puzzle, skip = first, 0
        while str(puzzle.position) in seen:  # rare: two streams met; take the next of this one
            skip += 1
            puzzle, more = puzzle_at(job, index, skip)
            counts.add(more)
        seen.add(str(puzzle.position))
        found.append(puzzle)
        if stats is not None:
            stats.add(counts)
    return found
