"""The review's verdict: the advice and the move chosen on the first deals, the loss
measured on fresh ones, free of the winner's curse."""

from __future__ import annotations

import random
import statistics

import pytest

from solver.strategy.advice import Option
from solver.strategy.candidates import Candidate
from solver.strategy.stats import Interval
from solver.strategy.verdict import first_deals, verdict, verdict_confidence

NOWHERE = Interval(0.0, 0.0, 0.0)


def option(label: str, *lines: list[float]) -> Option:
    """An option with these per-deal values, one list per continuation."""
    return Option(
        candidate=Candidate(label, "draw", ()),
        value=NOWHERE,
        points=NOWHERE,
        win=NOWHERE,
        loss=NOWHERE,
        lines=tuple(tuple(line) for line in lines),
    )


def test_the_move_that_is_the_advice_loses_nothing() -> None:
    options = [option("a", [5, 5, 5, 5]), option("b", [1, 2, 3, 4])]
    found = verdict(options, ["a"], 0.95)
    assert found.move_is_advice and found.loss == Interval(0.0, 0.0, 0.0) and found.fresh == 0


def test_advice_and_move_are_chosen_on_the_first_deals_and_measured_on_the_rest() -> None:
    # Every option played 4 deals; "b" and the move "c" went on to 8.  On the first
    # deals "b" leads; on the fresh ones the move does better: the advice stays "b"
    # and the loss is read from the fresh deals alone.
    options = [
        option("a", [0, 0, 0, 0]),
        option("b", [9, 9, 9, 9, 0, 1, 0, 1]),
        option("c", [1, 1, 1, 1, 4, 4, 5, 5], [0, 0, 0, 0]),
    ]
    assert first_deals(options) == 4
    found = verdict(options, ["c"], 0.95)
    assert found.advice.label == "b" and found.move.label == "c" and found.fresh == 4
    assert found.loss.estimate == pytest.approx(statistics.fmean([0 - 4, 1 - 4, 0 - 5, 1 - 5]))
    assert found.loss.high < 0


def test_each_side_keeps_the_continuation_it_was_chosen_with() -> None:
    # The move's second continuation is better on the first deals: its fresh values are
    # that line's, not the first line's.
    options = [
        option("a", [6, 6, 6, 6, 6, 6]),
        option("m", [0, 0, 0, 0], [3, 3, 3, 3, 1, 2]),
    ]
    found = verdict(options, ["m"], 0.95)
    assert found.loss.estimate == pytest.approx(statistics.fmean([6 - 1, 6 - 2]))


def test_no_fresh_deals_yet_is_no_verdict() -> None:
    options = [option("a", [6, 6, 6]), option("m", [0, 1, 2])]
    found = verdict(options, ["m"], 0.95)
    assert found.fresh == 0 and found.loss.low == float("-inf") and found.loss.high == float("inf")


def test_equal_options_lose_nothing_on_average_where_the_first_deals_would_say_they_do() -> None:
    """The winner's curse: among five options of the same true value, the best of their
    noisy means on the first deals is too high, so a move judged on those deals looks
    worse than it is; judged on fresh deals it loses nothing on average."""
    rng = random.Random(7)
    plain, fresh = [], []
    for _ in range(2000):
        options = [option(label, [rng.gauss(0, 10) for _ in range(32)]) for label in "abcde"]
        # Only the advice and the move go on past the first 16 deals, as in the review.
        first = [statistics.fmean(o.lines[0][:16]) for o in options]
        top = max(range(5), key=lambda i: first[i])
        move = rng.choice([i for i in range(5) if i != top])
        trimmed = [
            o if i in (top, move) else option(o.label, list(o.lines[0][:16])) for i, o in enumerate(options)
        ]
        plain.append(first[top] - first[move])
        fresh.append(verdict(trimmed, [options[move].label], 0.95).loss.estimate)
    assert statistics.fmean(plain) > 3.0  # the curse: about 4 points of a loss that is not there
    assert abs(statistics.fmean(fresh)) < 0.5  # the standard error is about 0.16


def test_the_looks_share_the_error_one_sided() -> None:
    assert verdict_confidence(1) == pytest.approx(0.90)  # lower end: one-sided 95%
    assert verdict_confidence(2) == pytest.approx(0.95)  # lower end: one-sided 97.5%
