"""The game: deal, turns, knocking, going out, scoring, bots, logs and tournaments.

Manipulation Rummy as RULES.md gives it, with Machiavelli and Rummikub.  Modules, each
using only those before it: ``settings`` (the rules of a game), ``actions``, ``deck``,
``rules`` (pure judgement from a player's ``view``), ``scoring`` (pure), ``state`` (one
round's flow), ``game`` (rounds up to the end of the game), ``bots``, ``expert``,
``registry`` (bots by name), ``runner``, ``log`` (JSON lines and replay), ``tournament``.
"""

from solver.game.actions import Action, Draw, IllegalActionError, Knock, Pass, Play, parse_action
from solver.game.bots import Bot, GreedyBot, Player, RandomBot
from solver.game.expert import ExpertBot
from solver.game.game import Game, GameResult, RoundRecord
from solver.game.registry import BOTS, make_bot, make_bots
from solver.game.runner import play_game
from solver.game.scoring import RoundEnd, RoundScore
from solver.game.settings import GameSettings
from solver.game.state import RoundState
from solver.game.view import PlayerView

__all__ = [
    "BOTS",
    "Action",
    "Bot",
    "Draw",
    "ExpertBot",
    "Game",
    "GameResult",
    "GameSettings",
    "GreedyBot",
    "IllegalActionError",
    "Knock",
    "Pass",
    "Play",
    "Player",
    "PlayerView",
    "RandomBot",
    "RoundEnd",
    "RoundRecord",
    "RoundScore",
    "RoundState",
    "make_bot",
    "make_bots",
    "parse_action",
    "play_game",
]
