"""GET /healthz and GET /v1/variants: what the service is and what it plays."""

from __future__ import annotations

from functools import cache
from importlib import metadata
from typing import Any

from fastapi import APIRouter

from service.deps import PoolDep, SettingsDep
from service.routes import api_router
from service.schemas import MAX_PLAYERS, HealthResponse, VariantsResponse
from solver.variants import VARIANT_NAMES, Variant

__all__ = ["router", "v1"]

router = APIRouter(tags=["service"])
"""Every route of the module: ``/healthz`` outside the API's version, and ``v1``'s."""
v1 = api_router()
"""The routes under ``/v1``: ``/v1/variants`` (tagged by ``router``, which includes them)."""


@cache
def _version() -> str:
    try:
        return metadata.version("manipulation-rummy")
    except metadata.PackageNotFoundError:
        return "0+unknown"


@router.get("/healthz", response_model=HealthResponse, summary="Liveness and load")
def healthz(settings: SettingsDep, pool: PoolDep) -> dict[str, Any]:
    """Always 200 while the server runs: the version, the pool's size and current load, and the limits."""
    return _health(settings, pool)


@router.head("/healthz", response_model=HealthResponse, summary="Liveness (headers only)")
def healthz_head(settings: SettingsDep, pool: PoolDep) -> dict[str, Any]:
    """The same answer as ``GET /healthz`` without its body: what load balancers probe with."""
    return _health(settings, pool)


def _health(settings: SettingsDep, pool: PoolDep) -> dict[str, Any]:
    return {
        "status": "ok",
        "version": _version(),
        "executor": settings.executor,
        "pool": {**pool.stats(), "replaced": pool.replaced()},
        "max_time_limit": settings.max_time_limit,
        "default_time_limit": settings.default_time_limit,
        "max_body_bytes": settings.max_body_bytes,
    }


@v1.get("/variants", response_model=VariantsResponse, summary="Rule variants")
def variants() -> dict[str, Any]:
    """Every rule variant the service plays, with its rules and the largest deck any player
    count uses (what a request without ``players`` is checked against), and for each variant
    the player counts a request may name with their decks."""
    return {
        "variants": [Variant.named(name).describe() for name in VARIANT_NAMES],
        "player_counts": {name: _player_counts(name) for name in VARIANT_NAMES},
    }


@cache
def _player_counts(name: str) -> list[dict[str, int]]:
    """Every count from 2 to MAX_PLAYERS that the variant accepts, with the deck it picks."""
    counts = []
    for players in range(2, MAX_PLAYERS + 1):
        try:
            variant = Variant.named(name, players=players)
        except ValueError:
            continue
        deck = {"decks": variant.decks, "jokers": variant.jokers, "hand_size": variant.hand_size}
        counts.append({"players": players, **deck})
    return counts


router.include_router(v1)
