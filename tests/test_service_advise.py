"""POST /v1/advise through TestClient: the library's answer, its defaults, its bounds, its errors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_kit import error_of

from service.app import create_app
from service.settings import Settings
from solver.game.settings import PRESET_NAMES, GameSettings
from solver.strategy.advice import advise

DONE_WHEN = "5s 6s 7s | 9h 9d 9c | Jd Qd Kd / 8s 9s 2c 2d *"
QUICK: dict[str, Any] = {"samples": 3, "budget_seconds": 5, "seed": 2}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(executor="thread", workers=2, max_time_limit=5.0, default_time_limit=2.0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_advise_answers_as_the_library_does(client: TestClient) -> None:
    answer = client.post("/v1/advise", json={"position": DONE_WHEN, "players": 2, **QUICK})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    expected = advise(DONE_WHEN, players=2, samples=3, budget_seconds=5, seed=2).to_dict()
    data.pop("seconds"), expected.pop("seconds")
    assert data == expected
    values = [option["value"]["estimate"] for option in data["options"]]
    assert values == sorted(values, reverse=True)
    assert data["facts"]["assumed"] == ["hand_sizes", "stock", "scores", "draws_left", "unseen"]


def test_advise_takes_the_game_facts(client: TestClient) -> None:
    body = {
        "table": "5s 6s 7s | 9h 9d 9c | Jd Qd Kd",
        "hand": "8s 9s 2c 2d *",
        "players": 3,
        "hand_sizes": [4, 7],
        "stock": 0,  # draws left 0: a final turn, which comes once the stock is empty
        "scores": [10, 20, 30],
        "draws_left": 0,
        "unseen": "4h 4d 4c 10s 10h 10d Qs Qh 2s 2h Ah",  # the other hands hold every one
        **QUICK,
    }
    data = client.post("/v1/advise", json=body).json()
    assert data["facts"]["hand_sizes"] == [5, 4, 7]
    assert data["facts"]["assumed"] == []
    # Without the unseen cards, the default (every card not seen) would be nowhere.
    body["unseen"] = None
    refused = client.post("/v1/advise", json=body)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "stock"
    assert "would be nowhere" in refused.json()["error"]["message"]
    assert "pass" in [option["kind"] for option in data["options"]]


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"budget_seconds": 11}, "budget_seconds"),
        ({"budget_seconds": 0}, "budget_seconds"),
        ({"hand_sizes": [3, 4, 5]}, None),
        ({"scores": [1]}, None),
        ({"stock": -1}, "stock"),
        ({"draws_left": 3}, None),
        ({"unseen": "Kh Kh"}, "unseen"),
        ({"samples": 0}, "samples"),
        ({"samples": 1}, "samples"),
        ({"seed": -1}, "seed"),
        ({"seed": True}, "seed"),
        ({"seed": 2**53}, "seed"),
        ({"position": "/ Zz"}, "position"),
        ({"typo": 1}, "typo"),
        ({"position": "5s 6s 7s /"}, None),
    ],
)
def test_bad_requests_get_the_error_shape(
    client: TestClient, extra: dict[str, Any], field: str | None
) -> None:
    body = {"position": DONE_WHEN, "players": 2, **QUICK, **extra}
    error = error_of(client.post("/v1/advise", json=body), 422)
    if field is not None:
        assert field in (error["field"] or "") or field in error["message"], error


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"hand_sizes": [3, 4, 5]}, "hand_sizes"),
        ({"hand_sizes": [-5]}, "hand_sizes"),
        ({"hand_sizes": [0]}, "hand_sizes"),
        ({"scores": [1]}, "scores"),
        ({"stock": -1}, "stock"),
        ({"stock": 500}, "stock"),
        ({"draws_left": 3}, "draws_left"),
        ({"unseen": ""}, "hand_sizes"),  # the default hand sizes would leave the other hand empty
        ({"draws_left": 0, "stock": 5}, "stock"),  # a final turn comes once the stock is empty
    ],
)
def test_a_game_fact_that_does_not_fit_names_its_field(
    client: TestClient, extra: dict[str, Any], field: str
) -> None:
    """The page points at the fact's input by ``field``; it was null for these, and the page
    guessed the input from the message's words."""
    body = {"position": DONE_WHEN, "players": 2, **QUICK, **extra}
    error = error_of(client.post("/v1/advise", json=body), 422)
    assert error["field"] == field, error


def test_the_page_knows_which_variants_race_to_go_out() -> None:
    """The advice panel explains a first-out value (the race) for exactly the variants whose
    round ends when a hand empties: its list must follow the presets."""
    script = (Path(__file__).resolve().parents[1] / "service" / "static" / "advice.js").read_text()
    listed = re.search(r"FIRST_OUT_VARIANTS = new Set\(\[([^\]]*)\]\)", script)
    assert listed is not None
    named = set(re.findall(r'"([^"]+)"', listed.group(1)))
    assert named == {name for name in PRESET_NAMES if GameSettings.named(name, 2).scoring == "first_out"}


def test_advise_takes_the_knock_decision(client: TestClient) -> None:
    position = (
        "3s 4s 5s 6s *7s | 9s 10s Js Qs | 2h 3h 4h 5h | 6h 7h 8h 9h 10h Jh | 7d 8d 9d 10d Jd Qd | "
        "Ac 2c 3c | 4c 5c 6c 7c 8c | 9c 10c Jc Qc | As Ah Ad | Ks Kh Kd / 3d"
    )
    body = {"position": position, "players": 2, "hand_sizes": [2], "decision": "knock", **QUICK}
    data = client.post("/v1/advise", json=body).json()
    assert data["decision"] == "knock" and [o["kind"] for o in data["options"]] == ["knock", "pass"]
    assert data == advise(
        position, players=2, hand_sizes=[2], decision="knock", samples=3, budget_seconds=5, seed=2
    ).to_dict() | {"seconds": data["seconds"]}
    refused = client.post("/v1/advise", json={**body, "position": "5s 6s 7s / Kh Kd 2c"})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "decision"
    wrong = client.post("/v1/advise", json={**body, "decision": "maybe"})
    assert wrong.status_code == 422
