"""POST /v1/check: the referee's verdict on a play."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body

from service import edge, jobs
from service.deps import PoolDep, SettingsDep
from service.encoded import EncodedJSON
from service.routes import solving_router
from service.schemas import CheckRequest, CheckResponse

__all__ = ["router"]

router = solving_router(tags=["rules"])

EXAMPLES: dict[str, Any] = {
    "legal": {
        "summary": "A legal play: the real 9h frees the joker, which becomes 5s",
        "value": {"position": "7h 8h *9h / 9h 5c 5d", "after": "7h 8h 9h | 5c 5d *5s"},
    },
    "illegal": {
        "summary": "An illegal play: Qc is left alone",
        "value": {
            "position": "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s",
            "after": "10h Jh Qh | 10d Jd Qd | 9s 10s Js | Qc",
        },
    },
}


@router.post("/check", response_model=CheckResponse, summary="Judge a play")
async def post_check(
    body: Annotated[CheckRequest, Body(openapi_examples=EXAMPLES)],
    settings: SettingsDep,
    pool: PoolDep,
) -> EncodedJSON:
    """Whether turning the position's table into ``after`` is a legal play, with every rule
    it breaks.  An illegal play is a normal answer (``ok: false``); a malformed or
    impossible before-position is a 422.  Judging a large table costs real CPU, so the
    referee runs on the solver pool like the other CPU-heavy endpoints (503 when full)."""
    variant = edge.variant_of(body)
    before = edge.position_of(body, variant)
    after = edge.table_of(body.after, "after")
    answer = await pool.run_async(
        settings.wait_grace, jobs.check_job, str(before), str(after), variant, opened=body.opened
    )
    return EncodedJSON(answer)
