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

import anyio.to_thread
from fastapi import FastAPI

from service.docs import install_docs, integer_bounds
from service.errors import install_error_handlers
from service.limits import LoadShedMiddleware, RequestLimitMiddleware
from service.pool import SolvePool
from service.routes import advise, analyze, check, hint, meta, puzzles
from service.settings import Settings
from service.web import install_page

__all__ = ["SOLVING_PATHS", "create_app"]

SOLVING_PATHS = frozenset({"/v1/hint", "/v1/analyze", "/v1/check", "/v1/puzzles"})
"""Endpoints whose work runs on the solver pool (and may be refused with 503, or abandoned when
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


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; ``settings`` defaults to the ``RUMMY_*`` environment."""
    settings = settings or Settings()
    pool = SolvePool(
        workers=settings.workers,
        queue=settings.queue_size,
        kind=settings.executor,
        retry_after=settings.retry_after,
        watchdog=settings.worker_watchdog,
        start_seconds=settings.worker_start_timeout,
        spares=settings.worker_spares,
    )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await anyio.to_thread.run_sync(pool.start)
        try:
            yield
        finally:
            pool.close()

    app = FastAPI(
        title="Rummy hint service",
        version="1",
        description=DESCRIPTION,
        lifespan=lifespan,
        docs_url=None,  # served offline by service.docs
        redoc_url=None,
        openapi_url="/openapi.json",
    )
    app.state.settings = settings
    app.state.pool = pool
    install_error_handlers(app)
    # Added last, runs first: the request limits, then load shedding, then the app.
    app.add_middleware(LoadShedMiddleware, pool=pool, paths=SOLVING_PATHS)
    app.add_middleware(
        RequestLimitMiddleware,
        max_bytes=settings.max_body_bytes,
        max_headers=settings.max_headers,
        body_timeout=settings.body_timeout,
        watch=None,  # every POST queues work on the pool
    )
    app.include_router(hint.router)
    app.include_router(analyze.router)
    app.include_router(advise.router)
    app.include_router(check.router)
    app.include_router(puzzles.router)
    app.include_router(meta.router)
    install_docs(app)
    integer_bounds(app)
    install_page(app)
    return app
