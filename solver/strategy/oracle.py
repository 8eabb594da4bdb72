"""The ``oracle``: the search bot playing with the hidden cards in view, for measurement only.

It answers one question: how far is a fair bot from one that knows every hand and the
order of the stock?  It is ``pimc`` with its guessed deals replaced by the true round:
each candidate is played out once (``samples = 1``) in a copy of the real state
(``Rollout.of_state``), the draws coming off the real stock, the other players' hands
as they are.  The rollouts still guess how the others *play* (the opponent model), so it
is a strong reference, not a perfect player.

``oracle-others`` (``HandsOracleBot``) sees less: the other players' hands as they are,
but not the stock's order, which it deals afresh in each of ``pimc``'s 8 deals (each
seat reading a stretch of its own, as the fair bot's deals do).  Set beside the two,
it splits the oracle's lead: what seeing the other hands is worth (the most any guess
of them could give the fair bot) and what knowing the coming draws is worth (which no
fair player can have).

Neither is ever a player: it is not in ``registry.BOTS`` (what ``rummy play``, ``rummy
tournament`` and the help list), ``make_bot`` refuses it unless asked for a measurement
bot, and it plays only where the match runner shows it the round through the one
explicit channel for that, ``solver.game.runner.play_game(seeing=...)``; ``act`` alone
raises.  ``rummy match`` and ``benchmarks.strength`` take it by name.
"""

from __future__ import annotations

import random
from dataclasses import replace

from solver.game.actions import Action
from solver.game.state import RoundState
from solver.game.view import PlayerView
from solver.strategy.bots import BOT_TIME_LIMIT
from solver.strategy.evaluator import EVALUATOR, Deal, Evaluator
from solver.strategy.pimc import PimcBot
from solver.strategy.rollout import Rollout

__all__ = ["HandsOracleBot", "OracleBot"]


ORACLE_EVALUATOR: Evaluator = replace(EVALUATOR, prior_margin=None)
"""The oracle's evaluator: the search bot's with no prior margin, so that in first-out
games the best outcome on the true round wins (ties to the patient rule).  With a margin
the rule's choice would always stand (one deal gives no spread to overrule it with), and
the oracle would be the rule, no ceiling."""


class OracleBot(PimcBot):
    """``pimc`` whose one deal is the true round (module docstring)."""

    name = "oracle"
    samples = 1
    evaluator = ORACLE_EVALUATOR
    sees_all = True
    """Shown the whole round by the match runner (``SeeingPlayer``)."""

    def __init__(self, rng: random.Random | None = None, *, time_limit: float = BOT_TIME_LIMIT) -> None:
        super().__init__(rng, time_limit=time_limit)
        self._state: RoundState | None = None

    def act_seeing(self, view: PlayerView, state: RoundState) -> Action:
        """Choose with the round ``state`` in view (a copy: the game never reads it back)."""
        self._state = state
        try:
            return super().act(view)
        finally:
            self._state = None

    def act(self, view: PlayerView) -> Action:
        raise RuntimeError(
            "the oracle sees the hidden cards: it plays only in measurements "
            "(rummy match, benchmarks.strength), where the runner shows it the round"
        )

    def deals(self, view: PlayerView, seeds: list[int]) -> Deal:
        """Every deal is the true round, copied afresh for each candidate."""
        state = self._round_in_view()
        return lambda _index: Rollout.of_state(state)

    def _round_in_view(self) -> RoundState:
        if self._state is None:
            raise RuntimeError("the oracle searched without the round in view")
        return self._state


class HandsOracleBot(OracleBot):
    """The oracle that sees the other hands but not the stock's order (module docstring):
    ``pimc``'s 8 deals, each the true round with the stock shuffled by the deal's seed."""

    name = "oracle-others"
    samples = 8

    def deals(self, view: PlayerView, seeds: list[int]) -> Deal:
        state = self._round_in_view()

        def deal(index: int) -> Rollout:
            made = Rollout.of_state(state)
            order = list(made.stock)
            random.Random(seeds[index]).shuffle(order)
            made.deal_stock(order)
            return made

        return deal
