"""The games API (``/v1/games``) through TestClient: whole games played by a scripted human,
help, advice, review, export and import, and a hostile client that changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playkit import human_choice
from service_kit import error_of
from typer.testing import CliRunner

import service.routes.games
from service.app import create_app
from service.games import GameHeader, GameStore, open_store
from service.settings import Settings
from solver.cli import app as rummy
from solver.game import GameSettings
from solver.game.log import read_log
from solver.play.session import GameSetup, Session
from solver.strategy.review import review as review_log

SETTINGS = Settings(
    executor="thread", workers=2, long_workers=1, max_advise_seconds=2.0, default_time_limit=2.0
)


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[GameStore]:
    """The SQLite store the tests' app keeps its games in (the test reads it directly too)."""
    opened = open_store(str(tmp_path_factory.mktemp("games") / "games.sqlite3"))
    yield opened
    opened.close()


@pytest.fixture(scope="module")
def client(store: GameStore) -> Iterator[TestClient]:
    with TestClient(create_app(SETTINGS, store=store)) as test_client:
        yield test_client


def new_game(client: TestClient, **body: Any) -> tuple[str, str, dict[str, Any]]:
    answer = client.post("/v1/games", json=body)
    assert answer.status_code == 201, answer.text
    data = answer.json()
    assert set(data) == {"id", "replay_id", "state"} and data["id"] != data["replay_id"]
    assert len(data["id"]) >= 22 and len(data["replay_id"]) >= 22
    return data["id"], data["replay_id"], data["state"]


def act(client: TestClient, game: str, turn: int, action: dict[str, str]) -> dict[str, Any]:
    answer = client.post(f"/v1/games/{game}/act", json={"turn": turn, "action": action})
    assert answer.status_code == 200, answer.text
    state: dict[str, Any] = answer.json()
    return state


def play_through(
    client: TestClient, game: str, state: dict[str, Any], *, helps: bool = True
) -> dict[str, Any]:
    """Play the game to its end with the greedy choice as the human's, asking for help
    levels 1-3 in turn every few actions; every answer is the state ``GET`` gives then."""
    for number in range(5000):
        if state["over"]:
            return state
        assert state["to_move"] == state["seat"] and state["can"], state
        turn = state["turn"]
        if helps and number % 4 == 1:
            level = 1 + number % 3
            helped = client.post(f"/v1/games/{game}/help", json={"turn": turn, "level": level})
            assert helped.status_code == 200, helped.text
            assert helped.json()["level"] == level
            turn += 1  # a help is an entry: the counter goes up by one
        state = act(client, game, turn, human_choice(state))
        if number % 9 == 0:
            assert client.get(f"/v1/games/{game}").json() == state
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("variant", "seed"), [("manipulation", 3), ("machiavelli", 4), ("rummikub", 5)])
def test_a_whole_game_against_a_bot_to_its_end(
    client: TestClient, variant: str, seed: int, tmp_path: Path
) -> None:
    game, replay, state = new_game(client, variant=variant, players=2, opponents=["expert"], seed=seed)
    assert state["variant"] == variant and state["id"] == game and not state["read_only"]
    assert [player["name"] for player in state["players"]] == ["you", "expert"]
    final = play_through(client, game, state)
    assert final["result"] is not None and final["phase"] == "over" and final["can"] == []
    assert final["round_end"] is not None and final["round_end"]["totals"] == final["result"]["totals"]
    assert [use["level"] for use in final["help_used"]][:3] == [2, 3, 1]
    # The log rummy replay reads, and the game imported from it.
    exported = client.get(f"/v1/games/{game}/export")
    assert exported.status_code == 200 and exported.headers["content-type"] == "application/x-ndjson"
    assert f"rummy-{variant}-{seed}.jsonl" in exported.headers["content-disposition"]
    (tmp_path / "game.jsonl").write_text(exported.text)
    replayed = CliRunner().invoke(rummy, ["replay", str(tmp_path / "game.jsonl")])
    assert replayed.exit_code == 0 and "replay matches the log" in replayed.stdout, replayed.output
    imported = client.post(
        "/v1/games/import", content=exported.text, headers={"content-type": "application/x-ndjson"}
    )
    assert imported.status_code == 201, imported.text
    copy = imported.json()
    assert copy["state"]["source"] == "imported" and copy["state"]["read_only"]
    assert copy["state"]["result"] == final["result"] and copy["state"]["table"] == final["table"]
    refused = client.post(
        f"/v1/games/{copy['id']}/act", json={"turn": copy["state"]["turn"], "action": {"type": "draw"}}
    )
    assert error_of(refused, 409)["type"] == "read_only"
    # A log cut mid-game imports read-only too: its state offers no action (it listed the
    # player's, which every press then refused).
    cut = "\n".join(exported.text.splitlines()[:3]) + "\n"
    partial = client.post("/v1/games/import", content=cut, headers={"content-type": "application/x-ndjson"})
    assert partial.status_code == 201, partial.text
    assert partial.json()["state"]["read_only"] and not partial.json()["state"]["over"]
    assert partial.json()["state"]["can"] == []
    # The replay link shows the game as its player saw it, without the secret id.
    shown = client.get(f"/v1/replays/{replay}").json()
    assert shown["id"] is None and shown["read_only"] and shown["hand"] == final["hand"]


