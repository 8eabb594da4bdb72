"""POST /v1/puzzles: verified puzzles, each with its one solution, its moves and its grade.

The answer holds the same puzzle objects that ``rummy puzzle --json`` prints, one per
puzzle; the bodies are in ``service.schemas`` and the generation, on the pool, is
``service.jobs.puzzles_job``, as for every other endpoint.
"""

from __future__ import annotations

import random
from typing import Annotated, Any

from fastapi import Body

from service import edge, jobs
from service.deps import LongPoolDep
from service.encoded import EncodedJSON
from service.routes import solving_router
from service.schemas import PuzzleRequest, PuzzlesResponse

__all__ = ["SECONDS_PER_PUZZLE", "router"]

router = solving_router(tags=["puzzles"])

SECONDS_PER_PUZZLE = 1.0
"""The work a request is counted at per puzzle when the long-job pool decides whether it can
start in time (an expert puzzle takes about a tenth of a second); the request may then take
that plus the pool's wait and grace before it gives up with 503."""

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


@router.post(
    "/puzzles",
    response_model=PuzzlesResponse,
    summary="Generate puzzles",
)
async def post_puzzles(
    body: Annotated[PuzzleRequest, Body(openapi_examples=EXAMPLES)],
    pool: LongPoolDep,
) -> EncodedJSON:
    """Positions whose whole hand can be played only by rearranging the table, in exactly
    one way (up to how sequences are cut), each verified and graded, with the solution
    and its moves.  The same seed gives the same puzzles; a difficulty that cannot be
    reached is a 422 of type ``unreachable``."""
    # async like the other solving endpoints: the generation runs on the bounded pool and
    # this handler waits for it on the event loop, holding no server thread meanwhile.
    variant = edge.variant_of(body)
    seed = body.seed if body.seed is not None else random.SystemRandom().randrange(2**31)
    answer = await pool.run_within(
        SECONDS_PER_PUZZLE * body.count,
        jobs.puzzles_job,
        body.count,
        body.difficulty,
        variant,
        seed,
    )
    return EncodedJSON(answer)
