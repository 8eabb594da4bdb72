"""The web page: ``GET /`` answers ``static/index.html``; ``/static`` serves its CSS and JavaScript.

The page is plain HTML, CSS and JavaScript modules kept in ``service/static`` (no build
step, nothing loaded from elsewhere at run time).  It talks to the service through the
same JSON API as every other client: ``/v1/variants``, ``/v1/hint``, ``/v1/analyze``,
``/v1/check``, ``/v1/puzzles`` and ``/v1/games...``.  The Play tab's addresses answer the
same page: ``/play``, ``/play/<id>`` (a game, by its secret id) and ``/replay/<rid>`` (a
game read-only); the page reads the address and opens what it names.  Only these and
``/static/...`` belong to the page, so an unknown API path still gets the service's own
404 error body.
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
    """The single page: set up a position, see the best play, analyse it, solve puzzles, play."""
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers=NO_CACHE)


@router.get("/play", include_in_schema=False)
def play_start() -> FileResponse:
    """The page on its Play tab: a new game, the games kept in the browser."""
    return index()


@router.get("/play/{game_id}", include_in_schema=False)
def play_game(game_id: str) -> FileResponse:
    """The page on its Play tab with one game open (the page asks the API for it, so an
    unknown id is said on the page)."""
    del game_id  # read by the page from its address
    return index()


@router.get("/replay/{replay_id}", include_in_schema=False)
def replay_game(replay_id: str) -> FileResponse:
    """The page showing a game read-only, from its shared replay link."""
    del replay_id  # read by the page from its address
    return index()


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
