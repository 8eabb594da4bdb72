"""Bots corrected by the coach: is what the review calls an error one in play?

    rummy match benchmarks.coached_bots:CoachedHoarder hoarder --pairs 100 --seed 5
    rummy match benchmarks.coached_bots:CoachedExpert expert --pairs 100 --seed 5

Each bot plays as its model (``hoarder``, ``expert``) except at the decisions the review
judges in that style's typical way, where it asks the coach (the search bot's evaluator,
``solver.strategy.evaluator.weigh``, 16 deals, the best play against declining) and
follows it when the coach finds the other choice better by at least the inaccuracy floor
(5 value points) with a one-sided 95% bound above 0:

- ``CoachedHoarder`` would decline with a play in hand: it plays when the coach says so;
- ``CoachedExpert`` would play (not to go out, not in a final turn): it declines when the
  coach says so.

Played against the uncorrected bot, the win rate says what the coach's calls are worth in
games (``benchmarks/results/coach-experiments.md``, session 20: 68.5% and 88.5% over 100
pairs).  Measurement only: the bots are not offered as players.
"""

from __future__ import annotations

import math
import random
import statistics

from solver.engine import Hint
from solver.game.actions import Action, Play
from solver.game.view import PlayerView
from solver.strategy.bots import BOT_TIME_LIMIT
from solver.strategy.candidates import meld_candidates
from solver.strategy.evaluator import weigh
from solver.strategy.expert import ExpertBot
from solver.strategy.hoarder import HoarderBot
from solver.strategy.pimc import PimcBot

__all__ = ["CoachedExpert", "CoachedHoarder", "coach_prefers"]

COACH_DEALS = 16
"""Deals of each question to the coach."""
FLOOR = 5.0
"""The least gain in value points that makes the coach's choice an error of the bot's."""
ONE_SIDED_95 = 1.645


def coach_prefers(coach: PimcBot, view: PlayerView, found: Hint, *, to_play: bool) -> bool:
    """Whether the coach finds playing the best play ``found`` (``to_play``) or declining
    (not ``to_play``) better than the other by at least ``FLOOR`` with a one-sided 95% bound
    above 0, over ``COACH_DEALS`` deals; False when the decision has no such pair."""
    if not found.has_play:
        return False
    every = meld_candidates(view, coach.options, best=found, holds=False, time_limit=coach.time_limit)
    pair = [candidate for candidate in every if candidate.label in ("best", "draw")]
    if len(pair) != 2:
        return False
    seeds = coach.deal_seeds(view)
    deals = coach.deals(view, seeds)
    weighed, _ = weigh(view, pair, deals, len(seeds), evaluator=coach.evaluator, others=coach.policies(view))
    by_label = {outcome.candidate.label: outcome for outcome in weighed}
    play, draw = by_label["best"].values, by_label["draw"].values
    gains = [(p - d) if to_play else (d - p) for p, d in zip(play, draw, strict=True)]
    mean = statistics.fmean(gains)
    spread = statistics.stdev(gains) if len(gains) > 1 else 0.0
    return mean >= FLOOR and mean - ONE_SIDED_95 * spread / math.sqrt(len(gains)) > 0


def _coach(rng: random.Random, time_limit: float) -> PimcBot:
    coach = PimcBot(random.Random(rng.getrandbits(64)), time_limit=time_limit)
    coach.samples = COACH_DEALS
    return coach


class _Coached(ExpertBot):
    """A bot of the family corrected by the coach where ``_corrected`` says so."""

    def __init__(self, rng: random.Random | None = None, *, time_limit: float = BOT_TIME_LIMIT) -> None:
        super().__init__(rng, time_limit=time_limit)
        self.coach = _coach(self.rng, time_limit)

    def act(self, view: PlayerView) -> Action:
        self.coach.observe_decision(view)
        chosen = self._corrected(view, super().act(view))
        self.coach.recall_choice(view, chosen)
        return chosen

    def _corrected(self, view: PlayerView, chosen: Action) -> Action:
        raise NotImplementedError


class CoachedHoarder(_Coached, HoarderBot):
    """The hoarder, playing where the coach calls its draw a clear error (module docstring)."""

    name = "coached-hoarder"

    def _corrected(self, view: PlayerView, chosen: Action) -> Action:
        if view.phase != "meld" or isinstance(chosen, Play):
            return chosen
        found = self.best_play(view)  # the hoarder declines: with a play in hand?
        return Play(found.table) if coach_prefers(self.coach, view, found, to_play=True) else chosen


class CoachedExpert(_Coached):
    """The expert, declining where the coach calls its play a clear error (module docstring)."""

    name = "coached-expert"

    def _corrected(self, view: PlayerView, chosen: Action) -> Action:
        if view.phase != "meld" or not isinstance(chosen, Play) or view.final_turn:
            return chosen
        found = self.best_play(view)
        if found.goes_out or not coach_prefers(self.coach, view, found, to_play=False):
            return chosen
        return view.decline()
