"""POST /v1/hint: the best play for a position."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body

from service import edge, jobs
from service.deps import PoolDep, SettingsDep
from service.encoded import EncodedJSON
from service.routes import solving_router
from service.schemas import HintRequest, HintResponse

__all__ = ["router"]

router = solving_router(tags=["hints"])

EXAMPLES: dict[str, Any] = {
    "worked example": {
        "summary": "Play Ac by rebuilding three groups as sequences",
        "value": {"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"},
    },
    "table and hand": {
        "summary": "Free a table joker with the real card",
        "value": {"table": "7h 8h *9h", "hand": "9h Jh", "time_limit": 2},
    },
    "no play": {
        "summary": "No legal play: the answer has status no_play",
        "value": {"position": "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s"},
    },
    "alternatives": {
        "summary": "The best play and two others that play other cards",
        "value": {"position": "5h 6h 7h | 9s 9d 9c / 8h 9h Kc Kd Ks 4h", "alternatives": 2},
    },
    "rummikub opening": {
        "summary": "Rummikub: a first meld worth 30 from the rack",
        "value": {"position": "/ 10h Jh Qh Kh 5c", "variant": "rummikub", "opened": False},
    },
}


@router.post(
    "/hint",
    response_model=HintResponse,  # the job leaves "alternatives" out unless asked for
    summary="Best play for a position",
)
async def post_hint(
    body: Annotated[HintRequest, Body(openapi_examples=EXAMPLES)],
    settings: SettingsDep,
    pool: PoolDep,
) -> EncodedJSON:
    """The play that leaves the fewest points in hand (or plays the most cards), with the
    new table, in the shared hint JSON.  Among equal plays, the one that breaks the fewest
    old melds wins."""
    # async: parsing takes well under a millisecond; the solve runs on the bounded pool and
    # this handler waits for it on the event loop, holding no server thread meanwhile.
    variant = edge.variant_of(body)
    position = edge.position_of(body, variant)
    entered = edge.entered_of(body, position)
    time_limit = edge.time_limit_of(body.time_limit, settings)
    answer = await pool.run_async(
        time_limit * (1 + body.alternatives) + settings.wait_grace,  # each play is one solve
        jobs.hint_job,
        str(entered),
        variant,
        objective=body.objective,
        keep_jokers=body.keep_jokers,
        opened=body.opened,
        time_limit=time_limit,
        others=body.alternatives,
    )
    return EncodedJSON(answer)
