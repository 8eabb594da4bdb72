"""Dependencies the routes declare with ``Annotated[..., Depends(...)]``.

The settings and the pool belong to the application (``create_app`` makes them), so
the dependencies fetch them from ``app.state``; a test passes its own ``Settings`` to
``create_app`` or overrides these functions in ``app.dependency_overrides``.  They are
``async`` only so that FastAPI calls them on the event loop instead of spending a
thread hop on an attribute lookup.
"""

from __future__ import annotations

from typing import Annotated, cast

from fastapi import Depends, Request

from service.pool import SolvePool
from service.settings import Settings

__all__ = [
    "BotPoolDep",
    "LongPoolDep",
    "PoolDep",
    "SettingsDep",
    "get_bot_pool",
    "get_long_pool",
    "get_pool",
    "get_settings",
]


async def get_settings(request: Request) -> Settings:
    """The settings of the application serving this request."""
    return cast(Settings, request.app.state.settings)


async def get_pool(request: Request) -> SolvePool:
    """The bounded solver pool of the application serving this request."""
    return cast(SolvePool, request.app.state.pool)


async def get_bot_pool(request: Request) -> SolvePool:
    """The pool for the games' bot turns of the application."""
    return cast(SolvePool, request.app.state.bot_pool)


async def get_long_pool(request: Request) -> SolvePool:
    """The pool for long jobs (advice, puzzles: seconds each) of the application."""
    return cast(SolvePool, request.app.state.long_pool)


SettingsDep = Annotated[Settings, Depends(get_settings)]
PoolDep = Annotated[SolvePool, Depends(get_pool)]
LongPoolDep = Annotated[SolvePool, Depends(get_long_pool)]
BotPoolDep = Annotated[SolvePool, Depends(get_bot_pool)]
