"""The API docs pages, served offline: ``/docs`` (Swagger UI) and ``/redoc`` (ReDoc), and
an OpenAPI document whose integer bounds are integers.

FastAPI's own docs pages load Swagger UI and ReDoc from a CDN, so they are blank on a
machine without internet.  These pages load the same tools from ``/docs-assets``, which
serves the files that the ``fastapi-offline`` package ships (Swagger UI 5, which reads
the OpenAPI 3.1 document FastAPI writes, and ReDoc 2); no page refers to any other host.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import fastapi_offline
from fastapi import FastAPI, Request
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html, get_swagger_ui_oauth2_redirect_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

from service.settings import Settings

__all__ = ["ASSETS_DIR", "ASSETS_URL", "install_docs", "integer_bounds", "server_caps"]

ASSETS_DIR = Path(fastapi_offline.__file__).resolve().parent / "static"
"""``swagger-ui-bundle.js``, ``swagger-ui.css``, ``redoc.standalone.js`` and ``favicon.png``."""

ASSETS_URL = "/docs-assets"


def install_docs(app: FastAPI, docs_url: str = "/docs", redoc_url: str = "/redoc") -> None:
    """Serve the docs pages on ``app``, which must be built with ``docs_url=None, redoc_url=None``."""
    assert app.openapi_url is not None and app.swagger_ui_oauth2_redirect_url is not None
    openapi_url = app.openapi_url
    oauth2_redirect_url = app.swagger_ui_oauth2_redirect_url

    def root(request: Request) -> str:
        return str(request.scope.get("root_path", "")).rstrip("/")

    @app.get(docs_url, include_in_schema=False)
    def swagger_ui(request: Request) -> HTMLResponse:
        assets = root(request) + ASSETS_URL
        return get_swagger_ui_html(
            openapi_url=root(request) + openapi_url,
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=root(request) + oauth2_redirect_url,
            swagger_js_url=f"{assets}/swagger-ui-bundle.js",
            swagger_css_url=f"{assets}/swagger-ui.css",
            swagger_favicon_url=f"{assets}/favicon.png",
            init_oauth=app.swagger_ui_init_oauth,
            swagger_ui_parameters=app.swagger_ui_parameters,
        )

    @app.get(oauth2_redirect_url, include_in_schema=False)
    def swagger_ui_oauth2_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(redoc_url, include_in_schema=False)
    def redoc(request: Request) -> HTMLResponse:
        assets = root(request) + ASSETS_URL
        return get_redoc_html(
            openapi_url=root(request) + openapi_url,
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{assets}/redoc.standalone.js",
            redoc_favicon_url=f"{assets}/favicon.png",
            with_google_fonts=False,
        )

    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS_DIR), name="docs-assets")


_BOUNDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")


def _integral(node: Any) -> None:
    if isinstance(node, dict):
        if node.get("type") == "integer":
            for key in _BOUNDS:
                value = node.get(key)
                if isinstance(value, float) and value.is_integer():
                    node[key] = int(value)
        for value in node.values():
            _integral(value)
    elif isinstance(node, list):
        for value in node:
            _integral(value)


def integer_bounds(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI document state the bounds of integer fields as integers.

    FastAPI's OpenAPI models type every bound as a float, so ``ge=1`` on an ``int`` is
    written ``1.0`` and a large bound is rounded (2**63 - 1 became 9.223372036854776e18,
    which is 2**63); a client generator then reads a fractional or wrong limit."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            _integral(generate())
        assert app.openapi_schema is not None
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


_CAPPED = {
    ("HintRequest", "time_limit"): "max_time_limit",
    ("CheckRequest", "time_limit"): "max_time_limit",
    ("AnalyzeRequest", "time_limit"): "max_time_limit",
    ("AdviseRequest", "budget_seconds"): "max_advise_seconds",
}
"""Request fields whose bound is this server's setting (the models' own bound, 3600, is
the most any setting may allow)."""


def server_caps(app: FastAPI, settings: Settings) -> None:
    """Make ``app``'s OpenAPI document state this server's caps as the bounds they are:
    ``time_limit`` at most ``max_time_limit``, ``budget_seconds`` at most
    ``max_advise_seconds`` (a client generated from 3600 sent 20 and got a 422), and every
    hand size at least 0."""
    generate = app.openapi
    done = False

    def openapi() -> dict[str, Any]:
        nonlocal done
        document = generate()
        if not done:
            schemas = document.get("components", {}).get("schemas", {})
            for (model, field), setting in _CAPPED.items():
                for variant in _number_schemas(schemas.get(model, {}).get("properties", {}).get(field, {})):
                    variant["maximum"] = getattr(settings, setting)
            sizes = schemas.get("AdviseRequest", {}).get("properties", {}).get("hand_sizes", {})
            for variant in sizes.get("anyOf", [sizes]):
                if variant.get("type") == "array":
                    variant.setdefault("items", {})["minimum"] = 0
            done = True
        return document

    app.openapi = openapi  # type: ignore[method-assign]


def _number_schemas(node: dict[str, Any]) -> list[dict[str, Any]]:
    """The number schemas of a field (itself, or the members of its ``anyOf`` with null)."""
    members = node.get("anyOf", [node])
    return [member for member in members if member.get("type") in ("number", "integer")]
