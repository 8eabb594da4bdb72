"""Error messages that name the real problem (issue 19, item 5), the OpenAPI document's
statements about the position fields and the puzzle seed, and load shedding of
``/v1/check`` (item 4)."""

from __future__ import annotations

import gzip
import json
import threading
from collections.abc import Iterator
from typing import Any

import jsonschema_rs
import pytest
from fastapi.testclient import TestClient
from service_kit import error_of, wait_for

from service import create_app
from service.pool import SolvePool
from service.schemas import MAX_SEED
from service.settings import Settings

WORKED = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
JSON = {"content-type": "application/json"}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(executor="thread", workers=1, max_time_limit=10))) as client:
        yield client


# --- bodies --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("headers", "named"),
    [
        ({"content-type": "text/plain"}, "content-type 'text/plain'"),
        ({"content-type": "application/x-www-form-urlencoded"}, "'application/x-www-form-urlencoded'"),
        ({}, "no content-type"),
    ],
)
def test_a_body_not_sent_as_json_names_the_content_type(
    client: TestClient, headers: dict[str, str], named: str
) -> None:
    for path in ("/v1/hint", "/v1/check", "/v1/puzzles"):
        answer = client.post(path, content=json.dumps({"position": WORKED}).encode(), headers=headers)
        error = error_of(answer, 415)
        assert error["type"] == "unsupported_media_type" and error["field"] == "body"
        assert named in error["message"] and "application/json" in error["message"]
        assert "dictionary" not in error["message"]


def test_a_body_that_is_not_utf8_says_so(client: TestClient) -> None:
    body = b'{"position": "/ 2c \xff"}'
    error = error_of(client.post("/v1/hint", content=body, headers=JSON), 400)
    assert error["type"] == "unreadable_body"
    assert "not valid UTF-8" in error["message"] and "0xff" in error["message"]
    assert "nested" not in error["message"]


def test_a_number_too_long_to_read_is_named_as_such(client: TestClient) -> None:
    body = b'{"position": "/ Ac", "alternatives": ' + b"9" * 5000 + b"}"
    error = error_of(client.post("/v1/hint", content=body, headers=JSON), 400)
    assert error["type"] == "unreadable_body"
    assert "more than 4300 digits" in error["message"]
    assert "sys." not in error["message"] and "not valid JSON" not in error["message"]


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16", "utf-32-be", "utf-32"])
def test_a_json_body_in_utf16_or_utf32_is_refused_not_guessed(client: TestClient, encoding: str) -> None:
    """The JSON parser guesses UTF-16 and UTF-32 from their NUL bytes and read such a body
    as if it were right; JSON over the wire must be UTF-8."""
    body = json.dumps({"position": WORKED}).encode(encoding)
    error = error_of(client.post("/v1/hint", content=body, headers=JSON), 400)
    assert error["type"] == "unreadable_body" and error["field"] == "body"
    assert "JSON must be UTF-8" in error["message"]


def test_a_utf8_body_with_escaped_nul_characters_is_still_read(client: TestClient) -> None:
    body = json.dumps({"position": WORKED + "\u0000"}).encode()
    assert b"\x00" not in body
    error = error_of(client.post("/v1/hint", content=body, headers=JSON), 422)
    assert error["type"] != "unreadable_body"


@pytest.mark.parametrize("path", ["/v1/hint/", "/play/", "/healthz/"])
def test_a_path_with_a_stray_slash_is_not_found_not_redirected(client: TestClient, path: str) -> None:
    """Starlette answered 307 to the path without the slash, at an address it built from
    the client's Host header."""
    answer = client.request(
        "POST" if path.startswith("/v1") else "GET",
        path,
        content=json.dumps({"position": WORKED}).encode(),
        headers={**JSON, "host": "evil.example"},
        follow_redirects=False,
    )
    assert error_of(answer, answer.status_code)["type"] in {"not_found", "method_not_allowed"}
    assert answer.status_code in {404, 405} and "location" not in answer.headers


