"""Play a game between players (bots, or a person), from a seed to the final scores."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Protocol

from solver.game.actions import Action
from solver.game.game import Game, GameResult, Listener
from solver.game.settings import GameSettings
from solver.game.view import PlayerView

__all__ = ["Player", "play_game"]


class Player(Protocol):
    """Anything that can choose an action: a bot, or a person at a terminal."""

    def act(self, view: PlayerView) -> Action: ...


def play_game(
    settings: GameSettings,
    players: Sequence[Player],
    *,
    seed: int,
    listeners: Iterable[Listener] = (),
) -> GameResult:
    """Play a whole game; each player's choice is timed (``Acted.ms``) and judged by the game
    (a player that returns an illegal action raises ``IllegalActionError``)."""
    if len(players) != settings.players:
        raise ValueError(f"{len(players)} players given for a {settings.players}-player game")
    game = Game(settings, seed=seed, listeners=listeners)
    while game.result is None:
        seat = game.to_move
        started = time.perf_counter()
        action = players[seat].act(game.view(seat))
        game.apply(action, ms=(time.perf_counter() - started) * 1000)
    return game.result
