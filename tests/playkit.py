"""A scripted human for the games played on the page: the ``greedy`` bot's choice as the human's action.

Shared by the tests of ``solver.play`` and of the games API.  ``human_choice`` needs only
the state the API sends (the hand and table in notation, what the turn allows), so the
same script plays a game through the library and over HTTP.
"""

from __future__ import annotations

from typing import Any

from solver.game import Action, Knock, Play
from solver.game.view import PlayerView
from solver.position import Hand, Position, Table
from solver.strategy.bots import best_play

__all__ = ["human_action", "human_choice"]


def human_action(view: PlayerView) -> Action:
    """What the greedy bot does in ``view``: knock when it may, else the best play, else decline."""
    if view.phase == "knock":
        return Knock()
    found = best_play(view)
    return Play(found.table) if found.has_play else view.decline()


def human_choice(state: dict[str, Any]) -> dict[str, str]:
    """The greedy choice as the API's action body, from a GameState: knock when allowed,
    the engine's best play from the table and hand shown when it exists, else draw or pass."""
    can = state["can"]
    if "knock" in can:
        return {"type": "knock"}
    if "play" in can:
        from solver.engine import hint
        from solver.variants import Variant

        variant = Variant.named(state["variant"], players=len(state["players"]))
        position = Position(Table.parse(state["table_text"]), Hand.parse(state["hand_text"]))
        found = hint(position, variant=variant, opened=state["opened"])
        if found.has_play:
            return {"type": "play", "table": str(found.table)}
    return {"type": "draw"} if "draw" in can else {"type": "pass"}