@pytest.mark.parametrize("declared", [True, False])
def test_a_gzip_body_says_compression_is_not_supported(client: TestClient, declared: bool) -> None:
    headers = {**JSON, "content-encoding": "gzip"} if declared else JSON
    body = gzip.compress(json.dumps({"position": WORKED}).encode())
    error = error_of(client.post("/v1/hint", content=body, headers=headers), 415)
    assert "gzip" in error["message"] and "not supported" in error["message"]
    assert "nested" not in error["message"]


@pytest.mark.parametrize("encoding", ["br", "gzip", "deflate"])
def test_a_body_declared_compressed_is_refused_even_when_plain(client: TestClient, encoding: str) -> None:
    """The header says compressed, the bytes are plain JSON: 415 as the README says (it was
    read as it came and answered 200)."""
    headers = {**JSON, "content-encoding": encoding}
    answer = client.post("/v1/hint", content=json.dumps({"position": WORKED}).encode(), headers=headers)
    error = error_of(answer, 415)
    assert f"content-encoding {encoding!r} is not supported" in error["message"]
    assert (
        client.post(
            "/v1/hint",
            content=json.dumps({"position": WORKED}).encode(),
            headers={**JSON, "content-encoding": "identity"},
        ).status_code
        == 200
    )


def test_a_deeply_nested_body_says_so(client: TestClient) -> None:
    body = b"[" * 20_000 + b"]" * 20_000
    error = error_of(client.post("/v1/hint", content=body, headers=JSON), 400)
    assert error["message"] == "the JSON body is nested too deeply for this server to read"


@pytest.mark.parametrize("headers", [JSON, {}])
def test_an_empty_body_says_it_is_empty(client: TestClient, headers: dict[str, str]) -> None:
    for path in ("/v1/hint", "/v1/analyze", "/v1/puzzles"):
        error = error_of(client.post(path, content=b"", headers=headers), 422)
        assert error["type"] == "empty_body" and error["field"] == "body"
        assert error["message"].startswith("the request body is empty")


@pytest.mark.parametrize(
    ("body", "kind"), [(b"[1, 2]", "an array"), (b'"/ 2c"', "a string"), (b"7", "a number")]
)
def test_json_that_is_not_an_object_names_what_it_is(client: TestClient, body: bytes, kind: str) -> None:
    error = error_of(client.post("/v1/hint", content=body, headers=JSON), 422)
    assert error["message"].endswith(f"not {kind}") and error["field"] == "body"


# --- numbers and characters ----------------------------------------------------------------


def test_a_time_limit_just_over_the_cap_is_shown_as_sent(client: TestClient) -> None:
    error = error_of(client.post("/v1/hint", json={"position": "/ 2c", "time_limit": 10.000001}), 422)
    assert error["message"] == "time_limit 10.000001 s exceeds this server's cap of 10 s"
    assert client.post("/v1/hint", json={"position": "/ 2c", "time_limit": 10}).status_code == 200


@pytest.mark.parametrize(
    ("field", "body", "char"),
    [
        ("position", {"position": "/ Kh\u200b"}, "U+200B (ZERO WIDTH SPACE) at character 5"),
        ("position", {"position": "Kh Kd\ufeff Kc / 2c"}, "U+FEFF (ZERO WIDTH NO-BREAK SPACE)"),
        ("table", {"table": "Kh Kd Kc\u200d", "hand": "2c"}, "U+200D (ZERO WIDTH JOINER)"),
        ("hand", {"table": "Kh Kd Kc", "hand": "2c\x07"}, "U+0007"),
        ("position", {"position": "/ Ac\ufe0f"}, "U+FE0F (VARIATION SELECTOR-16) at character 5"),
        ("position", {"position": "/ A\u034fc"}, "U+034F (COMBINING GRAPHEME JOINER)"),
        ("position", {"position": "/ Ac \u3164"}, "U+3164 (HANGUL FILLER)"),
    ],
)
def test_an_invisible_character_is_named_not_the_card_it_sticks_to(
    client: TestClient, field: str, body: dict[str, str], char: str
) -> None:
    error = error_of(client.post("/v1/hint", json=body), 422)
    assert error["type"] == "notation" and error["field"] == field
    assert "invisible character" in error["message"] and char in error["message"]
    assert "unknown rank" not in error["message"]


