"""The service's routers, one module per endpoint family, and ``router``: the API under ``/v1``.

Every API path is declared once, without its version, and ``router`` puts them all
under ``/v1``; the endpoints that take a position or a puzzle request (everything but
the variants) document the service's error answers (``service.errors.ERROR_RESPONSES``)
here, once.  ``meta.router`` holds the paths outside the API's version (``/healthz``).
"""

from fastapi import APIRouter

from service.errors import ERROR_RESPONSES
from service.routes import advise, analyze, check, hint, meta, puzzles

__all__ = ["API_PREFIX", "advise", "analyze", "check", "hint", "meta", "puzzles", "router"]

API_PREFIX = "/v1"
"""The version of the API in every path: a new incompatible version gets a new prefix."""

router = APIRouter(prefix=API_PREFIX)
for _module in (hint, analyze, advise, check, puzzles):
    router.include_router(_module.router, responses=ERROR_RESPONSES)
router.include_router(meta.v1)
