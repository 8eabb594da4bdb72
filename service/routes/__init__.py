"""The service's routers, one module per endpoint family, and how each is made.

Every API path is under ``/v1``, and the endpoints that take a request body (hint,
analyze, advise, check, puzzles) document the service's error answers
(``service.errors.ERROR_RESPONSES``).  Both are stated here once: a module makes its
router with ``solving_router`` or ``api_router``, and each route declares only its own
path (``"/hint"``).  ``/healthz`` stays outside the version (``meta.router``).

The prefix is given when the router is made, not when it is included: a route then
carries its whole path (``route.path == "/v1/hint"``), which is what the request's scope
names and what metrics and logs label a request by.
"""

from __future__ import annotations

from collections.abc import Sequence

from fastapi import APIRouter

from service.errors import ERROR_RESPONSES

__all__ = ["API_PREFIX", "api_router", "solving_router"]

API_PREFIX = "/v1"
"""The version of the API in every path: an incompatible change gets a new prefix."""


def api_router(*, tags: Sequence[str] = ()) -> APIRouter:
    """A router whose routes are under ``/v1`` (``tags``: unless a router that includes it
    tags them)."""
    return APIRouter(prefix=API_PREFIX, tags=list(tags))


def solving_router(*, tags: Sequence[str]) -> APIRouter:
    """A router whose routes are under ``/v1`` and document every error answer (routes that
    take a request body: validation, size and media-type errors, and 503 when the pool is full)."""
    return APIRouter(prefix=API_PREFIX, tags=list(tags), responses=ERROR_RESPONSES)
