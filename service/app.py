"""``create_app()``: the FastAPI application, its settings, pool, limits and routers.

The service is a thin edge over the library: request schemas in, one library call
(on the bounded solver pool when it solves), response schemas out.  Nothing happens at
import time; ``create_app`` builds everything, and the pool's workers start with the
application's lifespan (or on the first job, when no lifespan runs).  The root path
``/`` serves the web page (``service.web``), its files are under ``/static``; the API
docs pages ``/docs`` and ``/redoc`` work offline (``service.docs``).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import anyio.to_thread
from fastapi import FastAPI

from service.docs import install_docs, integer_bounds, server_caps
from service.errors import install_error_handlers
from service.games import GameStore
from service.head import HeadAsGetMiddleware
from service.keeper import GameKeeper
from service.limits import LoadShedMiddleware, RequestLimitMiddleware
from service.observe import ObserveMiddleware, Observer
from service.pool import SolvePool
from service.routes import advise, analyze, check, games, hint, meta, ops, puzzles
from service.settings import Settings
from service.web import install_page

__all__ = ["LONG_PATHS", "SHORT_PATHS", "SOLVING_PATHS", "create_app"]

SHORT_PATHS = frozenset({"/v1/hint", "/v1/analyze", "/v1/check"})
"""Endpoints whose work (milliseconds) runs on the solver pool."""
LONG_PATHS = frozenset({"/v1/advise", "/v1/puzzles"})
"""Endpoints whose work (seconds) runs on the long-job pool, with workers, queue and
priority of its own: however many of them arrive, the short work keeps its workers."""
SOLVING_PATHS = SHORT_PATHS | LONG_PATHS
"""Endpoints whose work runs on a pool (and may be refused with 503, or abandoned when
the client disconnects)."""

DESCRIPTION = """\
Best plays, rule checks and analysis for **Manipulation Rummy**, **Machiavelli** and
**Rummikub**, in the project notation: a card is `7h`, `10s`, `Qd`; a joker is `*` in a
hand and `*7h` on the table; melds are separated by `|`; a position is `table / hand`,
e.g. `Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac`.

Every error answer has one shape:
`{"error": {"type": ..., "message": ..., "field": ..., "problems": [...]}}`.
A solving request that finds every worker busy and the queue full gets **503** with a
`Retry-After` header.
"""


def _pool(settings: Settings, **lane: Any) -> SolvePool:
    """A pool with the settings every lane shares (executor, watchdog, spares...) and the
    lane's own (``lane``: workers, queue, name, priority, wait)."""
    return SolvePool(
        kind=settings.executor,
        retry_after=settings.retry_after,
        watchdog=settings.worker_watchdog,
        start_seconds=settings.worker_start_timeout,
        spares=settings.worker_spares,
        **lane,
    )


def create_app(settings: Settings | None = None, *, store: GameStore | None = None) -> FastAPI:
    """Build the application; ``settings`` defaults to the ``RUMMY_*`` environment;
    ``store``: the game store (opened by ``rummy serve``), else the one ``RUMMY_DB``
    names, opened when a games request first needs it (``service.keeper``)."""
    settings = settings or Settings()
    keeper = GameKeeper(settings.db, store)
    pool = _pool(settings, workers=settings.workers, queue=settings.queue_size)
    long_pool = _pool(
        settings,
        workers=settings.long_workers,
        queue=settings.long_queue,
        name="long",
        niceness=settings.long_nice,
        max_wait=settings.long_wait,
        grace=settings.wait_grace,
    )
    bot_pool = _pool(
        settings,
        workers=settings.bot_workers,
        queue=settings.bot_queue_size,
        name="bots",
        niceness=settings.bot_nice,
    )
    pools = (pool, long_pool, bot_pool)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        async with anyio.create_task_group() as group:  # the pools start at once
            for each in pools:
                group.start_soon(anyio.to_thread.run_sync, each.start)
        try:
            yield
        finally:
            for each in pools:
                each.close()
            keeper.close()

    app = FastAPI(
        title="Rummy hint service",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # served offline by service.docs
        redoc_url=None,
        openapi_url="/openapi.json",
        # An unknown path is a 404 in the error shape: no redirect to the same path with or
        # without a slash, whose address Starlette builds from the client's Host header.
        redirect_slashes=False,
    )
    app.state.settings = settings
    app.state.pool = pool
    app.state.long_pool = long_pool
    app.state.bot_pool = bot_pool
    app.state.games = keeper
    install_error_handlers(app)
    # Added last, runs first: the request limits, then load shedding, then the app.
    lanes = {path: pool for path in SHORT_PATHS} | {path: long_pool for path in LONG_PATHS}
    app.add_middleware(LoadShedMiddleware, lanes=lanes)
    observer = Observer({"short": pool, "long": long_pool, "bots": bot_pool})
    app.state.observer = observer
    app.add_middleware(
        RequestLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        max_headers=settings.max_headers,
        body_timeout=settings.body_timeout,
        watch=None,  # every POST queues work on the pool
        larger={"/v1/games/import": settings.max_import_bytes},
    )
    app.add_middleware(ObserveMiddleware, observer=observer, paths=SOLVING_PATHS)  # sees every answer
    app.add_middleware(HeadAsGetMiddleware)  # outermost: HEAD runs as the GET it stands for
    app.include_router(hint.router)
    app.include_router(analyze.router)
    app.include_router(advise.router)
    app.include_router(check.router)
    app.include_router(puzzles.router)
    app.include_router(games.router)
    app.include_router(meta.router)
    app.include_router(ops.router)
    install_docs(app)
    integer_bounds(app)
    server_caps(app, settings)
    install_page(app)
    return app