def test_invisible_characters_in_after_and_unseen_are_named(client: TestClient) -> None:
    after = client.post("/v1/check", json={"position": WORKED, "after": "Kh Kd Kc\u200b"})
    assert error_of(after, 422)["field"] == "after"
    unseen = client.post("/v1/analyze", json={"position": "/ 2c", "unseen": "3c\u200b"})
    assert "U+200B" in error_of(unseen, 422)["message"]


def test_ordinary_whitespace_is_still_fine(client: TestClient) -> None:
    answer = client.post("/v1/hint", json={"position": "Kh\u00a0Kd Kc\t| Qh Qd Qc | Jh Jd Jc /  Ac"})
    assert answer.status_code == 200 and answer.json()["goes_out"] is True


# --- the OpenAPI document ------------------------------------------------------------------


@pytest.fixture(scope="module")
def spec(client: TestClient) -> dict[str, Any]:
    document: dict[str, Any] = client.get("/openapi.json").json()
    return document


@pytest.mark.parametrize("model", ["HintRequest", "CheckRequest", "AnalyzeRequest"])
def test_the_schema_says_position_excludes_table_and_hand(spec: dict[str, Any], model: str) -> None:
    schema = spec["components"]["schemas"][model]
    assert (
        "never 'position' together with 'table' or 'hand'" in schema["properties"]["position"]["description"]
    )
    extra = {"after": "Kh Kd Kc"} if model == "CheckRequest" else {}
    valid: list[dict[str, str | None]] = [
        {"position": WORKED},
        {"table": "Kh Kd Kc"},
        {"hand": "Ac"},
        {"table": "", "hand": "Ac"},
    ]
    valid.append({"position": None, "hand": "Ac"})
    invalid: list[dict[str, str | None]] = [
        {},
        {"position": WORKED, "table": "Kh Kd Kc"},
        {"position": WORKED, "hand": "Ac"},
    ]
    invalid.append({"position": None})
    shape = {key: value for key, value in schema.items() if key in ("oneOf", "anyOf", "allOf", "not")}
    for body in valid:
        assert jsonschema_rs.is_valid(shape, {**body, **extra}), body
    for body in invalid:
        assert not jsonschema_rs.is_valid(shape, {**body, **extra}), body


def test_the_server_agrees_with_the_schema_on_position_table_and_hand(client: TestClient) -> None:
    both = client.post("/v1/hint", json={"position": WORKED, "hand": "Ac"})
    assert error_of(both, 422)["field"] == "position"
    assert error_of(client.post("/v1/hint", json={"position": None}), 422)["field"] == "position"
    assert client.post("/v1/hint", json={"position": None, "hand": "7h 8h 9h"}).status_code == 200


def test_the_puzzle_seed_bound_is_an_integer(spec: dict[str, Any], client: TestClient) -> None:
    seed = spec["components"]["schemas"]["PuzzleRequest"]["properties"]["seed"]["anyOf"][0]
    assert seed["type"] == "integer"
    assert seed["maximum"] == MAX_SEED and isinstance(seed["maximum"], int)
    assert isinstance(seed["minimum"], int)
    assert '"maximum":9007199254740991' in client.get("/openapi.json").text.replace(" ", "")
    too_big = client.post("/v1/puzzles", json={"seed": MAX_SEED + 1, "difficulty": "easy"})
    assert error_of(too_big, 422)["field"] == "seed"


def test_every_integer_bound_in_the_schema_is_an_integer(spec: dict[str, Any]) -> None:
    def walk(node: Any) -> Iterator[dict[str, Any]]:
        if isinstance(node, dict):
            yield node
            for value in node.values():
                yield from walk(value)
        elif isinstance(node, list):
            for value in node:
                yield from walk(value)

    bounds = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
    integers = [node for node in walk(spec) if node.get("type") == "integer"]
    assert integers
    for node in integers:
        for key in bounds:
            assert not isinstance(node.get(key, 0), float), node


# --- /v1/check behind admission control (item 4) -------------------------------------------


