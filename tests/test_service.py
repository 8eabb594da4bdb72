"""The HTTP service through TestClient: every endpoint, the OpenAPI examples, and the one
error shape for every kind of bad input."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from service_kit import error_of
from starlette.types import ASGIApp, Receive, Scope, Send

from service import create_app
from service.settings import Settings
from solver.engine import hint
from solver.position import Position, Table
from solver.referee import check_play
from solver.report import hint_payload
from solver.variants import VARIANT_NAMES, Variant

WORKED = "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = Settings(executor="thread", workers=2, max_time_limit=5.0, default_time_limit=2.0)
    with TestClient(create_app(settings)) as test_client:
        yield test_client


# --- hints -----------------------------------------------------------------------------


def test_hint_worked_example_gives_the_shared_hint_json_with_moves(client: TestClient) -> None:
    answer = client.post("/v1/hint", json={"position": WORKED})
    assert answer.status_code == 200
    body = answer.json()
    assert body["status"] == "optimal"
    assert body["table"] == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"
    assert body["played"] == ["Ac"] and body["hand"] == [] and body["goes_out"] is True
    assert body["melds"] == [["Jh", "Qh", "Kh"], ["Jd", "Qd", "Kd"], ["Jc", "Qc", "Kc", "Ac"]]
    assert [move["action"] for move in body["moves"]] == ["meld", "meld", "meld"]
    assert all(move["text"] for move in body["moves"])
    assert body["moves"][0]["remove"] == [{"to": 2, "cards": ["Kd"]}, {"to": 3, "cards": ["Kc"]}]  # as typed
    assert body["rearrangements"] == [
        {
            "kind": "trade",
            "old_melds": [1, 2, 3],
            "new_melds": [1, 2, 3],
            "hand": ["Ac"],
            "moved": 6,
            "tangle": 4,
            "steps": [1, 2, 3],
            "text": "Melds 1, 2 and 3 trade cards into new melds 1, 2 and 3, with Ac from your hand "
            "(steps 1-3; tangle 4).",
        }
    ]
    assert set(body["stats"]) == {"build_ms", "solve_ms", "engine"}
    assert body["stats"]["engine"] == "search"  # no table jokers: the fast path answers


def test_hint_matches_the_library_field_for_field(client: TestClient) -> None:
    text = "2h 3h 4h | 10c Jc *Qc Kc | *10c Jc Qc Kc / Kh"
    body = client.post("/v1/hint", json={"position": text}).json()
    # The library call the route makes: the canonical position to the engine, the steps
    # numbered in the order the melds were written.
    expected = hint_payload(hint(Position.parse(text)), before=Position.parse(text, keep_order=True))
    for payload in (body, expected):
        payload.pop("stats")
    assert body == json.loads(json.dumps(expected))


def test_hint_from_table_and_hand_equals_hint_from_position(client: TestClient) -> None:
    whole = client.post("/v1/hint", json={"position": "7h 8h *9h / 9h Jh"}).json()
    parts = client.post("/v1/hint", json={"table": "7h 8h *9h", "hand": "9h Jh"}).json()
    assert whole["table"] == parts["table"] == "7h 8h 9h *10h Jh"
    assert parts["position"] == whole["position"]
    hand_only = client.post("/v1/hint", json={"hand": "7h 8h 9h"}).json()
    assert hand_only["table"] == "7h 8h 9h"


def test_hint_numbers_old_melds_in_the_order_they_were_written(client: TestClient) -> None:
    """Issue 20: 'meld 1' in the steps is the first meld the user typed (Kh Kd Kc), though
    the canonical table puts the jacks first; the same for a table given apart."""
    for request in ({"position": WORKED}, {"table": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc", "hand": "Ac"}):
        body = client.post("/v1/hint", json=request).json()
        assert body["position"] == "Jh Jd Jc | Qh Qd Qc | Kh Kd Kc / Ac"  # still canonical
        assert body["old_table"] == "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"
        first = body["moves"][0]
        assert first["on_meld"] == 1 and first["meld"] == "Jh Qh Kh"
        assert first["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Jh"]}]
        assert first["text"] == (
            "Meld 1 becomes new meld 1, Jh Qh Kh: take out Kd for new meld 2 and Kc for new meld 3; "
            "add Qh from meld 2 and Jh from meld 3."
        )
        assert first["remove"] == [{"to": 2, "cards": ["Kd"]}, {"to": 3, "cards": ["Kc"]}]
    # Written in canonical order, the numbers follow that order.
    canonical = client.post("/v1/hint", json={"position": "Jh Jd Jc | Qh Qd Qc | Kh Kd Kc / Ac"}).json()
    assert canonical["old_table"] == "Jh Jd Jc | Qh Qd Qc | Kh Kd Kc"
    assert canonical["moves"][0]["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Kh"]}]
    assert canonical["table"] == client.post("/v1/hint", json={"position": WORKED}).json()["table"]


def test_analyze_numbers_the_best_plays_steps_as_written(client: TestClient) -> None:
    body = client.post("/v1/analyze", json={"position": WORKED.replace("/ Ac", "/ Ac 2c")}).json()
    assert body["best"]["old_table"] == "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc"
    assert body["best"]["moves"][0]["add"] == [{"from": 2, "cards": ["Qh"]}, {"from": 3, "cards": ["Jh"]}]


def test_hint_without_a_play_is_a_normal_answer(client: TestClient) -> None:
    body = client.post("/v1/hint", json={"position": "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s"}).json()
    assert body["status"] == "no_play"
    assert body["played"] == [] and body["moves"] == [] and body["hand"] == ["9s"]
    assert body["rearrangements"] == []


def test_hint_options_reach_the_engine(client: TestClient) -> None:
    opening = {"position": "/ 10h Jh Qh Kh 5c", "variant": "rummikub", "opened": False}
    body = client.post("/v1/hint", json=opening).json()
    assert body["variant"] == "rummikub" and body["played"] == ["10h", "Jh", "Qh", "Kh"]
    too_small = client.post("/v1/hint", json={**opening, "position": "/ 2h 3h 4h"}).json()
    assert too_small["status"] == "no_play"
    cards = client.post("/v1/hint", json={"position": "/ Qs Ks As *", "objective": "cards"}).json()
    assert cards["goes_out"] is True and cards["objective"] == "cards"
    spent = client.post("/v1/hint", json={"position": "/ Qs Ks As * 2c"}).json()
    assert "*" in spent["played"]
    kept = client.post("/v1/hint", json={"position": "/ Qs Ks As * 2c", "keep_jokers": True}).json()
    assert kept["played"] == ["As", "Qs", "Ks"] and "*" in kept["hand"]


def test_two_player_manipulation_has_one_deck(client: TestClient) -> None:
    body = {"position": "/ Ah Ah 2h 3h", "players": 2}
    error = error_of(client.post("/v1/hint", json=body), 422)
    assert error["type"] == "position" and "holds 1" in error["message"]
    assert client.post("/v1/hint", json={**body, "players": 3}).status_code == 200


# --- checks ----------------------------------------------------------------------------


def test_check_legal_and_illegal_plays(client: TestClient) -> None:
    legal = client.post(
        "/v1/check", json={"position": "7h 8h *9h / 9h 5c 5d", "after": "7h 8h 9h | 5c 5d *5s"}
    )
    assert legal.json() == {
        "position": "7h 8h *9h / 9h 5d 5c",
        "after": "7h 8h 9h | *5s 5d 5c",
        "ok": True,
        "reasons": [],
    }
    before = "10h 10d 10s | Jh Jd Js | Qh Qd Qc / 9s"
    after = "10h Jh Qh | 10d Jd Qd | 9s 10s Js | Qc"
    body = client.post("/v1/check", json={"position": before, "after": after}).json()
    expected = check_play(Position.parse(before), Table.parse(after))
    assert body["ok"] is False and body["reasons"] == expected.reasons


def test_check_with_table_and_hand_and_opening_rule(client: TestClient) -> None:
    body = {"table": "", "hand": "2h 3h 4h", "after": "2h 3h 4h", "variant": "rummikub", "opened": False}
    answer = client.post("/v1/check", json=body).json()
    assert answer["ok"] is False and "30" in " ".join(answer["reasons"])
    assert client.post("/v1/check", json={**body, "opened": True}).json()["ok"] is True


# --- analysis --------------------------------------------------------------------------


def test_analyze_gives_the_best_play_and_the_draw_figures(client: TestClient) -> None:
    answer = client.post("/v1/analyze", json={"position": "Kh Kd Kc | Qh Qd Qc | Jh Jd Jc / Ac 2c"})
    assert answer.status_code == 200
    body = answer.json()
    assert body["best"]["table"] == "Jh Qh Kh | Jd Qd Kd | Jc Qc Kc Ac"
    assert body["best"]["moves"]
    assert body["playable"] == ["Ac"] and body["never_playable"] == ["2c"]
    assert body["advice"] in ("meld", "draw") and body["meld_now_points"] == 2
    # No player count: two players (one deck and a joker), as advise and the CLI assume.
    assert body["facts"] == {"players": 2, "decks": 1, "jokers": 1, "unseen": 53 - 11, "assumed": ["players"]}
    assert body["unseen_cards"] == 53 - 11
    assert "3c" in body["outs"]["go_out"]


def test_analyze_with_given_unseen_cards(client: TestClient) -> None:
    body = {"table": "7h 8h 9h", "hand": "Jh Qs", "unseen": "10h Ks Kd *", "play_count_cap": 5}
    answer = client.post("/v1/analyze", json=body).json()
    assert answer["unseen_cards"] == 4
    assert sorted(draw["card"] for draw in answer["draws"]) == sorted(["10h", "Ks", "Kd", "*"])
    assert answer["can_meld_now"] is False and answer["advice"] == "draw"


# --- meta ------------------------------------------------------------------------------


def test_variants_lists_every_variant_as_the_library_describes_it(client: TestClient) -> None:
    body = client.get("/v1/variants").json()
    assert [v["name"] for v in body["variants"]] == list(VARIANT_NAMES)
    assert body["variants"] == [Variant.named(name).describe() for name in VARIANT_NAMES]


def test_variants_say_what_a_request_without_players_means(client: TestClient) -> None:
    """A variant's entry is the largest deck any count uses (what such a request is checked
    against); its game facts assume the fewest players whose deck holds the cards, as the
    field's description says (it used to call the entry the default player count's)."""
    body = client.get("/v1/variants").json()
    for entry in body["variants"]:
        sizes = [(count["decks"], count["jokers"]) for count in body["player_counts"][entry["name"]]]
        assert (entry["decks"], entry["jokers"]) == max(sizes)
    schema = client.get("/openapi.json").json()["components"]["schemas"]["VariantsResponse"]
    assert "without 'players'" in schema["properties"]["variants"]["description"]
    for position, players, decks in (("Ah 2h 3h / 4h", 2, 1), ("Ah 2h 3h / Ah", 3, 2)):
        facts = client.post("/v1/analyze", json={"position": position}).json()["facts"]
        assert (facts["players"], facts["decks"], facts["assumed"]) == (players, decks, ["players"])


def test_variants_list_the_player_counts_and_their_decks(client: TestClient) -> None:
    counts = client.get("/v1/variants").json()["player_counts"]
    assert list(counts) == list(VARIANT_NAMES)
    manipulation = {entry["players"]: (entry["decks"], entry["jokers"]) for entry in counts["manipulation"]}
    assert manipulation == {2: (1, 1), 3: (2, 2), 4: (2, 2), 5: (2, 2)}
    assert [entry["players"] for entry in counts["rummikub"]] == [2, 3, 4]
    for name, entries in counts.items():
        for entry in entries:  # every listed count is one a request may give
            variant = Variant.named(name, players=entry["players"])
            assert (variant.decks, variant.jokers, variant.hand_size) == (
                entry["decks"],
                entry["jokers"],
                entry["hand_size"],
            )
            request = {"position": "/ 7h 8h 9h", "variant": name, "players": entry["players"]}
            assert client.post("/v1/hint", json=request).status_code == 200
    too_many = {"position": "/ 7h", "variant": "rummikub", "players": 5}
    error = error_of(client.post("/v1/hint", json=too_many), 422)
    assert error["field"] == "players"


def test_healthz_reports_the_pool_and_the_limits(client: TestClient) -> None:
    body = client.get("/healthz").json()
    assert body["status"] == "ok" and body["executor"] == "thread"
    assert body["pool"] == {"workers": 2, "queue": 8, "running": 0, "waiting": 0, "replaced": 0}
    assert body["max_time_limit"] == 5.0 and body["default_time_limit"] == 2.0


def test_the_root_path_serves_the_web_page(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    assert client.get("/static/app.js").status_code == 200
    assert error_of(client.get("/static/nothing.js"), 404)["type"] == "not_found"


# --- OpenAPI ---------------------------------------------------------------------------


def test_docs_are_served(client: TestClient) -> None:
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()
    assert client.get("/redoc").status_code == 200


def test_openapi_documents_every_endpoint_and_the_error_shape(client: TestClient) -> None:
    spec = client.get("/openapi.json").json()
    operations = {(method, path) for path, methods in spec["paths"].items() for method in methods}
    solving = ("/v1/hint", "/v1/check", "/v1/analyze", "/v1/advise", "/v1/puzzles")
    games = {
        ("post", "/v1/games"),
        ("get", "/v1/games/{game_id}"),
        ("post", "/v1/games/{game_id}/act"),
        ("post", "/v1/games/{game_id}/help"),
        ("post", "/v1/games/{game_id}/advise"),
        ("get", "/v1/games/{game_id}/review"),
        ("get", "/v1/games/{game_id}/export"),
        ("post", "/v1/games/import"),
        ("get", "/v1/replays/{replay_id}"),
    }
    assert operations == {
        *(("post", path) for path in solving),
        *games,
        ("get", "/v1/variants"),
        ("get", "/v1/version"),
        ("get", "/healthz"),
        ("head", "/healthz"),
        ("get", "/metrics"),
    }
    for path in solving:
        name = path.removeprefix("/v1/")  # client generators name their methods after these ids
        assert spec["paths"][path]["post"]["operationId"] == f"post_{name}_v1_{name}_post"
        responses = spec["paths"][path]["post"]["responses"]
        assert set(responses) == {"200", "400", "408", "413", "415", "422", "431", "503"}
        for code in set(responses) - {"200"}:
            ref = responses[code]["content"]["application/json"]["schema"]["$ref"]
            assert ref.endswith("/ErrorResponse")
    tag = (
        {"/v1/check": "rules", "/v1/puzzles": "puzzles"}
        | {path: "service" for path in ("/v1/variants", "/v1/version", "/healthz", "/metrics")}
        | {path: "games" for _, path in games}
    )
    for path, methods in spec["paths"].items():
        for operation in methods.values():  # each in one section of the docs page
            assert operation["tags"] == [tag.get(path, "hints")], path
    for path, method in (
        ("/v1/variants", "get"),
        ("/v1/version", "get"),
        ("/healthz", "get"),
        ("/metrics", "get"),
    ):
        assert set(spec["paths"][path][method]["responses"]) == {"200"}
    assert "HTTPValidationError" not in spec["components"]["schemas"]


class RouteSpy:
    """ASGI middleware that notes the template of the route each request reached."""

    def __init__(self, app: ASGIApp, seen: list[str | None]) -> None:
        self.app = app
        self.seen = seen

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.app(scope, receive, send)
        if scope["type"] == "http":
            self.seen.append(getattr(scope.get("route"), "path", None))


def test_every_route_knows_its_whole_path() -> None:
    """Metrics and logs label a request by its route's template (``scope["route"].path``):
    the /v1 prefix belongs to every route, not only to the router around it."""
    app = create_app(Settings(executor="thread", workers=1))
    seen: list[str | None] = []
    app.add_middleware(RouteSpy, seen=seen)
    with TestClient(app) as client:
        client.post("/v1/check", json={"position": "7h 8h 9h / 10h", "after": "7h 8h 9h 10h"})
        client.post("/v1/hint", json={"position": "/ 7h"})  # a 422 still reaches the route
        client.get("/v1/variants")
        client.get("/healthz")
    assert seen == ["/v1/check", "/v1/hint", "/v1/variants", "/healthz"]


def _examples(spec: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in spec["paths"].items():
        body = methods.get("post", {}).get("requestBody", {})
        for name, example in body.get("content", {}).get("application/json", {}).get("examples", {}).items():
            yield path, name, example["value"]


def test_every_openapi_example_gets_an_answer(client: TestClient) -> None:
    """What a new user does first: open /docs, pick an example, press Execute."""
    examples = list(_examples(client.get("/openapi.json").json()))
    assert {path for path, _, _ in examples} >= {"/v1/hint", "/v1/check", "/v1/analyze"}
    for path, name, value in examples:
        answer = client.post(path, json=value)
        assert answer.status_code == 200, (path, name, answer.text)


# --- errors ----------------------------------------------------------------------------

BAD_REQUESTS: list[tuple[str, dict[str, Any], str, str | None]] = [
    # (endpoint, body, error type, field)
    ("/v1/hint", {"position": "Kh Kd Xc / Ac"}, "notation", "position"),
    ("/v1/hint", {"position": "Kh Kd Kc / Ac / 2c"}, "notation", "position"),
    ("/v1/hint", {"position": "Kh Kd Kc | | Qh Qd Qc / Ac"}, "notation", "position"),
    ("/v1/hint", {"table": "Kh Kd Kc", "hand": "Ac 1x"}, "notation", "hand"),
    ("/v1/hint", {"table": "Kh Kd Kc |", "hand": "Ac"}, "notation", "table"),
    ("/v1/hint", {"table": "Kh Kd", "hand": "Ac"}, "position", "table"),
    ("/v1/hint", {"position": "Ah Ah Ah / 2c"}, "position", "position"),
    ("/v1/hint", {"position": "/ Ah Ah Ah"}, "position", "position"),
    ("/v1/hint", {"position": "/ * * *"}, "position", "position"),
    ("/v1/hint", {"position": "7h 8h * / 2c"}, "position", "position"),
    ("/v1/hint", {"position": "/ *7h 2c"}, "position", "position"),
    ("/v1/hint", {"position": "/ 2c", "variant": "machiavelli", "players": 1}, "validation", "players"),
    ("/v1/hint", {"position": "/ 2c", "variant": "rummikub", "players": 5}, "variant", "players"),
    ("/v1/hint", {"position": "/ 2c", "variant": "poker"}, "validation", "variant"),
    ("/v1/hint", {"position": "/ 2c", "time_limit": 0}, "validation", "time_limit"),
    ("/v1/hint", {"position": "/ 2c", "time_limit": -1}, "validation", "time_limit"),
    ("/v1/hint", {"position": "/ 2c", "time_limit": 1e9}, "validation", "time_limit"),
    ("/v1/hint", {"position": "/ 2c", "time_limit": 30}, "limit", "time_limit"),
    ("/v1/hint", {"position": "/ 2c", "time_limit": "soon"}, "validation", "time_limit"),
    ("/v1/hint", {"position": "/ 2c", "time_limit": True}, "validation", "time_limit"),
    ("/v1/hint", {"position": "/ 2c", "opened": 1}, "validation", "opened"),
    ("/v1/hint", {"position": "/ 2c", "players": True}, "validation", "players"),
    ("/v1/puzzles", {"count": True}, "validation", "count"),
    ("/v1/hint", {"position": "/ 2c", "objective": "fast"}, "validation", "objective"),
    ("/v1/hint", {"position": "/ 2c", "table": "Kh Kd Kc"}, "validation", "position"),
    ("/v1/hint", {}, "validation", "position"),
    ("/v1/hint", {"position": 7}, "validation", "position"),
    ("/v1/hint", {"position": "/ " + "2c " * 2000}, "validation", "position"),
    ("/v1/hint", {"postion": "/ 2c"}, "validation", "postion"),
    ("/v1/check", {"position": "Kh Kd Kc / Ac", "after": "Kh Kd Kc Xs"}, "notation", "after"),
    ("/v1/check", {"position": "Kh Kd Kc / Ac"}, "validation", "after"),
    ("/v1/check", {"position": "Kh Kd / Ac", "after": "Kh Kd Ac"}, "position", "position"),
    ("/v1/analyze", {"position": "/ 2c", "unseen": "Ah Ah Ah"}, "unseen", "unseen"),
    ("/v1/analyze", {"position": "/ 2c", "unseen": "*7h"}, "unseen", "unseen"),
    ("/v1/analyze", {"position": "/ 2c", "unseen": "7z"}, "notation", "unseen"),
    ("/v1/analyze", {"position": "/ 2c", "play_count_cap": 0}, "validation", "play_count_cap"),
    ("/v1/analyze", {"position": "/ 2c", "time_limit": 11}, "limit", "time_limit"),
]


@pytest.mark.parametrize(("path", "body", "kind", "field"), BAD_REQUESTS)
def test_bad_input_gets_a_422_naming_the_problem(
    client: TestClient, path: str, body: dict[str, Any], kind: str, field: str | None
) -> None:
    error = error_of(client.post(path, json=body), 422)
    assert (error["type"], error["field"]) == (kind, field)


def test_a_bad_unseen_card_is_named_as_an_unseen_card(client: TestClient) -> None:
    error = error_of(client.post("/v1/analyze", json={"position": "/ 2c", "unseen": "2h 7z"}), 422)
    assert error["message"].endswith("(unseen card 2)") and "hand card" not in error["message"]


def test_an_impossible_position_lists_every_problem(client: TestClient) -> None:
    error = error_of(client.post("/v1/hint", json={"position": "Ah Ah Ah | * 5c 6c / * * 2c"}), 422)
    assert len(error["problems"]) >= 3
    assert any("copies of Ah" in p for p in error["problems"])
    assert any("jokers" in p for p in error["problems"])


def test_time_limit_errors_name_the_cap(client: TestClient) -> None:
    error = error_of(client.post("/v1/hint", json={"position": "/ 2c", "time_limit": 30}), 422)
    assert "cap of 5 s" in error["message"]


@pytest.mark.parametrize("number", [b"NaN", b"Infinity", b"-Infinity"])
def test_non_finite_time_limits_are_refused(client: TestClient, number: bytes) -> None:
    body = b'{"position": "/ 2c", "time_limit": ' + number + b"}"
    answer = client.post("/v1/hint", content=body, headers={"content-type": "application/json"})
    assert error_of(answer, 422)["field"] == "time_limit"


@pytest.mark.parametrize(
    ("body", "status", "kind"),
    [
        (b'{"position": ', 422, "malformed_json"),
        (b"\xff\xfe", 400, "unreadable_body"),  # a UTF-16 mark: not UTF-8 (README: 400)
        (b"[1, 2]", 422, "validation"),
        (b'"/ 2c"', 422, "validation"),
        (b"[" * 20_000 + b"]" * 20_000, 400, "unreadable_body"),
    ],
)
def test_bodies_that_are_not_a_json_object(client: TestClient, body: bytes, status: int, kind: str) -> None:
    answer = client.post("/v1/hint", content=body, headers={"content-type": "application/json"})
    assert error_of(answer, status)["type"] == kind


def test_a_body_without_json_content_type_is_refused(client: TestClient) -> None:
    answer = client.post(
        "/v1/hint", content=json.dumps({"position": WORKED}), headers={"content-type": "text/plain"}
    )
    error = error_of(answer, 415)  # issue 19: the real problem is the content type
    assert error["type"] == "unsupported_media_type" and "'text/plain'" in error["message"]


def test_wrong_method_and_unknown_path_keep_the_shape(client: TestClient) -> None:
    assert error_of(client.get("/v1/hint"), 405)["type"] == "method_not_allowed"
    assert error_of(client.post("/v1/nothing", json={}), 404)["type"] == "not_found"


def test_hint_with_alternatives_ranks_other_played_sets(client: TestClient) -> None:
    position = "5h 6h 7h | 9s 9d 9c / 8h 9h Kc Kd Ks 4h"
    answer = client.post("/v1/hint", json={"position": position, "alternatives": 3})
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["hand_points"] == 0 and "alternatives" in body
    others = body["alternatives"]
    assert [other["hand_points"] for other in others] == [4, 8, 9]
    played = [tuple(sorted(body["played"]))] + [tuple(sorted(other["played"])) for other in others]
    assert len(set(played)) == 4
    for other in others:
        assert check_play(Position.parse(position), other["table"]).ok and other["moves"]
    assert "alternatives" not in client.post("/v1/hint", json={"position": position}).json()
    refused = client.post("/v1/hint", json={"position": position, "alternatives": 20})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "alternatives"
