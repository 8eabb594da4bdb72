"""Bots: players that choose an action from a ``PlayerView``, and the interface to write one.

Writing a bot takes a few lines: subclass ``Bot`` and return an action from ``act``.
The view holds the table, the own hand and public facts only (never another hand or
the stock order); ``view.decline()`` is the action that neither melds nor knocks
(draw, or pass where no draw is due), and ``self.best_play(view)`` asks the hint engine::

    from solver.game import Action, Knock, Pass, Play, PlayerView
    from solver.strategy import Bot

    class Cautious(Bot):
        \"\"\"Melds only to go out or to leave at most 10 points; knocks at 2 or under.\"\"\"

        name = "cautious"

        def act(self, view: PlayerView) -> Action:
            if view.phase == "knock":
                return Knock() if view.hand_points <= 2 else Pass()
            found = self.best_play(view)
            if found.has_play and (found.goes_out or found.hand_points <= 10):
                return Play(found.table)
            return view.decline()

Such a class can join a tournament as ``module.path:Cautious`` (``solver.strategy.registry``).  A bot
that needs chance uses ``self.rng``: the game gives each seat its own generator derived
from the game's seed, so games replay exactly.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from solver.cards import Piece
from solver.engine import Hint, Objective, hint
from solver.game.actions import Action, Knock, Pass, Play
from solver.game.runner import Player
from solver.game.view import PlayerView
from solver.position import Hand, Position

__all__ = ["BOT_TIME_LIMIT", "Bot", "GreedyBot", "GreedyTilesBot", "Player", "RandomBot", "best_play"]

BOT_TIME_LIMIT = 10.0
"""Seconds per hint call.  Plays take milliseconds; a limit that never bites keeps games
reproducible (CP-SAT with one worker and a fixed seed is deterministic until cut off)."""


def best_play(
    view: PlayerView,
    *,
    objective: Objective = "points",
    hand: Hand | None = None,
    time_limit: float = BOT_TIME_LIMIT,
) -> Hint:
    """The hint engine's best play for the view's table and hand (or a part of the hand),
    with the opening rule when the player has not opened yet."""
    position = Position(view.table, view.hand if hand is None else hand)
    return hint(
        position, variant=view.variant, objective=objective, opened=view.opened, time_limit=time_limit
    )


class Bot(ABC):
    """Base class of the bots: a name, an injected random generator and the hint engine."""

    name: ClassVar[str] = "bot"

    def __init__(self, rng: random.Random | None = None, *, time_limit: float = BOT_TIME_LIMIT) -> None:
        self.rng = rng if rng is not None else random.Random(0)
        self.time_limit = time_limit

    @abstractmethod
    def act(self, view: PlayerView) -> Action:
        """The action to take in ``view`` (it must be legal: ``view.problems(action) == []``)."""

    def recall(self, view: PlayerView, action: Action) -> None:
        """A decision this bot's seat made earlier in the game: remember what deciding it
        would have taught the bot, without deciding (a bot rebuilt in the middle of a
        game, as ``solver.play`` does for every request, is told each of its seat's
        earlier decisions in order).  Bots that remember nothing between decisions keep
        this default, which does nothing."""
        return None

    def best_play(
        self, view: PlayerView, *, objective: Objective = "points", hand: Hand | None = None
    ) -> Hint:
        """The hint engine's best play in ``view`` (see ``best_play``), within this bot's time limit."""
        return best_play(view, objective=objective, hand=hand, time_limit=self.time_limit)

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"


class RandomBot(Bot):
    """Random legal actions.

    At a meld decision it flips a coin between declining (draw, or pass in a final turn)
    and melding.  To meld it asks the hint engine with a random objective (fewest points
    or most cards left) for the best play of a random part of the hand (each card kept
    with probability 1/2; half the time the whole hand), so its plays vary; when that
    part has no play it declines.  When it may knock, it knocks with probability 1/2.
    Every choice comes from ``self.rng``.
    """

    name = "random"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock() if self.rng.random() < 0.5 else Pass()
        if self.rng.random() < 0.5:
            return view.decline()
        objective: Objective = self.rng.choice(("points", "cards"))
        part = self._random_part(view.hand.pieces)
        found = self.best_play(view, objective=objective, hand=part)
        return Play(found.table) if found.has_play else view.decline()

    def _random_part(self, pieces: tuple[Piece, ...]) -> Hand:
        if self.rng.random() < 0.5:
            return Hand(pieces)
        kept = [piece for piece in pieces if self.rng.random() < 0.5]
        return Hand.of(kept or pieces)


class GreedyBot(Bot):
    """Plays the hint engine's best play (fewest points left) as soon as there is one,
    and knocks whenever it may."""

    name = "greedy"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock()
        found = self.best_play(view)
        return Play(found.table) if found.has_play else view.decline()


class GreedyTilesBot(GreedyBot):
    """Plays the play that lays the most cards (tiles) as soon as there is one, and knocks
    whenever it may: the greedy rule of the published Rummikub bot iky1025/aid_rummikub
    (its opponent plays the most rack tiles it can each turn; before the opening, the most
    tiles among openings worth 30 points or more).  ``greedy`` instead leaves the fewest
    points, which can lay fewer, higher tiles.  Among plays laying as many cards the
    engine takes the one that breaks the fewest table melds."""

    name = "greedy-tiles"

    def act(self, view: PlayerView) -> Action:
        if view.phase == "knock":
            return Knock()
        found = self.best_play(view, objective="cards")
        return Play(found.table) if found.has_play else view.decline()