def test_a_game_against_the_search_bot_with_advice_and_the_review(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service.routes.games, "REVIEW_SAMPLES", 2)
    monkeypatch.setattr(service.routes.games, "ADVICE_SAMPLES", 4)
    game, _, state = new_game(client, variant="machiavelli", players=2, seed=8)
    assert [player["name"] for player in state["players"]] == ["you", "pimc"]  # the default opponent
    early = client.get(f"/v1/games/{game}/review")
    assert error_of(early, 409)["type"] == "not_over"
    advice = client.post(f"/v1/games/{game}/advise", json={"turn": state["turn"]})
    assert advice.status_code == 200, advice.text
    assert advice.json()["options"] and advice.json()["facts"]["players"] == 2
    state = client.get(f"/v1/games/{game}").json()
    final = play_through(client, game, state, helps=False)
    review = client.get(f"/v1/games/{game}/review")
    assert review.status_code == 200, review.text
    found = review.json()
    assert found["seat"] == 0 and found["samples"] == 2 and 0 <= found["accuracy"] <= 100
    assert sum(found["bands"].values()) == len(found["decisions"])
    assert found["plot_svg"] is None or "<svg" in found["plot_svg"]
    assert client.get(f"/v1/games/{game}/review").json() == found  # kept: a finished game does not change
    assert final["over"]
    # Repeatable: the review of the game imported from its log is the same review, and it is
    # the library's review of that log for the seat (what `rummy review --seat 0` prints);
    # no clock in it, whatever the machine's load.
    exported = client.get(f"/v1/games/{game}/export").text
    copy = client.post(
        "/v1/games/import", content=exported, headers={"content-type": "application/x-ndjson"}
    ).json()
    again = client.get(f"/v1/games/{copy['id']}/review").json()
    assert {**again, "seconds": 0} == {**found, "seconds": 0}
    direct = review_log(read_log(exported.splitlines()), seats=[0], samples=2)
    assert found["accuracy"] == direct.summaries[0].to_dict()["accuracy"]
    assert [decision["loss"] for decision in found["decisions"]] == [
        round(decision.loss.estimate, 2) for decision in direct.decisions
    ]


def hostile(client: TestClient, store: GameStore) -> tuple[str, dict[str, Any]]:
    game, _, state = new_game(
        client, variant="manipulation", players=3, opponents=["greedy", "expert"], seed=21
    )
    return game, state


def unchanged(client: TestClient, store: GameStore, game: str, state: dict[str, Any]) -> None:
    assert client.get(f"/v1/games/{game}").json() == state
    assert len(store.load(game)[1]) == state["turn"]


def not_held_group(state: dict[str, Any]) -> str:
    """A legal group of three cards none of which is in the hand or on the table."""
    seen = set(f"{state['hand_text']} {state['table_text']}".replace("|", " ").split())
    for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"):
        cards = [rank + suit for suit in "shd"]
        if not seen & {*cards, *(f"*{card}" for card in cards)}:
            return " ".join(cards)
    raise AssertionError("every rank is in sight")


def test_a_game_without_a_seed_gets_one_of_every_seed_a_game_may_have() -> None:
    """Seeds drawn below 2^31 could be searched for the one that deals the player's hand
    (and with it every hand and the stock); a game may have any seed below 2^53."""
    drawn = [service.routes.games.fresh_seed() for _ in range(40)]
    assert all(0 <= seed < 2**53 for seed in drawn)
    assert max(drawn) >= 2**40  # below 2^31 forty times: a chance of 2^-880


