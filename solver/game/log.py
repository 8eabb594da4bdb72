"""Game logs as JSON lines, and their replay.

A log opens with a ``game`` line (format version, settings, seed, player names), then
one line per event: ``deal`` (the hands and the stock order), ``action`` (round, seat,
action, and the milliseconds the player took), ``round`` (how it ended, hand points,
scores, totals) and ``end`` (bonuses, final scores, winners); a game left at the
terminal ends with a ``quit`` line (round, seat) instead.  Cards are in the one
notation; a stock or a hand is its cards in order, separated by spaces.  Every line is
checked against the strict schema of ``solver.game.logschema`` before it is used.

``replay`` rebuilds the game from the seed and applies the logged actions only (no bot
runs), then checks every ``deal``, ``round`` and ``end`` line against what the replay
produced, so a log that replays clean proves the game followed the rules to the same
final scores (or, for a game that was quit, up to the quit).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from pydantic import ValidationError

from solver.cards import Piece
from solver.game.actions import IllegalActionError, action_from_dict
from solver.game.game import Acted, Dealt, Game, GameEvent, GameResult, Listener, RoundEnded
from solver.game.logschema import (
    ActionRecord,
    GameRecord,
    LogRecord,
    QuitRecord,
    describe_errors,
    parse_line,
    parse_record,
)
from solver.game.settings import GameSettings

__all__ = [
    "LOG_VERSION",
    "LogError",
    "LogWriter",
    "Quit",
    "ReplayReport",
    "event_to_dict",
    "read_log",
    "replay",
]

LOG_VERSION = 1


class LogError(ValueError):
    """A log that cannot be read: the message names the line and the problem."""


def _cards(pieces: Iterable[Piece]) -> str:
    return " ".join(str(piece) for piece in pieces)


def event_to_dict(event: GameEvent) -> dict[str, object]:
    """The JSON form of one event (``ms`` is the only field a replay does not reproduce)."""
    if isinstance(event, Dealt):
        return {
            "type": "deal",
            "round": event.round_number,
            "dealer": event.dealer,
            "hands": [_cards(hand) for hand in event.hands],
            "stock": _cards(event.stock),
        }
    if isinstance(event, Acted):
        ms = None if event.ms is None else round(event.ms, 3)
        return {
            "type": "action",
            "round": event.round_number,
            "seat": event.seat,
            "action": event.action.to_dict(),
            "ms": ms,
        }
    if isinstance(event, RoundEnded):
        record = event.record
        return {
            "type": "round",
            "round": record.number,
            "reason": record.end.reason,
            "knocker": record.end.knocker,
            "out": record.end.out,
            "hands": [_cards(hand) for hand in record.hands],
            "hand_points": list(record.end.hand_points),
            "scores": list(record.score.scores),
            "winners": list(record.score.winners),
            "undercut": list(record.score.undercut),
            "totals": list(record.totals),
        }
    return {"type": "end", **event.result.to_dict()}


class LogWriter:
    """A game listener that writes the log, one flushed line per event."""

    def __init__(self, stream: TextIO, settings: GameSettings, *, seed: int, players: Sequence[str]) -> None:
        self.stream = stream
        self.round_number = 0
        """The round last dealt (where a ``quit`` happens)."""
        self._write(
            {
                "type": "game",
                "version": LOG_VERSION,
                "settings": settings.describe(),
                "seed": seed,
                "players": list(players),
            }
        )

    def __call__(self, event: GameEvent) -> None:
        if isinstance(event, Dealt):
            self.round_number = event.round_number
        self._write(event_to_dict(event))

    def quit(self, seat: int) -> None:
        """Record that the player at ``seat`` left the game in the current round (the last line)."""
        self._write({"type": "quit", "round": self.round_number, "seat": seat})

    def _write(self, record: dict[str, object]) -> None:
        self.stream.write(json.dumps(record) + "\n")
        self.stream.flush()


def read_log(lines: Iterable[str]) -> list[dict[str, object]]:
    """Parse and check the JSON lines of a log (blank lines skipped): every line must
    match the schema of ``solver.game.logschema``; LogError names the first bad line."""
    records: list[dict[str, object]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_line(line)
        except ValidationError as error:
            raise LogError(f"line {number}: {describe_errors(error)}") from None
        records.append(record.model_dump())
    return records


@dataclass(frozen=True, slots=True)
class Quit:
    """Where a game was left: the round and the seat of the player who quit."""

    round_number: int
    seat: int

    def to_dict(self) -> dict[str, int]:
        return {"round": self.round_number, "seat": self.seat}


@dataclass(slots=True)
class ReplayReport:
    """What a replay produced and every line where it differed from the log."""

    players: list[str]
    result: GameResult | None
    """None when the log stops before the end of the game."""
    mismatches: list[str] = field(default_factory=list)
    quit: Quit | None = None
    """Set when the log ends with the player's ``quit``: a game left, not a broken log."""

    @property
    def ok(self) -> bool:
        """The log replays clean: to its end of game, or to the point where it was quit."""
        return (self.result is not None or self.quit is not None) and not self.mismatches


