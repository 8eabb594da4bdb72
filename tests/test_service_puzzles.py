"""POST /v1/puzzles through TestClient: verified puzzles in the CLI's JSON shape, the same
seed giving the same puzzles, limits and errors in the service's one error shape."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service import create_app
from service.schemas import MAX_PUZZLES
from service.settings import Settings
from solver.position import Position, Table
from solver.referee import check_play
from solver.variants import Variant


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(executor="thread", workers=1, max_time_limit=5.0, default_time_limit=2.0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def _error(answer: Any, status: int) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error"} and set(body["error"]) == {"type", "message", "field", "problems"}
    error: dict[str, Any] = body["error"]
    return error


def test_puzzles_are_verified_and_come_with_their_solution(client: TestClient) -> None:
    answer = client.post("/v1/puzzles", json={"count": 2, "difficulty": "hard", "seed": 7})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["seed"] == 7 and body["difficulty"] == "hard" and body["variant"] == "manipulation"
    assert [p["number"] for p in body["puzzles"]] == [1, 2]
    for puzzle in body["puzzles"]:
        assert puzzle["difficulty"] == "hard" and 15 <= puzzle["score"] <= 21
        assert puzzle["verification"]["ok"] is True
        position = Position.parse(puzzle["position"])
        assert check_play(position, Table.parse(puzzle["solution"]["table"])).ok
        assert all(move["text"] for move in puzzle["solution"]["moves"])


def test_same_seed_same_puzzles_and_a_seed_is_always_reported(client: TestClient) -> None:
    request = {"count": 2, "difficulty": "easy", "seed": 11}
    first = client.post("/v1/puzzles", json=request).json()
    again = client.post("/v1/puzzles", json=request).json()
    assert first == again
    unseeded = client.post("/v1/puzzles", json={"difficulty": "easy"}).json()
    assert isinstance(unseeded["seed"], int) and len(unseeded["puzzles"]) == 1
    replay = client.post("/v1/puzzles", json={"difficulty": "easy", "seed": unseeded["seed"]}).json()
    assert replay["puzzles"] == unseeded["puzzles"]


def test_other_variants(client: TestClient) -> None:
    answer = client.post("/v1/puzzles", json={"difficulty": "easy", "variant": "rummikub", "seed": 1})
    assert answer.status_code == 200, answer.text
    (puzzle,) = answer.json()["puzzles"]
    assert puzzle["variant"] == "rummikub"
    position = Position.parse(puzzle["position"])
    assert check_play(position, Table.parse(puzzle["solution"]["table"]), variant=Variant.rummikub()).ok


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"count": 0}, "count"),
        ({"count": MAX_PUZZLES + 1}, "count"),
        ({"count": True}, "count"),
        ({"difficulty": "brutal"}, "difficulty"),
        ({"variant": "canasta"}, "variant"),
        ({"seed": -1}, "seed"),
        ({"seed": "7"}, "seed"),
        ({"colour": "red"}, "colour"),
    ],
)
def test_bad_requests_get_422_naming_the_field(client: TestClient, body: dict[str, Any], field: str) -> None:
    error = _error(client.post("/v1/puzzles", json=body), 422)
    assert error["field"] == field


def test_an_impossible_deck_is_a_variant_error(client: TestClient) -> None:
    error = _error(client.post("/v1/puzzles", json={"variant": "manipulation", "players": 9}), 422)
    assert error["type"] == "variant" and error["field"] == "players"


def test_an_unreachable_difficulty_is_a_422(monkeypatch: pytest.MonkeyPatch, client: TestClient) -> None:
    def unreachable(*_: object, **__: object) -> list[object]:
        from solver.puzzles import GenerationError

        raise GenerationError("no expert machiavelli puzzle found in 3 tries")

    # The job imports the generator when it runs (thread workers here: this process's module).
    monkeypatch.setattr("solver.puzzles.generate.generate_puzzles", unreachable)
    error = _error(client.post("/v1/puzzles", json={"difficulty": "expert", "variant": "machiavelli"}), 422)
    assert error["type"] == "unreachable" and error["field"] == "difficulty"


def test_the_endpoint_is_documented(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    operation = spec["paths"]["/v1/puzzles"]["post"]
    assert {"200", "422", "503"} <= set(operation["responses"])