def test_a_running_game_keeps_its_seed_and_its_log_to_itself(client: TestClient) -> None:
    """The seed and the code give every deal, and the log holds every hand and the stock:
    a player who could read either mid-game would see the bots' hands."""
    game, _, state = new_game(client, variant="manipulation", players=2, opponents=["greedy"], seed=41)
    assert state["seed"] is None
    advice = client.post(f"/v1/games/{game}/advise", json={"turn": state["turn"]})
    assert advice.status_code == 200, advice.text
    assert advice.json()["seed"] != 41  # the advice names the seed of its own deals, not the game's
    state = client.get(f"/v1/games/{game}").json()
    assert state["seed"] is None
    refused = error_of(client.get(f"/v1/games/{game}/export"), 409)
    assert refused["type"] == "not_over" and "every hand" in refused["message"]
    final = play_through(client, game, state, helps=False)
    assert final["seed"] == 41
    assert client.get(f"/v1/games/{game}/export").status_code == 200


def test_a_hostile_client_changes_nothing(client: TestClient, store: GameStore) -> None:
    game, state = hostile(client, store)
    other, other_replay, other_state = new_game(
        client, variant="rummikub", players=2, opponents=["greedy"], seed=2
    )
    turn = state["turn"]
    # Cards not held, a table card taken back, a meld that is not legal.
    for table in ("Ks Kh Kd", f"{state['table_text']} | As Ah Ad Ac".strip(" |"), "2s 9h Kd"):
        refused = error_of(
            client.post(
                f"/v1/games/{game}/act", json={"turn": turn, "action": {"type": "play", "table": table}}
            ),
            422,
        )
        assert refused["type"] == "illegal_play" and refused["problems"]
        assert refused["field"] == "action.table"  # the page points at the table it sent
    group = not_held_group(state)
    table = f"{state['table_text']} | {group}".strip(" |")
    not_held = error_of(
        client.post(f"/v1/games/{game}/act", json={"turn": turn, "action": {"type": "play", "table": table}}),
        422,
    )
    assert [problem for problem in not_held["problems"] if "neither on the table nor in the hand" in problem]
    # A stale counter, behind or ahead; knocking where the turn does not allow it.
    for wrong in (turn - 1, turn + 1):
        assert (
            error_of(
                client.post(f"/v1/games/{game}/act", json={"turn": wrong, "action": {"type": "draw"}}), 409
            )["type"]
            == "stale"
        )
        assert (
            error_of(client.post(f"/v1/games/{game}/help", json={"turn": wrong, "level": 1}), 409)["type"]
            == "stale"
        )
    if "knock" not in state["can"]:
        knock = error_of(
            client.post(f"/v1/games/{game}/act", json={"turn": turn, "action": {"type": "knock"}}), 422
        )
        assert (knock["type"], knock["field"]) == ("illegal_play", "action.type")
    # An empty body is told what this endpoint takes, not a hint's body.
    empty = error_of(client.post(f"/v1/games/{game}/act", headers={"content-type": "application/json"}), 422)
    assert empty["type"] == "empty_body" and '"action"' in empty["message"]
    assert "position" not in empty["message"]
    # Notation the parser refuses, fields the schema refuses.
    assert (
        error_of(
            client.post(
                f"/v1/games/{game}/act", json={"turn": turn, "action": {"type": "play", "table": "Xh 2h 3h"}}
            ),
            422,
        )["field"]
        == "action.table"
    )
    assert (
        error_of(
            client.post(f"/v1/games/{game}/act", json={"turn": turn, "action": {"type": "draw"}, "seat": 1}),
            422,
        )["type"]
        == "validation"
    )
    assert (
        error_of(client.post(f"/v1/games/{game}/act", json={"turn": "0", "action": {"type": "draw"}}), 422)[
            "field"
        ]
        == "turn"
    )
    # Another game's id is another game; a made-up id or the replay id acts on nothing.
    for wrong_id in ("x" * 22, other_replay):
        for path, body in (
            ("act", {"turn": turn, "action": {"type": "draw"}}),
            ("help", {"turn": turn, "level": 1}),
            ("advise", {"turn": turn}),
        ):
            assert (
                error_of(client.post(f"/v1/games/{wrong_id}/{path}", json=body), 404)["type"] == "not_found"
            )
        assert error_of(client.get(f"/v1/games/{wrong_id}"), 404)["type"] == "not_found"
    not_a_replay = error_of(client.get(f"/v1/replays/{game}"), 404)
    assert not_a_replay["type"] == "not_found" and not_a_replay["message"] == "no game has this replay id"
    assert error_of(client.get(f"/v1/games/{other_replay}"), 404)["message"] == "no game has this id"
    unchanged(client, store, game, state)
    unchanged(client, store, other, other_state)


