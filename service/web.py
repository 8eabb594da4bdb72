"""The web page: ``GET /`` answers ``static/index.html``; ``/static`` serves its CSS and JavaScript.

The page is plain HTML, CSS and JavaScript modules kept in ``service/static`` (no build
step, nothing loaded from elsewhere at run time).  It talks to the service through the
same JSON API as every other client: ``/v1/variants``, ``/v1/hint``, ``/v1/analyze``,
``/v1/check`` and ``/v1/puzzles``.  Only ``GET /`` and ``/static/...`` belong to the page,
so an unknown API path still gets the service's own 404 error body.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.staticfiles import PathLike
from starlette.types import Scope

__all__ = ["STATIC_DIR", "install_page", "router"]

STATIC_DIR = Path(__file__).resolve().parent / "static"
"""Where the page's files live (shipped as package data)."""

NO_CACHE = {"Cache-Control": "no-cache"}
"""Browsers revalidate the page on every load, so an upgraded service never runs old scripts."""

router = APIRouter(tags=["page"])


@router.get("/", include_in_schema=False)
def index() -> FileResponse:
    """The single page: set up a position, see the best play, analyse it, solve puzzles."""
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=NO_CACHE)


class _StaticFiles(StaticFiles):
    """StaticFiles that asks browsers to revalidate (the files change with the service)."""

    def file_response(
        self, full_path: PathLike, stat_result: os.stat_result, scope: Scope, status_code: int = 200
    ) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.setdefault("Cache-Control", "no-cache")
        return response


def install_page(app: FastAPI) -> None:
    """Serve the page at ``/`` and its files under ``/static`` on ``app``."""
    app.include_router(router)
    app.mount("/static", _StaticFiles(directory=STATIC_DIR), name="static")
