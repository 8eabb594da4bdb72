"""A reviewed move's loss against the advice, measured on deals that did not choose the advice.

The review (``solver.strategy.review``) weighs every option of a decision on its first
deals and advises the best of them.  Measuring the move's loss on those same deals would
judge it against the *luckiest* option: the best of several noisy means is too high (the
winner's curse), so every move that is not the advised one would look worse than it is,
the more so the more options are close, and a player whose moves are often good but not
the very best would be marked down for the noise.  (On the review's calibration games
that bias put the `expert` ahead of the `hoarder`, which beats it 84% of the time.)

So the advice and the move are chosen on the first deals, and the loss is measured on
*fresh* deals, where only those two are played on:

- the *advice* is the option of highest mean on the first deals (every option played
  them), with the continuation it is worth most with there; the *move* is the best of
  the options that stand for the move made, chosen the same way;
- when the advice is the move, the loss is 0: the move was the advised one;
- otherwise the loss is the mean, over the fresh deals, of the advice's value minus the
  move's (each with its continuation chosen on the first deals), with its paired
  interval: an unbiased estimate of what the move gave up against the advice.  It may be
  below 0 (the move did better than the advice on the deals that measured it).

The review reads the verdict at ``looks`` numbers of fresh deals (sequential sampling,
``open_question``), so each look's interval gets its share of the 5% (Bonferroni): a move
is called worse only when the loss's one-sided lower bound at 1 - 5%/looks is above 0.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from solver.strategy.advice import CONFIDENCE, Option, mean_interval
from solver.strategy.stats import Interval

__all__ = ["Verdict", "first_deals", "verdict", "verdict_confidence"]

NO_LOSS = Interval(0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Verdict:
    """The advice, the move made and the move's loss against the advice."""

    advice: Option
    move: Option
    loss: Interval
    fresh: int
    """The fresh deals the loss was measured on (0 when the move was the advice)."""
    advice_line: int = 0
    """The continuation the advice is measured with (chosen on the first deals)."""
    move_line: int = 0
    """The continuation the move is measured with (chosen on the first deals)."""

    @property
    def move_is_advice(self) -> bool:
        return self.advice is self.move


def first_deals(options: Sequence[Option]) -> int:
    """How many deals every option played with every continuation: the first deals."""
    return min(len(line) for option in options for line in option.lines)


def _chosen(options: Sequence[Option], first: int) -> tuple[Option, int]:
    """The option and continuation of highest mean on the ``first`` deals (the first of
    equals, in the options' order)."""
    best: tuple[float, Option, int] | None = None
    for option in options:
        for k, line in enumerate(option.lines):
            mean = statistics.fmean(line[:first])
            if best is None or mean > best[0]:
                best = (mean, option, k)
    assert best is not None, "a verdict needs an option"
    return best[1], best[2]


def verdict_confidence(looks: int) -> float:
    """The two-sided confidence of each look's loss interval whose lower end is the
    one-sided bound at ``1 - 5% / looks``."""
    return 1 - 2 * (1 - CONFIDENCE) / looks


def verdict(options: Sequence[Option], made: Sequence[str], confidence: float) -> Verdict:
    """The verdict on the move made (``made``: the labels of the options that stand for
    it) from the decision's weighed ``options``: the loss on the fresh deals, its interval
    at ``confidence`` (module docstring).  Without two fresh deals yet the loss is
    unbounded (the caller plays them before reading a verdict)."""
    first = first_deals(options)
    advice, advice_line = _chosen(options, first)
    move, move_line = _chosen([option for option in options if option.label in made], first)
    if advice is move:
        return Verdict(advice, move, NO_LOSS, 0, advice_line, move_line)
    ours, theirs = advice.lines[advice_line], move.lines[move_line]
    fresh = [a - b for a, b in zip(ours[first:], theirs[first:], strict=False)]
    if len(fresh) >= 2:
        return Verdict(advice, move, mean_interval(fresh, confidence), len(fresh), advice_line, move_line)
    # Too few fresh deals for an interval (the budget cut them): the estimate as it is,
    # the loss unresolved.
    shown = fresh or [a - b for a, b in zip(ours[:first], theirs[:first], strict=False)]
    unresolved = Interval(statistics.fmean(shown), -math.inf, math.inf)
    return Verdict(advice, move, unresolved, len(fresh), advice_line, move_line)