def test_a_new_game_names_bots_of_the_registry_only(client: TestClient, tmp_path: Path) -> None:
    planted = tmp_path / "x.py"
    marker = tmp_path / "ran"
    planted.write_text(f"open({str(marker)!r}, 'w').close()\n")
    for opponents, field in (
        ([f"{planted}:Bot"], "opponents.0"),
        (["/tmp/x.py:Bot"], "opponents.0"),
        (["solver.strategy.bots:GreedyBot"], "opponents.0"),
        (["greedy", "greedy"], "opponents"),
    ):
        refused = error_of(client.post("/v1/games", json={"players": 2, "opponents": opponents}), 422)
        assert refused["field"] == field
        # A name longer than any bot's is refused by the schema, any other by the registry.
        assert refused["type"] == ("validation" if len(opponents[0]) > 64 else "bad_setup")
    assert not marker.exists()
    for body, field in (
        ({"players": 5}, "players"),
        ({"seat": 4}, "seat"),
        ({"seed": -1}, "seed"),
        ({"variant": "poker"}, "variant"),
        ({"players": 2, "seat": 2}, "seat"),
    ):
        assert error_of(client.post("/v1/games", json=body), 422)["field"] == field


def behind_game(store: GameStore, name: str) -> GameHeader:
    """A Rummikub game kept without its first bot turns (a server stopped between keeping
    the game and its first turns): the greedy bot at seat 0 is to move."""
    settings = GameSettings.named("rummikub", 2)
    seed = next(
        seed
        for seed in range(50)
        if Session(GameSetup(settings, seed, ("greedy", "you"), 1)).game.to_move == 0
    )
    header = GameHeader(
        f"{name}-{seed:016d}-game", f"{name}-{seed:016d}-rply", "2026-01-01T00:00:00+00:00",
        settings.describe(), seed, ["greedy", "you"], 1, "played",
    )  # fmt: skip
    store.create(header)
    return header


def test_acting_out_of_turn_is_refused_and_the_bots_catch_up(client: TestClient, store: GameStore) -> None:
    """Acting in a game whose bots are to move is out of turn until the state is read,
    which plays and keeps the bots' turns."""
    header = behind_game(store, "catch-up")
    refused = error_of(
        client.post(f"/v1/games/{header.game_id}/act", json={"turn": 0, "action": {"type": "draw"}}), 409
    )
    assert refused["type"] == "not_your_turn" and "greedy's turn" in refused["message"]
    assert store.load(header.game_id)[1] == []
    state = client.get(f"/v1/games/{header.game_id}").json()
    assert state["to_move"] == 1 and state["turn"] >= 1
    assert len(store.load(header.game_id)[1]) == state["turn"]
    assert act(client, header.game_id, state["turn"], {"type": "draw"})["turn"] > state["turn"]


def test_two_reads_catching_up_at_once_keep_the_bots_turns_once(client: TestClient, store: GameStore) -> None:
    header = behind_game(store, "race")
    with ThreadPoolExecutor(4) as threads:
        answers = list(threads.map(lambda _: client.get(f"/v1/games/{header.game_id}"), range(4)))
    assert all(answer.status_code == 200 for answer in answers), [answer.text for answer in answers]
    states = [answer.json() for answer in answers]
    assert all(state == states[0] for state in states)
    assert len(store.load(header.game_id)[1]) == states[0]["turn"]


def test_a_new_app_on_the_same_sqlite_file_continues_the_game(tmp_path: Path) -> None:
    """Each app opens the file its settings name (``RUMMY_DB``) when a games request first
    needs it, and closes it when it stops."""
    settings = SETTINGS.model_copy(update={"db": str(tmp_path / "kept.sqlite3")})
    with TestClient(create_app(settings)) as first:
        game, _, state = new_game(first, variant="rummikub", players=2, opponents=["greedy"], seed=12)
        state = act(first, game, state["turn"], human_choice(state))
    with TestClient(create_app(settings)) as second:
        assert second.get(f"/v1/games/{game}").json() == state
        assert act(second, game, state["turn"], human_choice(state))["turn"] > state["turn"]


