"""One set of facts: the player count (and so the deck) a position implies, the same in the
library, the CLI and over HTTP; an empty hand answered alike everywhere."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from service.app import create_app
from solver.analysis import analyze
from solver.cli import app
from solver.facts import EMPTY_HAND, EmptyHandError, describe, implied_players, variant_for
from solver.position import Hand, Position
from solver.strategy.advice import advise
from solver.variants import Variant

POSITION = "5h 6h 7h | Kc Kd Ks / 8h 2c 9d"


@pytest.mark.parametrize(
    ("name", "position", "unseen", "players"),
    [
        ("manipulation", POSITION, "", 2),
        ("manipulation", "Kh Kd Kc / Kh 2c", "", 3),  # a second Kh: two decks
        ("manipulation", "/ * * 2c", "", 3),  # two jokers
        ("manipulation", "Kh Kd Kc / 2c", "Kh", 3),  # the unseen cards count too
        ("machiavelli", "Kh Kd Kc / Kh", "", 2),  # two decks at any count
        ("rummikub", "/ 13h 13h", "", 2),
    ],
)
def test_the_implied_player_count(name: str, position: str, unseen: str, players: int) -> None:
    given = Hand.parse(unseen).pieces if unseen else ()
    assert implied_players(name, Position.parse(position), given) == players
    variant, assumed = variant_for(name, None, Position.parse(position), given)
    assert assumed and variant.players == players
    assert variant_for(name, 4, Position.parse(position)) == (Variant.named(name, players=4), False)


def test_describe_says_what_was_assumed() -> None:
    assert describe(Variant.manipulation(players=2), assumed=True) == "2 players (assumed): 1 deck, 1 joker"
    assert describe(Variant.manipulation(players=3), assumed=False) == "3 players: 2 decks, 2 jokers"
    assert describe(Variant.machiavelli(players=2), assumed=True).endswith("2 decks, no jokers")


def test_analyze_advise_cli_and_http_show_the_same_defaults() -> None:
    found = analyze(POSITION)
    facts = found.to_dict()["facts"]
    assert facts == {"players": 2, "decks": 1, "jokers": 1, "unseen": 44, "assumed": ["players"]}
    advice = advise(POSITION, samples=2, seed=1).to_dict()["facts"]
    assert (advice["players"], advice["decks"], advice["jokers"], advice["unseen"]) == (2, 1, 1, 44)
    assert "players" in advice["assumed"]
    runner = CliRunner()
    cli = json.loads(runner.invoke(app, ["analyze", POSITION, "--json"]).stdout)
    assert cli["facts"] == facts
    text = runner.invoke(app, ["analyze", POSITION]).stdout
    assert "Game: manipulation, 2 players (assumed): 1 deck, 1 joker; 44 unseen cards" in text
    given = json.loads(runner.invoke(app, ["analyze", POSITION, "--players", "3", "--json"]).stdout)
    assert given["facts"] == {"players": 3, "decks": 2, "jokers": 2, "unseen": 97, "assumed": []}
    with TestClient(create_app()) as client:
        http = client.post("/v1/analyze", json={"position": POSITION}).json()
        assert http["facts"] == facts
        advised = client.post("/v1/advise", json={"position": POSITION, "samples": 2}).json()
        assert advised["facts"]["unseen"] == 44 and "players" in advised["facts"]["assumed"]


def test_an_empty_hand_has_one_answer_everywhere() -> None:
    empty = "Kh Kd Kc /"
    for ask in (lambda: analyze(empty), lambda: advise(empty)):
        with pytest.raises(EmptyHandError, match=EMPTY_HAND):
            ask()
    runner = CliRunner()
    sentence = EMPTY_HAND[0].upper() + EMPTY_HAND[1:] + "."
    for command in ("hint", "analyze", "advise"):
        done = runner.invoke(app, [command, empty])
        assert done.exit_code == 1, (command, done.output)
        assert sentence in done.stdout, command
    with TestClient(create_app()) as client:
        for path in ("/v1/hint", "/v1/analyze", "/v1/advise"):
            answer = client.post(path, json={"position": empty})
            assert answer.status_code == 422
            error = answer.json()["error"]
            assert (error["type"], error["field"], error["message"]) == ("empty_hand", "position", EMPTY_HAND)


def test_an_empty_hand_in_json_is_json() -> None:
    runner = CliRunner()
    for command in ("hint", "analyze", "advise"):
        done = runner.invoke(app, [command, "Kh Kd Kc /", "--json"])
        assert done.exit_code == 1
        assert json.loads(done.stdout) == {
            "position": "Kh Kd Kc /",
            "empty_hand": True,
            "message": EMPTY_HAND,
        }, command


def test_an_empty_hand_in_a_batch_reads_as_it_does_alone(tmp_path: Path) -> None:
    """``rummy hint --batch`` said "no play: the table stays ..." where ``rummy hint`` says the
    hand has gone out."""
    batch = tmp_path / "lines.txt"
    batch.write_text("Kh Kd Kc /\n/ 7h 8h 9h\n")
    done = CliRunner().invoke(app, ["hint", "--batch", str(batch)])
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0] == f"1: {EMPTY_HAND}"
    batch.write_text("Kh Kd Kc /\n/ 7h 8h 9h\nKc Kh Kd | 5s 6s 7s /\n")
    done = CliRunner().invoke(app, ["hint", "--batch", str(batch), "--json"])
    assert done.exit_code == 0, done.output
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records[0] == {"line": 1, "position": "Kh Kd Kc /", "empty_hand": True, "message": EMPTY_HAND}
    assert records[1]["line"] == 2 and records[1]["goes_out"]
    alone = json.loads(CliRunner().invoke(app, ["hint", "Kc Kh Kd | 5s 6s 7s /", "--json"]).stdout)
    assert records[2] == {"line": 3, **alone}  # the same answer, position written the same way


def test_show_assumes_the_game_analyze_assumes() -> None:
    """``show --json`` described the two-deck game where ``analyze`` assumed two players and
    one deck for the same position."""
    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["show", "/ 7h", "--json"]).stdout)
    analyzed = json.loads(runner.invoke(app, ["analyze", "/ 7h", "--json"]).stdout)
    assert shown["variant"]["players"] == analyzed["facts"]["players"] == 2
    assert shown["variant"]["decks"] == analyzed["facts"]["decks"] == 1
    assert shown["players_assumed"] and "players" in analyzed["facts"]["assumed"]
    given = json.loads(runner.invoke(app, ["show", "/ 7h", "--players", "4", "--json"]).stdout)
    assert (given["variant"]["decks"], given["players_assumed"]) == (2, False)
