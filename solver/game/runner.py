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

__all__ = ["Player", "SeeingPlayer", "play_game"]


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
    (a player that returns an illegal action raises ``IllegalActionError``, one that returns
    no action at all a ``TypeError`` naming its seat and class).  The seats in
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
        action = players[seat].act(view) if seer is None or state is None else seer.act_seeing(view, state)
        if not isinstance(action, Play | Draw | Knock | Pass):  # a bot's mistake, said as such
            raise TypeError(
                f"the player in seat {seat} ({type(players[seat]).__name__}) returned {action!r} from act(), "
                "not an action: Play(table), Draw(), Knock() or Pass()"
            )
        game.apply(action, ms=(time.perf_counter() - started) * 1000)
    return game.result
