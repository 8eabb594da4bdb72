"""The game itself: settings, deal, turns, knocking, going out, scoring and logs.

Manipulation Rummy as RULES.md gives it, with Machiavelli and Rummikub.  Modules, each
using only those before it: ``settings`` (the rules of a game), ``actions``, ``deck``,
``rules`` (pure judgement from a player's ``view``), ``view``, ``scoring`` (pure),
``state`` (one round's flow), ``game`` (rounds up to the end of the game), ``runner``
(``play_game``: any ``Player``, a bot or a person, in every seat), ``logschema`` and
``log`` (JSON lines and replay).

The rules never import the strategy: the bots, the rollouts, the search bot, advice,
review, matches and tournaments live in ``solver.strategy`` (``from solver.strategy
import advise, make_bot, run_match``), and this package does not re-export them.

The names below are loaded on first use (PEP 562), so that importing one of the pure
rules (``solver.game.rules``, ``settings``, ``scoring``, ``state``) loads only what it
needs; none of them loads the hint engine or OR-Tools.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.game.actions import Action, Draw, IllegalActionError, Knock, Pass, Play, parse_action
    from solver.game.game import Game, GameResult, RoundRecord
    from solver.game.runner import Player, play_game
    from solver.game.scoring import RoundEnd, RoundScore
    from solver.game.settings import GameSettings
    from solver.game.state import RoundState
    from solver.game.view import PlayerView

_HOMES: dict[str, str] = {
    **dict.fromkeys(
        ("Action", "Draw", "IllegalActionError", "Knock", "Pass", "Play", "parse_action"), "actions"
    ),
    **dict.fromkeys(("Game", "GameResult", "RoundRecord"), "game"),
    **dict.fromkeys(("Player", "play_game"), "runner"),
    **dict.fromkeys(("RoundEnd", "RoundScore"), "scoring"),
    "GameSettings": "settings",
    "RoundState": "state",
    "PlayerView": "view",
}
"""Each public name and the module it lives in."""

__all__ = [
    "Action",
    "Draw",
    "Game",
    "GameResult",
    "GameSettings",
    "IllegalActionError",
    "Knock",
    "Pass",
    "Play",
    "Player",
    "PlayerView",
    "RoundEnd",
    "RoundRecord",
    "RoundScore",
    "RoundState",
    "parse_action",
    "play_game",
]


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver.game' has no attribute {name!r}")
    return getattr(import_module(f"solver.game.{home}"), name)
