"""Game logs as JSON lines, and their replay.

A log opens with a ``game`` line (settings, seed, player names), then one line per
event: ``deal`` (the hands and the stock order), ``action`` (seat, action, and the
milliseconds the player took), ``round`` (how it ended, hand points, scores, totals)
and ``end`` (bonuses, final scores, winners).  Cards are in the one notation; a stock
or a hand is its cards in order, separated by spaces.

``replay`` rebuilds the game from the seed and applies the logged actions only (no bot
runs), then checks every ``deal``, ``round`` and ``end`` line against what the replay
produced, so a log that replays clean proves the game followed the rules to the same
final scores.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

from solver.cards import Piece
from solver.game.actions import IllegalActionError, action_from_dict
from solver.game.game import Acted, Dealt, Game, GameEvent, GameResult, RoundEnded
from solver.game.settings import GameSettings

__all__ = ["LOG_VERSION", "LogError", "LogWriter", "ReplayReport", "event_to_dict", "read_log", "replay"]

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
        self._write(event_to_dict(event))

    def _write(self, record: dict[str, object]) -> None:
        self.stream.write(json.dumps(record) + "\n")
        self.stream.flush()


def read_log(lines: Iterable[str]) -> list[dict[str, object]]:
    """Parse the JSON lines of a log (blank lines skipped); LogError on a bad line."""
    records: list[dict[str, object]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise LogError(f"line {number} is not JSON: {error}") from None
        if not isinstance(record, dict) or "type" not in record:
            raise LogError(f"line {number} is not a log record (a JSON object with a 'type')")
        records.append(record)
    if not records or records[0]["type"] != "game":
        raise LogError("a log starts with a 'game' line")
    return records


@dataclass(slots=True)
class ReplayReport:
    """What a replay produced and every line where it differed from the log."""

    players: list[str]
    result: GameResult | None
    """None when the log stops before the end of the game."""
    mismatches: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.result is not None and not self.mismatches


def replay(records: list[dict[str, object]]) -> ReplayReport:
    """Replay a parsed log (``read_log``) and compare it line by line (module docstring)."""
    header = records[0]
    settings_data, names = header.get("settings"), header.get("players", [])
    if not isinstance(settings_data, dict) or not isinstance(names, list):
        raise LogError("the 'game' line needs 'settings' (an object) and 'players' (a list)")
    try:
        settings = GameSettings.from_description(settings_data)
        seed = int(str(header["seed"]))
    except (KeyError, ValueError) as error:
        raise LogError(f"bad 'game' line: {error}") from None
    players = [str(name) for name in names]
    produced: list[dict[str, object]] = []
    game = Game(settings, seed=seed, listeners=[lambda event: produced.append(event_to_dict(event))])
    report = ReplayReport(players, None)
    for number, record in enumerate(records[1:], start=2):
        if record["type"] != "action":
            continue
        if game.result is not None:
            report.mismatches.append(f"line {number}: an action after the end of the game")
            break
        if record.get("seat") != game.to_move:
            report.mismatches.append(
                f"line {number}: seat {record.get('seat')} acts, but seat {game.to_move} is to move"
            )
            return report
        try:
            data = record.get("action")
            if not isinstance(data, dict):
                raise ValueError("an 'action' line needs an 'action' object")
            game.apply(action_from_dict(data))
        except IllegalActionError as error:
            report.mismatches.append(f"line {number}: {error}")
            return report
        except ValueError as error:
            raise LogError(f"line {number}: {error}") from None
    expected = [record for record in records[1:] if record["type"] != "action"]
    made = [record for record in produced if record["type"] != "action"]
    for checked, (logged, replayed) in enumerate(zip(expected, made, strict=False), start=1):
        if logged != replayed:
            report.mismatches.append(
                f"{logged['type']} record {checked} differs: log {logged}, replay {replayed}"
            )
    if len(expected) != len(made):
        report.mismatches.append(
            f"the log has {len(expected)} deal/round/end lines, the replay made {len(made)}"
        )
    report.result = game.result
    return report
