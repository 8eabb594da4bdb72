"""The game: deal, turns, knocking, going out, scoring, bots, logs and tournaments.

Manipulation Rummy as RULES.md gives it, with Machiavelli and Rummikub.  Modules, each
using only those before it: ``settings`` (the rules of a game), ``actions``, ``deck``,
``rules`` (pure judgement from a player's ``view``), ``view``, ``scoring`` (pure),
``state`` (one round's flow), ``game`` (rounds up to the end of the game), ``bots``,
``expert``, ``hoarder`` and ``pimc`` (with ``rollout``), ``registry`` (bots by name),
``runner``, ``log`` (JSON lines and replay), ``tournament``, ``match`` (mirrored pairs,
with ``stats``; its pairs run on ``solver.runs``), ``advice`` (one turn's options ranked
by the search bot's evaluator) and ``review`` (a logged game's decisions against the advice).

The names below are loaded on first use (PEP 562), so that importing the pure rules
(``solver.game.rules``, ``settings``, ``scoring``, ``state``) loads neither the hint
engine nor OR-Tools.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from solver.game.actions import Action, Draw, IllegalActionError, Knock, Pass, Play, parse_action
    from solver.game.advice import Advice, advise
    from solver.game.bots import Bot, GreedyBot, Player, RandomBot
    from solver.game.expert import ExpertBot
    from solver.game.game import Game, GameResult, RoundRecord
    from solver.game.hoarder import HoarderBot
    from solver.game.match import MatchResult, run_match
    from solver.game.pimc import PimcBot
    from solver.game.registry import BOTS, make_bot, make_bots
    from solver.game.runner import play_game
    from solver.game.scoring import RoundEnd, RoundScore
    from solver.game.settings import GameSettings
    from solver.game.state import RoundState
    from solver.game.view import PlayerView

_HOMES: dict[str, str] = {
    **dict.fromkeys(("Advice", "advise"), "advice"),
    **dict.fromkeys(
        ("Action", "Draw", "IllegalActionError", "Knock", "Pass", "Play", "parse_action"), "actions"
    ),
    **dict.fromkeys(("Bot", "GreedyBot", "Player", "RandomBot"), "bots"),
    "ExpertBot": "expert",
    "HoarderBot": "hoarder",
    "PimcBot": "pimc",
    **dict.fromkeys(("MatchResult", "run_match"), "match"),
    **dict.fromkeys(("Game", "GameResult", "RoundRecord"), "game"),
    **dict.fromkeys(("BOTS", "make_bot", "make_bots"), "registry"),
    "play_game": "runner",
    **dict.fromkeys(("RoundEnd", "RoundScore"), "scoring"),
    "GameSettings": "settings",
    "RoundState": "state",
    "PlayerView": "view",
}
"""Each public name and the module it lives in."""

__all__ = [
    "BOTS",
    "Action",
    "Advice",
    "Bot",
    "Draw",
    "ExpertBot",
    "Game",
    "GameResult",
    "GameSettings",
    "GreedyBot",
    "HoarderBot",
    "IllegalActionError",
    "Knock",
    "MatchResult",
    "Pass",
    "PimcBot",
    "Play",
    "Player",
    "PlayerView",
    "RandomBot",
    "RoundEnd",
    "RoundRecord",
    "RoundScore",
    "RoundState",
    "advise",
    "make_bot",
    "make_bots",
    "parse_action",
    "play_game",
    "run_match",
]


def __getattr__(name: str) -> object:
    """Load a public name from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'solver.game' has no attribute {name!r}")
    return getattr(import_module(f"solver.game.{home}"), name)
