"""No input makes the service fail or hang.

Two fuzzers.  Schemathesis reads the app's own OpenAPI document and sends, to every
operation, bodies that fit the schemas and bodies that break them; every answer must be
documented (status, content type, body schema), no answer may be a 5xx, and a body that
breaks the schema must be refused.  Schema-valid random strings almost never spell a
position, though, so a second fuzzer speaks the notation: near-valid card strings,
real positions written in every accepted spelling, and options in and out of range.
Every answer is 200 or a 422 in the one error shape, within a bounded time, and every
play the service returns is legal by the referee.

The response check is strict: the response models forbid undeclared fields, so the
schemas say ``additionalProperties: false`` down to the last nested object, and an answer
with a field the contract does not declare, without one it declares, or with a value of
another type fails the check (shown below with answers made wrong on purpose), while
every documented example's real answer passes it.

The default run keeps each fuzzer to a few dozen examples per operation; ``pytest -m
slow tests/test_service_fuzz.py`` runs the long versions.
"""

from __future__ import annotations

import json
import math
import random
import tempfile
import time
from collections.abc import Callable
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.config import SchemathesisConfig
from schemathesis.core.failures import FailureGroup
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)
from strategies import positions, scrambled_text

from service import create_app, jobs
from service.settings import Settings
from solver.position import Position, Table
from solver.referee import check_play
from solver.variants import Variant

SETTINGS = Settings(
    executor="thread", workers=2, queue=64, max_time_limit=1.0, default_time_limit=0.5, max_analyze_seconds=30
)
GAMES = tempfile.TemporaryDirectory(prefix="rummy-fuzz-games-")  # removed when the tests end
APP = create_app(SETTINGS.model_copy(update={"db": f"{GAMES.name}/games.sqlite3"}))
# A body that breaks the schema must get one of the documented refusals: 400 (not JSON
# at all), 413 (too big for the server's body limit), 415 (not sent as JSON) or 422.
schemathesis.serializer.alias("application/x-ndjson", "text/plain")  # the game logs import sends
REFUSALS = {"checks": {"negative_data_rejection": {"expected-statuses": ["400", "413", "415", "422"]}}}
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP, config=SchemathesisConfig.from_dict(REFUSALS))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]
FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck), database=None)
SECONDS_PER_REQUEST = 20.0
"""Far above any answer's bound (time limits are capped at 1 s here), far below a hang;
every request of this file waits this long (schemathesis's own default, 10 s, was
reached by an advice and a puzzle request on a machine busy with other work)."""


@SCHEMA.parametrize()
@settings(FUZZ, max_examples=40)
def test_openapi_fuzz_gets_documented_answers_and_no_server_error(case: Any) -> None:
    case.call_and_validate(checks=CHECKS, timeout=SECONDS_PER_REQUEST)


@pytest.mark.slow
@SCHEMA.parametrize()
@settings(FUZZ, max_examples=1000)
def test_openapi_fuzz_long(case: Any) -> None:
    case.call_and_validate(checks=CHECKS, timeout=SECONDS_PER_REQUEST)


# --- the response check is strict --------------------------------------------------------

ANSWERS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]
"""The checks of an answer to a valid request."""
EXAMPLES_APP = create_app(Settings(executor="thread", workers=2, max_time_limit=5.0, default_time_limit=2.0))
EXAMPLES_SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", EXAMPLES_APP)


def _examples() -> list[tuple[str, str, dict[str, Any]]]:
    found = []
    for path, methods in EXAMPLES_APP.openapi()["paths"].items():
        content = methods.get("post", {}).get("requestBody", {}).get("content", {})
        for name, example in content.get("application/json", {}).get("examples", {}).items():
            found.append((path, name, example["value"]))
    return found


EXAMPLES = _examples()


def test_every_solving_endpoint_has_examples() -> None:
    paths = {path for path, _, _ in EXAMPLES}
    assert paths == {"/v1/hint", "/v1/analyze", "/v1/advise", "/v1/check", "/v1/puzzles"}


@pytest.mark.parametrize(("path", "name", "body"), EXAMPLES, ids=[f"{p} {n}" for p, n, _ in EXAMPLES])
def test_every_examples_answer_conforms_to_the_schema(path: str, name: str, body: dict[str, Any]) -> None:
    """Real 200 answers of every solving endpoint (random bodies seldom spell a position)."""
    case = EXAMPLES_SCHEMA[path]["POST"].Case(body=body, media_type="application/json")
    assert case.call_and_validate(checks=ANSWERS, timeout=SECONDS_PER_REQUEST).status_code == 200


@pytest.mark.parametrize("path", ["/v1/variants", "/healthz"])
def test_the_service_answers_conform_to_the_schema(path: str) -> None:
    assert (
        EXAMPLES_SCHEMA[path]["GET"]
        .Case()
        .call_and_validate(checks=ANSWERS, timeout=SECONDS_PER_REQUEST)
        .status_code
        == 200
    )


