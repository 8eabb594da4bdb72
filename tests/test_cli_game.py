"""The game commands at the command line: option checks, the log schema, the narrated terminal game."""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from gamescript import scripted, scripted_game
from rich.console import Console
from typer.testing import CliRunner

import solver.cli.game
from solver.cli import app
from solver.cli.draft import Draft, NotHeldError
from solver.cli.narrator import Narrator
from solver.cli.terminal import _HANDLERS, HELP, QuitGame, TerminalPlayer, _prompt
from solver.game import Action, Draw, GameSettings, Knock, Pass, Play, Player, PlayerView, play_game
from solver.game.game import Acted, Game, GameEvent, Listener
from solver.game.log import LogError, LogWriter, read_log, replay
from solver.position import Hand, Table
from solver.shown import ShownTable
from solver.strategy import make_bots

runner = CliRunner()


def assert_usage_error(args: list[str], *words: str) -> str:
    """The command exits 2 with one line on stderr, ``error: ...``, naming ``words``."""
    outcome = runner.invoke(app, args, input="quit\n")
    assert outcome.exit_code == 2, (args, outcome.output, outcome.exception)
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), outcome.exception
    lines = outcome.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, outcome.stderr)
    for word in words:
        assert word in lines[0], (args, lines[0])
    assert "Traceback" not in outcome.output
    return lines[0]


# -- options, checked before any work -----------------------------------------------------


@pytest.mark.parametrize("limit", ["-1", "0", "nan", "inf", "-inf", "1e9"])
def test_play_rejects_a_bad_time_limit_before_the_game_starts(tmp_path: Path, limit: str) -> None:
    log = tmp_path / "game.jsonl"
    assert_usage_error(["play", "--seed", "1", "--time-limit", limit, "--log", str(log)], "time limit")
    assert not log.exists()  # nothing started: no partial log


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--players", "0"], ["2-5 players", "not 0"]),
        (["--players", "1"], ["2-5 players"]),
        (["--players", "-3"], ["not -3"]),
        (["--players", "9"], ["2-5 players", "not 9"]),
        (["--variant", "rummikub", "--players", "5"], ["2-4 players"]),
        (["--variant", "poker"], ["unknown variant 'poker'"]),
        (["--bots", "greedy,nobody"], ["unknown bot 'nobody'"]),
        (["--bots", ","], ["at least one bot"]),
        (["--bots", "no.such.module:Bot"], ["cannot load bot"]),
        (["--players", "4", "--bots", "greedy,random"], ["4 players need 3 bots"]),
        (["--seed", "-5"], ["--seed", "not -5"]),
        (["--variant", "rummikub", "--knock-only-after-meld"], ["Manipulation Rummy options"]),
        (["--variant", "machiavelli", "--round-bonus-to-all"], ["Manipulation Rummy options"]),
    ],
)
def test_play_rejects_bad_players_bots_and_variants(args: list[str], words: list[str]) -> None:
    assert_usage_error(["play", "--seed", "1", *args], *words)


def test_a_bot_module_that_fails_to_load_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "brokenbot.py").write_text("raise RuntimeError('boom')\n")
    (tmp_path / "fussybot.py").write_text(
        "from solver.strategy import Bot\n\n"
        "class Fussy(Bot):\n    def __init__(self) -> None:\n        pass\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    assert_usage_error(["play", "--bots", "brokenbot:Bot"], "RuntimeError: boom")
    assert_usage_error(["play", "--bots", "fussybot:Fussy"], "TypeError")
    assert_usage_error(["tournament", "--games", "1", "--bots", "greedy,fussybot:Fussy"], "TypeError")


def test_play_rejects_a_log_it_cannot_write(tmp_path: Path) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    assert_usage_error(["play", "--log", str(tmp_path)], "--log", "is a directory")
    assert_usage_error(["play", "--log", str(tmp_path / "missing" / "g.jsonl")], "does not exist")
    assert_usage_error(["play", "--log", str(a_file / "g.jsonl")], "does not exist")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], ["--games", "not 0"]),
        (["--games", "-5"], ["--games"]),
        (["--games", "100000000"], ["--games", "between 1 and"]),
        (["--jobs", "0"], ["--jobs"]),
        (["--jobs", "100000"], ["--jobs", "between 1 and"]),
        (["--time-limit", "nan"], ["time limit"]),
        (["--time-limit", "-1"], ["time limit"]),
        (["--bots", "greedy,nobody"], ["unknown bot 'nobody'"]),
        (["--bots", "greedy"], ["2-5 players, not 1"]),
        (["--bots", "greedy,random,random,random,random,random"], ["not 6"]),
        (["--variant", "poker"], ["unknown variant"]),
        (["--seed", "-1"], ["--seed"]),
        (["--variant", "rummikub", "--round-bonus-to-all"], ["Manipulation Rummy options"]),
    ],
)
def test_tournament_rejects_bad_options(args: list[str], words: list[str]) -> None:
    assert_usage_error(["tournament", "--games", "1", *args], *words)


