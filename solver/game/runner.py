"""Play a game between players (bots, or a person), from a seed to the final scores.

Every player is shown its own ``PlayerView`` and nothing else.  The one exception is a
narrow, explicit channel for *measurement*: the seats a caller names in ``seeing`` are
shown a copy of the whole round as well (every hand and the stock's order) through
``SeeingPlayer.act_seeing``.  Only the match runner uses it, for the ``oracle`` bot that
measures how far a fair bot is from one that sees everything; no game a person plays,
no tournament and no service ever names a seat there.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterable, Sequence
from typing import Protocol, runtime_checkable

from solver.game.actions import Action, Draw, Knock, Pass, Play
from solver.game.game import Game, GameResult, Listener
from solver.game.settings import GameSettings
from solver.game.state import RoundState
from solver.game.view import PlayerView

__all__ = ["Player", "PlayerError", "PlayerLeft", "SeeingPlayer", "play_game"]


class PlayerError(ValueError):
    """A player broke the contract of ``act``: it raised an error, or returned something
    that is not an action.  The message names the seat and the player's class, so that a
    user's bot that fails inside a tournament is one line naming it, not a traceback."""


class PlayerLeft(Exception):
    """A player leaving the game on purpose (the terminal's quit): ``play_game`` lets it
    through as it is, where any other error from ``act`` becomes a ``PlayerError``."""


class Player(Protocol):
    """Anything that can choose an action: a bot, or a person at a terminal."""

    def act(self, view: PlayerView) -> Action: ...


@runtime_checkable
class SeeingPlayer(Protocol):
    """A measurement-only player that is shown the whole round (module docstring): ``state``
    is a copy of it, hidden cards included, that the game never reads back."""

    def act(self, view: PlayerView) -> Action: ...

    def act_seeing(self, view: PlayerView, state: RoundState) -> Action: ...


def play_game(
    settings: GameSettings,
    players: Sequence[Player],
    *,
    seed: int,
    listeners: Iterable[Listener] = (),
    seeing: Collection[int] = (),
) -> GameResult:
    """Play a whole game; each player's choice is timed (``Acted.ms``) and judged by the game
    (a player that returns an illegal action raises ``IllegalActionError``; one that
    returns no action at all, or raises an error other than ``PlayerLeft``, a
    ``PlayerError`` naming its seat and class).  The seats in
    ``seeing`` (measurement only: module docstring) must hold ``SeeingPlayer``s."""
    if len(players) != settings.players:
        raise ValueError(f"{len(players)} players given for a {settings.players}-player game")
    seers: dict[int, SeeingPlayer] = {}
    for seat in seeing:
        player = players[seat]
        if not isinstance(player, SeeingPlayer):
            raise TypeError(f"the player at seat {seat} cannot be shown the round (no act_seeing)")
        seers[seat] = player
    game = Game(settings, seed=seed, listeners=listeners)
    while game.result is None:
        seat = game.to_move
        view = game.view(seat)
        seer = seers.get(seat)
        state = game.round.snapshot() if seer is not None else None
        started = time.perf_counter()
        who = f"the player in seat {seat} ({type(players[seat]).__name__})"
        try:
            action = (
                players[seat].act(view) if seer is None or state is None else seer.act_seeing(view, state)
            )
        except PlayerLeft:
            raise
        except Exception as error:  # a bot's mistake, said as such
            raise PlayerError(f"{who} failed in act(): {type(error).__name__}: {error}") from error
        if not isinstance(action, Play | Draw | Knock | Pass):
            raise PlayerError(
                f"{who} returned {action!r} from act(), not an action: Play(table), Draw(), Knock() or Pass()"
            )
        game.apply(action, ms=(time.perf_counter() - started) * 1000)
    return game.result
