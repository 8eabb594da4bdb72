"""Play a game between players (bots, or a person), from a seed to the final scores.

Each bot gets its own generator derived from the game seed and its seat
(``bot_rng``), so the same seed and the same bots give the same game, whichever
process runs it and whatever ran before.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence

from solver.game.bots import BOT_TIME_LIMIT, Player, make_bot
from solver.game.game import Game, GameResult, Listener
from solver.game.settings import GameSettings

__all__ = ["bot_rng", "make_bots", "play_game"]


def bot_rng(seed: int, seat: int) -> random.Random:
    """The generator of the bot at ``seat`` in the game played with ``seed``."""
    return random.Random(f"rummy-bot/{seed}/{seat}")


def make_bots(specs: Sequence[str], seed: int, *, time_limit: float = BOT_TIME_LIMIT) -> list[Player]:
    """One bot per spec, seat by seat, each with its own seeded generator."""
    return [make_bot(spec, rng=bot_rng(seed, seat), time_limit=time_limit) for seat, spec in enumerate(specs)]


def play_game(
    settings: GameSettings,
    players: Sequence[Player],
    *,
    seed: int,
    listeners: Iterable[Listener] = (),
) -> GameResult:
    """Play a whole game; each player's choice is timed (``Acted.ms``) and judged by the game."""
    if len(players) != settings.players:
        raise ValueError(f"{len(players)} players given for a {settings.players}-player game")
    game = Game(settings, seed=seed, listeners=listeners)
    while game.result is None:
        seat = game.to_move
        started = time.perf_counter()
        action = players[seat].act(game.view(seat))
        game.apply(action, ms=(time.perf_counter() - started) * 1000)
    return game.result