def test_tournament_rejects_output_paths_before_playing(tmp_path: Path) -> None:
    a_file = tmp_path / "hostname"
    a_file.write_text("box\n")
    base = ["tournament", "--games", "1", "--bots", "random,random"]
    assert_usage_error([*base, "--logs", str(a_file)], "--logs", "is not a directory")
    assert_usage_error([*base, "--logs", str(a_file / "logs")], "--logs", "cannot be created")
    assert_usage_error([*base, "--out", str(tmp_path)], "--out", "is a directory")
    assert_usage_error([*base, "--out", str(tmp_path / "no" / "r.json")], "--out", "does not exist")
    assert a_file.read_text() == "box\n"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["hostname"]  # nothing written


def test_tournament_creates_its_logs_directory(tmp_path: Path) -> None:
    logs = tmp_path / "deep" / "logs"
    outcome = runner.invoke(
        app, ["tournament", "--games", "1", "--bots", "random,random", "--logs", str(logs), "--json"]
    )
    assert outcome.exit_code == 0, outcome.output
    assert len(list(logs.glob("*.jsonl"))) == 1


def test_replay_rejects_unreadable_files(tmp_path: Path) -> None:
    assert_usage_error(["replay", str(tmp_path / "none.jsonl")], "cannot read")
    assert_usage_error(["replay", str(tmp_path)], "cannot read")
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    assert_usage_error(["replay", str(binary)], "not UTF-8")
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert_usage_error(["replay", str(empty)], "starts with a 'game' line")
    assert_usage_error(["replay", str(empty), "--show", "--json"], "--show", "--json")


# -- the log schema -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def game_log() -> list[dict[str, object]]:
    """A whole two-player Manipulation game (three rounds) as log records."""
    settings = GameSettings.manipulation(2)
    names = ["random", "random"]
    stream = io.StringIO()
    play_game(
        settings, make_bots(names, 1), seed=1, listeners=[LogWriter(stream, settings, seed=1, players=names)]
    )
    return read_log(stream.getvalue().splitlines())


def write_log(path: Path, records: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(record) + "\n" for record in records))
    return path


def with_header(records: list[dict[str, object]], **changes: object) -> list[dict[str, object]]:
    return [{**records[0], **changes}, *records[1:]]


def with_settings(records: list[dict[str, object]], **changes: object) -> list[dict[str, object]]:
    settings = records[0]["settings"]
    assert isinstance(settings, dict)
    return with_header(records, settings={**settings, **changes})


def test_the_untouched_log_replays(tmp_path: Path, game_log: list[dict[str, object]]) -> None:
    outcome = runner.invoke(app, ["replay", str(write_log(tmp_path / "g.jsonl", game_log))])
    assert outcome.exit_code == 0, outcome.output
    assert "replay matches the log" in outcome.stdout


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"hand_size": 12}, ["hand_size 12", "the preset has 10"]),
        ({"draws_per_turn": 1}, ["draws_per_turn 1"]),
        ({"turn": "meld_or_draw"}, ["turn 'meld_or_draw'"]),
        ({"scoring": "first_out"}, ["scoring 'first_out'"]),
        ({"turn": "sideways"}, ["settings.turn"]),
        ({"colour": "blue"}, ["settings.colour: unknown key"]),
        ({"knock_only_after_meld": "yes"}, ["settings.knock_only_after_meld", "boolean"]),
        ({"round_bonus_to_all": 1}, ["settings.round_bonus_to_all", "boolean"]),
        ({"players": "2"}, ["settings.players", "integer"]),
        ({"players": True}, ["settings.players", "integer"]),
        ({"players": 9}, ["2-5 players"]),
        ({"variant": "poker"}, ["settings.variant"]),
    ],
)
def test_every_setting_of_the_header_is_checked(
    tmp_path: Path, game_log: list[dict[str, object]], change: dict[str, object], words: list[str]
) -> None:
    log = write_log(tmp_path / "g.jsonl", with_settings(game_log, **change))
    assert_usage_error(["replay", str(log)], "bad log", *words)


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"version": 999}, ["log version 999 is not supported", "version 1"]),
        ({"version": "1"}, ["version", "integer"]),
        ({"seed": 1.5}, ["seed", "integer"]),
        ({"seed": "1"}, ["seed", "integer"]),
        ({"players": ["only one"]}, ["1 player names for a 2-player game"]),
        ({"players": [1, 2]}, ["players.0"]),
        ({"extra": True}, ["extra: unknown key"]),
    ],
)
def test_the_rest_of_the_header_is_checked(
    tmp_path: Path, game_log: list[dict[str, object]], change: dict[str, object], words: list[str]
) -> None:
    log = write_log(tmp_path / "g.jsonl", with_header(game_log, **change))
    assert_usage_error(["replay", str(log)], "bad log", *words)


