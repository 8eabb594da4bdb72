"""The response models are the API's contract (issue 35): every object the service sends
declares all its fields, with their types, and allows no other; the models hold every
field the library's JSON forms really carry; the Literals the service writes down for
itself are the library's.  The jobs build the models on the worker and return the
answer encoded; the server sends those bytes as they are."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient
from pydantic import BaseModel, ValidationError

from service import create_app, jobs
from service.pool import SolvePool
from service.schemas import (
    AdviceFact,
    AdviceOption,
    AdviseResponse,
    AnalyzeResponse,
    CheckResponse,
    HintPayload,
    HintResponse,
    PuzzleAnswer,
    PuzzleItem,
    VariantInfo,
)
from service.settings import Settings
from solver.analysis import analyze
from solver.engine import alternatives, hint
from solver.position import Position, Table
from solver.referee import check_play
from solver.report import hint_payload
from solver.strategy.advice import advise
from solver.strategy.evaluator import EVALUATOR
from solver.variants import VARIANT_NAMES, Variant

SPEC: dict[str, Any] = create_app(Settings(executor="thread", workers=1)).openapi()
COMPONENTS: dict[str, Any] = SPEC["components"]["schemas"]


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            yield ref.rsplit("/", 1)[-1]
        for value in node.values():
            yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _response_components() -> set[str]:
    """Every component a response of any operation refers to, directly or inside another."""
    seen: set[str] = set()
    todo = [
        name
        for methods in SPEC["paths"].values()
        for operation in methods.values()
        for name in _refs(operation["responses"])
    ]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(_refs(COMPONENTS[name]))
    return seen


RESPONSE_COMPONENTS = sorted(_response_components())


def test_the_walk_finds_the_nested_response_objects() -> None:
    for name in ("HintResponse", "HintPayload", "MeldMove", "Transfer", "PuzzleDecoy", "ErrorDetail"):
        assert name in RESPONSE_COMPONENTS
    assert "HintRequest" not in RESPONSE_COMPONENTS


@pytest.mark.parametrize("name", RESPONSE_COMPONENTS)
def test_every_response_object_allows_no_undeclared_field(name: str) -> None:
    schema = COMPONENTS[name]
    assert schema["type"] == "object" and schema["properties"]
    assert schema["additionalProperties"] is False


TYPED = {"type", "$ref", "anyOf", "oneOf", "const", "enum"}


def _typed(schema: dict[str, Any]) -> bool:
    """Whether a JSON Schema node states a type (``{}``, which ``Any`` gives, does not)."""
    if not TYPED & set(schema):
        return False
    parts = [*schema.get("anyOf", []), *schema.get("oneOf", [])]
    if schema.get("type") == "array":
        parts.append(schema["items"])
    if schema.get("type") == "object" and isinstance(schema.get("additionalProperties"), dict):
        parts.append(schema["additionalProperties"])
    return all(_typed(part) for part in parts)


@pytest.mark.parametrize("name", RESPONSE_COMPONENTS)
def test_every_response_field_has_a_type(name: str) -> None:
    for field, schema in COMPONENTS[name]["properties"].items():
        assert _typed(schema), (name, field, schema)


def test_the_typed_check_sees_an_untyped_field() -> None:
    assert not _typed({"title": "Anything"})
    assert not _typed({"type": "array", "items": {}})
    assert not _typed({"type": "object", "additionalProperties": {"description": "any"}})
    assert _typed({"anyOf": [{"type": "integer"}, {"type": "string", "const": "hand"}]})


def test_every_always_sent_field_is_required() -> None:
    """Only ``alternatives`` may be absent from an answer; every other field is always there
    (null where it says so)."""
    for name in RESPONSE_COMPONENTS:
        schema = COMPONENTS[name]
        optional = set(schema["properties"]) - set(schema.get("required", []))
        assert optional == ({"alternatives"} if name == "HintResponse" else set()), name


# --- the Literals the service states itself ---------------------------------------------


def test_the_puzzle_answers_are_the_checks_answers() -> None:
    from solver.puzzles.sat import Answer  # loads OR-Tools, which service.schemas must not

    assert get_args(PuzzleAnswer) == get_args(Answer)


def test_the_advice_fact_names_are_the_advices() -> None:
    facts = replace(advise("5s 6s 7s / 8s 9s 2c", samples=2, seed=1).facts, given=())  # nothing given
    assert tuple(facts.to_dict()["assumed"]) == get_args(AdviceFact)


def test_the_continuations_are_the_evaluators() -> None:
    names = {EVALUATOR.continuation_name(index) for index in range(len(EVALUATOR.continuations))}
    assert names == set(get_args(AdviceOption.model_fields["continuation"].annotation))


# --- the models hold what the library sends ---------------------------------------------

POSITIONS = [
    "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac",  # meld steps
    "7h 8h *9h / 9h Jh",  # a freed joker
    "*5h 6h 7h | 9s 9d 9c / 5h 9h Kc Kd Ks 4h",  # a joker among meld steps
    "5h 6h 7h | 9s 9d 9c | 2c 3c 4c / 8h 9h",  # a kept meld
    "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s",  # no play
]


def _actions(payload: dict[str, Any]) -> set[str]:
    return {move["action"] for move in payload["moves"]}


def test_the_hint_models_hold_the_librarys_hint_json() -> None:
    actions: set[str] = set()
    for text in POSITIONS:
        entered = Position.parse(text, keep_order=True)
        payload = hint_payload(hint(entered.canonical()), before=entered)
        actions |= _actions(payload)
        assert HintPayload.model_validate(payload).model_dump(mode="json") == payload
        ranked = alternatives(entered.canonical(), count=3)
        others = [hint_payload(other, before=entered) for other in ranked[1:]]
        answer: dict[str, Any] = {**payload, "alternatives": others}
        actions |= {action for other in others for action in _actions(other)}
        assert HintResponse.model_validate(answer).model_dump(mode="json") == answer
    assert actions == {"keep", "joker", "meld"}  # every kind of step was checked


def test_the_other_answers_hold_the_librarys_json() -> None:
    found = analyze(Position.parse("Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac 2c"))
    data = found.to_dict()
    assert AnalyzeResponse.model_validate(data).model_dump(mode="json") == data
    advice = advise("5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d *", players=2, samples=3, seed=2)
    data = advice.to_dict()
    assert AdviseResponse.model_validate(data).model_dump(mode="json") == data
    before, after = Position.parse("7h 8h *9h / 9h 5c 5d"), Table.parse("7h 8h 9h | 5c 5d *5s")
    data = {"position": str(before), "after": str(after), **check_play(before, after).to_dict()}
    assert CheckResponse.model_validate(data).model_dump(mode="json") == data
    for name in VARIANT_NAMES:
        data = Variant.named(name).describe()
        assert VariantInfo.model_validate(data).model_dump(mode="json") == data


def test_the_puzzle_model_holds_the_librarys_puzzle_json() -> None:
    from solver.puzzles import generate_puzzles

    for puzzle in generate_puzzles(2, "hard", rng=random.Random(7)):
        data = {"number": 1, **puzzle.to_dict()}
        assert PuzzleItem.model_validate(data).model_dump(mode="json") == data


@pytest.mark.parametrize(
    ("model", "data"),
    [
        (CheckResponse, {"position": "/ 2c", "after": "", "ok": True, "reasons": [], "extra": 1}),
        (CheckResponse, {"position": "/ 2c", "after": "", "ok": True}),
        (CheckResponse, {"position": "/ 2c", "after": "", "ok": 1, "reasons": []}),
        (VariantInfo, {**Variant.manipulation().describe(), "name": "gin"}),
    ],
)
def test_a_body_off_the_contract_is_refused(model: type[BaseModel], data: dict[str, Any]) -> None:
    """An undeclared field, a missing one, a value of another type, a name not in the Literal."""
    with pytest.raises(ValidationError):
        model.model_validate(data)


# --- built on the worker, sent as encoded --------------------------------------------------

WORKED = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"
HINT: dict[str, Any] = {"objective": "points", "keep_jokers": False, "opened": True, "time_limit": 2.0}
CHECK = {"position": "7h 8h 9h / 10h", "after": "7h 8h 9h 10h"}


def test_a_job_returns_the_answer_as_json_bytes() -> None:
    answer = jobs.hint_job(WORKED, Variant.manipulation(), **HINT)
    assert isinstance(answer, bytes)
    entered = Position.parse(WORKED, keep_order=True)
    expected = hint_payload(hint(entered.canonical()), before=entered)
    data = json.loads(answer)
    assert "alternatives" not in data  # absent unless asked for
    for payload in (data, expected):
        payload.pop("stats")
    assert data == expected
    asked = json.loads(jobs.hint_job(WORKED, Variant.manipulation(), **HINT, others=2))
    assert isinstance(asked["alternatives"], list)


def test_the_bytes_cross_from_a_worker_process() -> None:
    pool = SolvePool(workers=1, queue=1, kind="process", retry_after=1, warm=False, spares=0)
    try:
        before, after = CHECK["position"], CHECK["after"]
        answer = pool.run(60.0, jobs.check_job, before, after, Variant.manipulation(), opened=True)
    finally:
        pool.close()
    assert isinstance(answer, bytes)
    assert json.loads(answer) == {**CHECK, "ok": True, "reasons": []}


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A client that gets the server's 500 answers instead of its exceptions."""
    app = create_app(Settings(executor="thread", workers=1))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_the_server_sends_the_jobs_bytes_untouched(
    monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    """No decoding, validation or encoding in the server process: what the job encoded is the body."""
    encoded = b'{"position": "7h 8h 9h / 10h",  "after": "7h 8h 9h 10h", "ok": true, "reasons": []}'
    monkeypatch.setattr(jobs, "check_job", lambda *_, **__: encoded)
    answer = client.post("/v1/check", json=CHECK)
    assert answer.status_code == 200 and answer.content == encoded
    assert answer.headers["content-type"] == "application/json"
    assert answer.headers["content-length"] == str(len(encoded))


def test_an_answer_off_the_contract_is_a_server_error(
    monkeypatch: pytest.MonkeyPatch, client: TestClient
) -> None:
    """A library answer with a field the contract does not declare fails where it is built:
    a 500 in the one error shape, never an undocumented body."""

    class Verdict:
        def to_dict(self) -> dict[str, object]:
            return {"ok": True, "reasons": [], "confidence": 1.0}

    monkeypatch.setattr(jobs, "check_play", lambda *_, **__: Verdict())
    answer = client.post("/v1/check", json=CHECK)
    assert answer.status_code == 500 and answer.json()["error"]["type"] == "internal"
