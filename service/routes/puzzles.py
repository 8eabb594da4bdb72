"""POST /v1/puzzles: verified puzzles, each with its one solution, its moves and its grade.

The request and response bodies and the pool job live here with the route, so that
the puzzle endpoint is one module; the answer holds the same puzzle objects that
``rummy puzzle --json`` prints, one per puzzle.
"""

from __future__ import annotations

import random
from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from service import edge
from service.deps import LongPoolDep, SettingsDep
from service.errors import ERROR_RESPONSES, InputError
from service.schemas import Rearrangement
from solver.puzzles import Difficulty, GenerationError, generate_puzzles
from solver.variants import Variant, VariantName

__all__ = ["MAX_PUZZLES", "MAX_SEED", "PuzzleRequest", "PuzzlesResponse", "puzzles_job", "router"]

router = APIRouter(tags=["puzzles"])

MAX_PUZZLES = 10
"""Most puzzles one request may ask for (an expert puzzle takes about a tenth of a second)."""

MAX_SEED = 2**53 - 1
"""Largest seed: the largest integer a JSON number keeps exactly in every client (JavaScript's
``Number.MAX_SAFE_INTEGER``), so that the schema's bound is an exact integer too."""

SECONDS_PER_PUZZLE = 1.0
"""The work a request is counted at per puzzle when the long-job pool decides whether it can
start in time (an expert puzzle takes about a tenth of a second); the request may then take
that plus the pool's wait and grace before it gives up with 503."""


class PuzzleRequest(BaseModel):
    """Ask for puzzles of one difficulty (strict, like the position requests)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    count: int = Field(
        default=1, ge=1, le=MAX_PUZZLES, strict=True, description=f"How many puzzles (1-{MAX_PUZZLES})."
    )
    difficulty: Difficulty = Field(
        default="medium",
        description="easy, medium, hard or expert: score bands 0-8, 9-14, 15-21, 22+ "
        "(score = 3*broken + moved + hand + 2*decoys + 2*jokers + tangle).",
    )
    variant: VariantName = Field(default="manipulation", description="Rule variant.")
    players: int | None = Field(
        default=None,
        ge=2,
        le=20,
        strict=True,
        description="Player count; picks the deck (Manipulation with 2 players: one deck, one joker).",
    )
    seed: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEED,
        strict=True,
        description="Random seed: the same seed gives the same puzzles. Omitted: random, reported back.",
    )


class PuzzleFeatures(BaseModel):
    broken: int = Field(description="Old melds every way out breaks (the fewest).")
    moved: int = Field(description="Table pieces the solution's plan moves.")
    hand: int = Field(description="Pieces in the hand.")
    decoys: int = Field(
        description="Hand cards that fit a table meld as it stands, where no way out lays them "
        "with that meld kept whole."
    )
    jokers: int = Field(description="Jokers that take part: in the hand, or in table melds that are broken.")
    tangle: int = Field(
        description="Cycle rank of the solution's card flow: 0 when cards pass one way, +1 per trade ring."
    )


class PuzzleSolution(BaseModel):
    table: str = Field(description="The final table, in notation.")
    melds: list[list[str]]
    moves: list[dict[str, Any]] = Field(description="How to get there, step by step ('text' each).")
    rearrangements: list[Rearrangement] = Field(
        description="The moves grouped into independent rearrangements, as in the hint answer."
    )


class PuzzleVerification(BaseModel):
    ok: bool
    legal: bool = Field(description="The referee accepts the solution, which empties the hand.")
    untouched_goes_out: str = Field(description="'no': the hand cannot go out with every table meld whole.")
    other_solution: str = Field(description="'no': no way out with another layout exists.")
    reasons: list[str]


class PuzzleItem(BaseModel):
    """One verified puzzle (the object ``rummy puzzle --json`` prints)."""

    number: int
    variant: str
    difficulty: Difficulty
    score: int
    features: PuzzleFeatures
    position: str = Field(description="The puzzle, 'table / hand'.")
    table: str
    hand: list[str]
    decoys: list[dict[str, Any]]
    solution: PuzzleSolution
    verification: PuzzleVerification


class PuzzlesResponse(BaseModel):
    seed: int = Field(description="The seed used: send it back to get the same puzzles.")
    difficulty: Difficulty
    variant: str
    puzzles: list[PuzzleItem]


EXAMPLES: dict[str, Any] = {
    "hard": {
        "summary": "Five hard puzzles, reproducible",
        "value": {"count": 5, "difficulty": "hard", "seed": 7},
    },
    "rummikub": {
        "summary": "An easy Rummikub puzzle",
        "value": {"difficulty": "easy", "variant": "rummikub"},
    },
}


def puzzles_job(count: int, difficulty: Difficulty, variant: Variant, seed: int) -> list[dict[str, Any]]:
    """Generate the puzzles on a pool worker, as plain JSON data."""
    try:
        found = generate_puzzles(count, difficulty, rng=random.Random(seed), variant=variant)
    except GenerationError as error:
        raise InputError(str(error), kind="unreachable", field="difficulty") from None
    except ValueError as error:
        raise InputError(str(error)) from None
    return [{"number": number, **puzzle.to_dict()} for number, puzzle in enumerate(found, start=1)]


@router.post(
    "/v1/puzzles",
    response_model=PuzzlesResponse,
    responses=ERROR_RESPONSES,
    summary="Generate puzzles",
)
async def post_puzzles(
    body: Annotated[PuzzleRequest, Body(openapi_examples=EXAMPLES)],
    settings: SettingsDep,
    pool: LongPoolDep,
) -> dict[str, Any]:
    """Positions whose whole hand can be played only by rearranging the table, in exactly
    one way (up to how sequences are cut), each verified and graded, with the solution
    and its moves.  The same seed gives the same puzzles; a difficulty that cannot be
    reached is a 422 of type ``unreachable``."""
    # async like the other solving endpoints: the generation runs on the bounded pool and
    # this handler waits for it on the event loop, holding no server thread meanwhile.
    variant = edge.variant_of(body)
    seed = body.seed if body.seed is not None else random.SystemRandom().randrange(2**31)
    found = await pool.run_within(
        SECONDS_PER_PUZZLE * body.count,
        puzzles_job,
        body.count,
        body.difficulty,
        variant,
        seed,
    )
    return {"seed": seed, "difficulty": body.difficulty, "variant": variant.name, "puzzles": found}