def _checked(records: Sequence[dict[str, object]]) -> tuple[GameRecord, list[LogRecord]]:
    """The records validated against the schema, with the header's own checks."""
    parsed: list[LogRecord] = []
    for number, data in enumerate(records, start=1):
        try:
            parsed.append(parse_record(data))
        except ValidationError as error:
            raise LogError(f"line {number}: {describe_errors(error)}") from None
    if not parsed:
        raise LogError("the log is empty: a log starts with a 'game' line")
    if not isinstance(parsed[0], GameRecord):
        raise LogError("a log starts with a 'game' line")
    header = parsed[0]
    if header.version != LOG_VERSION:
        raise LogError(
            f"log version {header.version} is not supported (this rummy reads version {LOG_VERSION})"
        )
    for number, record in enumerate(parsed[1:], start=2):
        if isinstance(record, GameRecord):
            raise LogError(f"line {number}: a second 'game' line")
        if isinstance(record, QuitRecord) and number != len(parsed):
            raise LogError(f"line {number}: a 'quit' line must be the last line")
    return header, parsed[1:]


def replay(records: Sequence[dict[str, object]], *, listeners: Iterable[Listener] = ()) -> ReplayReport:
    """Replay a parsed log (``read_log``) and compare it line by line (module docstring).

    ``listeners`` see the replayed game's events as it runs (``rummy replay --show``).
    LogError when a line breaks the schema or the header names impossible settings.
    """
    header, body = _checked(records)
    try:
        settings = GameSettings.from_description(header.settings.model_dump())
    except ValueError as error:
        raise LogError(f"line 1: bad settings: {error}") from None
    if len(header.players) != settings.players:
        raise LogError(f"line 1: {len(header.players)} player names for a {settings.players}-player game")
    produced: list[dict[str, object]] = []
    game = Game(
        settings,
        seed=header.seed,
        listeners=[lambda event: produced.append(event_to_dict(event)), *listeners],
    )
    report = ReplayReport(list(header.players), None)
    for number, record in enumerate(body, start=2):
        if isinstance(record, QuitRecord):
            problem = _quit_problem(game, record)
            if problem:
                report.mismatches.append(f"line {number}: {problem}")
                return report
            report.quit = Quit(record.round, record.seat)
            continue
        if not isinstance(record, ActionRecord):
            continue
        if game.result is not None:
            report.mismatches.append(f"line {number}: an action after the end of the game")
            break
        if record.seat != game.to_move:
            report.mismatches.append(
                f"line {number}: seat {record.seat} acts, but seat {game.to_move} is to move"
            )
            return report
        if record.round != game.round.round_number:
            report.mismatches.append(
                f"line {number}: the action is logged in round {record.round}, "
                f"but the game is in round {game.round.round_number}"
            )
            return report
        try:
            game.apply(action_from_dict(record.action.model_dump()))
        except IllegalActionError as error:
            report.mismatches.append(f"line {number}: {error}")
            return report
        except ValueError as error:
            raise LogError(f"line {number}: {error}") from None
    expected = [record.model_dump() for record in body if not isinstance(record, ActionRecord | QuitRecord)]
    made = [record for record in produced if record["type"] != "action"]
    for checked, (logged, replayed) in enumerate(zip(expected, made, strict=False), start=1):
        if logged != replayed:
            report.mismatches.append(
                f"{logged['type']} record {checked} differs: {_difference(logged, replayed)}"
            )
    # A log cut short (a crash, a copy stopped midway) lacks the lines the replay made after
    # its last one: that is a log that stops before the end (``result`` None), not a mismatch.
    # A game the actions finish must have every line, its end included.
    if len(expected) > len(made) or (len(expected) < len(made) and game.result is not None):
        report.mismatches.append(
            f"the log has {len(expected)} deal/round/end lines, the replay made {len(made)}"
        )
    report.result = game.result
    return report


def _difference(logged: dict[str, Any], replayed: dict[str, Any]) -> str:
    """Where a logged record and the replay's differ: the fields, and the first one's two
    values (the first differing item of a list, as ``hands[1]``), not two whole records."""
    fields = [key for key in sorted({*logged, *replayed}) if logged.get(key) != replayed.get(key)]
    first = fields[0]
    mine, theirs, where = logged.get(first), replayed.get(first), first
    if isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        index = next(i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b)
        mine, theirs, where = mine[index], theirs[index], f"{first}[{index}]"
    return f"{', '.join(fields)} ({where}: log {mine!r}, replay {theirs!r})"


def _quit_problem(game: Game, record: QuitRecord) -> str | None:
    """Why a ``quit`` line cannot be where it is, or None.  A player may leave at any
    moment of the round being played (Ctrl-C while another player thinks, too)."""
    if game.result is not None:
        return "a quit after the end of the game"
    if record.seat >= game.settings.players:
        return f"seat {record.seat} quits, but the game has seats 0-{game.settings.players - 1}"
    if record.round != game.round.round_number:
        return (
            f"the quit is logged in round {record.round}, but the game is in round {game.round.round_number}"
        )
    return None