def test_an_actions_round_is_checked(tmp_path: Path, game_log: list[dict[str, object]]) -> None:
    index = next(i for i, record in enumerate(game_log) if record["type"] == "action")
    records = [*game_log]
    records[index] = {**records[index], "round": 2}
    outcome = runner.invoke(app, ["replay", str(write_log(tmp_path / "g.jsonl", records))])
    assert outcome.exit_code == 1
    assert "logged in round 2, but the game is in round 1" in outcome.stderr


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (
            {"type": "action", "round": 1, "seat": 0, "action": {"type": "fly"}, "ms": 1.0},
            ["unknown type 'fly'"],
        ),
        ({"type": "action", "round": 1, "seat": True, "action": {"type": "draw"}, "ms": 1.0}, ["seat"]),
        ({"type": "action", "round": 1, "seat": 0, "action": {"type": "draw"}, "ms": -1.0}, ["ms"]),
        ({"type": "action", "round": 1, "seat": 0, "action": {"type": "draw"}}, ["ms: missing"]),
        ({"type": "party"}, ["unknown type 'party'"]),
        ({"round": 1}, ["needs a 'type'"]),
        ([1, 2], ["object"]),
    ],
)
def test_every_line_is_checked(
    tmp_path: Path, game_log: list[dict[str, object]], record: object, words: list[str]
) -> None:
    log = tmp_path / "g.jsonl"
    log.write_text(json.dumps(game_log[0]) + "\n" + json.dumps(record) + "\n")
    message = assert_usage_error(["replay", str(log)], "bad log", "line 2", *words)
    assert len(message) < 400