CHECK: dict[str, Any] = {"position": "7h 8h 9h / 10h", "after": "7h 8h 9h 10h"}


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        ({**CHECK, "ok": True, "reasons": [], "surprise": 1}, "'surprise' was unexpected"),
        ({**CHECK, "ok": True}, '"reasons" is a required property'),
        ({**CHECK, "ok": "yes", "reasons": []}, '"yes" is not of type "boolean"'),
    ],
    ids=["undeclared field", "missing field", "wrong type"],
)
def test_the_check_refuses_an_answer_off_the_schema(
    monkeypatch: pytest.MonkeyPatch, answer: dict[str, Any], problem: str
) -> None:
    """A route whose job sends what the contract does not say (made so on purpose) fails."""
    monkeypatch.setattr(jobs, "check_job", lambda *_, **__: json.dumps(answer).encode())
    case = EXAMPLES_SCHEMA["/v1/check"]["POST"].Case(body=CHECK, media_type="application/json")
    with pytest.raises(FailureGroup, match="Response violates schema") as failure:
        case.call_and_validate(checks=[response_schema_conformance], timeout=SECONDS_PER_REQUEST)
    assert problem in str(failure.value)


def _stats_field(answer: dict[str, Any]) -> None:
    answer["stats"]["gpu"] = False


def _step_field(answer: dict[str, Any]) -> None:
    answer["moves"][0]["hint"] = "start here"


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        (_stats_field, "'gpu' was unexpected"),  # in a nested object
        (_step_field, "is not valid under any of the schemas listed in the 'oneOf'"),  # in a union's member
    ],
)
def test_the_check_refuses_an_undeclared_field_deep_in_an_answer(
    monkeypatch: pytest.MonkeyPatch, change: Callable[[dict[str, Any]], None], problem: str
) -> None:
    body: dict[str, Any] = {"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"}
    case = EXAMPLES_SCHEMA["/v1/hint"]["POST"].Case(body=body, media_type="application/json")
    assert (
        case.call_and_validate(checks=[response_schema_conformance], timeout=SECONDS_PER_REQUEST).status_code
        == 200
    )
    real = jobs.hint_job

    def changed(*args: Any, **kwargs: Any) -> bytes:
        answer = json.loads(real(*args, **kwargs))
        change(answer)
        return json.dumps(answer).encode()

    monkeypatch.setattr(jobs, "hint_job", changed)
    with pytest.raises(FailureGroup) as failure:
        case.call_and_validate(checks=[response_schema_conformance], timeout=SECONDS_PER_REQUEST)
    assert problem in str(failure.value)


# --- notation-aware fuzzing ------------------------------------------------------------

TOKENS = [
    *["7h", "8h", "9h", "10h", "Jh", "Qd", "Kc", "Ks", "Ac", "As", "2c", "3c", "4c", "5s"],
    *["*", "*7h", "*Kh", "*10c", "Th", "13c", "1s", "q♠", "k♥", "A♦"],
    *["|", "|", "/", "/", "", "  ", "Xx", "7", "h", "**", "*X", "10", "11h", "0h", "14s", "♥", "7h8h", "*/"],
]
notation = st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), max_size=40).map(" ".join)


@st.composite
def real_position_text(draw: st.DrawFn) -> str:
    """A valid Manipulation position, written in random order and spellings, sometimes
    with one token dropped or doubled (which may or may not keep it valid)."""
    text = scrambled_text(draw(positions()), random.Random(draw(st.integers(0, 2**32))), respell=True)
    tokens = text.split(" ")
    edit = draw(st.sampled_from(["none", "none", "drop", "double"]))
    if edit != "none" and tokens:
        at = draw(st.integers(0, len(tokens) - 1))
        tokens[at:at] = [tokens[at]] if edit == "double" else []
        if edit == "drop":
            del tokens[at]
    return " ".join(tokens)


position_text = st.one_of(real_position_text(), real_position_text(), notation)
"""Mostly real positions (which reach the solver), a third near-valid notation."""