@pytest.mark.parametrize(
    ("log", "words"),
    [
        ("", "the log is empty"),
        ("{]\n", "line 1"),
        ('{"type": "deal"}\n', "line 1"),
    ],
)
def test_a_corrupt_log_is_refused_on_import(client: TestClient, log: str, words: str) -> None:
    refused = error_of(
        client.post("/v1/games/import", content=log, headers={"content-type": "application/x-ndjson"}), 422
    )
    assert refused["type"] == "bad_log" and words in refused["message"]
    assert (
        error_of(
            client.post(
                "/v1/games/import", content=b"\xff\xfe", headers={"content-type": "application/x-ndjson"}
            ),
            400,
        )["type"]
        == "unreadable_body"
    )


@pytest.mark.parametrize("declared", [None, "text/plain", "application/json"])
def test_an_import_must_say_it_is_a_game_log(client: TestClient, declared: str | None) -> None:
    """The documented type only (the export's own), as the JSON endpoints hold theirs: a
    log sent as text/plain or JSON was taken."""
    headers = {"content-type": declared} if declared else {}
    refused = error_of(client.post("/v1/games/import", content="{}\n", headers=headers), 415)
    assert refused["type"] == "unsupported_media_type" and "application/x-ndjson" in refused["message"]
    with_charset = {"content-type": "application/x-ndjson; charset=utf-8"}
    empty = client.post("/v1/games/import", content="", headers=with_charset)
    assert error_of(empty, 422)["type"] == "bad_log"


def test_the_games_api_is_in_the_openapi_document(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/v1/games",
        "/v1/games/{game_id}",
        "/v1/games/{game_id}/act",
        "/v1/games/{game_id}/help",
        "/v1/games/{game_id}/advise",
        "/v1/games/{game_id}/review",
        "/v1/games/{game_id}/export",
        "/v1/games/import",
        "/v1/replays/{replay_id}",
    ):
        assert path in paths, path
    assert "application/x-ndjson" in paths["/v1/games/import"]["post"]["requestBody"]["content"]


def test_a_log_may_be_longer_than_a_position_but_not_without_bound(
    client: TestClient, tmp_path: Path
) -> None:
    game, _, state = new_game(client, variant="rummikub", players=2, opponents=["greedy"], seed=30)
    play_through(client, game, state, helps=False)
    log = client.get(f"/v1/games/{game}/export").text
    padded = log + "\n" * (SETTINGS.max_body_bytes + 1)  # blank lines are skipped by the reader
    headers = {"content-type": "application/x-ndjson"}
    assert client.post("/v1/games/import", content=padded, headers=headers).status_code == 201
    small = SETTINGS.model_copy(update={"max_import_bytes": 1024, "db": str(tmp_path / "small.sqlite3")})
    with TestClient(create_app(small)) as limited:
        refused = error_of(limited.post("/v1/games/import", content=log + "\n" * 1024, headers=headers), 413)
        assert refused["type"] == "body_too_large" and "1024 bytes" in refused["message"]


def short_log(players: tuple[str, str] = ("you", "greedy")) -> str:
    """A whole Machiavelli game of two greedy bots as a log, the first seat named ``players[0]``."""
    import io

    from solver.game import play_game
    from solver.game.log import LogWriter
    from solver.strategy import make_bots

    settings = GameSettings.named("machiavelli", 2)
    stream = io.StringIO()
    writer = LogWriter(stream, settings, seed=6, players=list(players))
    play_game(settings, make_bots(["greedy", "greedy"], 6), seed=6, listeners=[writer])
    return stream.getvalue()


@pytest.mark.parametrize("ms", ["1e400", "Infinity", "-Infinity", "NaN"])
def test_a_log_with_a_time_out_of_range_is_refused_as_a_bad_log(client: TestClient, ms: str) -> None:
    """A time no JSON keeps (1e400 reads as infinity) was taken by the log reader and then
    refused by the store: a 503 saying the game store cannot be used."""
    import re

    log = re.sub(r'"ms": [0-9.e+-]+', f'"ms": {ms}', short_log(), count=1)
    assert f'"ms": {ms}' in log
    refused = error_of(
        client.post("/v1/games/import", content=log, headers={"content-type": "application/x-ndjson"}), 422
    )
    assert refused["type"] == "bad_log" and "ms" in refused["message"], refused


