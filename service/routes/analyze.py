"""POST /v1/analyze: playable cards, the number of best plays, meld-or-draw advice and outs."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body

from service import edge, jobs
from service.deps import PoolDep, SettingsDep
from service.encoded import EncodedJSON
from service.routes import solving_router
from service.schemas import AnalyzeRequest, AnalyzeResponse

__all__ = ["router"]

router = solving_router(tags=["hints"])

EXAMPLES: dict[str, Any] = {
    "meld or draw": {
        "summary": "Meld the ace now, or draw first?",
        "value": {"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac 2c"},
    },
    "known unseen cards": {
        "summary": "Only these cards can still be drawn",
        "value": {"table": "7h 8h 9h", "hand": "Jh Qs", "unseen": "10h Ks Kd *", "time_limit": 2},
    },
}


@router.post(
    "/analyze",
    response_model=AnalyzeResponse,
    summary="Analyze a position",
)
async def post_analyze(
    body: Annotated[AnalyzeRequest, Body(openapi_examples=EXAMPLES)],
    settings: SettingsDep,
    pool: PoolDep,
) -> EncodedJSON:
    """The best play, which hand cards can ever be played, how many best plays there are,
    and whether to meld now or draw first: the exact expected points after a draw, the
    chances to knock or go out, and the outs.  Runs several solves, so it takes longer
    than a hint (typically 0.05-0.5 s)."""
    # async: parsing takes well under a millisecond; the solve runs on the bounded pool and
    # this handler waits for it on the event loop, holding no server thread meanwhile.
    generic = edge.variant_of(body)
    position = edge.position_of(body, generic)
    given = edge.unseen_of(body.unseen, position, generic)
    variant, assumed = edge.implied_variant_of(body, position, given or ())
    position = edge.position_of(body, variant)
    entered = edge.entered_of(body, position)
    unseen = edge.unseen_of(body.unseen, position, variant)
    time_limit = edge.time_limit_of(body.time_limit, settings)
    answer = await pool.run_async(
        settings.max_analyze_seconds,
        jobs.analyze_job,
        str(entered),
        variant,
        unseen=unseen,
        play_count_cap=body.play_count_cap,
        time_limit=time_limit,
        players_assumed=assumed,
    )
    return EncodedJSON(answer)
