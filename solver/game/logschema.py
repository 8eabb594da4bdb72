"""The schema of a game log's lines: strict pydantic models, one per record type.

A log is read by strangers' tools and may be edited by hand, so every line is checked
against a strict model before the replay trusts any of it: exact JSON types (``"yes"`` is
not a boolean, ``"3"`` is not a number, ``true`` is not a seat), no unknown keys, and a
record type from the list below.  The JSON parser (pydantic-core's) has a nesting limit,
so a line nested a hundred thousand deep is an error message, not a ``RecursionError``.

Record types (``type``): ``game`` (the header), ``deal``, ``action``, ``round``,
``end``, and ``quit`` (the player at the terminal left the game; always the last line).
"""

from __future__ import annotations

import unicodedata
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    NonNegativeInt,
    TypeAdapter,
    ValidationError,
)

from solver.game.scoring import EndReason
from solver.game.settings import ScoringStyle, TurnStyle
from solver.variants import VariantName

__all__ = [
    "ActionRecord",
    "DealRecord",
    "EndRecord",
    "GameRecord",
    "LogRecord",
    "QuitRecord",
    "RoundRecordLine",
    "SettingsRecord",
    "describe_errors",
    "parse_line",
    "parse_record",
]


def _shown_plainly(name: str) -> str:
    """A player's name prints on terminals and pages: no control or format character (an
    escape sequence in a name would drive the terminal that prints it)."""
    for index, char in enumerate(name):
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co"):
            raise ValueError(
                f"a player name may not hold U+{ord(char):04X} "
                f"({unicodedata.name(char, 'a control character')}) at character {index + 1}"
            )
    return name


PlayerName = Annotated[str, AfterValidator(_shown_plainly)]


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)


class SettingsRecord(_Strict):
    """``GameSettings.describe()``: every key required (``preset`` only for a preset beyond
    the variant's standard rules), nothing else allowed."""

    variant: VariantName
    players: int
    turn: TurnStyle
    scoring: ScoringStyle
    draws_per_turn: int
    hand_size: int
    knock_only_after_meld: bool
    round_bonus_to_all: bool
    preset: str | None = None


class GameRecord(_Strict):
    """The header: the log format's version, the settings, the seed and the player names."""

    type: Literal["game"]
    version: int
    """Checked against ``LOG_VERSION`` by the reader, for a message that names both."""
    settings: SettingsRecord
    seed: int
    players: list[PlayerName]


class DealRecord(_Strict):
    type: Literal["deal"]
    round: int
    dealer: NonNegativeInt
    hands: list[str]
    stock: str


class PlayData(_Strict):
    type: Literal["play"]
    table: str


class DrawData(_Strict):
    type: Literal["draw"]


class KnockData(_Strict):
    type: Literal["knock"]


class PassData(_Strict):
    type: Literal["pass"]


FiniteMs = Annotated[float, Field(ge=0, allow_inf_nan=False)]
"""An action's milliseconds: 0 or more and finite (a JSON number too large, 1e400, reads
as infinity, which no JSON writer keeps)."""
ActionData = Annotated[PlayData | DrawData | KnockData | PassData, Field(discriminator="type")]


class ActionRecord(_Strict):
    type: Literal["action"]
    round: int
    seat: NonNegativeInt
    action: ActionData
    ms: FiniteMs | None


class RoundRecordLine(_Strict):
    type: Literal["round"]
    round: int
    reason: EndReason
    knocker: NonNegativeInt | None
    out: NonNegativeInt | None
    hands: list[str]
    hand_points: list[int]
    scores: list[int]
    winners: list[NonNegativeInt]
    undercut: list[NonNegativeInt]
    totals: list[int]


class EndRecord(_Strict):
    type: Literal["end"]
    rounds: int
    totals: list[int]
    bonuses: list[int]
    final: list[int]
    winners: list[NonNegativeInt]


class QuitRecord(_Strict):
    """The player at ``seat`` left the game in ``round`` when it was their move."""

    type: Literal["quit"]
    round: int
    seat: NonNegativeInt


LogRecord = Annotated[
    GameRecord | DealRecord | ActionRecord | RoundRecordLine | EndRecord | QuitRecord,
    Field(discriminator="type"),
]

_ADAPTER: TypeAdapter[LogRecord] = TypeAdapter(LogRecord)


def describe_errors(error: ValidationError, *, limit: int = 3) -> str:
    """A pydantic error as one line: each problem's place in the record and what is wrong."""
    problems = []
    for item in error.errors(include_url=False):
        # A tagged union puts the tag (the record type) first in the location.
        where = ".".join(str(part) for part in item["loc"][1:])
        kind, context = item["type"], item.get("ctx", {})
        if kind == "union_tag_not_found":
            message = "needs a 'type'"
        elif kind == "union_tag_invalid":
            message = f"unknown type {context.get('tag')!r}; expected one of {context.get('expected_tags')}"
        elif kind == "extra_forbidden":
            message = "unknown key"
        elif kind == "missing":
            message = "missing"
        elif kind == "value_error":  # a validator's own message, without pydantic's prefix
            message = str(context.get("error", item["msg"]))
        else:
            message = item["msg"]
        problems.append(f"{where}: {message}" if where else message)
    shown = "; ".join(problems[:limit])
    return shown + (f" (and {len(problems) - limit} more)" if len(problems) > limit else "")


def parse_line(line: str) -> LogRecord:
    """One JSON line as a record (``ValidationError`` for bad JSON or a bad record)."""
    return _ADAPTER.validate_json(line)


def parse_record(data: object) -> LogRecord:
    """An already decoded JSON value as a record (``ValidationError`` when it is not one)."""
    return _ADAPTER.validate_python(data)