def mostly(valid: st.SearchStrategy[Any], invalid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Valid values three times in four, so that most requests get past the options."""
    return st.one_of(valid, valid, valid, invalid)


options: dict[str, st.SearchStrategy[Any]] = {
    "variant": mostly(
        st.sampled_from(["manipulation", "machiavelli", "rummikub"]),
        st.sampled_from(["Manipulation", "gin", ""]),
    ),
    "players": mostly(st.none() | st.integers(2, 4), st.integers(-2, 30)),
    "time_limit": mostly(
        st.none() | st.sampled_from([0.05, 0.5, 1.0]), st.floats(allow_nan=False, allow_infinity=False)
    ),
}


def _body(draw: st.DrawFn, extra: dict[str, st.SearchStrategy[Any]]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if draw(st.booleans()):
        body["position"] = draw(position_text)
    else:
        whole = draw(position_text)
        table, _, hand = whole.partition("/")
        body.update({"table": table, "hand": hand})
    for name, strategy in {**options, **extra}.items():
        if draw(st.integers(0, 3)) == 0:
            body[name] = draw(strategy)
    return body


@st.composite
def hint_bodies(draw: st.DrawFn) -> dict[str, Any]:
    extra = {
        "objective": mostly(st.sampled_from(["points", "cards"]), st.just("both")),
        "opened": st.booleans(),
        "keep_jokers": st.booleans(),
    }
    return _body(draw, extra)


@st.composite
def check_bodies(draw: st.DrawFn) -> dict[str, Any]:
    """A before-position, and an after-table that is mostly the old table plus some hand
    cards as a new meld (legal or not), else near-valid notation."""
    body = _body(draw, {"opened": st.booleans()})
    text = body["position"] if "position" in body else f"{body['table']}/{body['hand']}"
    table, _, hand = text.partition("/")
    played = draw(st.lists(st.sampled_from(hand.split() or ["*"]), min_size=1, max_size=5, unique=True))
    own = f"{table} | {' '.join(played)}" if table.strip() else " ".join(played)
    body["after"] = draw(st.one_of(st.just(own), st.just(own), notation))
    return body


@st.composite
def analyze_bodies(draw: st.DrawFn) -> dict[str, Any]:
    return _body(
        draw, {"unseen": notation, "play_count_cap": mostly(st.integers(1, 50), st.integers(-1, 300))}
    )


@pytest.fixture(scope="module")
def client() -> Any:
    with TestClient(APP) as test_client:
        yield test_client


def _post(client: TestClient, path: str, body: dict[str, Any]) -> dict[str, Any]:
    started = time.monotonic()
    answer = client.post(path, json=body)
    assert time.monotonic() - started < SECONDS_PER_REQUEST, (path, body)
    assert answer.status_code in (200, 422), (path, body, answer.text)
    payload: dict[str, Any] = answer.json()
    event(f"{path} {answer.status_code} {payload['error']['type'] if 'error' in payload else ''}")
    if answer.status_code == 422:
        error = payload["error"]
        assert set(error) == {"type", "message", "field", "problems"} and error["message"], payload
    return payload


def _variant(body: dict[str, Any]) -> Variant:
    return Variant.named(body.get("variant") or "manipulation", players=body.get("players"))


def _assert_legal(body: dict[str, Any], answer: dict[str, Any]) -> None:
    """A hint the service returns is a legal play by the referee (or no play at all)."""
    before = Position.parse(answer["position"])
    if answer["played"]:
        verdict = check_play(
            before, Table.parse(answer["table"]), variant=_variant(body), opened=body.get("opened", True)
        )
        assert verdict.ok, (body, answer, verdict.reasons)
    else:
        assert answer["table"] == str(before.table)


def _hint_case(client: TestClient, body: dict[str, Any]) -> None:
    answer = _post(client, "/v1/hint", body)
    if "error" not in answer:
        _assert_legal(body, answer)


def _check_case(client: TestClient, body: dict[str, Any]) -> None:
    answer = _post(client, "/v1/check", body)
    if "error" not in answer:
        assert isinstance(answer["ok"], bool) and (answer["ok"] or answer["reasons"])


def _analyze_case(client: TestClient, body: dict[str, Any]) -> None:
    answer = _post(client, "/v1/analyze", body)
    if "error" not in answer:
        _assert_legal(body, answer["best"])
        assert 0 <= answer["knock_probability"] <= 1 and math.isfinite(answer["draw_expected_points"])


@settings(FUZZ, max_examples=60)
@given(body=hint_bodies())
def test_notation_fuzz_hint(client: TestClient, body: dict[str, Any]) -> None:
    _hint_case(client, body)


@settings(FUZZ, max_examples=40)
@given(body=check_bodies())
def test_notation_fuzz_check(client: TestClient, body: dict[str, Any]) -> None:
    _check_case(client, body)


@settings(FUZZ, max_examples=15)
@given(body=analyze_bodies())
def test_notation_fuzz_analyze(client: TestClient, body: dict[str, Any]) -> None:
    _analyze_case(client, body)


@pytest.mark.slow
@settings(FUZZ, max_examples=1500)
@given(body=hint_bodies() | check_bodies() | analyze_bodies())
def test_notation_fuzz_long(client: TestClient, body: dict[str, Any]) -> None:
    if "after" in body:
        _check_case(client, body)
    elif "unseen" in body or "play_count_cap" in body:
        _analyze_case(client, body)
    else:
        _hint_case(client, body)