def test_check_is_load_shed_like_the_other_cpu_heavy_endpoints() -> None:
    app = create_app(Settings(executor="thread", workers=1, queue=0, retry_after=4))
    pool: SolvePool = app.state.pool
    release = threading.Event()
    with TestClient(app) as client:
        blocker = threading.Thread(target=pool.run, args=(30.0, release.wait, 30.0))
        blocker.start()
        try:
            wait_for(lambda: pool.stats()["running"] == 1)
            answer = client.post("/v1/check", json={"position": WORKED, "after": "Kh Kd Kc"})
            assert error_of(answer, 503)["type"] == "busy" and answer.headers["retry-after"] == "4"
        finally:
            release.set()
            blocker.join()
        wait_for(lambda: pool.stats()["running"] == 0)
        answer = client.post(
            "/v1/check", json={"position": WORKED, "after": "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"}
        )
        assert answer.status_code == 200 and answer.json()["ok"] is True


def test_check_runs_on_the_pool_not_in_the_server(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every check passes the pool's admission: with the pool's job counted, not a thread's."""
    app = create_app(Settings(executor="thread", workers=1, queue=0))
    pool: SolvePool = app.state.pool
    seen: list[str] = []
    original = pool.run_async

    async def counting(timeout: float, function: Any, *args: Any, **kwargs: Any) -> Any:
        seen.append(function.__name__)
        return await original(timeout, function, *args, **kwargs)

    monkeypatch.setattr(pool, "run_async", counting)
    with TestClient(app) as client:
        answer = client.post("/v1/check", json={"position": WORKED, "after": "Kh Kd Kc"})
        assert answer.status_code == 200 and answer.json()["ok"] is False
    assert seen == ["check_job"]


def test_a_suit_symbol_written_as_a_phone_writes_it_is_read(client: TestClient) -> None:
    """Phone keyboards follow a suit symbol with U+FE0F (emoji presentation): ``K♥️`` is K♥."""
    plain = client.post("/v1/hint", json={"position": "K♥ K♦ K♣ / A♣"}).json()
    phone = client.post("/v1/hint", json={"position": "K♥\ufe0f K♦\ufe0e K♣ / A♣\ufe0f"})
    assert phone.status_code == 200, phone.text
    assert {**phone.json(), "stats": None} == {**plain, "stats": None}


def test_the_openapi_bounds_are_this_servers_caps() -> None:
    """The document said time_limit <= 3600 where the server refuses anything above its cap
    (10 by default): a generated client would send what the server refuses."""
    settings = Settings(executor="thread", workers=1, max_time_limit=7.0, max_advise_seconds=4.0)
    with TestClient(create_app(settings)) as client:
        schemas = client.get("/openapi.json").json()["components"]["schemas"]

        def maximum(model: str, field: str) -> float:
            members = schemas[model]["properties"][field]["anyOf"]
            return next(float(member["maximum"]) for member in members if member.get("type") == "number")

        assert maximum("HintRequest", "time_limit") == 7.0 == maximum("AnalyzeRequest", "time_limit")
        assert maximum("AdviseRequest", "budget_seconds") == 4.0
        sizes = schemas["AdviseRequest"]["properties"]["hand_sizes"]["anyOf"][0]
        assert sizes["items"]["minimum"] == 0
        assert client.post("/v1/hint", json={"position": "/ 2c", "time_limit": 7.0}).status_code == 200
        refused = client.post("/v1/hint", json={"position": "/ 2c", "time_limit": 7.5})
        assert error_of(refused, 422)["field"] == "time_limit"


@pytest.mark.parametrize("path", ["/", "/play", "/docs", "/v1/variants", "/healthz", "/openapi.json"])
def test_head_is_answered_as_get_without_the_body(client: TestClient, path: str) -> None:
    """FastAPI's routes answered HEAD with 405 where GET gave the page."""
    got, head = client.get(path), client.head(path)
    assert head.status_code == got.status_code == 200
    assert head.content == b"" and head.headers["content-length"] == got.headers["content-length"]
    assert head.headers["content-type"] == got.headers["content-type"]


def test_head_on_a_post_only_path_is_the_405_get_gets(client: TestClient) -> None:
    answer = client.head("/v1/hint")
    assert answer.status_code == 405 and answer.content == b""
