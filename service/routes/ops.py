"""GET /v1/version and GET /metrics: what answers, and what it has done (for operators)."""

from __future__ import annotations

import hashlib
import platform
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import cast

from fastapi import APIRouter, Request, Response

from service.observe import CONTENT_TYPE, Observer
from service.routes import api_router
from service.schemas import EngineBuild, VersionResponse

__all__ = ["router"]

router = APIRouter(tags=["service"])
v1 = api_router()


def _fingerprint(module_file: str | None) -> str:
    if module_file is None:
        return "unknown"
    return hashlib.sha256(Path(module_file).read_bytes()).hexdigest()[:16]


def _version_of(distribution: str) -> str | None:
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


@cache
def version_info() -> VersionResponse:
    """The versions, read once: the modules' files do not change under a running server."""
    from solver import fastpath
    from solver.fastpath import _points, _search

    return VersionResponse(
        package=_version_of("manipulation-rummy") or "0+unknown",
        ortools=_version_of("ortools"),
        python=platform.python_version(),
        engine=EngineBuild(
            search=_fingerprint(_search.__file__),
            points=_fingerprint(_points.__file__),
            prices=fastpath.prices_available(),
        ),
    )


@v1.get("/version", response_model=VersionResponse, summary="Versions")
def version() -> VersionResponse:
    """The package's version, OR-Tools', the Python's, and the compiled engine's build
    (fingerprints of its modules, and whether it has HiGHS's prices)."""
    return version_info()


@router.get(
    "/metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE.split(";")[0]: {"schema": {"type": "string"}}}}},
    summary="Prometheus metrics",
)
def metrics(request: Request) -> Response:
    """Requests by route and status, their latency, solving jobs' time split, and per lane
    the workers, running and waiting jobs, shed requests and restarted workers, in the
    Prometheus text format."""
    observer = cast(Observer, request.app.state.observer)
    return Response(observer.exposition(), media_type=CONTENT_TYPE)


router.include_router(v1)  # after its routes: a router is copied when included