def test_a_log_with_a_name_too_long_is_refused(client: TestClient) -> None:
    """A name is in every state and review of the game and drawn on the review's plot: a
    4 MB log could give one of 4 MB (a 200 kB name made a review of 17 MB in 20 s)."""
    headers = {"content-type": "application/x-ndjson"}
    answer = client.post("/v1/games/import", content=short_log(("W" * 101, "greedy")), headers=headers)
    refused = error_of(answer, 422)
    assert refused["type"] == "bad_log" and "the name of seat 0 has 101 characters" in refused["message"]
    long_bot = "mine.bots:" + "B" * 90
    kept = client.post("/v1/games/import", content=short_log((long_bot, "greedy")), headers=headers)
    assert kept.status_code == 201, kept.text


def test_the_bots_turns_have_a_lane_of_their_own(
    client: TestClient, store: GameStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A help (or a hint) never waits behind a bot's turn: the bots play on their own
    workers, niced; with their lane full an action is refused before anything is kept,
    while help is still answered."""
    app = client.app
    bot_pool, pool = app.state.bot_pool, app.state.pool  # type: ignore[attr-defined]
    assert bot_pool is not pool and bot_pool.niceness == SETTINGS.bot_nice
    game, _, state = new_game(client, variant="rummikub", players=2, opponents=["greedy"], seed=52)
    monkeypatch.setattr(bot_pool, "full", lambda: True)
    refused = error_of(
        client.post(f"/v1/games/{game}/act", json={"turn": state["turn"], "action": {"type": "draw"}}), 503
    )
    assert "bots-job worker" in refused["message"]
    assert len(store.load(game)[1]) == state["turn"], "nothing was kept"
    helped = client.post(f"/v1/games/{game}/help", json={"turn": state["turn"], "level": 1})
    assert helped.status_code == 200, helped.text
    monkeypatch.undo()
    after = act(client, game, state["turn"] + 1, {"type": "draw"})
    assert after["to_move"] == after["seat"] and after["bot_turns"], "the bots moved on their lane"


def test_an_import_takes_a_byte_order_mark_and_refuses_a_compressed_log(client: TestClient) -> None:
    """A review of the service (2026-12-08): a plain log declared ``br`` was taken (201), a
    gzip one called "not UTF-8 text" (400), and a log starting with a byte-order mark
    refused as invalid JSON on line 1, where the JSON endpoints take one."""
    import gzip

    log = short_log()
    headers = {"content-type": "application/x-ndjson"}
    assert client.post("/v1/games/import", content="\ufeff" + log, headers=headers).status_code == 201
    declared = error_of(
        client.post("/v1/games/import", content=log, headers={**headers, "content-encoding": "br"}), 415
    )
    assert declared["type"] == "unsupported_media_type" and "content-encoding 'br'" in declared["message"]
    zipped = error_of(
        client.post("/v1/games/import", content=gzip.compress(log.encode()), headers=headers), 415
    )
    assert "gzip-compressed data" in zipped["message"]


def test_the_import_path_is_not_taken_for_a_game_id(client: TestClient) -> None:
    """``GET /v1/games/import`` said "no game has this id" (404): it is the import route,
    which takes POST only."""
    answer = client.get("/v1/games/import")
    assert answer.status_code == 405 and answer.headers["allow"] == "POST"
    assert error_of(answer, 405)["type"] == "method_not_allowed"


@pytest.mark.parametrize("level", [True, 2.0, "2", 0, 4])
def test_a_help_level_is_a_whole_number_from_1_to_3(client: TestClient, level: object) -> None:
    """``true`` and ``2.0`` were taken as levels 1 and 2 (a Literal matches by equality even
    in strict mode), and used up the turn's help."""
    game, _, state = new_game(client, variant="manipulation", players=2, opponents=["greedy"], seed=41)
    refused = error_of(
        client.post(f"/v1/games/{game}/help", json={"turn": state["turn"], "level": level}), 422
    )
    assert refused["field"] == "level", refused
    helped = client.post(f"/v1/games/{game}/help", json={"turn": state["turn"], "level": 2})
    assert helped.status_code == 200 and helped.json()["level"] == 2