def test_a_deeply_nested_line_is_a_one_line_error(tmp_path: Path, game_log: list[dict[str, object]]) -> None:
    log = tmp_path / "deep.jsonl"
    log.write_text(json.dumps(game_log[0]) + "\n" + "[" * 100_000 + "]" * 100_000 + "\n")
    assert_usage_error(["replay", str(log)], "line 2", "recursion limit")
    log.write_text('{"type": "game", "x": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    assert_usage_error(["replay", str(log)], "line 1")


def test_quit_lines_are_checked(tmp_path: Path, game_log: list[dict[str, object]]) -> None:
    quit_line: dict[str, object] = {"type": "quit", "round": 1, "seat": 0}
    first_action = next(i for i, record in enumerate(game_log) if record["type"] == "action")
    to_move = game_log[first_action]["seat"]
    before_it = game_log[:first_action]
    ok = runner.invoke(
        app, ["replay", str(write_log(tmp_path / "a.jsonl", [*before_it, {**quit_line, "seat": to_move}]))]
    )
    assert ok.exit_code == 0 and f"seat {to_move}) in round 1" in ok.stdout, ok.output
    no_seat = {**quit_line, "seat": 2}
    outcome = runner.invoke(app, ["replay", str(write_log(tmp_path / "b.jsonl", [*before_it, no_seat]))])
    assert outcome.exit_code == 1 and "the game has seats 0-1" in outcome.stderr, outcome.output
    wrong_round = {**quit_line, "round": 2}
    outcome = runner.invoke(app, ["replay", str(write_log(tmp_path / "e.jsonl", [*before_it, wrong_round]))])
    assert outcome.exit_code == 1 and "logged in round 2, but the game is in round 1" in outcome.stderr
    not_last = write_log(tmp_path / "c.jsonl", [*before_it, quit_line, *game_log[first_action:]])
    assert_usage_error(["replay", str(not_last)], "must be the last line")
    after_end = write_log(tmp_path / "d.jsonl", [*game_log, quit_line])
    assert runner.invoke(app, ["replay", str(after_end)]).exit_code == 1


def test_replay_reports_a_quit_game_in_json(game_log: list[dict[str, object]]) -> None:
    first_action = next(i for i, record in enumerate(game_log) if record["type"] == "action")
    seat = game_log[first_action]["seat"]
    report = replay([*game_log[:first_action], {"type": "quit", "round": 1, "seat": seat}])
    assert report.ok and report.result is None and report.quit is not None
    assert report.quit.to_dict() == {"round": 1, "seat": seat}
    with pytest.raises(LogError, match="version"):
        replay(with_header(game_log, version=2))


def test_settings_descriptions_are_strict() -> None:
    described = GameSettings.manipulation(3).describe()
    assert GameSettings.from_description(described) == GameSettings.manipulation(3)
    machiavelli = GameSettings.machiavelli(6).describe()
    assert GameSettings.from_description(machiavelli).variant.hand_size == 10
    changes: list[tuple[dict[str, object], str]] = [
        ({"knock_only_after_meld": "yes"}, "must be a bool"),
        ({"players": 3.0}, "must be a int"),
        ({"hand_size": 11}, "hand_size 11"),
        ({"extra": 1}, "unknown settings key"),
    ]
    for change, message in changes:
        with pytest.raises(ValueError, match=message):
            GameSettings.from_description({**described, **change})
    with pytest.raises(ValueError, match="need 'turn'"):
        GameSettings.from_description({key: value for key, value in described.items() if key != "turn"})


def test_replay_show_prints_every_move(tmp_path: Path, game_log: list[dict[str, object]]) -> None:
    outcome = runner.invoke(app, ["replay", "--show", str(write_log(tmp_path / "g.jsonl", game_log))])
    assert outcome.exit_code == 0, outcome.output
    text = outcome.stdout
    actions = [record for record in game_log if record["type"] == "action"]
    plays = sum(record["action"]["type"] == "play" for record in actions)  # type: ignore[index]
    assert len(re.findall(r"^random \(seat [01]\) melds ", text, flags=re.MULTILINE)) == plays > 0
    assert "Round 1" in text and "Round 3 over" in text and "Game over" in text
    assert "random (seat 0): 10 cards" not in text
    assert re.search(r"^random \(seat 1\): turn \d+ begins, draws ", text, flags=re.MULTILINE)
    assert "the third draw of the turn: the last one" in text
    assert "replay matches the log" in text


# -- the terminal game ----------------------------------------------------------------------


def test_draft_edits_and_undo() -> None:
    draft = Draft(Table.parse("5h 6h 7h | Qs Qh Qd"), Hand.parse("8h 2c 3c 4c 5c 6c Kh Kd Kc"))
    assert draft.shown().melds[0] == Table.parse("5h 6h 7h").melds[0]
    assert not draft.changed and not draft.undo()
    assert draft.edit("1 + 8h") == "added 8♥ to meld 1: 5♥ 6♥ 7♥ 8♥"
    assert draft.edit("+ 2c 3c 4c").startswith("new meld 3")
    assert draft.edit("3 + 5c 6c") == "added 5♣ 6♣ to meld 3: 2♣ 3♣ 4♣ 5♣ 6♣"
    assert draft.table() == Table.parse("5h 6h 7h 8h | Qs Qh Qd | 2c 3c 4c 5c 6c")
    assert draft.undo() and draft.undo()
    assert draft.table() == Table.parse("5h 6h 7h 8h | Qs Qh Qd")
    for bad, message in [("4 + 8h", "no meld 4"), ("1 + ", "give the cards"), ("1 + 8x", "bad card '8x'")]:
        with pytest.raises(ValueError, match=message):
            draft.edit(bad)
    assert draft.table() == Table.parse("5h 6h 7h 8h | Qs Qh Qd")  # a bad edit changes nothing
    assert draft.edit("play Kh Kd Kc") == "the table as typed"
    assert draft.table() == Table.parse("Kh Kd Kc")
    with pytest.raises(ValueError, match="table is empty"):
        Draft(Table(), Hand.parse("8h")).edit("1 + 8h")


def test_a_draft_refuses_cards_not_in_the_hand_at_once() -> None:
    """Issue #37: cards the player does not hold were accepted ("OK, new meld 1") and
    refused only by the referee later; now the edit is refused, naming them."""
    draft = Draft(Table.parse("5h 6h 7h | Qs Qh Qd"), Hand.parse("8h 2c 3c * Ac"))
    refused = [
        ("+ 2c 3c 4c", "4♣ is not in your hand", False),
        ("1 + 8h 9h 10h", "9♥ 10♥ are not in your hand", False),
        ("2 + Qh", "Q♥ is not in your hand (a card on the table moves only in a whole new table", True),
        ("5h 6h 7h 8h 9h | Qs Qh Qd", "9♥ is not in your hand", False),
        ("+ Ac *2c *3c", "★3♣ is not in your hand", False),  # one joker in the hand, not two
    ]
    for command, message, about_the_table in refused:
        with pytest.raises(NotHeldError) as error:
            draft.edit(command)
        assert str(error.value).startswith(message), (command, str(error.value))
        assert ("whole new table" in str(error.value)) == about_the_table
        assert not draft.changed and not draft.undo()  # nothing changed
    assert draft.edit("+ Ac 2c 3c") == "new meld 3: A♣ 2♣ 3♣"
    assert draft.edit("1 + 8h *9h") == "added 8♥ ★9♥ to meld 1: 5♥ 6♥ 7♥ 8♥ ★9♥"
    with pytest.raises(NotHeldError, match=r"^8♥ is not in your hand$"):
        draft.edit("3 + 8h")  # the hand's one 8h is already laid off
    with pytest.raises(NotHeldError, match=r"^8♠ 8♥ 8♦ are not in your hand$"):
        draft.edit("+ 8d 8h 8s")  # named in the hand's order; the 8h is laid off already
    two_decks = Draft(Table.parse("9s 10s Js"), Hand.parse("Js Qs Ks"))
    assert two_decks.edit("+ Js Qs Ks") == "new meld 2: J♠ Q♠ K♠"  # the second J♠ of two decks
    player, screen = terminal(lines("+ 2c 3c 4c", "quit"))
    state = scripted(GameSettings.machiavelli(2), ["2c 3c 9s", "2s 3s 4s"], "5d 6d", dealer=1)
    with pytest.raises(QuitGame):
        player.act(state.view(0))
    text = screen.getvalue()
    assert "Refused: 4♣ is not in your hand.  Nothing changed." in text
    assert "OK, new meld" not in text and "Your table so far" not in text


def test_a_lay_off_that_fails_shows_the_meld_as_seen_and_typed() -> None:
    """Issue #37: ``1 + 5c`` on 6♠ 6♥ 6♦ printed 5♣ 6♠ 6♥ 6♦ (sorted); a meld the lay-off
    leaves illegal keeps the order the player saw and typed; a legal one is canonical."""
    draft = Draft(Table.parse("6s 6h 6d | 5h 6h 7h", keep_order=True), Hand.parse("5c 4c 4h"))
    assert draft.edit("1 + 5c 4c") == "added 5♣ 4♣ to meld 1: 6♠ 6♥ 6♦ 5♣ 4♣"
    assert str(draft.shown().melds[0]) == "6s 6h 6d 5c 4c"
    assert draft.edit("2 + 4h") == "added 4♥ to meld 2: 4♥ 5♥ 6♥ 7♥"  # legal: in rank order
    state = scripted(GameSettings.machiavelli(2), ["5c 9s 2d", "2s 3s 4s"], "5d 6d", dealer=1)
    state.table = Table.parse("6s 6h 6d")
    player, screen = terminal(lines("1 + 5c", "quit"))
    with pytest.raises(QuitGame):
        player.act(state.view(0))
    text = screen.getvalue()
    assert "OK, added 5♣ to meld 1: 6♠ 6♥ 6♦ 5♣." in text
    assert "   1. 6♠ 6♥ 6♦ 5♣\n" in text
    assert "meld 6s 6h 6d 5c is illegal" in text  # the referee's reason names it the same way


def test_undo_back_to_the_table_as_it_was_is_no_play_yet() -> None:
    """Issue #37: undoing every edit printed "Not a legal play yet"; an unchanged table is
    simply no play yet (and a whole table typed as it was is no change)."""
    state = scripted(GameSettings.machiavelli(2), ["8h Kc 2d 9s", "2s 3s 4s"], "5c 6c 7c", dealer=1)
    state.table = Table.parse("5h 6h 7h | Qs Qh Qd")
    typed = lines("1 + 8h", "undo", "done", "5h 6h 7h | Qs Qh Qd", "show", "done", "draw")
    player, screen = terminal(typed)
    assert player.act(state.view(0)) == Draw()
    text = screen.getvalue()
    assert "Not a legal play yet" not in text
    assert text.count("The table is as it was at the start of your turn.") == 2  # after undo, after the table
    assert text.count("nothing to play yet") == 2
    assert "you have changed the table" not in text  # draw is not refused


def test_a_decline_that_is_no_move_now_says_why_edits_or_not() -> None:
    """A pass mid-turn was refused with "undo each change before pass", and after the undo
    with a bare "illegal: pass": it is no move there, edits or not, and the rule says so."""
    settings = GameSettings.manipulation(2)
    state = scripted(settings, ["8h Kc 2d 9s Ah", "2s 3s 4s"], "5c 6c 7c 9c", dealer=1)
    state.table = Table.parse("5h 6h 7h")
    player, screen = terminal(lines("1 + 8h", "pass", "undo", "pass", "knock", "draw"))
    assert player.act(state.view(0)) == Draw()
    text = screen.getvalue()
    assert text.count("pass is not a move now: a turn does not end here without a draw") == 2
    assert "knock is not a move now: a player knocks only at the end of a turn" in text
    assert "undo each change before pass" not in text and "illegal:" not in text


def test_a_whole_table_typed_keeps_the_order_typed() -> None:
    draft = Draft(Table.parse("5h 6h 7h | Qs Qh Qd"), Hand.parse("8h 9h Qc"))
    draft.edit("Qs Qh Qd Qc | 5h 6h 7h 8h")
    assert str(draft.shown()) == "Qs Qh Qd Qc | 5h 6h 7h 8h"  # numbered as typed
    assert str(draft.table()) == "5h 6h 7h 8h | Qs Qh Qd Qc"  # the play itself is canonical
    assert draft.edit("2 + 9h") == "added 9♥ to meld 2: 5♥ 6♥ 7♥ 8♥ 9♥"


def lines(*typed: str) -> Iterator[str]:
    yield from typed


def terminal(typed: Iterator[str]) -> tuple[TerminalPlayer, io.StringIO]:
    screen = io.StringIO()
    console = Console(file=screen, width=200, highlight=False)
    return TerminalPlayer(console, lambda: next(typed, None), ["You", "Bot 1"]), screen


def test_a_play_is_built_in_edits_and_undone_before_done() -> None:
    settings = GameSettings.machiavelli(2)
    state = scripted(settings, ["8h Kc 2d 9s", "2s 3s 4s"], "5c 6c 7c", dealer=1)
    state.table = Table.parse("5h 6h 7h | Qs Qh Qd")
    player, screen = terminal(lines("1 + 8h", "2 + Kc", "draw", "undo", "undo", "undo", "1 + 8h", "done"))
    action = player.act(state.view(0))
    assert action == Play(Table.parse("5h 6h 7h 8h | Qs Qh Qd"))
    text = screen.getvalue()
    assert "A legal play: type done" in text
    assert "Not a legal play yet" in text  # 2 + Kc: a king is not a queen
    assert "you have changed the table" in text  # draw refused with edits in place
    assert text.count("Taken back.") == 2 and "nothing to undo" in text


def test_the_prompt_lists_every_command_and_quit_is_a_quit_at_the_seat() -> None:
    settings = GameSettings.manipulation(2)
    state = scripted(settings, ["8h Kc 2d 9s Ah", "2s 3s 4s"], "5c 6c 7c 9c", dealer=1)
    view = state.view(0)
    prompt = _prompt(view)
    for command in (
        "TABLE",
        "+ MELD",
        "N + CARDS",
        "undo",
        "done",
        "hint",
        "ok",
        "draw",
        "show",
        "help",
        "quit",
    ):
        assert command in prompt
    player, screen = terminal(lines("hint"))
    with pytest.raises(QuitGame) as left:
        player.act(view)
    assert (left.value.seat, left.value.round_number) == (0, 1)
    assert "No play: draw." in screen.getvalue()


def test_ctrl_c_at_the_prompt_leaves_the_game() -> None:
    state = scripted(GameSettings.machiavelli(2), ["8h Kc 2d 9s", "2s 3s 4s"], "5c 6c 7c", dealer=1)

    def interrupted() -> str | None:
        raise KeyboardInterrupt

    player = TerminalPlayer(Console(file=io.StringIO()), interrupted, ["You", "Bot 1"])
    with pytest.raises(QuitGame):
        player.act(state.view(0))


def test_ctrl_c_while_a_bot_thinks_leaves_a_log_that_replays_as_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from solver.game.runner import play_game as real_play_game  # what solver.cli.game calls

    def interrupt_at_the_bots_move(event: GameEvent) -> None:
        if isinstance(event, Acted) and event.seat == 1:
            raise KeyboardInterrupt

    def play_game(*args: Any, listeners: list[Listener], **kwargs: Any) -> Any:
        return real_play_game(*args, listeners=[*listeners, interrupt_at_the_bots_move], **kwargs)

    monkeypatch.setattr(solver.cli.game, "play_game", play_game)
    log = tmp_path / "g.jsonl"
    outcome = runner.invoke(
        app, ["play", "--seed", "3", "--bots", "greedy", "--log", str(log)], input="draw\n" * 9
    )
    assert outcome.exit_code == 0 and "Game left" in outcome.stdout, outcome.output
    records = read_log(log.read_text().splitlines())
    assert records[-1] == {"type": "quit", "round": 1, "seat": 0}
    assert records[-2]["type"] == "action" and records[-2]["seat"] == 1
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0 and "left by human (seat 0) in round 1" in replayed.stdout


def test_each_command_word_has_a_handler_and_any_other_line_is_an_edit() -> None:
    """Issue 37: the commands were one if-chain eight deep; they are a table of handlers.
    Every word the help lists has one (``hint`` and ``quit`` are answered by ``act``), and
    a line that is no command is read as an edit: an unknown word gets the notation's
    reason and changes nothing; where no meld is possible, the words that are."""
    listed = {match.lower() for match in re.findall(r"^  ([a-z]+) ", HELP, flags=re.MULTILINE)}
    assert listed - {"hint", "quit"} <= set(_HANDLERS) and {"?", "ok", "play"} <= set(_HANDLERS)
    state = scripted(GameSettings.machiavelli(2), ["8h Kc 2d 9s", "2s 3s 4s"], "5c 6c 7c", dealer=1)
    state.table = Table.parse("5h 6h 7h | Qs Qh Qd")
    player, screen = terminal(lines("bogus", "Done", "draw"))
    assert player.act(state.view(0)) == Draw()
    replies = [line.split("]: ")[-1] for line in screen.getvalue().splitlines() if "]: " in line]
    assert replies.pop() == ""  # draw: the action, no reply
    assert replies == [
        "not understood: bad card 'bogus': unknown rank 'bogu'; use A, 2-10, J, Q, K, T or 1-13 "
        "(table meld 1, card 1)  (type help)",
        "nothing to play yet: change the table first (type help)",
    ]
    settings = GameSettings.manipulation(2)
    knocking = scripted(settings, ["Ah 2d 3d 4d", "2s 3s 4s"], "Ac 6c 7c 9c", dealer=1)
    knocking.apply(Play(Table.parse("2d 3d 4d")))
    player, screen = terminal(lines("bogus", "pass"))
    assert player.act(knocking.view(0)) == Pass()
    assert "no meld now: knock or pass (type help)" in screen.getvalue()


def test_knock_prompt_lists_its_commands() -> None:
    settings = GameSettings.manipulation(2)
    state = scripted(settings, ["Ah 2d 3d 4d", "2s 3s 4s"], "Ac 6c 7c 9c", dealer=1)
    state.apply(Play(Table.parse("2d 3d 4d")))  # Ah Ac left: 2 points, low enough to knock
    view = state.view(0)
    assert view.phase == "knock"
    assert _prompt(view) == "Your hand is worth 2 points [knock, pass, show, help, quit]: "
    player, screen = terminal(lines("undo", "1 + 5d", "knock"))
    assert player.act(view) == Knock()
    assert "nothing to undo" in screen.getvalue() and "no meld now: knock or pass" in screen.getvalue()


def steps_after(header: str, text: str) -> list[str]:
    """The numbered step lines right under the line ``header`` (first occurrence)."""
    lines = text.splitlines()
    start = lines.index(header) + 1
    steps = []
    for line in lines[start:]:
        if not re.match(r"^  \d+\. ", line):
            break
        steps.append(line)
    return steps


def test_play_narrates_draws_turns_and_the_bots_steps(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    outcome = runner.invoke(
        app,
        ["play", "--seed", "3", "--bots", "greedy,random", "--log", str(log)],
        input="hint\ndraw\ndraw\nquit\n",
    )
    assert outcome.exit_code == 0, outcome.output
    text = outcome.stdout
    hint_steps = steps_after("Steps", text)
    assert hint_steps and "J♦ Q♦ K♦" in hint_steps[0]  # the in-game hint shows its steps
    assert "You draw 7♣, the second draw of the turn." in text
    assert "You draw J♦, the third draw of the turn: the last one, so the turn ends without a meld." in text
    assert "Your turn is over." in text
    assert "Bot 1 (greedy) draws a card, the third draw of the turn: the last one" in text
    assert "Bot 1 (greedy): turn over." in text
    bot_steps = steps_after("Bot 1 (greedy) melds 3♠ 3♥ 3♦.", text)
    assert bot_steps and "3♠ 3♥ 3♦" in bot_steps[0]  # a bot's play comes with its steps
    assert not any("your hand" in step for step in bot_steps)  # the hand is the bot's
    assert "Bot 2 (random) draws a card" in text and "draws 5" not in text  # others' cards stay hidden
    replayed = runner.invoke(app, ["replay", str(log)])
    assert replayed.exit_code == 0 and "left by human (seat 0) in round 1" in replayed.stdout


class Scripted:
    """A player that makes the given plays, one per turn, and passes a knock."""

    def __init__(self, *tables: str) -> None:
        self.plays = [Play(Table.parse(table)) for table in tables]

    def act(self, view: PlayerView) -> Action:
        return Pass() if view.phase == "knock" else self.plays.pop(0)


def play_scripted(game: Game, players: list[Player]) -> None:
    """Play until the person at seat 0 runs out of input."""
    with pytest.raises(QuitGame):
        while True:
            seat = game.to_move
            game.apply(players[seat].act(game.view(seat)))


def test_meld_numbers_are_the_ones_the_player_saw_all_game() -> None:
    """Issue #37: a bot's steps numbered melds in canonical order ("Start new meld 2 ...
    with 6♣ from meld 2" while the screen showed meld 1 as 6♠ 6♥ 6♦ 6♣).  Now the player's
    own order carries on, the bots' plays keep the melds' places, and the table shown,
    ``N + CARDS`` and the hint count the same way; the plays themselves (what a log
    records) stay canonical."""
    settings = GameSettings.manipulation(2)
    screen = io.StringIO()
    console = Console(file=screen, width=200, highlight=False)
    names = ["You", "Bot 1"]
    shown = ShownTable()
    typed = lines("+ 6s 6h 6d 6c", "+ 2h 3h 4h", "done", "2 + 5h", "undo", "hint", "ok")
    me = TerminalPlayer(console, lambda: next(typed, None), names, shown=shown)
    bot = Scripted("2h 3h 4h | 6s 6h 6d | 5c 6c 7c", "2h 3h 4h 5h | 5c 6c 7c 8c | 6s 6h 6d")
    plays: list[str] = []

    def record(event: GameEvent) -> None:
        if isinstance(event, Acted) and isinstance(event.action, Play):
            plays.append(str(event.action))

    narrator = Narrator(console, names, settings, me=0, shown=shown)
    hands = ["6s 6h 6d 6c 2h 3h 4h 5h Ks Qs", "5c 7c 8c 9h 9d Ah 2d Jc Js 3s"]
    game = scripted_game(settings, hands, "Kd Qd Jd 10d 4s 8s 7s", dealer=1, listeners=[record, narrator])
    play_scripted(game, [me, bot])
    text = screen.getvalue()
    # The cards in the hand's order, as the hand line and the hint show them (the melds as
    # built are in the steps).
    assert "You meld 6♠ 2♥ 3♥ 4♥ 6♥ 6♦ 6♣." in text
    assert steps_after("Bot 1 melds 5♣ 7♣.", text) == [
        "  1. Leave meld 2 as it is (new meld 2).",
        "  2. Meld 1 becomes new meld 1, 6♠ 6♥ 6♦: take out 6♣ for new meld 3.",
        "  3. Start new meld 3, 5♣ 6♣ 7♣, with 6♣ from meld 1 and 5♣ 7♣ from their hand.",
    ]
    assert "Table\n   1. 6♠ 6♥ 6♦\n   2. 2♥ 3♥ 4♥\n   3. 5♣ 6♣ 7♣\n" in text
    assert "OK, added 5♥ to meld 2: 2♥ 3♥ 4♥ 5♥." in text
    assert "Hint: play 5♥\n   1. 6♠ 6♥ 6♦\n   2. 2♥ 3♥ 4♥ 5♥\n   3. 5♣ 6♣ 7♣\n" in text
    assert steps_after("Steps", text) == [
        "  1. Leave melds 1 and 3 as they are (new melds 1 and 3).",
        "  2. Meld 2 becomes new meld 2, 2♥ 3♥ 4♥ 5♥: add 5♥ from your hand.",
    ]
    assert steps_after("Bot 1 melds 8♣.", text) == [
        "  1. Leave melds 1 and 2 as they are (new melds 1 and 2).",
        "  2. Meld 3 becomes new meld 3, 5♣ 6♣ 7♣ 8♣: add 8♣ from their hand.",
    ]
    last_turn = text[text.rindex("Table\n") :]
    assert last_turn.startswith("Table\n   1. 6♠ 6♥ 6♦\n   2. 2♥ 3♥ 4♥ 5♥\n   3. 5♣ 6♣ 7♣ 8♣\nHand ")
    assert plays == [  # what the log records: canonical tables, as before
        "play 2h 3h 4h | 6s 6h 6d 6c",
        "play 2h 3h 4h | 5c 6c 7c | 6s 6h 6d",
        "play 2h 3h 4h 5h | 5c 6c 7c | 6s 6h 6d",
        "play 2h 3h 4h 5h | 5c 6c 7c 8c | 6s 6h 6d",
    ]


def test_one_card_and_one_point_are_singular() -> None:
    """Issue #37 (item 2): "1 cards" in the game; the hand left, the hint and the knock
    prompt say 1 card and 1 point."""
    settings = GameSettings.manipulation(2)
    screen = io.StringIO()
    console = Console(file=screen, width=200, highlight=False)
    names = ["You", "Bot 1"]
    typed = lines("hint", "ok")
    me = TerminalPlayer(console, lambda: next(typed, None), names)
    narrator = Narrator(console, names, settings, me=0)
    hands = ["2h 3h 4h", "5c 7c 8c 9h 9d"]
    game = scripted_game(settings, hands, "As Kd Qd", dealer=1, listeners=[narrator])
    play_scripted(game, [me, Scripted()])
    text = screen.getvalue()
    assert "leaves 1 point, low enough to knock." in text
    assert "  Played.  Your hand: 1 card, 1 point." in text
    assert text.endswith("Your hand is worth 1 point [knock, pass, show, help, quit]: ")


def test_play_confirms_the_players_own_play(tmp_path: Path) -> None:
    # Issue #37 changed this: 5c, not in the hand, is refused at once (it was accepted and
    # then judged "Not a legal play yet"), so there is nothing to undo before done.
    outcome = runner.invoke(
        app,
        ["play", "--variant", "machiavelli", "--bots", "random", "--seed", "9"],
        input="+ 2c 3c 4c\n1 + 5c\ndone\nquit\n",
    )
    assert outcome.exit_code == 0, outcome.output
    text = outcome.stdout
    assert "OK, new meld 1: 2♣ 3♣ 4♣." in text
    assert "Refused: 5♣ is not in your hand.  Nothing changed." in text
    assert "OK, added 5♣" not in text and "Not a legal play yet" not in text
    assert "You meld 2♣ 3♣ 4♣.\n  Played.  Your hand: 12 cards, 81 points.\nYour turn is over." in text


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("\u001b]0;PWNED\u0007\u001b[2J", "U+001B"),  # an escape sequence that drives a terminal
        ("ann\u200bie", "U+200B"),  # a format character, invisible
    ],
)
def test_a_name_that_would_drive_the_terminal_is_refused(
    tmp_path: Path, game_log: list[dict[str, object]], name: str, shown: str
) -> None:
    log = write_log(tmp_path / "g.jsonl", with_header(game_log, players=[name, "random"]))
    commands = (["replay", str(log)], ["replay", "--show", str(log)], ["review", str(log), "--samples", "2"])
    for command in commands:
        outcome = runner.invoke(app, command)
        assert outcome.exit_code == 2, (command, outcome.output)
        assert outcome.stdout == "" and "\u001b" not in outcome.stderr
        assert f"players.0: a player name may not hold {shown}" in outcome.stderr


