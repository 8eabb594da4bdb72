"""POST /v1/advise: the options of the turn ranked by their expected outcome over sampled deals."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body

from service import edge, jobs
from service.deps import LongPoolDep, SettingsDep
from service.encoded import EncodedJSON
from service.errors import InputError
from service.routes import solving_router
from service.schemas import AdviseRequest, AdviseResponse
from solver.strategy.advice import DEFAULT_BUDGET

__all__ = ["router"]

router = solving_router(tags=["hints"])

EXAMPLES: dict[str, Any] = {
    "go out or knock": {
        "summary": "Go out now, knock, or draw?",
        "value": {"position": "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d *", "players": 2},
    },
    "game facts": {
        "summary": "With the other hand, the stock and the scores known",
        "value": {
            "position": "Kh Kd Kc | 4s 5s 6s / 2h 3h 9c 9d 9s Ks 3s 7c",
            "players": 2,
            "hand_sizes": [4],
            "stock": 35,
            "scores": [120, 90],
            "budget_seconds": 2,
            "seed": 1,
        },
    },
}


def budget_of(requested: float | None, cap: float) -> float:
    """The request's budget, or the default (the library's, within the cap), within the
    server's cap (422 above it)."""
    budget = min(DEFAULT_BUDGET, cap) if requested is None else requested
    if budget > cap:
        raise InputError(
            f"budget_seconds {budget:g} is above this server's cap of {cap:g} seconds",
            kind="budget",
            field="budget_seconds",
        )
    return budget


@router.post(
    "/advise",
    response_model=AdviseResponse,
    summary="Rank the options of the turn",
)
async def post_advise(
    body: Annotated[AdviseRequest, Body(openapi_examples=EXAMPLES)],
    settings: SettingsDep,
    pool: LongPoolDep,
) -> EncodedJSON:
    """Every option of the turn (the best play, other plays, smaller plays that hold
    cards back, knock or not, draw) played in the same sampled deals of the hidden cards
    and the round played out by the greedy policy: each option's expected value, net
    round points and round win chance with 95% intervals, best first, weighed with the
    search bot's evaluator.  The same request gives the same answer unless
    ``budget_seconds`` cut the deals (``stopped_by_budget``)."""
    variant = edge.variant_of(body)
    position = edge.position_of(body, variant)
    unseen = edge.unseen_of(body.unseen, position, variant)
    budget = budget_of(body.budget_seconds, settings.max_advise_seconds)
    answer = await pool.run_within(
        budget,
        jobs.advise_job,
        str(position),
        variant,
        players=body.players,
        hand_sizes=body.hand_sizes,
        stock=body.stock,
        scores=body.scores,
        draws_left=body.draws_left,
        unseen=unseen,
        budget_seconds=budget,
        samples=body.samples,
        seed=body.seed,
        decision=body.decision,
    )
    return EncodedJSON(answer)
