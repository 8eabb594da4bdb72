"""The API docs pages work offline: every script, style and icon they load is served by the app."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from service import create_app
from service.settings import Settings

ASSET = re.compile(r"""<(?:script|link)\b[^>]*?\b(?:src|href)=["']([^"']+)["']""", re.IGNORECASE)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(executor="thread", workers=1))) as test_client:
        yield test_client


@pytest.mark.parametrize(
    ("page", "wanted"),
    [
        ("/docs", {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}),
        ("/redoc", {"redoc.standalone.js", "favicon.png"}),
    ],
)
def test_docs_page_loads_only_local_assets(client: TestClient, page: str, wanted: set[str]) -> None:
    answer = client.get(page)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert "http://" not in answer.text and "https://" not in answer.text
    assets = ASSET.findall(answer.text)
    assert {url.rsplit("/", 1)[-1] for url in assets} == wanted
    for url in assets:
        assert url.startswith("/docs-assets/"), url
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert len(asset.content) > 0


def test_docs_assets_have_the_right_types(client: TestClient) -> None:
    js = client.get("/docs-assets/swagger-ui-bundle.js")
    assert "javascript" in js.headers["content-type"] and b"SwaggerUIBundle" in js.content
    css = client.get("/docs-assets/swagger-ui.css")
    assert css.headers["content-type"].startswith("text/css")
    assert client.get("/docs-assets/redoc.standalone.js").status_code == 200


def test_docs_page_points_at_the_spec_and_oauth2_redirect(client: TestClient) -> None:
    docs = client.get("/docs").text
    assert "'/openapi.json'" in docs and "/docs/oauth2-redirect" in docs
    redirect = client.get("/docs/oauth2-redirect")
    assert redirect.status_code == 200 and "oauth2" in redirect.text.lower()
    assert client.get("/openapi.json").json()["openapi"].startswith("3.")
    assert "/docs" not in client.get("/openapi.json").json()["paths"]