def test_a_name_that_looks_like_markup_is_shown_as_written(
    tmp_path: Path, game_log: list[dict[str, object]]
) -> None:
    log = write_log(tmp_path / "g.jsonl", with_header(game_log, players=["[bold red]x[/]", "random"]))
    for command in (["replay", str(log)], ["replay", "--show", str(log)]):
        outcome = runner.invoke(app, command)
        assert outcome.exit_code == 0, outcome.output
        assert "[bold red]x[/]" in outcome.stdout


def test_the_peers_game_is_played_with_its_own_defaults() -> None:
    """`rummy play --variant rummikub-peer` refused its own defaults (3 players) and named
    the game plain Rummikub."""
    done = CliRunner().invoke(app, ["play", "--variant", "rummikub-peer", "--seed", "1"], input="quit\n")
    assert done.exit_code == 0, done.output
    assert done.stdout.splitlines()[0].startswith("rummikub-peer, 2 players, seed 1.")


def test_a_deal_that_differs_is_named_by_its_field(tmp_path: Path, game_log: list[dict[str, object]]) -> None:
    """A mismatch printed both whole records (over 500 characters of Python dicts) without
    saying what differs: now the field, the first differing item and its two values."""
    records = [dict(record) for record in game_log]
    deal = next(record for record in records if record["type"] == "deal")
    hands = [str(hand).split() for hand in deal["hands"]]  # type: ignore[attr-defined]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]  # one card swapped between the hands
    deal["hands"] = [" ".join(hand) for hand in hands]
    done = runner.invoke(app, ["replay", str(write_log(tmp_path / "g.jsonl", records))])
    assert done.exit_code == 1, done.output  # a log that does not replay (rummy replay --help)
    said = next(line for line in done.stderr.splitlines() if line.startswith("mismatch: "))
    assert "deal record 1 differs: hands (hands[0]: log " in said and "replay " in said, said
    assert len(said) < 300, said
