"""The actions a player takes, their one-line notation and JSON form, and the illegal-action error.

Draws that the rules force (the first card of a Manipulation Rummy turn) are not
actions: the game makes them.  What is left to decide:

- ``Play(table)``: meld, giving the whole new table (the referee checks it);
- ``Draw()``: do not meld now and take the next draw (with the stock empty, nothing is
  drawn and the turn goes on as if a card had been);
- ``Knock()``: end the round at the end of the turn (hand at or under the threshold);
- ``Pass()``: end the turn without knocking, or let a final turn go without a meld.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from solver.position import Table

__all__ = [
    "Action",
    "ActionKind",
    "Draw",
    "IllegalActionError",
    "Knock",
    "Pass",
    "Play",
    "action_from_dict",
    "parse_action",
]

ActionKind = Literal["play", "draw", "knock", "pass"]


class IllegalActionError(ValueError):
    """An action the rules do not allow now; ``reasons`` lists every rule it breaks.

    The game state is unchanged when this is raised.
    """

    def __init__(self, action: Action, reasons: list[str]) -> None:
        self.action = action
        self.reasons = reasons
        super().__init__(f"illegal {action.kind} ({action}): " + "; ".join(reasons))


@dataclass(frozen=True, slots=True)
class Play:
    """Meld: the table after the play.  Hand cards it adds leave the hand."""

    table: Table

    @property
    def kind(self) -> ActionKind:
        return "play"

    def __str__(self) -> str:
        return f"play {self.table}"

    def to_dict(self) -> dict[str, str]:
        return {"type": "play", "table": str(self.table)}


@dataclass(frozen=True, slots=True)
class Draw:
    """Decline to meld now and take the next draw."""

    @property
    def kind(self) -> ActionKind:
        return "draw"

    def __str__(self) -> str:
        return "draw"

    def to_dict(self) -> dict[str, str]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Knock:
    """End the round now (allowed at the end of a turn with a low enough hand)."""

    @property
    def kind(self) -> ActionKind:
        return "knock"

    def __str__(self) -> str:
        return "knock"

    def to_dict(self) -> dict[str, str]:
        return {"type": "knock"}


@dataclass(frozen=True, slots=True)
class Pass:
    """End the turn: do not knock, or let a final turn (no drawing) go without a meld."""

    @property
    def kind(self) -> ActionKind:
        return "pass"

    def __str__(self) -> str:
        return "pass"

    def to_dict(self) -> dict[str, str]:
        return {"type": "pass"}


Action = Play | Draw | Knock | Pass


def parse_action(text: str) -> Action:
    """Parse ``draw``, ``knock``, ``pass`` or ``play TABLE`` (the inverse of ``str(action)``)."""
    word, _, rest = text.strip().partition(" ")
    simple: dict[str, Action] = {"draw": Draw(), "knock": Knock(), "pass": Pass()}
    if word in simple and not rest.strip():
        return simple[word]
    if word == "play":
        return Play(Table.parse(rest))
    raise ValueError(f"unknown action {text!r}; use draw, knock, pass or play TABLE")


def action_from_dict(data: dict[str, object]) -> Action:
    """Read an action's JSON form (``Action.to_dict()``)."""
    kind = data.get("type")
    if kind == "play":
        return Play(Table.parse(str(data.get("table", ""))))
    if kind in ("draw", "knock", "pass"):
        return parse_action(str(kind))
    raise ValueError(f"unknown action type {kind!r} in {data!r}")
