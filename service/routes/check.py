"""POST /v1/check: the referee's verdict on a play."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body

from service import edge
from service.errors import ERROR_RESPONSES
from service.schemas import CheckRequest, CheckResponse
from solver.referee import check_play

__all__ = ["router"]

router = APIRouter(tags=["rules"])

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

_RESPONSES = {code: answer for code, answer in ERROR_RESPONSES.items() if code != 503}


@router.post("/v1/check", response_model=CheckResponse, responses=_RESPONSES, summary="Judge a play")
def post_check(body: Annotated[CheckRequest, Body(openapi_examples=EXAMPLES)]) -> dict[str, Any]:
    """Whether turning the position's table into ``after`` is a legal play, with every rule
    it breaks.  An illegal play is a normal answer (``ok: false``); a malformed or
    impossible before-position is a 422."""
    variant = edge.variant_of(body)
    before = edge.position_of(body, variant)
    after = edge.table_of(body.after, "after")
    verdict = check_play(before, after, variant=variant, opened=body.opened)
    return {"position": str(before), "after": str(after), **verdict.to_dict()}
